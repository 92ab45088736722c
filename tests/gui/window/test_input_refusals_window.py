"""Issue 27, case 9 and 14 in the window: a FIFO or a device is refused at once (the load thread never
waits on it, closing never waits), NUL bytes and UTF-16 are named in the notice."""
from __future__ import annotations

import os

import pytest

from tests.conftest import DEMO


@pytest.mark.parametrize("kind", ["fifo", "/dev/zero"])
def test_a_fifo_or_a_device_is_refused_with_a_notice_and_the_load_thread_ends(window, open_file, tmp_path, kind):
    path = tmp_path / "pipe.json"
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path = kind
    open_file(window, path, timeout=10_000)  # load_finished arrives: nothing waits on the pipe
    assert not window.loader.busy
    text = window.notice.label.text()
    assert window.notice.isVisible() and "not a regular file" in text


def test_utf16_without_a_bom_is_named_in_the_window(window, open_file, tmp_path):
    path = tmp_path / "wide.json"
    path.write_bytes(DEMO.read_text(encoding="utf-8").encode("utf-16-le"))
    open_file(window, path)
    assert "UTF-16 (little-endian), without a byte order mark" in window.notice.label.text()


def test_a_nul_file_is_named_in_the_window(window, open_file, tmp_path):
    path = tmp_path / "zeros.json"
    with open(path, "wb") as handle:
        handle.truncate(50 * 1024 * 1024)
    open_file(window, path)
    assert "NUL bytes" in window.notice.label.text()
