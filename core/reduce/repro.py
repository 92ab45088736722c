"""A session cut just after one body B: what B was handed, B and its own calls, the scene; in memory or as a file.

`cut_after(session, B)` is the whole cut (every entry and kept value B received, the whole scene);
`Cut` fields pick subsets of it (what `wsi_inspector.core.reduce.reduce` shrinks). `cut_session(cut)` is the cut as a
Session in memory (to run B in it), `cut_document(cut)` the same as a worker-session/1 JSON file
that `wsi validate` accepts and the inspector opens. Choices where the spec is silent:

- **Order.** Every record of the file gets a `seq` (its place in the cut), so the timeline is the
  cut's order whatever `seq` the source gave: the kept values, the entries B received, B, B's own
  calls, then any later entries the cut keeps (a later entry matters only for its recorded output).
- **Kept values.** A body reaches B only through what it kept, so the earlier bodies are not
  copied: one body, `<B>~kept` (renamed if taken), keeps exactly the values B received. Its code
  is a comment naming the bodies that kept each value; it replays as the same (it returns nothing).
- **B.** B's record is copied as it is (code, result, keep, fields the inspector does not know);
  code edited in the window goes beside it as `editedCode` (and `editedLang`), never over the record.
- **The header.** `session.id` gets a suffix, `session.cut` says where the cut came from
  (`{"from", "body", "entries": [received, of], "kept": [received, of], "reduced"}`); caps, the
  modules the cut keeps and unknown top-level fields are copied.
- **Notes.** The notes on the bodies and entries the cut keeps (those the source carries and those
  of its sidecar `FILE.notes.json`, wsi_inspector.core.handoff.notes) go inside the file as its top-level `notes`; a note
  on a dropped body or entry stays behind. `session.cut.tab` is the window's tab at File ▸ Save repro.
- Entries keep their records whole (`body`, `editOf`, `output`, extra fields); an `editOf` naming
  an entry the cut dropped stays, and `wsi validate` warns about it.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from wsi_inspector.core.session.model import Body, Entry, Id, KeptSnapshot
from wsi_inspector.core.files.output_file import write_output
from wsi_inspector.core.handoff.notes import notes_for_cut
from wsi_inspector.core.session.reading import parse_json
from wsi_inspector.core.runner.envelope import dumps
from wsi_inspector.core.session.load import FORMAT, Session

KEEPER_SUFFIX = "~kept"


@dataclass(frozen=True)
class Cut:
    """A session cut just after `body`: the parts of the source it keeps, each a subset in timeline order."""

    source: Session
    body: Body
    received: tuple[Entry, ...]  # entries B was handed
    kept: tuple[str, ...]  # names of the kept values B was handed
    own: tuple[Entry, ...]  # B's own recorded calls (after it)
    later: tuple[Entry, ...] = ()  # other entries after B, kept for their recorded outputs
    entities: tuple[int, ...] = ()  # indices into the scene's entities
    mocks: tuple[str, ...] = ()  # calls of the scene's mocks
    modules: tuple[str, ...] = ()  # names of the session's modules
    edited_code: str | None = None  # the code as edited in the window, when it differs from the record
    edited_lang: str | None = None
    reduced: bool = False
    tab: str | None = None  # the window's tab when the repro was saved: `wsi gui REPRO` opens there

    @property
    def kept_values(self) -> dict[str, Any]:
        """The kept values the cut hands B, by name."""
        at = self.source.state_at(self.body.id).kept
        return {name: at[name] for name in self.kept}

    @property
    def code(self) -> str:
        """The code that runs at B: the edited code when there is one, else the record's."""
        return self.body.code if self.edited_code is None else self.edited_code

    @property
    def lang(self) -> str:
        return self.body.lang if self.edited_lang is None else self.edited_lang


def cut_after(session: Session, body_id: Id, code: str | None = None, lang: str | None = None,
              later: bool = False) -> Cut:
    """The whole cut just after body `body_id` (KeyError when there is no such body).

    `code`/`lang`: the body as edited (kept only when it differs from the record); `later`: keep
    every entry after B too (a reduction starts there, in case B's calls are answered by them).
    """
    body = session.body(body_id)
    if body is None:
        raise KeyError(f"no body {body_id!r} in this session")
    state = session.state_at(body.id)
    received_ids = {id(e) for e in state.store}
    own = [e for e in session.calls_of(body) if id(e) not in received_ids]  # (a `seq` may put one before B)
    own_ids = {id(e) for e in own}
    after = [e for e in session.entries if id(e) not in received_ids and id(e) not in own_ids] if later else []
    scene = session.scene or {}
    edited = code if code is not None and (code != body.code or (lang or body.lang) != body.lang) else None
    return Cut(
        source=session, body=body, received=tuple(state.store), kept=tuple(state.kept), own=tuple(own),
        later=tuple(after), entities=tuple(range(len(scene.get("entities") or []))),
        mocks=tuple(scene.get("mocks") or {}), modules=tuple(session.modules),
        edited_code=edited, edited_lang=(lang or body.lang) if edited is not None else None,
    )


def _scene(cut: Cut) -> dict[str, Any] | None:
    scene = cut.source.scene
    if scene is None:
        return None
    entities = scene.get("entities") or []
    mocks = scene.get("mocks") or {}
    return {**scene, "entities": [entities[i] for i in cut.entities], "mocks": {c: mocks[c] for c in cut.mocks}}


def _unsequenced(entry: Entry) -> Entry:
    # In memory the cut's list order is its timeline: a source `seq` would reorder it.
    if entry.seq is None:
        return entry
    clone = Entry.__new__(Entry)
    for slot in Entry.__slots__:
        setattr(clone, slot, getattr(entry, slot))
    clone.seq = None
    return clone


