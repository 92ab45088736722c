"""Issue 27, cases 1–5 and 13: every file `wsi` writes is written whole, beside OUT, never onto an input or a device."""
from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from wsi_inspector.core.files.output_file import OutputRefused, check_output, write_output
from tests.conftest import DEMO
from tests.helpers.cli import WSI, wsi


@pytest.fixture
def session(tmp_path) -> Path:
    path = tmp_path / "s.json"
    path.write_bytes(DEMO.read_bytes())
    return path


def unchanged(path: Path) -> bool:
    return path.read_bytes() == DEMO.read_bytes()


# --- case 1: OUT is the session --------------------------------------------------------------------


def test_check_junit_onto_the_session_is_refused_before_the_check(session):
    done = wsi("check", session, "--junit", session)
    assert done.returncode == 2
    assert "that is the input" in done.stderr and "never written" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert unchanged(session)


def test_check_junit_onto_a_hard_link_or_symlink_of_a_session_under_a_folder_is_refused(tmp_path):
    folder = tmp_path / "runs"
    folder.mkdir()
    inside = folder / "a.json"
    inside.write_bytes(DEMO.read_bytes())
    os.link(inside, tmp_path / "hard.xml")
    (tmp_path / "soft.xml").symlink_to(inside)
    for out in ("hard.xml", "soft.xml"):
        done = wsi("check", folder, "--junit", tmp_path / out)
        assert done.returncode == 2, done.stderr
        assert "that is the input" in done.stderr
    assert unchanged(inside)


def test_gui_screenshot_onto_the_session_is_refused_before_loading(session):
    done = wsi("gui", session, "--screenshot", session)
    assert done.returncode == 2
    assert "that is the input" in done.stderr
    assert unchanged(session)


def test_gui_screenshot_is_written_whole_and_is_a_png(session, tmp_path):
    out = tmp_path / "shot.png"
    done = wsi("gui", session, "--screenshot", out)
    assert done.returncode == 0, done.stderr
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


# --- case 2: the temporary name is not predictable, no link is followed ------------------------------


def test_reduce_of_a_file_named_like_the_old_temporary_does_not_move_it(tmp_path):
    source = tmp_path / "x.json.partial"
    source.write_bytes(DEMO.read_bytes())
    done = wsi("reduce", source, "--body", "b7", "--out", tmp_path / "x.json", "--repro")
    assert done.returncode == 0, done.stderr
    assert source.read_bytes() == DEMO.read_bytes()
    assert json.loads((tmp_path / "x.json").read_text())["format"] == "worker-session/1"


def test_a_symlink_where_the_old_temporary_would_be_is_never_written_through(session, tmp_path):
    (tmp_path / "s.repro.json.partial").symlink_to(session)
    done = wsi("reduce", session, "--body", "b7", "--repro")
    assert done.returncode == 0, done.stderr
    assert unchanged(session)
    assert json.loads((tmp_path / "s.repro.json").read_text())["bodies"]


def test_out_a_symlink_is_replaced_by_the_file_not_written_through(tmp_path):
    elsewhere = tmp_path / "elsewhere.txt"
    elsewhere.write_text("keep me")
    link = tmp_path / "out.json"
    link.symlink_to(elsewhere)
    write_output(link, b"{}\n")
    assert elsewhere.read_text() == "keep me"
    assert not link.is_symlink() and link.read_bytes() == b"{}\n"


# --- case 3: two writers of one OUT ------------------------------------------------------------------


def test_two_reduces_writing_one_out_at_once_leave_valid_json_and_both_tell_the_truth(session, tmp_path):
    out = tmp_path / "one.json"
    command = [str(WSI), "reduce", str(session), "--body", "b7", "--repro", "--out", str(out)]
    runs = [subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(4)]
    results = [(r.wait(timeout=60), *r.communicate()) for r in runs]
    for status, stdout, stderr in results:
        assert status == 0, stderr
        assert stdout.startswith(f"wrote {out}")
    assert json.loads(out.read_text())["format"] == "worker-session/1"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["one.json", "s.json"]


def test_many_threads_writing_one_out_each_leave_a_whole_file(tmp_path):
    out = tmp_path / "o.json"
    payloads = [json.dumps({"writer": i, "pad": "x" * 200_000}).encode() for i in range(8)]
    threads = [threading.Thread(target=write_output, args=(out, p)) for p in payloads]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert out.read_bytes() in payloads


# --- case 4: devices and folders -----------------------------------------------------------------------


def _device(folder: Path, name: str, minor: int) -> Path:
    """A character device like /dev/null (minor 3) or /dev/full (minor 7), made in the test's own folder:
    a product that replaced a device with a file must break only this copy, never the machine's /dev."""
    path = folder / name
    try:
        os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, minor))
    except PermissionError:
        pytest.skip("making a device node needs root")
    return path


