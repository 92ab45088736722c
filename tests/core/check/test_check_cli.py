"""`wsi check` end to end: a real corpus on disk, real worker processes, real V8, the real command."""
from __future__ import annotations

import gzip
import json
import multiprocessing
import os
import signal
import subprocess
import sys
import threading
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from wsi_inspector.core.check.check import CheckOptions, fails_session
from wsi_inspector.core.check.pool import LocalChecker
from tests.conftest import DEMO, ROOT
from tests.helpers.check_corpus import edit_falling_cap, session, write

WSI = str(Path(sys.executable).parent / "wsi")


def wsi(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([WSI, *args], capture_output=True, text=True, timeout=timeout, cwd=ROOT)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    """Clean sessions in every form, and one of each way a session can fail, some hostile."""
    root = tmp_path_factory.mktemp("corpus")
    write(root / "clean/a.json", session("a", bodies=2))
    write(root / "clean/b.jsonl", session("b", bodies=2))
    write(root / "clean/c.json.gz", session("c", bodies=1))
    write(root / "clean/edited.jsonl.gz", session("e", bodies=2, edit=True))
    write(root / "bad/differs.json", session("d", bodies=2, differs=True))
    lost = session("t", bodies=3, edit=True)
    lost["caps"] = {"storeBytes": edit_falling_cap(lost)}
    write(root / "bad/lost_edit.json", lost)
    write(root / "bad/endless.json", session("l", bodies=2, endless=True))
    (root / "bad/not_json.json").write_text('{"format": "worker-session/1", "store": [')
    (root / "bad/bomb.json.gz").write_bytes(gzip.compress(b" " * (48 * 1024 * 1024), 9))
    (root / "bad/truncated.json.gz").write_bytes(gzip.compress(json.dumps(session("x")).encode())[:-20])
    (root / "notes.txt").write_text("not a session")
    return root


EXPECTED = {
    "clean/a.json": [], "clean/b.jsonl": [], "clean/c.json.gz": [], "clean/edited.jsonl.gz": [],
    "bad/differs.json": ["replay-returned"], "bad/lost_edit.json": ["edit-falls"], "bad/endless.json": ["replay-missing-call"],
    "bad/not_json.json": ["syntax"], "bad/bomb.json.gz": ["too-large"], "bad/truncated.json.gz": ["bad-gzip"],
}


def test_check_reports_every_session_and_one_hostile_session_never_stops_the_rest(corpus):
    done = wsi("check", str(corpus), "--jobs", "2", "--json", "--timeout", "1", "--max-size", "8MiB")
    assert done.returncode == 1, done.stderr
    document = json.loads(done.stdout)
    assert (document["total"], document["checked"], document["clean"], document["interrupted"]) == (10, 10, 4, False)
    found = {Path(r["path"]).relative_to(corpus).as_posix(): r for r in document["sessions"]}
    assert set(found) == set(EXPECTED)
    for name, wanted in EXPECTED.items():
        failing = [f["code"] for f in found[name]["findings"] if fails_session(f)]
        assert failing == wanted, (name, found[name]["findings"])
        assert found[name]["clean"] is (not wanted)
    endless = found["bad/endless.json"]
    assert endless["fails"] == 1 and endless["replay"][1]["error"]["name"] == "TimeoutError"
    assert "checked 10/10 sessions, 6 not clean" in done.stderr


def test_a_clean_corpus_exits_0_and_bad_usage_exits_2(corpus, tmp_path):
    done = wsi("check", str(corpus / "clean"), str(DEMO), "--jobs", "1")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "5 of 5 sessions checked, 5 clean, 0 not clean" in done.stdout
    for args, words in [
        (["check", str(tmp_path / "nowhere")], "no such file or folder"),
        (["check", str(corpus), "--where", "edited"], "edited needs a value"),
        (["check", str(corpus), "--jobs", "0"], "give 1 or more"),
        (["check", str(tmp_path)], "no session files"),
        (["check", str(corpus), "--json", "--junit", "x.xml"], "not allowed with"),
    ]:
        bad = wsi(*args)
        assert bad.returncode == 2 and words in bad.stderr, (args, bad.stderr)
        assert "Traceback" not in bad.stderr
    as_json = wsi("check", str(tmp_path / "nowhere"), "--json")
    assert as_json.returncode == 2 and "no such file" in json.loads(as_json.stdout)["error"]["message"]


def test_junit_has_a_case_per_body_and_per_session_load_and_trim_and_parses(corpus, tmp_path):
    out = tmp_path / "check.xml"
    done = wsi("check", str(corpus / "bad"), str(corpus / "clean"), "--junit", str(out), "--timeout", "1",
               "--max-size", "8MiB")
    assert done.returncode == 1
    root = ET.parse(out).getroot()
    suites = {Path(s.get("name")).relative_to(corpus).as_posix(): s for s in root.iter("testsuite")}
    assert set(suites) == set(EXPECTED)
    lost = suites["bad/lost_edit.json"]
    names = [c.get("name") for c in lost.iter("testcase")]
    assert names[0] == "load" and names[1].startswith("trim at cap") and names[2:] == ["body b1", "body b2", "body b3"]
    assert [c.get("name") for c in lost.iter("testcase") if c.find("failure") is not None] == [names[1]]
    differs = suites["bad/differs.json"]
    failed = [c for c in differs.iter("testcase") if c.find("failure") is not None]
    assert [c.get("name") for c in failed] == ["body b2"] and "returned value differs" in failed[0].find("failure").get("message")
    assert suites["bad/bomb.json.gz"].find("testcase/failure") is not None
    assert int(root.get("failures")) == sum(int(s.get("failures")) for s in suites.values()) == 6
    assert int(root.get("tests")) == sum(1 for _ in root.iter("testcase"))


def test_where_lists_the_sessions_a_person_edited_that_call_in(corpus):
    done = wsi("check", str(corpus), "--where", "edited=pack.corridorRuns", "--json", "--timeout", "1", "--max-size", "8MiB")
    document = json.loads(done.stdout)
    names = sorted(Path(r["path"]).relative_to(corpus).as_posix() for r in document["sessions"])
    assert names == ["bad/lost_edit.json", "clean/edited.jsonl.gz"]
    assert document["where"] == "edited=pack.corridorRuns" and document["reported"] == 2
    assert done.returncode == 1  # lost_edit.json is not clean
    edit_falls = wsi("check", str(corpus), "--where", "edit-falls", "--max-size", "8MiB", "--timeout", "1")
    assert "bad/lost_edit.json: NOT CLEAN" in edit_falls.stdout and "1 matched" in edit_falls.stdout


def test_ctrl_c_stops_cleanly_with_a_partial_report(tmp_path):
    write(tmp_path / "a0.json", session("fast", bodies=1))
    for n in range(1, 8):
        write(tmp_path / f"a{n}.json", session(f"slow{n}", bodies=2, endless=True))
    proc = subprocess.Popen([WSI, "check", str(tmp_path), "--jobs", "1",
                             "--json", "--timeout", "2"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    first = proc.stderr.readline()
    assert first.startswith("checked 1/8 sessions"), first
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)  # a wait bound; how soon it stops: tests/bench/bench_stop.py
    assert proc.returncode == 130, err
    document = json.loads(out)
    assert document["interrupted"] is True and document["total"] == 8 and 1 <= document["checked"] < 8
    assert "stopped;" in err and "Traceback" not in err


def _children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found.extend(int(c) for c in (task / "children").read_text().split())
    return found


def test_a_worker_that_dies_costs_only_its_session(tmp_path):
    paths = [write(tmp_path / "slow.json", session("slow", bodies=1, endless=True)),
             write(tmp_path / "next.json", session("next", bodies=2))]
    reports = {}

    def kill_the_worker_when_busy() -> None:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not reports:
            workers = [p for p in multiprocessing.active_children() if p.name == "wsi-check"]
            if workers and time.monotonic() > started + 2.5:
                orphans.extend(_children(workers[0].pid))
                os.kill(workers[0].pid, signal.SIGKILL)
                return
            time.sleep(0.05)

    orphans: list[int] = []
    started = time.monotonic()
    killer = threading.Thread(target=kill_the_worker_when_busy)
    killer.start()
    try:
        finished = LocalChecker(CheckOptions(timeout_s=10), jobs=1).run(paths, lambda i, r: reports.__setitem__(i, r))
    finally:
        killer.join()
        # The killed worker's guest outlives it until the runner ends a guest that lost its host
        # (issue 12); end it here so the test leaves nothing running.
        for pid in orphans:
            try:
                os.killpg(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
    assert finished
    assert [f["code"] for f in reports[0]["findings"]] == ["crashed"] and "signal 9" in reports[0]["findings"][0]["message"]
    assert reports[1]["clean"] and reports[1]["same"] == 2
