"""Issue 27, cases 6 and 7: a followed file replaced, truncated and rewritten (copytruncate), or rewritten
in place is read again whole and the window says so; it never shows two files spliced, never maps."""
from __future__ import annotations

import os

from tests.helpers.live_session import HEADER, entry_record, record_line

BODY = record_line({"kind": "body", "id": "b1", "code": "return 1"})


def _first(path, count: int = 3) -> None:
    path.write_bytes(record_line(HEADER) + BODY + b"".join(record_line(entry_record(n)) for n in range(1, count + 1)))


def _other(numbers) -> bytes:
    other = {**HEADER, "session": {"id": "other", "title": "another session"}}
    return record_line(other) + record_line({"kind": "body", "id": "b9", "code": "return 9"}) + b"".join(
        record_line(entry_record(n, "b9")) for n in numbers)


def _follow(window, open_file, path, qtbot):
    open_file(window, path)
    window.follower._poll.setInterval(50)
    window.set_follow(True)


def _ids(window) -> list[str]:
    return [str(e.id) for e in window.context.session.entries]


def test_truncate_and_rewrite_copytruncate_reloads_the_new_content_only_and_says_so(window, open_file, tmp_path, qtbot):
    path = tmp_path / "live.jsonl"
    _first(path)
    _follow(window, open_file, path, qtbot)
    # logrotate's copytruncate: the same inode cut to 0 and written again, here longer than before
    with open(path, "r+b") as handle:
        handle.truncate(0)
        handle.write(_other(range(101, 110)))
    qtbot.waitUntil(lambda: window.context.session.title == "another session", timeout=10_000)
    assert _ids(window) == [f"c{n}" for n in range(101, 110)]  # not b1, c1…c3, c103…c109
    assert "while followed" in window.notice.label.text()


def test_another_session_renamed_over_the_followed_file_is_read_whole(window, open_file, tmp_path, qtbot):
    path = tmp_path / "live.jsonl"
    _first(path)
    _follow(window, open_file, path, qtbot)
    other = tmp_path / "other.jsonl"
    other.write_bytes(_other(range(101, 110)))
    os.replace(other, path)
    qtbot.waitUntil(lambda: window.context.session.title == "another session", timeout=10_000)
    assert _ids(window) == [f"c{n}" for n in range(101, 110)]
    assert "replaced by another file" in window.notice.label.text()


def test_a_record_rewritten_in_place_at_the_same_length_is_not_left_stale(window, open_file, tmp_path, qtbot):
    path = tmp_path / "live.jsonl"
    _first(path)
    _follow(window, open_file, path, qtbot)
    text = path.read_bytes()
    changed = text.replace(b'"input":{"n":2}', b'"input":{"n":7}')
    assert len(changed) == len(text) and changed != text
    with open(path, "r+b") as handle:
        handle.write(changed)
    os.utime(path, ns=(os.stat(path).st_atime_ns, os.stat(path).st_mtime_ns + 1_000_000_000))  # a coarse clock
    qtbot.waitUntil(lambda: window.context.session.entries[1].input == {"n": 7}, timeout=10_000)
    assert "rewritten" in window.notice.label.text()


def test_the_baseline_is_the_load_not_the_first_change(window, open_file, tmp_path, qtbot):
    """The file is replaced after the load and before following starts: the follower must not take the
    new file as what was loaded and splice its later lines onto the old session."""
    path = tmp_path / "live.jsonl"
    _first(path)
    open_file(window, path)
    other = tmp_path / "other.jsonl"
    other.write_bytes(_other(range(101, 104)))
    os.replace(other, path)
    window.follower._poll.setInterval(50)
    window.set_follow(True)
    with path.open("ab") as handle:
        handle.write(record_line(entry_record(104, "b9")))
    qtbot.waitUntil(lambda: window.context.session.title == "another session", timeout=10_000)
    qtbot.waitUntil(lambda: _ids(window) == ["c101", "c102", "c103", "c104"], timeout=10_000)


def test_plain_appends_are_still_read_on_their_own(window, open_file, tmp_path, qtbot):
    path = tmp_path / "live.jsonl"
    _first(path)
    _follow(window, open_file, path, qtbot)
    session = window.context.session
    for n in (4, 5):
        with path.open("ab") as handle:
            handle.write(record_line(entry_record(n)))
        qtbot.waitUntil(lambda n=n: len(window.context.session.entries) == n, timeout=10_000)
    assert window.context.session is session  # extended in place, not loaded again
    assert not window.notice.isVisible()
