"""Byte sizes as people write them (SPEC 6 SIZE) and as the inspector shows them.

`parse_size` reads a whole number of bytes, optionally followed by a suffix written exactly as in
SPEC 6: `KB` `MB` (×1000, ×1000²) or `KiB` `MiB` (×1024, ×1024²); `B` is accepted too. A decimal
number is allowed before a suffix when it comes to a whole number of bytes (`1.5 MiB`), and one
space may stand between number and suffix. `format_size` is for display: `812 B`, `64 KiB`, `1.5 MiB`.
A size field with a unit chooser (the Trim tab's cap) offers `FIELD_UNITS`, shows a size exactly in the
chosen one (`size_in_unit`) and reads a bare number in it (`parse_size_in_unit`).
"""
from __future__ import annotations

import argparse
import re
from decimal import Decimal, InvalidOperation

# The two sizes an entry has, said the same way in the docs, `wsi manifest`/`wsi trim` and the
# window's column tooltips (issue 32: "manifest 71 B, Trim 135 B" with nothing saying why).
INPUT_BYTES_TIP = ("bytes: the input alone, as JSON.stringify measures it (jsonBytes(input)); the Trim tab counts "
                   "the whole entry as the editor injects it ({id, call, input, unit, applied}), so its bytes are larger")
ENTRY_BYTES_TIP = ("bytes: the whole entry as the editor injects it ({id, call, input, unit, applied}), what trimStore "
                   "counts against caps.storeBytes; the Inputs tab's bytes are the input alone, so they are smaller")
SUFFIXES = {"": 1, "B": 1, "KB": 1000, "MB": 1000**2, "KiB": 1024, "MiB": 1024**2}
FIELD_UNITS = ("B", "KiB", "MiB")  # what a size field's unit chooser offers, smallest first
_SIZE = re.compile(r"^\s*([0-9][0-9_,]*(?:\.[0-9]+)?)\s?([A-Za-z]*)\s*$")


class SizeError(ValueError):
    """A SIZE that cannot be read; the message says what was wrong and how to write it."""


def parse_size(text: str) -> int:
    """The number of bytes `text` names: `4096`, `64KiB`, `1.5 MiB`, `20 KB`."""
    match = _SIZE.match(text)
    if match is None and text.strip().startswith("-"):
        raise SizeError(f"{text!r}: a size cannot be negative; give 0 or more bytes")
    if match is None:
        raise SizeError(
            f"{text!r} is not a size: write a whole number of bytes, or a number with KB, MB, KiB or MiB "
            "(e.g. 65536, 64KiB, 1.5MiB)"
        )
    number, suffix = match.groups()
    if suffix not in SUFFIXES:
        wanted = next((s for s in SUFFIXES if s and s.lower() == suffix.lower()), None)
        hint = f"did you mean {wanted}? (" if wanted else "("
        raise SizeError(
            f"{text!r}: unknown size suffix {suffix!r}; {hint}suffixes are KB, MB (×1000) and KiB, MiB (×1024), "
            "written as shown)"
        )
    try:
        value = Decimal(number.replace("_", "").replace(",", "")) * SUFFIXES[suffix]
    except InvalidOperation:
        raise SizeError(f"{text!r} is not a size: {number!r} is not a number") from None
    if value > MOST_BYTES:  # past this a size means nothing here, and int/float arithmetic on it overflows
        raise SizeError(f"{_short(text)}: more than {MOST_BYTES:,} bytes (1 PiB), the most a size may be here")
    if value != value.to_integral_value():
        raise SizeError(f"{text!r} is {value} bytes, not a whole number of bytes; give whole bytes, e.g. {int(value)}")
    return int(value)


MOST_BYTES = 1024**5


def _short(text: str) -> str:
    """A size as typed, cut to be quoted in one line (a 5,000-digit number is not repeated in full)."""
    text = text.strip()
    return repr(text) if len(text) <= 40 else repr(text[:20] + "…" + text[-8:]) + f" ({len(text):,} characters)"


def size_in_unit(size: int, unit: str) -> str:
    """`size` bytes written exactly in `unit`, one of SUFFIXES (`64`, `5.5791015625` for 5713 in KiB)."""
    return format((Decimal(size) / SUFFIXES[unit]).normalize(), "f")


def parse_size_in_unit(text: str, unit: str) -> int:
    """A SIZE as typed in a field set to `unit`: with its own suffix (`2MiB`), or a bare number in `unit`."""
    text = text.strip()
    if text[-1:].isdigit():
        text += unit
    return parse_size(text)


def size_argument(text: str) -> int:
    """`parse_size` for argparse: a bad SIZE becomes a usage error naming the argument."""
    try:
        return parse_size(text)
    except SizeError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def format_size(n: int) -> str:
    """A size for display: bytes below 1 KiB (`812 B`), else KiB, MiB or GiB with at most one decimal."""
    if n < 1024:
        return f"{n:,} B"
    value, unit = n / 1024, "KiB"
    for bigger in ("MiB", "GiB"):
        # 1,023.96 KiB would print as "1,024 KiB": that is 1 MiB.
        if round(value, 1) < 1024:
            break
        value, unit = value / 1024, bigger
    return f"{value:,.1f}".removesuffix(".0") + " " + unit
