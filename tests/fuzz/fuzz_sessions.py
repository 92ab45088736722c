"""Long-run fuzz of the inspector (issue 11): seeded mutated sessions through every command and the window.

Run: `.venv/bin/python tests/fuzz/fuzz_sessions.py [--seed 11] [--cases 2200] [--run-every 40] [--gui-every 50]`.
Prints cases, command runs, failures (internal errors, signals, empty or extra `--json` output, runs over
2 GB, hangs), and the worst time and peak memory of one run.

Commands run in worker processes (`wsi_inspector.core.cli.dispatch.main` in-process, a fresh worker after any crash), so a
signal is seen as the worker's death and blamed on the run it was in. A run's peak memory is the
worker's VmHWM after resetting it (`/proc/self/clear_refs`): it includes the worker itself (what earlier
cases left resident), so it bounds the run's own peak from above; "added" is that peak minus the
resident set the run started from.
"""
from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.fuzz.mutations import make_case  # noqa: E402

GIB = 1024**3
MEMORY_LIMIT = 2 * 1000**3  # "0 runs over 2 GB"
GZIP_LIMIT = "16MiB"  # bombs are refused at this, so a bomb case costs no more than it
HANG_SECONDS = 120
BODY = "const c = inputs.last('pack.corridorRuns');\nlog(Object.keys(kept).length);\nreturn { n: c ? 1 : 0 };\n"


def commands(path: str, number: int, run_every: int, body: str) -> list[list[str]]:
    """The command lines one case goes through."""
    lines = [["manifest", path], ["kept", path], ["trim", path, "--cap", "2KiB"], ["diff", path], ["validate", path]]
    runs = [line + ["--json"] for line in lines]
    if number % 4 == 0:
        runs += lines  # the readable output too
    if run_every and number % run_every == 0:
        runs += [["run", path, body, "--json", "--timeout", "5"], ["replay", path, "--json", "--timeout", "5"]]
    return runs


# --- worker: runs commands in-process, one JSON line per run -----------------------------------------


def _reset_peak() -> None:
    try:
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:
        pass


def _peak_bytes(field: str = "VmHWM") -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024
    return 0


def run_one(argv: list[str]) -> dict:
    """Run `wsi ARGV` in this process; what it printed, its status, time and peak memory."""
    from wsi_inspector.core.cli import dispatch, sessions

    out, err = io.BytesIO(), io.StringIO()
    stdout, stderr = sys.stdout, sys.stderr
    wrapper = io.TextIOWrapper(out, encoding="utf-8")
    sys.stdout, sys.stderr = wrapper, err
    _reset_peak()
    before = _peak_bytes("VmRSS")
    start = time.perf_counter()
    try:
        status = dispatch.main(argv)
    except BaseException as exc:  # noqa: BLE001 — anything escaping main is a failure to report
        status = f"escaped {type(exc).__name__}: {exc}"
    finally:
        seconds = time.perf_counter() - start
        wrapper.flush()
        printed = out.getvalue()
        wrapper.detach()
        sys.stdout, sys.stderr = stdout, stderr
        sessions._loaded.clear()
    return {"argv": argv, "status": status, "seconds": seconds, "peak": _peak_bytes(), "grew": _peak_bytes() - before,
            "stdout": printed.decode("utf-8", "replace"), "stderr": err.getvalue()}


def failure_of(result: dict) -> str | None:
    """Why a run failed issue 11's bar, or None."""
    status, stdout, stderr = result["status"], result["stdout"], result["stderr"]
    if not isinstance(status, int) or status not in (0, 1, 2):
        return f"exit status {status!r}"
    if "internal error" in stderr or "Traceback" in stderr:
        return "internal error: " + stderr.strip().splitlines()[-1][:300]
    if "--json" in result["argv"]:
        lines = stdout.splitlines()
        if not lines:
            return "empty --json output"
        if len(lines) != 1:
            return f"--json printed {len(lines)} lines"
        try:
            json.loads(lines[0])
        except ValueError as exc:
            return f"--json output is not JSON: {exc}"
    if result["peak"] > MEMORY_LIMIT:
        return f"peak memory {result['peak'] / 1e9:.2f} GB"
    return None


