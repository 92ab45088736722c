"""worker-session/1's header (SPEC 2.1): format, session, caps, scene and modules, each read on its own."""
from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from wsi_inspector.core.session.model import Problem
from wsi_inspector.core.session.place import Place
from wsi_inspector.core.session.plain_header import Caps, plainly_valid
from wsi_inspector.core.session.records import MODULE
from wsi_inspector.core.edits.units import UNITS

if TYPE_CHECKING:
    from wsi_inspector.core.session.load import Session

FORMAT = "worker-session/1"
HEADER_PARTS = ("format", "session", "caps", "scene", "modules")
NEWER_FORMAT = re.compile(r"worker-session/([1-9][0-9]{0,8})")


def read_header(session: Session, document: dict[str, Any], where: Place) -> None:
    """Read format, session, caps, scene and modules, each part on its own so one bad part costs only itself."""
    at = where.field

    fmt = document.get("format")
    if fmt is None and "format" in session._broken_parts:
        pass
    elif fmt is None:
        session.problems.append(Problem("error", at("format"), f'missing: not a session (a session starts with "format": "{FORMAT}")'))
    elif fmt != FORMAT:
        session.problems.append(Problem("error", at("format"), format_message(fmt)))
    else:
        session.format = fmt

    info = _model(session, "SessionInfo", document.get("session"), at, "session", required="session" not in session._broken_parts)
    if info is not None:
        session.info = document["session"]
        _check_created_at(session, document["session"].get("createdAt") if info is PLAIN else info.created_at, at)
    caps = _model(session, "Caps", document.get("caps"), at, "caps")
    if caps is not None:
        session.caps = Caps.of(document["caps"]) if caps is PLAIN else Caps(caps.store_bytes, caps.keep_bytes, dict(caps.model_extra or {}))
    modules = document.get("modules")
    if isinstance(modules, dict):
        for name, raw in modules.items():
            if not MODULE.match(name):
                session.problems.append(Problem("warning", at("modules", name), "a module name is group.module, two identifiers; ignored"))
            elif _model(session, "ModuleInfo", raw, at, "modules", name) is not None:
                session.modules[name] = raw
    elif modules is not None:
        session.problems.append(Problem("error", at("modules"), "modules must be an object keyed by group.module"))
    _read_scene(session, document.get("scene"), at)


def _check_created_at(session: Session, created_at: str | None, at: Callable[..., Place]) -> None:
    """A `createdAt` that is no ISO-8601 time is a wrong-typed field: a warning, and it is not shown as a time."""
    if created_at is None:
        return
    try:
        datetime.fromisoformat(created_at)
    except ValueError:
        session.problems.append(Problem("warning", at("session", "createdAt"),
                                        f"createdAt {created_at!r} is not an ISO-8601 time (like 2026-11-18T09:00:00Z); ignored"))
        session.info = {k: v for k, v in session.info.items() if k != "createdAt"}


def format_message(fmt: object) -> str:
    """Why `format` is not this version's: a higher `worker-session/N` is newer, anything else malformed."""
    version = NEWER_FORMAT.fullmatch(fmt) if isinstance(fmt, str) else None
    if version is not None and int(version.group(1)) > 1:
        return f"format {fmt!r} is not {FORMAT}: written by a newer editor; update the inspector"
    return f'format {fmt!r} is malformed: expected exactly "{FORMAT}"'


def _read_scene(session: Session, scene: Any, at: Callable[..., Place]) -> None:
    if scene is None:
        return
    if not isinstance(scene, dict):
        session.problems.append(Problem("error", at("scene"), "scene must be an object with entities"))
        return
    unit = scene.get("unit")
    if unit is not None and unit not in UNITS:
        session.problems.append(Problem("error", at("scene", "unit"), f"unit {unit!r} is not one of {', '.join(UNITS)}"))
    entities = scene.get("entities", [])
    if not isinstance(entities, list):
        session.problems.append(Problem("error", at("scene", "entities"), "entities must be an array"))
        entities = []
    good = [raw for i, raw in enumerate(entities) if _model(session, "Entity", raw, at, "scene", "entities", i) is not None]
    mocks = scene.get("mocks", {})
    if not isinstance(mocks, dict):
        session.problems.append(Problem("error", at("scene", "mocks"), "mocks must be an object keyed by call"))
        mocks = {}
    good_mocks = {c: m for c, m in mocks.items() if _model(session, "Mock", m, at, "scene", "mocks", c) is not None}
    session.scene = {**scene, "entities": good, "mocks": good_mocks}


PLAIN = object()  # _model's answer for a part plainly valid: read it as it is


def _model(session: Session, model: str, raw: Any, at: Callable[..., Place], *parts: Any, required: bool = False) -> Any:
    """PLAIN when `raw` is plainly valid (wsi_inspector.core.session.plain_header), else the pydantic `model`
    of wsi_inspector.core.session.schema made of it; None when it is missing or wrong (each problem listed)."""
    if raw is None:
        if required:
            session.problems.append(Problem("error", at(*parts), "missing; this field is required"))
        return None
    if plainly_valid(model, raw):
        return PLAIN
    from pydantic import ValidationError

    from wsi_inspector.core.session import schema  # only for a part that is not plainly valid: it costs 15 MB to build

    try:
        return getattr(schema, model).model_validate(raw)
    except ValidationError as exc:
        for error in exc.errors():
            session.problems.append(Problem("error", at(*parts, *error["loc"]), schema.describe_error(dict(error))))
        return None
