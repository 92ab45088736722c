"""A closed runner's idle guest serves the next runner of the process, and its first run is in a fresh realm."""
from __future__ import annotations

from wsi_inspector.core.runner import host
from wsi_inspector.core.runner.envelope import build_envelope
from wsi_inspector.core.runner.host import Runner

POLLUTER = "Date.prototype.toISOString = () => 'LEAKED';\nglobalThis.leaked = 1;\nreturn new Date(0).toISOString();"
CHECKER = "return [new Date(0).toISOString(), typeof leaked];"


def only_guest(runner: Runner) -> host.GuestProcess:
    guest = runner._idle.get()
    runner._idle.put(guest)
    return guest


def test_the_next_runner_takes_the_closed_runners_guest_and_runs_in_a_fresh_realm(demo):
    with Runner(size=1) as first:
        assert first.run(build_envelope(demo, POLLUTER))["returned"] == "LEAKED"
        pid = only_guest(first).proc.pid
    with Runner(size=1) as second:
        assert only_guest(second).proc.pid == pid  # no new guest process was started
        result = second.run(build_envelope(demo, CHECKER))
    assert result["ok"], result.get("error")
    assert result["returned"] == ["1970-01-01T00:00:00.000Z", "undefined"]


def test_a_guest_that_timed_out_or_was_stopped_is_never_kept(demo):
    with Runner(size=1) as runner:
        result = runner.run(build_envelope(demo, "while (true) {}", options={"timeout_s": 0.3}))
        assert result["error"]["name"] == "TimeoutError"
        replacement = only_guest(runner)
        replacement.kill()  # a dead guest in the pool when the runner closes
    assert replacement not in host._spares
    assert all(guest.proc.poll() is None for guest in host._spares)


def test_a_kept_guest_with_too_low_a_memory_limit_is_not_taken():
    with Runner(size=1, data_limit=host.data_limit_for(64 * 1024 * 1024)) as small:
        pid = only_guest(small).proc.pid
    with Runner(size=1) as bigger:  # the default cap needs a higher hard limit
        assert only_guest(bigger).proc.pid != pid
        assert only_guest(bigger).data_limit >= host.data_limit_for(256 * 1024 * 1024)