def worker(args: argparse.Namespace) -> None:
    folder = Path(args.dir)
    body = folder / "body.js"
    body.write_text(BODY)
    with open(args.results, "a", encoding="utf-8") as results:
        for number in range(args.start, args.start + args.count):
            case = make_case(args.seed, number)
            path = folder / case.name
            path.write_bytes(case.data)
            for argv in commands(str(path), number, args.run_every, str(body)):
                results.write(json.dumps({"start": number, "kind": case.kind, "argv": argv[:1] + argv[2:]}) + "\n")
                results.flush()
                result = run_one(argv)
                line = {"case": number, "kind": case.kind, "argv": argv[:1] + argv[2:], "status": str(result["status"]),
                        "seconds": round(result["seconds"], 4), "peak": result["peak"], "grew": result["grew"],
                        "failure": failure_of(result)}
                results.write(json.dumps(line) + "\n")
                results.flush()
            path.unlink()


# --- GUI worker: the real window loads a sample of cases -----------------------------------------------


def gui_worker(args: argparse.Namespace) -> None:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QEventLoop, QSettings, QTimer
    from PySide6.QtWidgets import QApplication

    from wsi_inspector.gui.window.main_window import MainWindow

    app = QApplication.instance() or QApplication([])
    raised: list[str] = []
    # An exception in a slot is printed by PySide6 and the window goes on: catch it as a failure.
    sys.excepthook = lambda kind, exc, tb: raised.append(f"{kind.__name__}: {exc}")
    folder = Path(args.dir)
    window = MainWindow(QSettings(str(folder / "wsi.ini"), QSettings.Format.IniFormat))
    window.show()
    with open(args.results, "a", encoding="utf-8") as results:
        for number in args.numbers:
            case = make_case(args.seed, number)
            path = folder / case.name
            path.write_bytes(case.data)
            results.write(json.dumps({"start": number, "kind": case.kind, "argv": ["gui"]}) + "\n")
            results.flush()
            _reset_peak()
            before = _peak_bytes("VmRSS")
            start = time.perf_counter()
            loop = QEventLoop()
            window.load_finished.connect(loop.quit)
            QTimer.singleShot(60_000, loop.quit)
            window.open_file(path)
            loop.exec()
            window.load_finished.disconnect(loop.quit)
            failure = _exercise_window(app, window)
            if raised:
                failure = "internal error in the window: " + "; ".join(raised)[:300]
                raised.clear()
            if "this is a bug" in window.notice.label.text():
                failure = "internal error while loading: " + window.notice.label.text()[:300]
            results.write(json.dumps({"case": number, "kind": case.kind, "argv": ["gui"], "status": "0",
                                      "seconds": round(time.perf_counter() - start, 4), "peak": _peak_bytes(),
                                      "grew": _peak_bytes() - before,
                                      "failure": failure}) + "\n")
            results.flush()
            path.unlink()
    window.close()


def _exercise_window(app: object, window: object) -> str | None:
    """Show the Problems tab and activate its rows, show entries' JSON; None when the window stays up."""
    problems = window.views["problems"]
    session = window.context.session
    if not window.isVisible():
        return "the window is gone"
    if session is not None and problems.model.rowCount() != len(session.problems):
        return f"problems view lists {problems.model.rowCount()} of {len(session.problems)} problems"
    window.show_tab("problems")
    for row in range(min(problems.model.rowCount(), 8)):
        problems.activate(problems.model.index(row, 0))
        app.processEvents()
    if session is not None:
        window.show_tab("inputs")
        for entry in session.entries[:6]:
            window.context.choose_entry(entry)
            app.processEvents()
        for name in ("kept", "edits", "trim"):
            window.show_tab(name)
            app.processEvents()
    return None if window.isVisible() else "the window is gone"


# --- parent: starts workers, blames crashes and hangs, sums up ------------------------------------------


