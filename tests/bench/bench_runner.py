"""Benchmark: the body runner (issues 6 and 12), each figure beside a baseline measured in the same run.

Run: `.venv/bin/python tests/bench/bench_runner.py`. Every run gets a fresh V8 realm (issue 12);
the guest makes the next run's realm right after each run. Targets: a warm run of a trivial body
(its realm ready) at most 2 ms; the first run of a fresh runner, guest start included, at most
200 ms; a body making 1,000 module calls in parallel at most 100 ms. Also shown: back-to-back
runs, each of which waits for the realm the run before it left being made, and what making a
realm costs.
Baselines: one in-process mini-racer eval (the floor of any run), a bare process that starts V8,
and the warm trivial run.
"""
from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from core.runner.envelope import build_envelope  # noqa: E402
from core.runner.host import Runner, guest_path  # noqa: E402
from core.session import load  # noqa: E402

DEMO = Path(__file__).resolve().parents[2] / "resources" / "sessions" / "demo.json"
PARALLEL = "const all = await Promise.all(Array.from({ length: 1000 }, (_, level) => modules.mep.risers({ level })));\nreturn all.length;"


def guest_cpu_s(runner: Runner) -> float:
    """CPU seconds the runner's idle guest has used (user + system), from /proc."""
    guest = runner._idle.get()
    runner._idle.put(guest)
    with open(f"/proc/{guest.proc.pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_ms_per_run(runner: Runner, envelope, runs: int) -> float:
    """Host plus guest CPU per run: steadier than wall time on a shared machine."""
    guest_before, host_before = guest_cpu_s(runner), time.process_time()
    for _ in range(runs):
        runner.run(envelope)
    return ((guest_cpu_s(runner) - guest_before) + (time.process_time() - host_before)) / runs * 1000


def median_ms(runs: int, action) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def realm_ms() -> float:
    """Making one realm: a fresh isolate with the prelude evaluated (what a run leaves the guest to do)."""
    import asyncio

    from core.runner.guest import Realm

    async def make_many() -> float:
        Realm().close()
        return median_ms(20, lambda: Realm().close())

    return asyncio.run(make_many())


def in_guest_ms(envelope) -> float:
    """A run inside the guest, its realm ready: the guest's part of a warm run, without the processes waking."""
    import asyncio

    from core.runner.guest import Guest, Realm

    class Silent(Guest):
        def send(self, message) -> None:
            pass

    async def runs() -> float:
        guest, times = Silent(0, 1), []
        for _ in range(50):
            realm = Realm()
            start = time.perf_counter()
            await guest.run(realm, envelope.frame())
            times.append((time.perf_counter() - start) * 1000)
            realm.close()
        return statistics.median(times)

    return asyncio.run(runs())


def bare_eval_ms() -> float:
    from py_mini_racer import MiniRacer

    racer = MiniRacer()
    return median_ms(200, lambda: racer.eval("1 + 1"))


def bare_v8_process_ms(site: bool = True) -> float:
    """A process that imports mini-racer, starts V8 and evaluates `1`; without `site` (-S) as the guest starts."""
    code = "import os; from py_mini_racer import MiniRacer; MiniRacer().eval('1'); os._exit(0)"
    args = [sys.executable, "-c", code] if site else [sys.executable, "-S", "-c", code]
    env = dict(os.environ) if site else dict(os.environ, PYTHONPATH=guest_path())
    return median_ms(3, lambda: subprocess.run(args, check=True, env=env))


def main() -> None:
    session = load(DEMO)
    trivial = build_envelope(session, "return 1;")
    parallel = build_envelope(session, PARALLEL)

    firsts = []
    for _ in range(3):
        start = time.perf_counter()
        with Runner(size=1) as cold:
            assert cold.run(trivial)["ok"]
            firsts.append((time.perf_counter() - start) * 1000)
    first_ms = statistics.median(firsts)
    v8_ms = bare_v8_process_ms()
    v8_bare_ms = bare_v8_process_ms(site=False)

    with Runner(size=1) as runner:
        runner.run(trivial)
        warm_times = []
        for _ in range(100):
            time.sleep(0.1)  # the guest makes the next realm in the meantime, as between a person's runs
            start = time.perf_counter()
            runner.run(trivial)
            warm_times.append((time.perf_counter() - start) * 1000)
        warm_ms = statistics.median(warm_times)
        back_to_back_ms = median_ms(100, lambda: runner.run(trivial))
        result = runner.run(parallel)
        assert result["ok"] and result["returned"] == 1000 and len(result["calls"]) == 1000, result.get("error")
        parallel_ms = median_ms(20, lambda: runner.run(parallel))
        warm_cpu = cpu_ms_per_run(runner, trivial, 200)
        parallel_cpu = cpu_ms_per_run(runner, parallel, 10)
    eval_ms = bare_eval_ms()
    make_realm_ms = realm_ms()
    guest_part_ms = in_guest_ms(trivial)

    print(f"load average: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    print(f"warm trivial run:        {warm_ms:7.2f} ms  ({warm_ms / eval_ms:.1f}× one in-process eval of {eval_ms:.2f} ms; "
          f"its fresh realm ready; target ≤ 2 ms; the guest's part {guest_part_ms:.2f} ms)")
    print(f"back-to-back runs:       {back_to_back_ms:7.2f} ms  (each waits for its realm; making one takes "
          f"{make_realm_ms:.1f} ms; CPU {warm_cpu:.2f} ms host + guest per run, realm included)")
    print(f"first run, fresh runner: {first_ms:7.1f} ms  ({first_ms / v8_ms:.2f}× a bare process starting V8, {v8_ms:.0f} ms; "
          f"{v8_bare_ms:.0f} ms without site, as the guest starts; target ≤ 200 ms)")
    print(f"1,000 parallel calls:    {parallel_ms:7.1f} ms  ({parallel_ms / warm_ms:.1f}× the warm trivial run; "
          f"CPU {parallel_cpu:.1f} ms host + guest; target ≤ 100 ms)")


if __name__ == "__main__":
    main()
