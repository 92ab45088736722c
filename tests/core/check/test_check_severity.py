"""`wsi check` says one thing per finding (issue 32 point 6): one severity per code everywhere, plain
output that lists what its counts count, and bundled broken files broken only in their own way."""
import json
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

from wsi_inspector.core.check.check import SEVERITY
from tests.helpers.cli import wsi

RESOURCES = Path(__file__).resolve().parents[3] / "resources"
OVER_CAP = RESOURCES / "sessions" / "broken" / "over_cap.json"


def test_plain_output_names_what_it_counts_and_lists_it():
    done = wsi("check", OVER_CAP)
    assert done.returncode == 1
    head, *listed = done.stdout.splitlines()[:3]
    assert head.endswith("NOT CLEAN: no bodies, 0 load errors, 1 load warning, 1 trim warning, 0 lost edits")
    assert listed[0].startswith("  /store/4: warning [last-falls]: c4 falls")
    assert listed[1].startswith("  /store: warning [store-over-cap]: the store is 721 bytes")
    assert "error [" not in done.stdout


def test_a_fallen_entry_is_a_warning_in_check_json_junit_and_trim(tmp_path):
    document = json.loads(wsi("check", OVER_CAP, "--json").stdout)
    (session,) = document["sessions"]
    assert [(f["code"], f["severity"]) for f in session["findings"]] == [("store-over-cap", "warning"), ("last-falls", "warning")]
    assert session["clean"] is False  # a trim warning still fails the session
    junit = tmp_path / "check.xml"
    wsi("check", OVER_CAP, "--junit", junit)
    (trim,) = [c for c in ET.parse(junit).iter("testcase") if c.get("name", "").startswith("trim")]
    assert trim.find("failure") is not None and "warning [last-falls]" in trim.find("failure").text
    assert "warning: c4 falls" in wsi("trim", OVER_CAP).stdout


def test_every_code_has_one_severity_and_the_bundled_files_only_their_own_problems():
    document = json.loads(wsi("check", RESOURCES, "--json").stdout)
    severities = defaultdict(set)
    for session in document["sessions"]:
        for found in session["findings"]:
            severities[found["code"]].add(found["severity"])
            assert not found["code"].startswith("replay-"), (session["path"], found)
        assert all(r["same"] for r in session["replay"]), session["path"]
        if "/broken/" not in session["path"]:
            assert session["clean"], session["path"]  # the demo and every example
    assert {code: s for code, s in severities.items() if len(s) > 1} == {}
    for code, severity in SEVERITY.items():
        assert severities.get(code, {severity}) == {severity}
