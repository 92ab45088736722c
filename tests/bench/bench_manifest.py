"""Benchmark: `wsi manifest FILE --json`, whole process, against a bare orjson parse of the same bytes.

Run: `.venv/bin/python tests/bench/bench_manifest.py [ENTRIES] [BIG_ENTRIES]`. One row per form: the
real-shaped session (tests/bench/make_real.py: full doubles, outputs, edits, escapes) compact,
indented by 2, as JSON Lines and gzipped JSON Lines, and make_big.py's file (6–12 digit numbers).
The parse is orjson's with the garbage collector off: of the whole file; of each line for JSON
Lines; after gunzip for gzip (the gunzip is counted in the parse too, as the load must do it).
Targets (issue 28): at most 1.0× the parse, peak memory at most 1.5× the (unpacked) file. Each
figure is the best of three runs in the same run of this script, wall and CPU seconds (user +
system; the CPU figure moves less when the machine is shared); peak is the child's ru_maxrss, the
interpreter included (the parse's own peak is shown beside its time). The load average is printed
before and after the table.

Where the peak goes (compact, 50,000 entries, 158 MiB of text; /proc/self/status and tracemalloc,
2026-12-04), before → after issue 28's memory work: the interpreter and imports 32.6 → 17.9 MiB (building
the header's pydantic models was 15); the text 157.8 both; Python objects per entry ~700 → 413 bytes
(33 → 20 MiB: an Entry of 18 slots 176, its record text 48, its id 56, its place and sizes as ints,
the index; an empty extra dict, the body id again, a pointer string, the size and the input span's
end as ints of their own, the set of ids seen are gone); malloc's slack after the load ~5 MiB; the
manifest document 8.7 MiB and its JSON 7.3 MiB (and a copy of it for the newline, gone). JSON Lines
held a memoryview and a buffer export per line besides (~300 bytes an entry) and its checker's set of
ids; gzip held its compressed bytes (0.4× the text) while unpacking and the load. make_big's entries
are 1.3 KB each, so the same per-entry cost and manifest are a larger share of its file.

make_big, 100,000 entries, 124.8 MiB of text (/proc/self/status at each step, 2026-12-04), 1.79× → 1.47×:
the manifest is written a chunk of 4,096 entries at a time (its 18.5 MiB of dicts and 13.3 MiB of JSON
never held: some 1 MiB at a time); the load's own peak was then 194.9 MiB (1.56×), at the end of the
store's scan and of Session.finish: the C scan's records table (72 bytes a record, 6.9 MiB) is given back
behind the records handed out; the index of entries by id (5 MiB, 7 resident while it grows) is made when
first asked in the CLI (`wsi manifest` never asks); EditLinks keeps the order of the ids edits name, not a
set of every id (4 MiB); the store's size is summed without a list of int objects (3 MiB at the top).
What stays at the peak (182.6 MiB): the interpreter and imports 17.7, the text 124.8, the entries ~37
(an Entry 176 bytes, its id 56, its record's text 40, its input's size and its place as ints of their
own 32 each), the checker's set of ids while the store loads 4.
"""
from __future__ import annotations

import gzip
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.bench.make_real import real_sessions  # noqa: E402
from tests.bench.measure import WSI, big_session  # noqa: E402

PARSE = {
    "whole": "import gc, orjson; gc.disable(); orjson.loads(open({p!r}, 'rb').read())",
    "lines": "import gc, orjson; gc.disable(); [orjson.loads(l) for l in open({p!r}, 'rb').read().splitlines()]",
    "gzip lines": "import gc, gzip, orjson; gc.disable(); [orjson.loads(l) for l in gzip.decompress(open({p!r}, 'rb').read()).splitlines()]",
}


def run(argv: list[str]) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds and peak resident bytes of one process, its output thrown away."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        raise SystemExit(f"{argv[0]} failed")
    return time.perf_counter() - start, usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024


def best_of(runs: int, argv: list[str]) -> tuple[float, float, int]:
    """The fastest wall and CPU time of `runs` runs, and the largest peak memory seen."""
    results = [run(argv) for _ in range(runs)]
    return min(r[0] for r in results), min(r[1] for r in results), max(r[2] for r in results)


def _unpacked_size(path: Path) -> int:
    """The file's size, after gunzip for a .gz, read in pieces: this process's peak would count in its children's."""
    if path.suffix != ".gz":
        return path.stat().st_size
    size = 0
    with gzip.open(path) as unpacked:
        while piece := unpacked.read(1 << 20):
            size += len(piece)
    return size


def row(name: str, path: Path, parse: str) -> str:
    """One table row: the form, its size, the parse, wsi, the ratios and peak over the unpacked size."""
    unpacked = _unpacked_size(path)
    base_s, base_cpu, base_mem = best_of(3, [sys.executable, "-c", PARSE[parse].format(p=str(path))])
    wsi_s, wsi_cpu, wsi_mem = best_of(3, [str(WSI), "manifest", str(path), "--json"])
    return (f"| {name} | {unpacked / 1e6:.0f} MB | {base_s:.2f} s ({base_cpu:.2f} CPU, peak {base_mem / unpacked:.2f}×) "
            f"| {wsi_s:.2f} s ({wsi_cpu:.2f} CPU) | {wsi_s / base_s:.2f}× ({wsi_cpu / base_cpu:.2f}× CPU) "
            f"| {wsi_mem / 1e6:.0f} MB = {wsi_mem / unpacked:.2f}× |")


def main() -> None:
    entries = int(sys.argv[1]) if len(sys.argv) > 1 else 50_000
    big_entries = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
    # generated in a child: a parent grown by the generator would count in its children's peaks
    here = str(Path(__file__).resolve().parents[2])
    subprocess.run([sys.executable, "-c", f"import sys; sys.path.insert(0, {here!r}); from tests.bench.make_real import real_sessions; "
                    f"from tests.bench.measure import big_session; real_sessions({entries}); big_session({big_entries})"], check=True)
    real = real_sessions(entries)
    print(f"wsi manifest FILE --json against orjson's parse of the same bytes (GC off), best of 3; load: {os.getloadavg()[0]:.1f}")
    print("| form | unpacked | parse | wsi manifest | ratio (target ≤ 1.0×) | peak / unpacked (target ≤ 1.5×) |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name, parse in [("compact", "whole"), ("indent", "whole"), ("jsonl", "lines"), ("jsonl.gz", "gzip lines")]:
        print(row(f"real-shaped {name}, {entries:,}", real[name], parse), flush=True)
    print(row(f"make_big, {big_entries:,}", big_session(big_entries), "whole"), flush=True)
    print(f"load at the end: {os.getloadavg()[0]:.1f} (2 cores: figures taken on a shared machine move; compare ratios of one run)")


if __name__ == "__main__":
    main()
