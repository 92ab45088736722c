"""Pydantic models for the session file's header parts (SPEC 2.1), unknown fields kept.

Imported only for a part that is not plainly valid (wsi_inspector.core.session.plain_header): they say
what is wrong with it, and read what they may convert. The session's caps are a plain_header.Caps.

Entries and bodies are checked by hand in `wsi_inspector.core.session.records`: there are 100,000 of them and their
inputs are large, so a model per record would cost more than the parse itself.
"""
from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, NonNegativeInt, StrictStr

from wsi_inspector.core.edits.units import UNITS


class Open(BaseModel):
    """A model that keeps every field it does not know (SPEC 2.1: never dropped)."""

    model_config = ConfigDict(extra="allow", populate_by_name=True)


class SessionInfo(Open):
    """The `session` object: who and when."""

    id: StrictStr
    title: StrictStr | None = None
    created_at: StrictStr | None = Field(None, alias="createdAt")


class Caps(Open):
    """The editor's byte caps: the store's (trimStore) and each kept value's (validateKeep)."""

    store_bytes: NonNegativeInt | None = Field(None, alias="storeBytes")
    keep_bytes: NonNegativeInt | None = Field(None, alias="keepBytes")


class ModuleInfo(Open):
    """What the session says of one module (`group.module`)."""

    fns: list[StrictStr] | None = None
    doc: StrictStr | None = None


class Entity(Open):
    """One scene entity; its other fields are its data (`scene.read`)."""

    id: StrictStr
    type: StrictStr
    name: StrictStr | None = None


class Mock(Open):
    """A scene rule that answers a call: return a value, echo the input, or throw."""

    returns: Any = None
    echo: bool | None = None
    throws: StrictStr | None = None


def describe_error(error: dict[str, Any]) -> str:
    """A pydantic error in the user's words."""
    message = error["msg"]
    if error["type"] == "missing":
        message = "missing; this field is required"
    elif error["type"] in ("greater_than_equal", "int_type", "int_parsing", "int_from_float"):
        message = f"{error.get('input')!r} is not a whole number ≥ 0"
    elif error["type"] == "literal_error":
        message = f"{error.get('input')!r} is not one of {', '.join(UNITS)}"
    return message
