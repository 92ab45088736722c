"""The session file's format versions, one package each, found by the `format` the file names.

To add a format version, start here: copy `worker_session_1/` to a package named after the new
version, change what differs (its `FORMAT`, header, record checks, readers), and add it to
`VERSIONS`. `wsi_inspector.core.session.load.load` peeks at the file's `format` (`named_format`) and hands the text to
that version's `read_json` or `read_json_lines`; a file naming no known version goes to `LATEST`,
which says what is wrong with its `format`.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Protocol

import orjson

from wsi_inspector.core.session.formats import worker_session_1

if TYPE_CHECKING:
    from wsi_inspector.core.session.load import Session


class FormatVersion(Protocol):
    """What a version's package offers: its name and a reader for each form of the file."""

    FORMAT: str

    def read_json(self, session: Session, text: bytes | bytearray) -> None: ...

    def read_json_lines(self, session: Session, text: bytes | bytearray) -> None: ...


VERSIONS: dict[str, FormatVersion] = {worker_session_1.FORMAT: worker_session_1}
LATEST: FormatVersion = worker_session_1

# The editor writes `format` first; a file that does not is read by LATEST, which finds it anywhere.
_LEADING_FORMAT = re.compile(rb'\A\s*\{\s*"format"\s*:\s*"([^"\\]{0,200})"')


def named_format(text: bytes | bytearray) -> str | None:
    """The `format` the file's header names when it comes first (both forms start with it), else None."""
    found = _LEADING_FORMAT.match(text[:4096])
    if found is None:
        return None
    try:
        return str(orjson.loads(b'"' + found.group(1) + b'"'))
    except orjson.JSONDecodeError:
        return None


def version_for(text: bytes | bytearray) -> FormatVersion:
    """The version that reads this file: the one it names, else the latest."""
    return VERSIONS.get(named_format(text) or "", LATEST)