@pytest.mark.parametrize("kind", ["null", "stdout"])
def test_a_device_as_out_is_refused_and_left_a_device(session, tmp_path, kind):
    if kind == "null":
        device = _device(tmp_path, "null", 3)
    else:  # what /dev/stdout is: a link to the process's standard output, here a pipe
        device = tmp_path / "stdout"
        device.symlink_to("/proc/self/fd/1")
    done = wsi("reduce", session, "--body", "b7", "--repro", "--out", device)
    assert done.returncode == 2
    assert "not a regular file" in done.stderr and "give the path of a file" in done.stderr and "--json" not in done.stderr
    if kind == "null":
        assert device.is_char_device()
    else:
        assert device.is_symlink()  # not replaced by a file (what it points at is this process's own stdout)


def test_a_fifo_as_junit_is_refused_at_once(session, tmp_path):
    fifo = tmp_path / "pipe.xml"
    os.mkfifo(fifo)
    done = wsi("check", session, "--junit", fifo)
    assert done.returncode == 2 and "not a regular file" in done.stderr


def test_reduce_out_a_folder_fails_before_the_reduction(session, tmp_path):
    done = wsi("reduce", session, "--body", "b5", "--out", tmp_path, "--json")
    assert done.returncode == 2
    assert "is a folder" in done.stderr
    assert json.loads(done.stdout)["error"]["message"].endswith("give a file name inside it")
    assert "runs" not in done.stderr  # no progress: nothing was run


# --- case 5: a failed write leaves the previous file whole -----------------------------------------------


def test_a_write_that_fails_midway_leaves_the_previous_report_and_no_temporary(tmp_path):
    out = tmp_path / "report.xml"
    out.write_text("<previous/>")

    def half_then_full(file):
        file.write(b"<half")
        raise OSError(28, "No space left on device")

    with pytest.raises(OSError):
        write_output(out, half_then_full)
    assert out.read_text() == "<previous/>"
    assert [p.name for p in tmp_path.iterdir()] == ["report.xml"]


def test_a_full_device_as_junit_is_refused_not_attempted(session, tmp_path):
    full = _device(tmp_path, "full", 7)
    done = wsi("check", session, "--junit", full)
    assert done.returncode == 2 and "not a regular file" in done.stderr
    assert not full.is_file()


def test_check_output_names_a_missing_folder(tmp_path):
    with pytest.raises(OutputRefused, match="no folder"):
        check_output(tmp_path / "nope" / "out.json")


def test_the_written_file_gets_the_usual_permissions_not_the_temporary_ones(tmp_path):
    out = write_output(tmp_path / "o.json", b"{}")
    mask = os.umask(0)
    os.umask(mask)
    assert out.stat().st_mode & 0o777 == 0o666 & ~mask


def test_a_newline_or_escape_in_out_is_shown_escaped_in_the_one_line_error(session, tmp_path):
    out = tmp_path / "bad\nname\x1b[31m" / "o.json"
    done = wsi("reduce", session, "--body", "b7", "--repro", "--out", out)
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1
    assert "\x1b" not in done.stderr and "\\n" in done.stderr and "\\x1b" in done.stderr


if sys.platform != "linux":  # pragma: no cover
    pytestmark = pytest.mark.skip("POSIX file semantics")


@pytest.fixture
def full_disk(tmp_path):
    """A 256 KiB tmpfs holding `report.xml` and `shot.png` from before, then filled to the last byte."""
    folder = tmp_path / "full"
    folder.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(folder)], capture_output=True)
    if mounted.returncode != 0:
        pytest.skip("mounting a small tmpfs needs root")
    try:
        (folder / "report.xml").write_text("<previous/>")
        (folder / "shot.png").write_bytes(b"previous picture")
        with open(folder / "filler", "wb", buffering=0) as filler:
            try:
                while True:
                    filler.write(b"\1" * 4096)
            except OSError:
                pass
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], capture_output=True)


def test_a_full_disk_keeps_the_previous_junit_report_and_screenshot_whole(session, full_disk):
    done = wsi("check", session, "--junit", full_disk / "report.xml")
    assert done.returncode == 2, done.stderr
    assert "No space left on device" in done.stderr and "Traceback" not in done.stderr
    assert (full_disk / "report.xml").read_text() == "<previous/>"
    shot = wsi("gui", session, "--screenshot", full_disk / "shot.png")
    assert shot.returncode == 2 and "No space left on device" in shot.stderr
    assert (full_disk / "shot.png").read_bytes() == b"previous picture"
    assert sorted(p.name for p in full_disk.iterdir()) == ["filler", "report.xml", "shot.png"]  # no temporary left
