"""Issue 27, cases 8, 9 and 14: every input is a regular file read with bounded reads, never mapped;
NUL bytes and UTF-16/32 are named from the first bytes; a CR-only .jsonl loads; names are escaped."""
from __future__ import annotations

import json
import os
import resource
import subprocess
from pathlib import Path

import pytest

from wsi_inspector.core.files.input_file import TooBig, read_input
from wsi_inspector.core.session.reading import LoadError
from wsi_inspector.core.session.load import load
from tests.conftest import DEMO
from tests.helpers.cli import WSI, wsi

LIVE = [{"format": "worker-session/1", "session": {"id": "live"}},
        {"kind": "body", "id": "b1", "code": "return 1"},
        {"kind": "entry", "id": "c1", "call": "pack.corridorRuns.corridorRuns", "input": {"bandDepth": 32}, "unit": "mm", "body": "b1"},
        {"kind": "entry", "id": "c2", "call": "pack.corridorRuns.score", "input": 2, "unit": "mm", "body": "b1"}]


@pytest.fixture
def fifo(tmp_path) -> Path:
    path = tmp_path / "pipe.json"
    os.mkfifo(path)
    return path


# --- case 9: a FIFO, a device, a folder are refused at once -------------------------------------------


@pytest.mark.parametrize("command", [("manifest",), ("validate",), ("kept",), ("trim", "--cap", "1KiB")])
def test_a_fifo_is_refused_at_once_by_every_command(fifo, command):
    done = wsi(command[0], fifo, *command[1:], "--json")
    assert done.returncode == 2
    assert "is a pipe (FIFO), not a regular file" in done.stderr
    assert json.loads(done.stdout)["error"]["message"]


def test_a_fifo_body_for_run_is_refused_at_once(fifo):
    done = wsi("run", DEMO, fifo)
    assert done.returncode == 2 and "is a pipe (FIFO)" in done.stderr


def test_a_fifo_screenshot_source_is_refused_and_the_picture_says_why(fifo, tmp_path):
    done = wsi("gui", fifo, "--screenshot", tmp_path / "shot.png")
    assert done.returncode == 2 and "is a pipe" in done.stderr  # a file that cannot be opened: exit 2, as SPEC 6


def test_a_fifo_under_check_is_a_located_finding_not_a_hang(fifo, tmp_path):
    good = tmp_path / "good.json"
    good.write_bytes(DEMO.read_bytes())
    done = wsi("check", fifo, good, "--json", "--jobs", "1")
    report = json.loads(done.stdout)
    by_path = {s["path"]: s for s in report["sessions"]}
    assert by_path[str(fifo)]["findings"][0]["code"] == "unreadable"
    assert "is a pipe" in by_path[str(fifo)]["findings"][0]["message"]
    assert by_path[str(good)]["bodies"] > 0


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])  # only read: the machine's own are safe here
def test_a_device_is_refused_at_once(device):
    done = wsi("manifest", device)
    assert done.returncode == 2 and "is a device, not a regular file" in done.stderr


def test_a_folder_is_named_as_one(tmp_path):
    done = wsi("validate", tmp_path)
    assert done.returncode == 2 and "is a folder" in done.stderr


# --- case 8: a file cut shorter while read is a truncated text, never a SIGBUS ---------------------------


def test_a_file_cut_shorter_while_read_gives_a_shorter_text_and_a_located_error(tmp_path):
    path = tmp_path / "big.json"
    document = json.loads(DEMO.read_text())
    document["store"] = document["store"] * 400  # several chunks' worth would take long to write; many records do
    document["pad"] = "x" * (9 * 1024 * 1024)
    path.write_text(json.dumps(document))
    cut = []

    def truncate_once(done: int, size: int) -> None:
        if not cut:
            cut.append(done)
            os.truncate(path, done + 10)

    data = read_input(path, on_progress=truncate_once)
    assert len(data) == cut[0] + 10
    session = load(path)  # the file as it is now: cut short
    assert session.unreadable is not None and "ends early" in session.unreadable.message


def test_no_reader_maps_a_file():
    for module in Path("core").rglob("*.py"):
        assert "mmap.mmap(" not in module.read_text(), module
    assert "mmap.mmap(" not in Path("gui/background/follow.py").read_text()


