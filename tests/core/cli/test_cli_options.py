"""Issue 27, case 13: option values that used to crash, hang or be silently changed are refused as usage errors."""
from __future__ import annotations

import json

import pytest

from tests.conftest import DEMO
from tests.helpers.cli import wsi


@pytest.mark.parametrize("command", [("replay", DEMO), ("run", DEMO, DEMO), ("reduce", DEMO, "--body", "b5"), ("check", DEMO)])
@pytest.mark.parametrize("value", ["nan", "0", "-1", "1e308", "inf", "soon"])
def test_every_timeout_is_refused_the_same_way(command, value):
    done = wsi(*command, "--timeout", value, "--json")
    assert done.returncode == 2, done.stderr
    assert "give a number of seconds above 0 and at most 3600" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert "error" in json.loads(done.stdout)


def test_a_cap_of_5000_digits_is_a_usage_error_that_does_not_repeat_it():
    done = wsi("trim", DEMO, "--cap", "9" * 5000)
    assert done.returncode == 2
    assert "1 PiB" in done.stderr and "5,000 characters" in done.stderr and len(done.stderr) < 400
    assert "internal error" not in done.stderr


@pytest.mark.parametrize("size", ["99999999999999999999999", "2000000000MiB"])
def test_a_huge_max_size_is_refused_before_any_worker_starts(size):
    done = wsi("check", DEMO, "--max-size", size)
    assert done.returncode == 2 and "1 PiB" in done.stderr and "Traceback" not in done.stderr


def test_the_biggest_sizes_allowed_still_work():
    done = wsi("trim", DEMO, "--cap", "1024MiB", "--json")
    assert done.returncode == 0 and json.loads(done.stdout)["fell"] == 0
