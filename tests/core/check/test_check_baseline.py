"""`wsi check NEW --baseline OLD` (SPEC 7): pairs by session.id, else relative path; `baseline` in JSON and JUnit; `--where regressed`."""
from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from wsi_inspector.core.check.baseline import pair_reports, relative_name
from wsi_inspector.core.cli.dispatch import main
from tests.helpers.compare_pairs import demo_document, variant, write


def _with_id(document, ident):
    document["session"] = {**document["session"], "id": ident}
    return document


@pytest.fixture(scope="module")
def corpora(tmp_path_factory):
    root = tmp_path_factory.mktemp("baseline")
    write(demo_document(), root / "old/ward.json")  # id demo-ward-2
    write(_with_id(demo_document(), "other-1"), root / "old/nested/other.json")
    write(variant("failure"), root / "new/ward-today.jsonl")  # id demo-ward-2, another name: paired by id
    write(_with_id(demo_document(), "other-2"), root / "new/nested/other.json")  # no id in common: paired by path
    write(_with_id(demo_document(), "fresh"), root / "new/fresh.json")  # no counterpart
    return root


def test_pairing_by_id_then_relative_path():
    new = [{"path": "/n/x.json", "id": "s1"}, {"path": "/n/d/y.json", "id": None}, {"path": "/n/z.json", "id": "dup"},
           {"path": "/n/w.json", "id": "dup"}]
    old = [{"path": "/o/renamed.json", "id": "s1"}, {"path": "/o/d/y.json", "id": "other"}, {"path": "/o/z.json", "id": "dup"}]
    paired = pair_reports(new, old, ["/n"], ["/o"])
    assert [p["path"] if p else None for p in paired] == ["/o/renamed.json", "/o/d/y.json", "/o/z.json", None]
    assert relative_name("/n/d/y.json", ["/n"]) == "d/y.json"


def test_check_with_a_baseline_reports_same_and_first_divergence_per_session(corpora, capsys, tmp_path):
    status = main(["check", str(corpora / "new"), "--baseline", str(corpora / "old"), "--jobs", "1", "--json"])
    document = json.loads(capsys.readouterr().out)
    by_name = {s["path"].rsplit("/", 1)[-1]: s for s in document["sessions"]}
    assert status == 1
    assert by_name["ward-today.jsonl"]["baseline"] == {
        "path": str(corpora / "old/ward.json"), "same": False, "wasClean": True,
        "firstDivergence": {"step": 6, "a": "b6", "b": "b6",
                            "why": "at step 6 A's b6 calls mep.risers (c29), B's b6 does not; "
                                   "B's b6 fails with TypeError: Cannot read properties of undefined (reading 'outline')"}}
    assert by_name["other.json"]["baseline"] == {"path": str(corpora / "old/nested/other.json"), "same": True,
                                                 "firstDivergence": None, "wasClean": True}
    assert by_name["fresh.json"]["baseline"] == {"path": None, "same": None, "firstDivergence": None, "wasClean": None}

    junit = tmp_path / "out.xml"
    assert main(["check", str(corpora / "new"), "--baseline", str(corpora / "old"), "--jobs", "1", "--junit", str(junit)]) == 1
    text = capsys.readouterr().out
    assert "baseline " + str(corpora / "old/ward.json") + ": differs: at step 6" in text
    cases = {(s.get("name").rsplit("/", 1)[-1], c.get("name")): c
             for s in ET.parse(junit).getroot() for c in s if c.get("name") == "baseline"}
    assert cases[("ward-today.jsonl", "baseline")].find("failure").get("message").startswith("at step 6 A's b6 calls")
    assert cases[("other.json", "baseline")].find("failure") is None
    assert cases[("fresh.json", "baseline")].find("skipped") is not None


def test_where_regressed_keeps_the_sessions_clean_in_old_and_not_in_new(corpora, capsys):
    status = main(["check", str(corpora / "new"), "--baseline", str(corpora / "old"), "--jobs", "1", "--json",
                   "--where", "regressed"])
    document = json.loads(capsys.readouterr().out)
    assert status == 1
    assert [s["path"].rsplit("/", 1)[-1] for s in document["sessions"]] == ["ward-today.jsonl"]
    assert document["sessions"][0]["clean"] is False


def test_a_missing_baseline_is_bad_usage(corpora, capsys):
    assert main(["check", str(corpora / "new"), "--baseline", str(corpora / "nowhere")]) == 2
    assert "nowhere: no such file or folder" in capsys.readouterr().err


def test_where_regressed_without_a_baseline_is_bad_usage(corpora, capsys):
    assert main(["check", str(corpora / "new"), "--where", "regressed"]) == 2
    assert "give --baseline OLD" in capsys.readouterr().err


def test_the_readable_report_says_how_the_sessions_paired_with_their_old_selves(corpora, capsys, tmp_path):
    """A baseline that pairs with nothing (a wrong folder, a named pipe) is said in words, not only as `path: null`."""
    import os

    assert main(["check", str(corpora / "new"), "--baseline", str(corpora / "old"), "--jobs", "1"]) == 1
    assert capsys.readouterr().out.splitlines()[-1] == (
        f"beside {corpora / 'old'}: 2 paired with an old self, 1 doing the same, 1 not; 1 without one "
        "(no old session has its session.id or file name: check that --baseline names the old sessions)")
    pipe = tmp_path / "old.json"
    os.mkfifo(pipe)
    assert main(["check", str(corpora / "new/fresh.json"), "--baseline", str(pipe), "--jobs", "1"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith(f"beside {pipe}: 0 paired with an old self, 0 doing the same, 0 not; 1 without one")
