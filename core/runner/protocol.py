"""The wire between host and guest: msgpack frames, each a 4-byte big-endian length and a map.

Kept free of heavy imports: the guest process imports it before V8 starts.
"""
from __future__ import annotations

import os
import select
import struct
import time
from typing import Any

import msgspec.msgpack

# msgspec's msgpack (the one msgpack implementation of the project): bytes go as bin, maps may
# have any keys, arrays come back as lists.
_encode = msgspec.msgpack.Encoder().encode
_decode = msgspec.msgpack.Decoder().decode

HEADER = struct.Struct(">I")
# The state texts of a `run` frame that a guest keeps, UTF-8 bytes (the index: what `inputs.last`/`at` answer and
# where each of the store's inputs lies, envelope.store_lookup). Its next realm holds the last run's (prelude.js
# `preload`), so the host sends one only when it differs from what that guest was sent last. The realm takes the first
# three joined by NUL, in this order, and the store as a string of its own (guest.py `Realm.post_preload`).
STATE_TEXTS = ("index", "scene", "manifest", "store")
# Bytes of memory a byte of the state texts may take in a guest, on top of the body's own cap: the frame, the
# string V8 makes of them, their values once the body reads them.
STATE_ROOM = 10
MAX_FRAME = 1 << 30


class ChannelClosed(Exception):
    """The other side closed its end (it exited or was killed)."""


class ChannelTimeout(Exception):
    """No whole frame arrived before the deadline."""


def pack(message: dict[str, Any]) -> bytes:
    """One frame: length, then the msgpack of `message`."""
    body = _encode(message)
    return HEADER.pack(len(body)) + body


def write_frame(fd: int, message: dict[str, Any]) -> None:
    """Write one whole frame to a blocking file descriptor."""
    data = memoryview(pack(message))
    while data:
        written = os.write(fd, data)
        data = data[written:]


def _read_exact(fd: int, size: int, deadline: float | None) -> bytes:
    chunks: list[bytes] = []
    remaining = size
    while remaining:
        if deadline is not None:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                raise ChannelTimeout()
        chunk = os.read(fd, min(remaining, 1 << 20))
        if not chunk:
            raise ChannelClosed()
        chunks.append(chunk)
        remaining -= len(chunk)
    return b"".join(chunks)


def read_frame(fd: int, deadline: float | None = None) -> dict[str, Any]:
    """Read one frame; `deadline` (time.monotonic) bounds the wait. ChannelClosed at end of file."""
    (size,) = HEADER.unpack(_read_exact(fd, HEADER.size, deadline))
    if size > MAX_FRAME:
        raise ChannelClosed()
    return _decode(_read_exact(fd, size, deadline))