def cut_session(cut: Cut) -> Session:
    """The cut as a Session in memory (entries shared with the source, not copied)."""
    source = cut.source
    session = Session(source.name)
    session.form = "jsonl"  # file order is the timeline; the kept values arrive as one snapshot
    session.format = source.format
    session.info = source.info
    session.caps = source.caps
    session.scene = _scene(cut)
    session.modules = {name: source.modules[name] for name in cut.modules}
    body = dataclasses.replace(cut.body, seq=None)
    session.timeline = [
        KeptSnapshot(cut.kept_values), *map(_unsequenced, cut.received), body,
        *map(_unsequenced, cut.own), *map(_unsequenced, cut.later),
    ]
    session.finish()
    return session


def keeper_id(cut: Cut) -> str:
    """The id of the body that carries the kept values: `<B>~kept`, with more `~` while that id is taken."""
    taken = {b.key for b in cut.source.bodies}
    name = cut.body.key + KEEPER_SUFFIX
    while name in taken:
        name += "~"
    return name


def _keeper(cut: Cut, seq: int) -> dict[str, Any]:
    kept_by = cut.source.state_at(cut.body.id).kept_by
    lines = [f"// The kept values body {cut.body.key} was handed, cut from {cut.source.name}."]
    for name in cut.kept:
        who = kept_by.get(name)
        lines.append(f"// {name}: kept by body {who}" if who is not None else f"// {name}: from a kept snapshot")
    return {"id": keeper_id(cut), "code": "\n".join(lines) + "\n", "seq": seq, "result": {"ok": True},
            "keep": cut.kept_values}


def entry_record(entry: Entry, seq: int) -> dict[str, Any]:
    """The entry's record as the file had it (every field), with `seq` set."""
    if entry.text is not None:
        record = parse_json(memoryview(entry.text))
        record.pop("kind", None)  # a JSON Lines record
    else:
        record = {"id": entry.id, "call": entry.call, "input": entry.input}
        for name, value in (("unit", entry.unit), ("editOf", entry.edit_of), ("body", entry.body), ("at", entry.at)):
            if value is not None:
                record[name] = value
        if entry.applied:
            record["applied"] = True
        if entry.has_output:
            record["output"] = entry.output
        record.update(entry.extra)
    record["seq"] = seq
    return record


def body_record(cut: Cut, seq: int) -> dict[str, Any]:
    """B's record as the file had it, with `seq` set and the edited code beside it."""
    body = cut.body
    record: dict[str, Any] = {"id": body.id, "code": body.code}
    if body.lang != "js":
        record["lang"] = body.lang
    record["seq"] = seq
    for name in ("at", "result", "keep"):
        if getattr(body, name) is not None:
            record[name] = getattr(body, name)
    record.update(body.extra)
    if cut.edited_code is not None:
        record["editedCode"] = cut.edited_code
        if cut.edited_lang != body.lang:
            record["editedLang"] = cut.edited_lang
    return record


def cut_document(cut: Cut) -> dict[str, Any]:
    """The cut as a worker-session/1 document (JSON form)."""
    source = cut.source
    suffix = "reduced" if cut.reduced else "repro"
    state = source.state_at(cut.body.id)
    info = {**source.info, "id": f"{source.info.get('id', source.name)}.{suffix}-{cut.body.key}",
            "cut": {"from": source.name, "body": cut.body.id, "entries": [len(cut.received), len(state.store)],
                    "kept": [len(cut.kept), len(state.kept)], "reduced": cut.reduced}}
    if cut.tab is not None:
        info["cut"]["tab"] = cut.tab
    if source.info.get("title"):
        info["title"] = f"{source.info['title']} ({suffix} at body {cut.body.key})"
    document: dict[str, Any] = {"format": FORMAT, "session": info}
    caps = source.caps.as_json()
    if caps:
        document["caps"] = caps
    scene = _scene(cut)
    if scene is not None:
        document["scene"] = scene
    if cut.modules:
        document["modules"] = {name: source.modules[name] for name in cut.modules}
    seq = 0
    bodies: list[dict[str, Any]] = []
    if cut.kept:
        bodies.append(_keeper(cut, seq))
        seq += 1
    store = []
    for entry in cut.received:
        store.append(entry_record(entry, seq))
        seq += 1
    bodies.append(body_record(cut, seq))
    seq += 1
    for entry in (*cut.own, *cut.later):
        store.append(entry_record(entry, seq))
        seq += 1
    document["store"] = store
    document["bodies"] = bodies
    for name, value in source.extra.items():
        document.setdefault(name, value)
    notes = notes_for_cut(source, [b["id"] for b in bodies], [e["id"] for e in store])
    document.pop("notes", None)  # the source's own notes: only those on what the cut keeps travel on
    if notes is not None:
        document["notes"] = notes
    return document


def default_out(file: str | Path, kind: str = "reduced") -> Path:
    """FILE's name without `.gz` and `.json`/`.jsonl`, plus `.reduced.json` (or `.repro.json`), beside FILE."""
    path = Path(file)
    name = path.name
    for suffix in (".gz", ".jsonl", ".json"):
        if name.lower().endswith(suffix):
            name = name[: -len(suffix)]
    return path.with_name(f"{name}.{kind}.json")


def write_cut(cut: Cut, path: str | Path, inputs: Iterable[str | Path] = ()) -> Path:
    """Write the cut as JSON to `path` whole or not at all (wsi_inspector.core.files.output_file), never onto one of `inputs`
    (OSError, OutputRefused among them, when it cannot be written)."""
    data = dumps(cut_document(cut)).encode("utf-8", "surrogatepass")
    return write_output(path, data + b"\n", inputs)
