"""A short seeded fuzz inside the suite (issue 11): every kind of mutation through every command.

The long run, with crash isolation, memory figures and the window, is `tests/fuzz/fuzz_sessions.py`.
"""
import pytest

from tests.fuzz.fuzz_sessions import commands, failure_of, run_one
from tests.fuzz.mutations import KINDS, make_case

SEED = 1111
CASES = 3 * len(KINDS)  # three of each kind: a few seconds


@pytest.fixture
def small_gzip_limit(monkeypatch):
    monkeypatch.setenv("WSI_GZIP_LIMIT", "16MiB")  # a bomb case is refused here instead of costing 80 MiB


@pytest.mark.parametrize("number", range(CASES))
def test_a_fuzzed_session_never_takes_a_command_down(number, tmp_path, small_gzip_limit):
    case = make_case(SEED, number)
    path = tmp_path / case.name
    path.write_bytes(case.data)
    body = tmp_path / "body.js"
    body.write_text("return Object.keys(kept).length;\n")
    before = path.read_bytes()
    # run and replay (a V8 guest each) on one case of the short run; the long run samples more.
    for argv in commands(str(path), number, CASES if number == 0 else 0, str(body)):
        result = run_one(argv)
        assert failure_of(result) is None, (case.kind, argv, result["stderr"][-500:])
    assert path.read_bytes() == before  # never writes to the file it reads
