"""Issue 27, case 12: output that survives any terminal and any closed stream."""
from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.conftest import DEMO
from tests.helpers.cli import WSI

COMMANDS = [("manifest",), ("trim", "--cap", "5KiB"), ("diff",), ("kept",)]


def run(*args, env=None, **kwargs):
    return subprocess.run([str(WSI), *map(str, args)], env={**os.environ, **(env or {})}, timeout=60, **kwargs)


@pytest.mark.parametrize("command", COMMANDS)
def test_a_terminal_that_cannot_spell_the_symbols_gets_escapes_not_an_internal_error(command):
    done = run(command[0], DEMO, *command[1:], env={"PYTHONIOENCODING": "ascii", "LANG": "C"},
               capture_output=True)
    assert done.returncode == 0, done.stderr
    assert b"internal error" not in done.stderr
    done.stdout.decode("ascii")  # every byte spells in the terminal's encoding
    assert b"\\u" in done.stdout  # what ascii cannot spell is escaped, not dropped


def test_closed_stdout_is_one_line_and_exit_2():
    done = run("manifest", DEMO, stderr=subprocess.PIPE, preexec_fn=lambda: os.close(1))
    assert done.returncode == 2
    lines = done.stderr.decode().strip().splitlines()
    assert lines == ["wsi: standard output is closed; nothing could be printed (redirect it to a file or /dev/null)"]


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("json_flag", [[], ["--json"]])
def test_full_stdout_is_one_line_and_exit_2(json_flag):
    with open("/dev/full", "wb") as full:
        done = run("manifest", DEMO, *json_flag, stdout=full, stderr=subprocess.PIPE)
    assert done.returncode == 2
    lines = done.stderr.decode().strip().splitlines()
    assert len(lines) == 1 and "cannot write to standard output" in lines[0] and "internal error" not in lines[0]


def test_with_stderr_closed_stdout_holds_only_the_json_document(tmp_path):
    done = run("manifest", tmp_path / "missing.json", "--json", stdout=subprocess.PIPE, preexec_fn=lambda: os.close(2))
    assert done.returncode == 2
    assert list(json.loads(done.stdout)) == ["error"]
    assert done.stdout.count(b"\n") == 1
