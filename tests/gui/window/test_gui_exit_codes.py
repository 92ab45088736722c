"""`wsi gui … --screenshot` exits as every command does (issue 32 point 7): 2 for a missing file or an unknown body."""
import os
import subprocess
import sys
from pathlib import Path

WSI = Path(sys.executable).with_name("wsi")


def screenshot(*args, tmp_path):
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    out = tmp_path / "shot.png"
    done = subprocess.run([str(WSI), "gui", *map(str, args), "--screenshot", str(out)], capture_output=True,
                          text=True, env=env, timeout=120)
    assert "Traceback" not in done.stderr
    return done, out


def test_a_missing_file_is_bad_usage(tmp_path):
    done, out = screenshot(tmp_path / "MISSING.json", tmp_path=tmp_path)
    assert done.returncode == 2
    assert done.stderr.strip() == f"wsi gui: {tmp_path / 'MISSING.json'}: no such file; check the path"
    assert not out.exists()


def test_an_unknown_body_is_bad_usage(tmp_path):
    done, _out = screenshot("--at", "b99", tmp_path=tmp_path)
    assert done.returncode == 2
    assert "--at b99: no body 'b99' in demo.json; its bodies are: b1, b2" in done.stderr


def test_a_known_body_is_fine(tmp_path):
    done, out = screenshot("--at", "b5", "--tab", "run", tmp_path=tmp_path)
    assert done.returncode == 0, done.stderr
    assert out.exists()


def test_gzip_limit_is_taken_and_checked(tmp_path):
    import gzip

    from tests.conftest import DEMO

    packed = tmp_path / "demo.json.gz"
    packed.write_bytes(gzip.compress(DEMO.read_bytes()))
    done, out = screenshot(packed, "--gzip-limit", "1KiB", tmp_path=tmp_path)
    assert done.returncode == 1, done.stderr
    assert "unpacks to more than 1,024 bytes" in done.stderr and "--gzip-limit" in done.stderr
    done, out = screenshot(packed, "--gzip-limit", "lots", tmp_path=tmp_path)
    assert done.returncode == 2 and "--gzip-limit" in done.stderr
