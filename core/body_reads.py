"""What each recorded body read, learned by replaying it (SPEC 7 "Blame with evidence").

A recorded session holds what a body called, not what it read; the runner records reads on every
run, so a body is replayed (against the state it was handed) to learn them. Replays are cached per
session file and body: blaming many entries of one body replays it once. Callers off the GUI
thread only (a replay is a V8 run).
"""
from __future__ import annotations

import os
from collections import OrderedDict
from typing import Any

from core.runner.host import Runner
from core.runner.replay import replay_body

MAX_CACHED = 512  # bodies' reads remembered, over every session

_cache: OrderedDict[tuple[Any, ...], list[dict[str, Any]] | None] = OrderedDict()


def session_identity(session: Any) -> tuple[Any, ...]:
    """The file's path, size and modification time (a session read from memory: the object itself)."""
    path = getattr(session, "path", None)
    if path is None:
        return ("memory", id(session))
    try:
        stat = os.stat(path)
    except OSError:
        return (str(path), None, None)
    return (str(path), stat.st_size, stat.st_mtime_ns)


def body_reads(session: Any, body_id: Any, runner: Runner | None = None) -> list[dict[str, Any]] | None:
    """The reads body `body_id` made when replayed (SPEC 7's records), or None when it cannot be replayed.

    None: no such body, a body without code, or a run stopped before it reported (timeout, memory).
    """
    body = session.body(body_id)
    if body is None or not body.code:
        return None
    key = (*session_identity(session), str(body.id))
    if key in _cache:
        _cache.move_to_end(key)
        return _cache[key]
    if runner is None:
        with Runner(size=1) as own:
            _, result = replay_body(session, body, own)
    else:
        _, result = replay_body(session, body, runner)
    reads = result.get("reads")
    _cache[key] = reads
    while len(_cache) > MAX_CACHED:
        _cache.popitem(last=False)
    return reads


def remember(session: Any, body_id: Any, reads: list[dict[str, Any]] | None) -> None:
    """Keep the reads a replay made elsewhere (the Run tab's, `wsi check`'s) so blame need not replay again."""
    if reads is None:
        return
    _cache[(*session_identity(session), str(body_id))] = reads
    while len(_cache) > MAX_CACHED:
        _cache.popitem(last=False)


def body_evidence(session: Any, body_id: Any, result: Any) -> dict[str, Any]:
    """What one replay of body `body_id` tells (SPEC 7): `{"reads", "retyped"}`, its reads remembered.

    Work that grows with the session (the retyped search): off the GUI thread.
    """
    from core.retyped import retyped_in_body

    reads = result.get("reads")
    body = session.body(body_id)
    remember(session, body_id, reads)
    if reads is None or body is None:
        return {"reads": None, "retyped": []}
    return {"reads": reads, "retyped": retyped_in_body(session, body, reads)}


def cached_reads(session: Any, body_id: Any) -> list[dict[str, Any]] | None:
    """The reads of body `body_id` if a replay already learned them (never replays: safe on any thread)."""
    return _cache.get((*session_identity(session), str(body_id)))
