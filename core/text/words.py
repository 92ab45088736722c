"""Counts in words, one copy for the CLI and the window: "1 entry", "2 entries", never "1 entries"."""
from __future__ import annotations


def plural(n: int, one: str, many: str) -> str:
    """`n` with the singular or plural noun: plural(1, "body", "bodies") → "1 body"; thousands grouped."""
    return f"{n:,} {one if n == 1 else many}"
