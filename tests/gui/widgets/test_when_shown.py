"""WhenShown: a hidden view keeps the most a change asked of it, and does it once when shown."""
from wsi_inspector.gui.widgets.when_shown import WhenShown


def test_a_shown_view_does_the_work_at_once():
    done = []
    later = WhenShown(lambda: True)
    assert later.owe(lambda: done.append("cursor")) is True
    assert done == ["cursor"] and not later.owes


def test_a_hidden_view_keeps_the_highest_ranked_work_and_does_it_once_when_shown():
    done, shown = [], [False]
    later = WhenShown(lambda: shown[0])
    assert later.owe(lambda: done.append("cursor 1"), rank=1) is False
    later.owe(lambda: done.append("session"), rank=2)
    later.owe(lambda: done.append("cursor 2"), rank=1)  # the session's showing covers the cursor's
    assert done == [] and later.owes
    shown[0] = True
    later.catch_up()
    later.catch_up()
    assert done == ["session"] and not later.owes


def test_among_work_of_one_rank_the_last_asked_for_is_kept():
    done = []
    later = WhenShown(lambda: False)
    later.owe(lambda: done.append("b1"))
    later.owe(lambda: done.append("b2"))
    later.catch_up()
    assert done == ["b2"]


def test_forgotten_work_is_not_done_and_work_kept_is_done_before_work_asked_of_a_shown_view():
    done, shown = [], [False]
    later = WhenShown(lambda: shown[0])
    later.owe(lambda: done.append("follow the cursor"), rank=2)
    later.forget()
    later.catch_up()
    assert done == []
    later.owe(lambda: done.append("index the session"), rank=2)
    shown[0] = True  # shown before its showEvent came
    later.owe(lambda: done.append("compare"))
    assert done == ["index the session", "compare"]
