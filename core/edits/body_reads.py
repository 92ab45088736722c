"""What each recorded body read, learned by replaying it (SPEC 7 "Blame with evidence").

A recorded session holds what a body called, not what it read; the runner records reads on every
run, so a body is replayed (against the state it was handed) to learn them. Replays are cached per
session file and body: blaming many entries of one body replays it once. Callers off the GUI
thread only (a replay is a V8 run).
"""
from __future__ import annotations

import os
from collections import OrderedDict
from typing import TYPE_CHECKING, Mapping, TypedDict, cast

from wsi_inspector.core.edits.evidence import Read
from wsi_inspector.core.session.model import Id
from wsi_inspector.core.runner.host import Runner
from wsi_inspector.core.runner.replay import replay_body
from wsi_inspector.core.session.load import Session

if TYPE_CHECKING:
    from wsi_inspector.core.edits.retyped import Retyped

MAX_CACHED = 512  # bodies' reads remembered, over every session

_cache: OrderedDict[tuple[object, ...], list[Read] | None] = OrderedDict()


class BodyEvidence(TypedDict):
    """What one replay of a body tells: its reads (None: unknown) and the values it typed again."""

    reads: list[Read] | None
    retyped: list[Retyped]


def session_identity(session: Session) -> tuple[object, ...] | None:
    """The file's path, size and modification time; None for a session read from memory (never cached:
    an object's id may be another session's once it is gone)."""
    path = getattr(session, "path", None)
    if path is None:
        return None
    try:
        stat = os.stat(path)
    except OSError:
        return (str(path), None, None)
    return (str(path), stat.st_size, stat.st_mtime_ns)


def body_reads(session: Session, body_id: Id, runner: Runner | None = None) -> list[Read] | None:
    """The reads body `body_id` made when replayed (SPEC 7's records), or None when it cannot be replayed.

    None: no such body, a body without code, or a run stopped before it reported (timeout, memory).
    """
    body = session.body(body_id)
    if body is None or not body.code:
        return None
    identity = session_identity(session)
    key = None if identity is None else (*identity, str(body.id))
    if key is not None and key in _cache:
        _cache.move_to_end(key)
        return _cache[key]
    if runner is None:
        with Runner(size=1) as own:
            _, result = replay_body(session, body, own)
    else:
        _, result = replay_body(session, body, runner)
    reads = cast("list[Read] | None", result.get("reads"))
    if key is not None:
        _cache[key] = reads
        while len(_cache) > MAX_CACHED:
            _cache.popitem(last=False)
    return reads


def remember(session: Session, body_id: Id, reads: list[Read] | None) -> None:
    """Keep the reads a replay made elsewhere (the Run tab's, `wsi check`'s) so blame need not replay again."""
    identity = session_identity(session)
    if reads is None or identity is None:
        return
    _cache[(*identity, str(body_id))] = reads
    while len(_cache) > MAX_CACHED:
        _cache.popitem(last=False)


def body_evidence(session: Session, body_id: Id, result: Mapping[str, object]) -> BodyEvidence:
    """What one replay of body `body_id` tells (SPEC 7): `{"reads", "retyped"}`, its reads remembered.

    Work that grows with the session (the retyped search): off the GUI thread.
    """
    from wsi_inspector.core.edits.retyped import retyped_in_body

    reads = cast("list[Read] | None", result.get("reads"))
    body = session.body(body_id)
    remember(session, body_id, reads)
    if reads is None or body is None:
        return {"reads": None, "retyped": []}
    return {"reads": reads, "retyped": retyped_in_body(session, body, reads)}


def forget() -> None:
    """Let every remembered read go (tests start each from nothing)."""
    _cache.clear()


def cached_reads(session: Session, body_id: Id) -> list[Read] | None:
    """The reads of body `body_id` if a replay already learned them (never replays: safe on any thread)."""
    identity = session_identity(session)
    return None if identity is None else _cache.get((*identity, str(body_id)))
