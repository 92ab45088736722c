"""`wsi check`'s reports: the JSON document, JUnit XML for a CI, plain lines, and the progress line.

JUnit: one `<testsuite>` per session (named by its path), with a `load` case (failed by load errors
or a session that could not be checked), a `trim` case when the session sets a cap (failed when a
canvas edit or a module's `inputs.last()` entry falls), and one case per body (failed when it
replays differently; `skipped` when it was not replayed). Text that XML 1.0 cannot hold (control
characters, lone surrogates) is replaced by U+FFFD so the file always parses.
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from pathlib import Path
from typing import Any, NotRequired, TypedDict

from wsi_inspector.core.check.check import FAILING_WARNINGS, Finding, SessionReport, fails_session
from wsi_inspector.core.files.output_file import write_output

LISTED_FINDINGS = 10  # per session in the plain output; --json and --junit have them all
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


class CheckCounts(TypedDict):
    """The counts of `wsi check`: sessions found, checked, reported (matched --where), clean or not, and over them."""

    total: int
    checked: int
    reported: int
    clean: int
    notClean: int
    bodies: int
    differs: int
    lostEdits: int
    seconds: float
    interrupted: bool
    where: NotRequired[str]


class CheckDocument(CheckCounts):
    """`wsi check --json`: the counts, then each reported session."""

    sessions: list[SessionReport]


def summary(reports: list[SessionReport], total: int, seconds: float, interrupted: bool,
            where: str | None = None, examined: int | None = None) -> CheckCounts:
    """The counts over the reported sessions."""
    clean = sum(1 for r in reports if r["clean"])
    document: CheckCounts = {
        "total": total, "checked": examined if examined is not None else len(reports),
        "reported": len(reports), "clean": clean, "notClean": len(reports) - clean,
        "bodies": sum(r["bodies"] for r in reports), "differs": sum(r["differs"] for r in reports),
        "lostEdits": sum(r["lostEdits"] for r in reports),
        "seconds": round(seconds, 3), "interrupted": interrupted,
    }
    if where is not None:
        document["where"] = where
    return document


def json_document(reports: list[SessionReport], counts: CheckCounts) -> CheckDocument:
    """`wsi check --json`: the counts, then each reported session with its counts and findings."""
    return {**counts, "sessions": reports}


def _xml_text(value: Any) -> str:
    return _NOT_XML.sub("\ufffd", str(value))


def _case(suite: ET.Element, name: str, seconds: float = 0.0) -> ET.Element:
    return ET.SubElement(suite, "testcase", classname=_xml_text(suite.get("name")), name=_xml_text(name),
                         time=f"{seconds:.3f}")


def _fail(case: ET.Element, message: str, details: str, tag: str = "failure") -> None:
    failure = ET.SubElement(case, tag, message=_xml_text(message[:500]), type=tag)
    failure.text = _xml_text(details)


def junit_tree(reports: list[SessionReport]) -> ET.ElementTree:
    """The JUnit XML of the reports."""
    root = ET.Element("testsuites", name="wsi check")
    all_tests = all_failures = 0
    for report in reports:
        suite = ET.SubElement(root, "testsuite", name=_xml_text(report["path"]))
        findings = report["findings"]
        load_case = _case(suite, "load")
        broken = [f for f in findings if f["severity"] == "error" and not f["code"].startswith(("replay-", "edit-falls", "last-falls"))]
        if broken:
            _fail(load_case, broken[0]["message"], "\n".join(_line(f) for f in broken))
        cases, failures = 1, int(bool(broken))
        if report["cap"] is not None:
            trim_case = _case(suite, f"trim at cap {report['cap']:,} B")
            fallen = [f for f in findings if f["code"] in ("edit-falls", "last-falls")]
            if fallen:
                _fail(trim_case, fallen[0]["message"], "\n".join(_line(f) for f in fallen))
            cases, failures = cases + 1, failures + int(bool(fallen))
        for record in report["replay"]:
            body_id = record["body"]
            case = _case(suite, f"body {body_id}", record.get("ms", 0.0) / 1000)
            cases += 1
            if record["same"] is None:
                ET.SubElement(case, "skipped", message="not replayed (the time budget was used up, or the check was stopped)")
            elif not record["same"]:
                failures += 1
                details = [f for f in findings if str(f.get("body")) == str(body_id)]
                _fail(case, record.get("message", "replays differently"), "\n".join(_line(f) for f in details))
        if "baseline" in report:  # --baseline: does the session still do what it did?
            baseline, case = report["baseline"], _case(suite, "baseline")
            cases += 1
            if baseline["same"] is None:
                ET.SubElement(case, "skipped", message=baseline.get("error", "no session of this id or path in the baseline"))
            elif not baseline["same"]:
                failures += 1
                why = baseline["firstDivergence"]["why"]
                _fail(case, why, f"{baseline['path']} → {report['path']}: {why}")
        suite.set("tests", str(cases))
        suite.set("failures", str(failures))
        suite.set("errors", "0")
        all_tests, all_failures = all_tests + cases, all_failures + failures
    root.set("tests", str(all_tests))
    root.set("failures", str(all_failures))
    root.set("errors", "0")
    return ET.ElementTree(root)


def write_junit(reports: list[SessionReport], out: Path, inputs: Iterable[str | Path] = ()) -> None:
    """Write the JUnit XML file whole or not at all, never onto a session (wsi_inspector.core.files.output_file; OSError when it cannot)."""
    tree = junit_tree(reports)
    ET.indent(tree)
    write_output(out, lambda file: tree.write(file, encoding="utf-8", xml_declaration=True), inputs)


def _line(found: Finding) -> str:
    place = f"{found['where']}: " if found.get("where") else ""
    return f"{place}{found['severity']} [{found['code']}]: {found['message']}"


def session_lines(report: SessionReport) -> list[str]:
    """A session in plain lines: its verdict and what each count counts, then its findings (at most ten).

    The counts name their kind (the loader's errors and warnings, the trim warnings that fail it),
    and every finding they count is listed, those that fail the session first.
    """
    verdict = "clean" if report["clean"] else "NOT CLEAN"
    bodies = f"{report['same']}/{report['bodies']} bodies the same" if report["bodies"] else "no bodies"
    findings = report["findings"]
    trims = sum(f["code"] in FAILING_WARNINGS for f in findings)
    head = (f"{report['path']}: {verdict}: {bodies}, {_count(report['errors'], 'load error')}, "
            f"{_count(report['warnings'], 'load warning')}"
            + (f", {_count(trims, 'trim warning')}" if trims else "")
            + f", {_count(report['lostEdits'], 'lost edit')}")
    listed = [f for f in findings if fails_session(f)] + [f for f in findings if not fails_session(f)]
    lines = [head] + [f"  {_line(f)}" for f in listed[:LISTED_FINDINGS]]
    if len(listed) > LISTED_FINDINGS:
        lines.append(f"  … {len(listed) - LISTED_FINDINGS} more (wsi check --json lists them all)")
    baseline = report.get("baseline")
    if baseline and baseline["same"] is False:
        lines.append(f"  baseline {baseline['path']}: differs: {baseline['firstDivergence']['why']}")
    return lines


def _count(n: int, word: str) -> str:
    return f"{n:,} {word}{'s' if n != 1 else ''}"


def progress_line(done: int, total: int, not_clean: int, seconds: float) -> str:
    """`checked 120/1,000 sessions, 3 not clean, 14.2 sessions/s`."""
    rate = done / seconds if seconds > 0 else 0.0
    return f"checked {done:,}/{total:,} sessions, {not_clean:,} not clean, {rate:,.1f} sessions/s"
