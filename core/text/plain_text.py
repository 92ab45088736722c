"""Text made safe for one plain line on a terminal (issue 27, case 14).

A file name, a `--at` value or a message quoting the file may hold a newline, a carriage return,
an ANSI escape or bytes that are not UTF-8 (kept by Python as lone surrogates). Printed as they
are, they split the one-line error in two, colour or clear the terminal, or fail to encode. Every
error line goes through `shown`, which writes such characters as visible escapes (`\\n`, `\\x1b`,
`\\xff`) and leaves everything else, backslashes included, as it is.
"""
from __future__ import annotations

import re

# C0 controls but tab, DEL, C1 controls, line/paragraph separators, and lone surrogates (bytes that
# were not UTF-8 in a file name).
_UNSAFE = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
_NAMED = {"\n": "\\n", "\r": "\\r"}


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:  # a byte that was not UTF-8 (surrogateescape)
        return f"\\x{code - 0xDC00:02x}"
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def shown(text: str) -> str:
    """`text` as one plain line: control characters, escapes and undecodable bytes written visibly."""
    return _UNSAFE.sub(_escape, text)