def _drive(mode: list[str], seed: int, folder: Path, results: Path, todo: list[int], extra: list[str]) -> list[dict]:
    """Run `todo` case numbers through workers until every case is done; a dead worker's run is a failure."""
    env = {**os.environ, "WSI_GZIP_LIMIT": GZIP_LIMIT, "QT_QPA_PLATFORM": "offscreen", "PYQTGRAPH_QT_LIB": "PySide6"}
    finished: list[dict] = []
    while todo:
        results.write_text("")
        if mode == ["--gui-worker"]:
            argv = [*mode, "--numbers", *map(str, todo)]
        else:
            argv = [*mode, "--start", str(todo[0]), "--count", str(len(todo))]
        worker_process = subprocess.Popen([sys.executable, __file__, *argv, "--seed", str(seed), "--dir", str(folder),
                                           "--results", str(results), *extra], env=env)
        last_size, last_change = 0, time.monotonic()
        while worker_process.poll() is None:
            time.sleep(0.5)
            size = results.stat().st_size
            if size != last_size:
                last_size, last_change = size, time.monotonic()
            elif time.monotonic() - last_change > HANG_SECONDS:
                worker_process.kill()
                worker_process.wait()
        lines = [json.loads(line) for line in results.read_text().splitlines() if line.strip()]
        started = None
        for line in lines:
            if "start" in line:
                started = line
            else:
                finished.append(line)
                started = None
        done_cases = {line["case"] for line in lines if "case" in line}
        if worker_process.returncode != 0 and started is not None:
            why = "hang" if worker_process.returncode == -9 else f"signal {-worker_process.returncode}" \
                if worker_process.returncode < 0 else f"worker exit {worker_process.returncode}"
            finished.append({"case": started["start"], "kind": started["kind"], "argv": started["argv"], "status": why,
                             "seconds": 0, "peak": 0, "failure": why})
            crashed = started["start"]
            todo = [n for n in todo if n > crashed]
        elif worker_process.returncode != 0:  # died between runs (making a case): blame the next case
            pending = [n for n in todo if n not in done_cases and n > max(done_cases, default=-1)]
            if pending:
                finished.append({"case": pending[0], "kind": "?", "argv": ["fuzzer"], "status": "fuzzer error",
                                 "seconds": 0, "peak": 0, "failure": f"fuzzer error (worker exit {worker_process.returncode})"})
            todo = pending[1:]
        else:
            todo = [n for n in todo if n not in done_cases and n > max(done_cases, default=-1)]
    return finished


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--cases", type=int, default=2200)
    parser.add_argument("--first", type=int, default=0, help="the first case number")
    parser.add_argument("--run-every", type=int, default=40, help="every Nth case also goes through run and replay")
    parser.add_argument("--gui-every", type=int, default=50, help="every Nth case is also opened in the window (0: none)")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--gui-worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--start", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--count", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--numbers", type=int, nargs="*", help=argparse.SUPPRESS)
    parser.add_argument("--dir", help=argparse.SUPPRESS)
    parser.add_argument("--results", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        return worker(args)
    if args.gui_worker:
        return gui_worker(args)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="wsi-fuzz-") as tmp:
        folder = Path(tmp)
        numbers = list(range(args.first, args.first + args.cases))
        runs = _drive(["--worker"], args.seed, folder, folder / "results.jsonl", numbers, ["--run-every", str(args.run_every)])
        if args.gui_every:
            runs += _drive(["--gui-worker"], args.seed, folder, folder / "wsi_inspector.gui.jsonl",
                           [n for n in numbers if n % args.gui_every == 0], [])
    report(runs, args, time.perf_counter() - started)


def report(runs: list[dict], args: argparse.Namespace, seconds: float) -> None:
    """Print the figures issue 11 asks for."""
    failures = [r for r in runs if r["failure"]]
    def count(what: str) -> int:
        return sum(1 for r in failures if what in r["failure"])
    json_runs = [r for r in runs if "--json" in r["argv"]]
    slowest = max(runs, key=lambda r: r["seconds"])
    biggest = max(runs, key=lambda r: r["peak"])
    growing = max(runs, key=lambda r: r.get("grew", 0))
    print(f"seed {args.seed}: {len({r['case'] for r in runs}):,} cases, {len(runs):,} runs "
          f"({len(json_runs):,} with --json, {sum(1 for r in runs if r['argv'][0] == 'gui'):,} in the window) in {seconds:.0f} s")
    print(f"failures: {len(failures)}  (internal errors {count('internal error')}, signals {count('signal')}, "
          f"empty --json {count('empty --json')}, over 2 GB {count('peak memory')}, hangs {count('hang')})")
    print(f"worst time: {slowest['seconds']:.2f} s ({' '.join(slowest['argv'])}, case {slowest['case']}, {slowest['kind']})")
    print(f"worst peak memory: {biggest['peak'] / 1e6:.0f} MB, the worker's whole resident set "
          f"({' '.join(biggest['argv'])}, case {biggest['case']}, {biggest['kind']}); most one run added: "
          f"{growing.get('grew', 0) / 1e6:.0f} MB ({' '.join(growing['argv'])}, case {growing['case']}, {growing['kind']})")
    kinds: dict[str, int] = {}
    for r in runs:
        kinds[r["kind"]] = kinds.get(r["kind"], 0) + 1
    print("runs by kind: " + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())))
    for r in failures[:40]:
        print(f"  FAIL case {r['case']} ({r['kind']}): {' '.join(r['argv'])}: {r['failure']}")


if __name__ == "__main__":
    main()
