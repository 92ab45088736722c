"""Benchmark: `wsi manifest big.json --json`, whole process, against a bare orjson parse of the file.

Run: `.venv/bin/python tests/bench/bench_manifest.py [ENTRIES]`. Target (issue 2): at most 2.0× the
parse (aim 1.3×), peak memory at most 8× the file (aim 3×).
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.bench.measure import WSI, best_of, big_session  # noqa: E402


def main() -> None:
    entries = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    path = big_session(entries)
    size = path.stat().st_size
    parse = [sys.executable, "-c", f"import gc, orjson; gc.disable(); orjson.loads(open({str(path)!r},'rb').read())"]
    base_s, base_mem = best_of(3, parse)
    wsi_s, wsi_mem = best_of(3, [str(WSI), "manifest", str(path), "--json"])
    print(f"file: {path.name}, {size / 1e6:.1f} MB, {entries:,} entries")
    print(f"orjson.loads baseline: {base_s:.2f} s, peak {base_mem / 1e6:.0f} MB")
    print(f"wsi manifest --json:   {wsi_s:.2f} s, peak {wsi_mem / 1e6:.0f} MB")
    print(f"ratio: {wsi_s / base_s:.2f}× the parse (target ≤ 2.0×, aim 1.3×); "
          f"memory {wsi_mem / size:.2f}× the file (target ≤ 8×, aim 3×)")


if __name__ == "__main__":
    main()
