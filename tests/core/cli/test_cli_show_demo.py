"""`wsi demo` and `wsi show` (issue 32 points 3 and 4), and the demo's b5 reducing as the tour says."""
import json
from pathlib import Path

from tests.conftest import DEMO
from tests.helpers.cli import wsi

EXAMPLES = Path(__file__).resolve().parents[3] / "resources" / "examples"


def test_demo_prints_the_bundled_demo_path_and_help_says_where_it_is():
    done = wsi("demo")
    assert done.returncode == 0, done.stderr
    assert Path(done.stdout.strip()).samefile(DEMO)
    assert json.loads(wsi("demo", "--json").stdout) == {"demo": done.stdout.strip()}
    helped = wsi("--help")
    assert done.stdout.strip() in " ".join(helped.stdout.split()).replace(" ", "") or str(DEMO.name) in helped.stdout
    assert "wsi demo --copy DIR" in " ".join(helped.stdout.split())


def test_demo_copy_writes_the_demo_and_every_example_and_never_overwrites(tmp_path):
    folder = tmp_path / "new" / "tour"
    done = wsi("demo", "--copy", folder)
    assert done.returncode == 0, done.stderr
    shipped = {p.name for p in EXAMPLES.iterdir() if p.suffix in {".js", ".ts", ".json"}}
    assert {p.name for p in folder.iterdir()} == shipped | {"demo.json"}
    assert (folder / "demo.json").read_bytes() == DEMO.read_bytes()
    (folder / "first-body.js").write_text("// mine\n")
    again = wsi("demo", "--copy", folder)
    assert again.returncode == 2
    assert "already there" in again.stderr and "demo.json" in again.stderr
    assert (folder / "first-body.js").read_text() == "// mine\n"


def test_show_prints_code_outcome_calls_and_keep():
    done = wsi("show", DEMO, "--body", "b5")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("body b5 (js): failed: InvalidKeepError: keep.ward is a handle")
    assert '  const ward = scene.get("ward-2");' in done.stdout.splitlines()
    assert "calls (2): c20 pack.corridorRuns.corridorRuns, c21 pack.corridorRuns.score" in done.stdout
    assert 'keep: {"spine":' in done.stdout and '"ward":{"__h":"h1"}' in done.stdout


def test_show_code_is_the_code_as_recorded_and_runs():
    recorded = json.loads(DEMO.read_text())["bodies"][6]["code"]
    done = wsi("show", DEMO, "--body", "b7", "--code")
    assert done.returncode == 0 and done.stdout == recorded + "\n"


def test_show_json_document():
    out = json.loads(wsi("show", DEMO, "--body", "b7", "--json").stdout)
    assert list(out) == ["body", "lang", "code", "outcome", "calls", "keep"]
    assert out["outcome"] == {"ok": False, "error": "Error: offset distance must be positive (got a negative distance)", "logs": []}
    assert out["calls"] == [{"id": "c30", "call": "site.boundary.offset"}] and out["keep"] is None


def test_show_refuses_an_unknown_body_and_two_outputs():
    unknown = wsi("show", DEMO, "--body", "b99", "--json")
    assert unknown.returncode == 2 and "no body 'b99'" in unknown.stderr and "b1, b2" in unknown.stderr
    assert "error" in json.loads(unknown.stdout)
    both = wsi("show", DEMO, "--body", "b7", "--code", "--json")
    assert both.returncode == 2 and "give one" in both.stderr


def test_show_takes_the_body_as_typed_first_and_names_the_bodies_when_none_is_given():
    # `wsi show demo.json b5` said only "the following arguments are required: --body".
    assert wsi("show", DEMO, "b5").stdout == wsi("show", DEMO, "--body", "b5").stdout
    none = wsi("show", DEMO)
    assert none.returncode == 2 and none.stderr.strip() == (
        "wsi show: no body given; its bodies are: b1, b2, b3, b4, b5, b6, b7, b8 (wsi show FILE --body B)")
    two = wsi("show", DEMO, "b4", "--body", "b5")
    assert two.returncode == 2 and "two bodies given (b4 and --body b5)" in two.stderr


def test_the_demo_b5_reduces_and_reproduces(tmp_path):
    # A refused handle's message named the run's secret, so no other run failed "the same way".
    out = tmp_path / "b5.json"
    done = wsi("reduce", DEMO, "--body", "b5", "--out", out, "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["reproduced"] is True and report["after"]["entries"] == 1
    code = tmp_path / "b5.js"
    code.write_text(wsi("show", DEMO, "--body", "b5", "--code").stdout)
    ran = wsi("run", out, code, "--at", "b5")
    assert ran.returncode == 1
    assert "keep.ward is a handle ({__h: 'h1'}), which dies with the worker" in ran.stderr


def test_check_takes_gzip_limit_as_every_command_does(tmp_path):
    import gzip

    (tmp_path / "demo.json.gz").write_bytes(gzip.compress(DEMO.read_bytes()))
    small = wsi("check", tmp_path, "--gzip-limit", "1KiB")
    assert small.returncode == 1 and "over 1,024 bytes" in small.stdout
    assert wsi("check", tmp_path, "--gzip-limit", "1GiB").returncode == 0
    assert wsi("check", tmp_path, "--gzip-limit", "lots").returncode == 2


def test_show_json_outcome_keys_come_in_the_documented_order():
    out = json.loads(wsi("show", DEMO, "--body", "b1", "--json").stdout)
    assert list(out["outcome"]) == ["ok", "returned", "logs"] and out["outcome"]["ok"] is True


def test_a_command_without_its_file_says_where_the_demo_is():
    for command in ("manifest", "run"):
        done = wsi(command)
        assert done.returncode == 2
        assert "required: FILE" in done.stderr and "`wsi demo` prints the bundled demo session's path" in done.stderr