def test_a_limit_refuses_a_bigger_file_without_reading_it(tmp_path):
    path = tmp_path / "s.json"
    path.write_bytes(DEMO.read_bytes())
    with pytest.raises(TooBig):
        read_input(path, limit=10)
    with pytest.raises(LoadError, match="no such file"):
        read_input(tmp_path / "missing.json")


# --- case 14: NUL bytes, UTF-16/32, CR-only lines, names with escapes ---------------------------------------


def _small_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (3 * 1024**3, 3 * 1024**3))


def test_a_5_gb_nul_file_is_refused_from_its_first_bytes_in_small_memory(tmp_path):
    path = tmp_path / "zeros.json"
    with open(path, "wb") as handle:
        handle.truncate(5 * 1000**3)  # sparse: costs no disk
    done = subprocess.run([str(WSI), "manifest", str(path), "--json"], capture_output=True, text=True, timeout=60,
                          preexec_fn=_small_memory)  # 3 GiB of address space: the old reader needed 10.5 GB
    assert done.returncode == 1, done.stderr
    assert "1:1" in done.stderr and "starts with 4,096+ NUL bytes" in done.stderr
    assert json.loads(done.stdout)["error"]["where"] == "1:1"


@pytest.mark.parametrize("encoding, bom, named", [
    ("utf-16-le", False, "UTF-16 (little-endian), without a byte order mark"),
    ("utf-16-be", False, "UTF-16 (big-endian), without a byte order mark"),
    ("utf-16", True, "UTF-16 (little-endian), with a byte order mark"),
    ("utf-32-le", False, "UTF-32 (little-endian), without a byte order mark"),
    ("utf-32", True, "UTF-32 (little-endian), with a byte order mark"),
])
def test_text_in_a_wide_encoding_is_named(tmp_path, encoding, bom, named):
    path = tmp_path / "wide.json"
    path.write_bytes(DEMO.read_text(encoding="utf-8").encode(encoding))
    done = wsi("manifest", path)
    assert done.returncode == 1
    assert named in done.stderr and "iconv" in done.stderr and done.stderr.startswith("wide.json:1:1")


def test_a_gzip_of_utf16_is_named_too(tmp_path):
    import gzip

    path = tmp_path / "wide.json.gz"
    path.write_bytes(gzip.compress(DEMO.read_text(encoding="utf-8").encode("utf-16-le")))
    done = wsi("manifest", path)
    assert done.returncode == 1 and "UTF-16 (little-endian)" in done.stderr


def test_a_cr_only_jsonl_loads_every_line(tmp_path):
    path = tmp_path / "mac.jsonl"
    path.write_bytes(b"\r".join(json.dumps(r).encode() for r in LIVE) + b"\r")
    done = wsi("manifest", path, "--json")
    assert done.returncode == 0, done.stderr
    assert [e["id"] for e in json.loads(done.stdout)["entries"]] == ["c1", "c2"]
    broken = tmp_path / "mac-broken.jsonl"
    broken.write_bytes(b"\r".join([json.dumps(LIVE[0]).encode(), b'{"kind": "entry", "id": }']) + b"\r")
    done = wsi("validate", broken)
    assert "mac-broken.jsonl:2:" in done.stdout  # CR is the line end: the line number is right


@pytest.mark.parametrize("name", ["new\nline.json", "red\x1b[31m.json"])
def test_a_control_character_in_a_file_name_is_escaped_in_the_one_line_error(tmp_path, name):
    path = tmp_path / name
    path.write_text("{not json")
    done = wsi("manifest", path)
    assert done.returncode == 1
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "\x1b" not in done.stderr and ("\\n" in done.stderr or "\\x1b" in done.stderr)
    listed = wsi("validate", path).stdout  # validate lists on stdout: each problem one line there too
    assert "\x1b" not in listed and len(listed.strip().splitlines()) == 2


def test_a_control_character_in_at_is_escaped(tmp_path):
    done = wsi("manifest", DEMO, "--at", "b\n\x1b[2J9")
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1 and "\x1b" not in done.stderr
