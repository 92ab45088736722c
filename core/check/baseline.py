"""`wsi check NEW --baseline OLD` (SPEC 7): each new session beside its old self, and whether it still does the same.

Sessions pair by `session.id` (when both corpora give it once); the rest by their path relative to
the PATH they were found under (a file given as PATH is its own name). Each paired new report gets
`baseline: {"path", "same", "firstDivergence", "wasClean"}` from `wsi_inspector.core.edits.compare`; a new session
without a counterpart gets `baseline: {"path": null, "same": null, "firstDivergence": null,
"wasClean": null}`. `wasClean` (the old report's `clean`) is what `--where regressed` reads.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from wsi_inspector.core.check.check import SessionReport
from wsi_inspector.core.edits.compare import compare_sessions, load_pair
from wsi_inspector.core.session.load import LoadError

Baseline = dict[str, Any]  # {"path", "same", "firstDivergence", "wasClean", "error"?}: a JSON object, as SessionReport is


def relative_name(path: str, roots: Iterable[str]) -> str:
    """`path` relative to the first root (a folder) holding it; a root that is the file itself gives its name."""
    resolved = Path(path).resolve()
    for root in roots:
        base = Path(root).resolve()
        if resolved == base:
            return base.name
        if resolved.is_relative_to(base):
            return resolved.relative_to(base).as_posix()
    return resolved.name


def pair_reports(new: list[SessionReport], old: list[SessionReport], new_roots: list[str],
                 old_roots: list[str]) -> list[SessionReport | None]:
    """For each new report, its old counterpart (None: none): by unique session id, else by relative path."""
    new_ids = Counter(r["id"] for r in new if r.get("id") is not None)
    old_ids = Counter(r["id"] for r in old if r.get("id") is not None)
    old_by_id = {r["id"]: r for r in old if r.get("id") is not None and old_ids[r["id"]] == 1}
    old_by_name = {relative_name(r["path"], old_roots): r for r in old}
    pairs: list[SessionReport | None] = []
    for report in new:
        ident = report.get("id")
        if ident is not None and new_ids[ident] == 1 and ident in old_by_id:
            pairs.append(old_by_id[ident])
        else:
            pairs.append(old_by_name.get(relative_name(report["path"], new_roots)))
    return pairs


def baseline_of(report: SessionReport, old: SessionReport | None) -> Baseline:
    """The `baseline` of one new report: the old path, whether the session does the same, where it first differs."""
    if old is None:
        return {"path": None, "same": None, "firstDivergence": None, "wasClean": None}
    baseline: dict[str, Any] = {"path": old["path"], "same": None, "firstDivergence": None, "wasClean": old["clean"]}
    try:
        before, after = load_pair(Path(old["path"]), Path(report["path"]))  # both at once, as the compare window does
    except (LoadError, OSError) as exc:
        baseline["error"] = f"not compared: {exc}"
        return baseline
    unreadable = next((s for s in (before, after) if s.unreadable is not None), None)
    if unreadable is not None:
        baseline["error"] = f"not compared: {unreadable.name} does not read as a session"
        return baseline
    document = compare_sessions(before, after)
    baseline["same"], baseline["firstDivergence"] = document["same"], document["firstDivergence"]
    return baseline


def attach_baselines(new: list[SessionReport], old: list[SessionReport], new_roots: list[str],
                     old_roots: list[str]) -> None:
    """Give every new report its `baseline` (in place)."""
    for report, counterpart in zip(new, pair_reports(new, old, new_roots, old_roots)):
        report["baseline"] = baseline_of(report, counterpart)
