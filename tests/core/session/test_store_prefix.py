"""A state's store is the session's entries read in place (StorePrefix), and reads exactly as their slice would."""
import pytest

from wsi_inspector.core.session.model import StorePrefix
from wsi_inspector.core.session.load import load
from tests.conftest import DEMO


def test_a_prefix_reads_as_the_slice_of_the_entries_it_stands_for():
    entries = list(range(10))
    prefix = StorePrefix(entries, 6)  # type: ignore[arg-type]
    expected = entries[:6]
    assert len(prefix) == 6 and list(prefix) == expected and prefix == expected
    assert [prefix[n] for n in range(-6, 6)] == [expected[n] for n in range(-6, 6)]
    for index in (slice(None), slice(2, 4), slice(-3, None), slice(None, None, -1), slice(5, 0, -2), slice(4, 2), slice(0, 99)):
        assert prefix[index] == expected[index], index
    for outside in (6, 7, -7):
        with pytest.raises(IndexError):
            prefix[outside]
    assert 5 in prefix and 6 not in prefix and prefix.index(3) == 3 and list(reversed(prefix)) == expected[::-1]
    entries.append(10)  # a followed file grew: the state before it did not
    assert len(prefix) == 6 and list(prefix) == expected


def test_a_body_before_the_end_is_handed_its_entries_without_a_copy():
    session = load(DEMO)
    body = session.bodies[3]
    store = session.state_at(body.id).store
    assert isinstance(store, StorePrefix)
    assert 0 < len(store) < len(session.entries)
    assert all(a is b for a, b in zip(store, session.entries))
    assert store[-1] is session.entries[len(store) - 1]
