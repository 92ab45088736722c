"""Issue 27, case 11: a failure whose message names a per-run handle still "fails the same way"."""
from __future__ import annotations

import json

from wsi_inspector.core.reduce.reduce import Failure, stable_text
from wsi_inspector.core.session.load import load
from tests.conftest import DEMO
from tests.helpers.cli import wsi


def test_wsi_reduce_demo_b5_reduces_and_reproduces(tmp_path):
    source = tmp_path / "demo.json"
    source.write_bytes(DEMO.read_bytes())
    done = wsi("reduce", source, "--body", "b5", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["reproduced"] is True
    assert report["after"]["entries"] < report["before"]["entries"]
    written = load(report["out"])
    assert not written.errors and written.body("b5") is not None


def test_two_runs_naming_different_handle_secrets_are_the_same_failure_and_other_messages_are_not():
    first = Failure("error", "InvalidKeepError", "keep.ward is a handle ({__h: 'h1.49de0f26b2671986c59d3109'})")
    again = Failure("error", "InvalidKeepError", "keep.ward is a handle ({__h: 'h1.75c2892094216b57af2f4f3f'})")
    other_handle = Failure("error", "InvalidKeepError", "keep.ward is a handle ({__h: 'h2.75c2892094216b57af2f4f3f'})")
    assert first == again
    assert first != other_handle  # which handle it was is part of the failure
    assert first != Failure("error", "TypeError", first.message)
    assert first.message.endswith("3109'})")  # shown as it was; only the comparison leaves the secret out
    assert stable_text("h12.deadbeefcafe and h3.0123456789ab") == "h12.… and h3.…"
    assert stable_text("ch1.2 is not a handle; h1.ab neither") == "ch1.2 is not a handle; h1.ab neither"
