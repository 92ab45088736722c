"""The store, scene and manifest cross to a guest once: a run that shares them with the guest's last run
leaves them out (its realm was made holding them), and every run still sees its own state."""
from __future__ import annotations

import json

from wsi_inspector.core.runner import host
from wsi_inspector.core.runner.envelope import build_envelope
from wsi_inspector.core.runner.host import Runner
from wsi_inspector.core.runner.protocol import STATE_TEXTS

SEES = "const list = inputs.list(); return [list.length, list.length ? list[list.length - 1].id : null, scene.entities().length, scene.info().kept.map((k) => k.name)];"


def sent_frames(monkeypatch) -> list[dict]:
    frames: list[dict] = []
    send = host.GuestProcess.send

    def spy(self, message):
        if message.get("t") == "run":
            frames.append(dict(message))
        send(self, message)

    monkeypatch.setattr(host.GuestProcess, "send", spy)
    return frames


def seen(session, at) -> list:
    """What SEES returns, computed from the session on the host (no runner)."""
    envelope = build_envelope(session, SEES, at=at)
    scene = json.loads(envelope.scene_json)
    store = envelope.texts.store
    last = store[-1].id if store else None
    return [len(store), last, len(scene["entities"]), [kept["name"] for kept in scene["keptManifest"]]]


def test_a_second_run_on_the_same_state_sends_no_state_text_and_sees_the_same(demo, monkeypatch):
    frames = sent_frames(monkeypatch)
    with Runner(size=1) as runner:
        first = runner.run(build_envelope(demo, SEES))
        second = runner.run(build_envelope(demo, SEES))
    assert first["ok"] and second["ok"], (first.get("error"), second.get("error"))
    assert first["returned"] == second["returned"] == seen(demo, None)
    assert all(key in frames[0] for key in STATE_TEXTS)
    assert not any(key in frames[1] for key in STATE_TEXTS)


def test_envelopes_of_one_store_share_its_texts_and_another_store_gets_its_own(demo):
    """The host then finds a held text unchanged by identity (envelope.StoreTexts), not by comparing megabytes."""
    first, second = build_envelope(demo, SEES), build_envelope(demo, "return 1;")
    assert first.store_json is second.store_json and first.texts.lookup is second.texts.lookup
    assert first.manifest_json() is second.manifest_json()
    earlier = build_envelope(demo, SEES, at=demo.bodies[1].key)
    assert earlier.store_json != first.store_json and len(earlier.texts.store) < len(first.texts.store)
    assert build_envelope(demo, SEES).store_json == first.store_json


def test_runs_at_different_points_each_see_their_own_store(demo, monkeypatch):
    frames = sent_frames(monkeypatch)
    points = [demo.bodies[1].key, None, demo.bodies[1].key, demo.bodies[1].key, demo.bodies[3].key]
    with Runner(size=1) as runner:
        results = [runner.run(build_envelope(demo, SEES, at=at)) for at in points]
    assert [r["returned"] for r in results] == [seen(demo, at) for at in points]
    assert seen(demo, points[0]) != seen(demo, None)  # the points really differ
    # The store crossed whenever it changed, and not for the repeated point.
    assert ["store" in frame for frame in frames] == [True, True, True, False, True]


def test_a_replacement_guest_is_sent_every_text_again(demo, monkeypatch):
    frames = sent_frames(monkeypatch)
    with Runner(size=1) as runner:
        assert runner.run(build_envelope(demo, SEES))["ok"]
        stopped = runner.run(build_envelope(demo, "while (true) {}", options={"timeout_s": 0.3}))
        assert stopped["error"]["name"] == "TimeoutError"  # that guest is killed; a fresh one takes its place
        after = runner.run(build_envelope(demo, SEES))
    assert after["ok"], after.get("error")
    assert after["returned"] == seen(demo, None)
    assert all(key in frames[-1] for key in STATE_TEXTS)


def test_the_held_texts_are_not_in_the_bodys_reach(runner, demo):
    runner.run(build_envelope(demo, SEES))
    probe = ("const names = Object.getOwnPropertyNames(globalThis).filter((n) => /preload|texts/i.test(n));\n"
             "return [names, typeof preloaded, typeof storeText];")
    result = runner.run(build_envelope(demo, probe))
    assert result["ok"], result.get("error")
    assert result["returned"] == [[], "undefined", "undefined"]


def test_state_texts_go_in_as_string_values_never_as_script_source(demo, monkeypatch):
    """V8 scans and compiles a string literal in a script (~30 ms for a 3 MB store, for the run and again for
    the next realm): the guest hands the texts in as one string value, so no script it posts holds them."""
    from wsi_inspector.core.runner import guest

    sources: list[str] = []
    post_eval = guest.Realm.post_eval

    def spy(self, source):
        sources.append(source)
        post_eval(self, source)

    monkeypatch.setattr(guest.Realm, "post_eval", spy)

    class Caught(guest.Guest):
        def send(self, message):
            self.last = message

    caught = Caught(0, 1)
    for at in (demo.bodies[2].id, demo.bodies[5].id):  # two states, the second handed to a realm holding the first
        envelope = build_envelope(demo, SEES, at=at)
        realm = guest.Realm(caught.state)
        try:
            assert caught.run(realm, envelope.frame())
        finally:
            realm.close()
        assert json.loads(caught.last["returned"]) == seen(demo, at)
    assert sources and all(len(source) < 2000 for source in sources)
    state = build_envelope(demo, SEES, at=demo.bodies[5].id).store_json.decode()
    assert len(state) > 2000 and not any(state[:200] in source for source in sources)


def test_a_realm_is_made_holding_the_texts_only_after_a_run_handed_none(demo):
    """A run handed new texts (replay: each body its own store) is followed by a bare realm, not one that took the
    texts in for nothing; a run of the same texts again takes them in during its run, and the realm after it holds
    them (the Run tab's re-runs). Every run sees its own state either way."""
    import asyncio

    from wsi_inspector.core.runner.guest import Guest, Realm

    class Kept(Guest):
        def send(self, message) -> None:
            self.sent.append(message)

    def frame(at, held: bool) -> dict:
        whole = build_envelope(demo, SEES, at=at).frame()
        return {key: value for key, value in whole.items() if not (held and key in STATE_TEXTS)}

    async def runs() -> list:
        guest = Kept(0, 1)
        guest.sent = []
        made = []
        realm = Realm()
        for at, held in ((demo.bodies[1].key, False), (None, False), (None, True), (None, True)):
            guest.run(realm, frame(at, held))
            realm.close()
            realm = guest.next_realm()
            made.append(realm.holds_state)
        realm.close()
        return made, [json.loads(m["returned"]) for m in guest.sent]

    made, returned = asyncio.run(runs())
    assert made == [False, False, True, True]
    assert returned == [seen(demo, demo.bodies[1].key), seen(demo, None), seen(demo, None), seen(demo, None)]
