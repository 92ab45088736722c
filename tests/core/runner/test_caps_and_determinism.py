"""Output caps come back with markers; random and time are fixed unless asked otherwise."""
from __future__ import annotations

from wsi_inspector.core.runner.envelope import build_envelope


def test_100000_console_lines_come_back_capped_with_a_marker(demo, runner):
    result = runner.run(build_envelope(demo, "for (let i = 0; i < 100000; i++) console.log('line', i);\nreturn 1;"))
    logs = result["logs"]
    assert result["ok"] is True
    assert len(logs) <= 300
    assert sum(len(line) for line in logs[1:]) <= 16_000
    assert logs[0].startswith("\u2026 [cut:") and "earlier log entries" in logs[0]
    assert logs[-1] == "line 99999"


def test_a_5_mb_returned_value_comes_back_cut_with_a_marker(demo, runner):
    result = runner.run(build_envelope(demo, "return { big: 'x'.repeat(5 * 1024 * 1024) };"))
    assert result["ok"] is True
    returned = result["returned"]
    assert isinstance(returned, str) and len(returned) < 24_200
    assert returned.startswith('{"big":"xxx')
    assert "returned value cut" in returned and "5,242,890 characters" in returned
    assert len(result.full_returned["big"]) == 5 * 1024 * 1024


def test_a_single_huge_log_line_keeps_its_newest_characters(demo, runner):
    result = runner.run(build_envelope(demo, "log('a'.repeat(50000) + 'END');"))
    assert result["logs"][-1].endswith("END") and len(result["logs"][-1]) <= 16_000
    assert "characters" in result["logs"][0]


def test_random_and_date_are_fixed_by_default(demo, runner):
    code = "return [Math.random(), Math.random(), new Date().toISOString(), Date.now()];"
    first = runner.run(build_envelope(demo, code, at="b3", body_id="b3"))["returned"]
    second = runner.run(build_envelope(demo, code, at="b3", body_id="b3"))["returned"]
    assert first == second
    assert first[2] == "2026-11-18T09:02:18.000Z"


def test_determinism_can_be_turned_off(demo, runner):
    code = "return [Math.random(), new Date().getFullYear()];"
    first = runner.run(build_envelope(demo, code, options={"deterministic": False}))["returned"]
    second = runner.run(build_envelope(demo, code, options={"deterministic": False}))["returned"]
    assert first[0] != second[0]
    assert first[1] >= 2025


def test_timers_run_within_the_body(demo, runner):
    result = runner.run(build_envelope(demo, "const order = [];\nsetTimeout(() => order.push('b'), 20);\n"
                                       "setTimeout(() => order.push('a'), 5);\nawait new Promise((r) => setTimeout(r, 40));\nreturn order;"))
    assert result["returned"] == ["a", "b"]


def test_the_memory_cap_is_the_bodys_and_the_state_handed_over_comes_on_top(runner):
    """A 5 MB store under a 16 MiB cap: the runner's own copies of it (the run's script, its strings, its values
    once read) counted against the body's cap, which stopped a body that read one entry (a 64 MiB store under
    the default 256 MiB crashed the guest)."""
    import json

    from wsi_inspector.core.session.load import load_bytes

    store = [{"id": f"c{i}", "call": "pack.rooms.place", "input": {"points": [[i * 1.234567891234, i / 7.0]] * 40}}
             for i in range(3000)]
    document = {"format": "worker-session/1", "session": {"id": "s"}, "caps": {"storeBytes": 64 << 20}, "store": store,
                "bodies": [{"id": "b1", "code": "return 1;"}]}
    session = load_bytes(json.dumps(document).encode(), "s.json")
    options = {"memory_bytes": 16 << 20}
    reads = build_envelope(session, "return inputs.list().length + inputs.last('pack.rooms.place').points.length;", options=options)
    assert len(reads.store_json) > 4_000_000
    for _ in range(2):  # the store sent, then held by the guest's next realm
        result = runner.run(reads)
        assert result["ok"], result.get("error")
        assert result["returned"] == 3040
    # The body's own memory is still held to its cap.
    grows = build_envelope(session, "const a = []; for (;;) a.push(new Array(100000).fill(1.5));", options=options)
    assert runner.run(grows)["error"]["name"] == "MemoryError"


def _mulberry32(seed: int, count: int) -> list[float]:
    """SPEC 5's seeded Math.random, in Python: JavaScript's int32 arithmetic as unsigned 32-bit words."""
    word, out = seed & 0xFFFFFFFF, []
    for _ in range(count):
        word = (word + 0x6D2B79F5) & 0xFFFFFFFF
        t = ((word ^ (word >> 15)) * (word | 1)) & 0xFFFFFFFF
        t ^= (t + ((t ^ (t >> 7)) * (t | 61))) & 0xFFFFFFFF
        out.append((t ^ (t >> 14)) / 4294967296)
    return out


def test_each_run_draws_from_its_own_seed_and_time(demo, runner):
    # The fixed clocks are put in while a realm waits for its run (the realm's warm-up draws with seed 1, time 0);
    # the run starts them from its own seed and time.
    code = "return [Math.random(), Math.random(), Math.random(), Date.now(), new Date().getTime()];"
    for seed, now in ((1, 0), (7, 1_700_000_000_000), (2**32 - 5, 5)):
        result = runner.run(build_envelope(demo, code, options={"seed": seed, "now_ms": now}))
        assert result["ok"], result.get("error")
        assert result["returned"] == [*_mulberry32(seed, 3), now, now]
