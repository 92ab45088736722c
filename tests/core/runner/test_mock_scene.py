"""The mock scene and modules: recorded outputs, scene mocks, nearest-call errors, run.inputs for real, traces."""
from __future__ import annotations

from wsi_inspector.core.runner.envelope import build_envelope
from wsi_inspector.core.session.load import load_bytes


def test_a_recorded_output_is_replayed_for_an_equal_input_in_any_key_order(demo, runner):
    code = ("return await modules.site.boundary.boundary({ outline: [[0, 0], [60000, 0], [60000, 36000], [0, 36000]],"
            " siteId: 'site-1' });")
    result = runner.run(build_envelope(demo, code))
    assert result["returned"] == {"area": 2160000000, "perimeter": 192000}
    assert result["calls"][0]["source"] == {"kind": "recorded", "entry": "c1"}
    assert result["calls"][0]["unit"] == "mm"


def test_scene_mock_rules_answer_echo_returns_and_throws(demo, runner):
    code = ("const e = await modules.mep.risers({ level: 9 });\n"
            "const r = await modules.dept.zones.assign({ zone: 'zz' });\n"
            "let t = null; try { await modules.site.boundary.offset({ distance: -1 }); } catch (err) { t = err.message; }\n"
            "return { e, r, t };")
    result = runner.run(build_envelope(demo, code))
    assert result["returned"] == {"e": {"level": 9}, "r": {"assigned": True},
                                  "t": "offset distance must be positive (got a negative distance)"}
    assert [c["source"] for c in result["calls"]] == [
        {"kind": "mock", "rule": "echo"}, {"kind": "mock", "rule": "returns"}, {"kind": "mock", "rule": "throws"}]
    assert [op["ok"] for op in result["operations"]] == [True, True, False]


def test_no_output_names_the_nearest_recorded_call_and_the_difference(demo, runner):
    code = ("return await modules.pack.corridorRuns.score({ level: 2, spine: [[1500, 18000], [15000, 18000], [30000, 18000],"
            " [45000, 18000], [58500, 18000]], bandDepth: 33, clearWidth: 2400, doubleLoaded: true });")
    result = runner.run(build_envelope(demo, code))
    message = result["error"]["message"]
    assert result["error"]["name"] == "MockError"
    assert "nearest recorded call is c8" in message  # one change, as near as c5's, and newer
    assert "/bandDepth:" in message and "→ 33" in message
    assert "scene.mocks" in message


def test_run_inputs_functions_run_for_real(demo, runner):
    code = ("const size = await modules.run.inputs.jsonBytes({ a: [1, 2.5, 'é'] });\n"
            "const trimmed = await modules.run.inputs.trimStore([{ id: 1, call: 'a.b.c', input: 'x'.repeat(40) },"
            " { id: 2, call: 'a.b.c', input: 1 }], 40);\n"
            "const bad = await modules.run.inputs.findUnkeepable({ f: () => 1, h: { __h: 'x' } });\n"
            "let refused = null; try { await modules.run.inputs.validateKeep({ w: () => 2 }); } catch (e) { refused = e.name; }\n"
            "return { size, fell: trimmed.fell, bad, refused };")
    result = runner.run(build_envelope(demo, code))
    assert result["returned"] == {"size": 18, "fell": 1, "bad": ["f", "h"], "refused": "InvalidKeepError"}


def test_every_call_is_traced_as_a_new_entry_with_the_input_it_ran_on(demo, runner):
    result = runner.run(build_envelope(demo, "await Promise.all([1, 2, 3].map((level) => modules.mep.risers({ level })));", body_id="b6", at="b6"))
    ids = [c["id"] for c in result["calls"]]
    assert len(set(ids)) == 3 and not set(ids) & {e.key for e in demo.entries}
    assert [c["input"] for c in result["calls"]] == [{"level": 1}, {"level": 2}, {"level": 3}]
    assert all(c["body"] == "b6" for c in result["calls"])


def test_a_module_listed_without_fns_accepts_any_fn_and_explains_the_missing_output(runner):
    session = load_bytes(b'{"format": "worker-session/1", "session": {"id": "s"}, "modules": {"geo.shapes": {}}, "store": []}', "tiny.json")
    result = runner.run(build_envelope(session, "await modules.geo.shapes.anything({});"))
    assert result["error"]["name"] == "MockError"
    assert "no recorded call of geo.shapes.anything" in result["error"]["message"]


def test_inputs_and_kept_are_the_state_at_the_body(demo, runner):
    result = runner.run(build_envelope(demo, "return [inputs.last('pack.corridorRuns').bandDepth, inputs.at('c2').distance, kept.spine.length, inputs.last('nope.x')];", at="b3"))
    assert result["returned"] == [36, 1500, 5, None]


def test_the_store_is_trimmed_to_the_sessions_cap(demo, runner):
    result = runner.run(build_envelope(demo, "return inputs.at('c1') === undefined;", at="b8"))
    assert result["returned"] is True  # caps.storeBytes 5,713 drops the oldest entries by b8


def test_scene_api_summaries_read_and_info(demo, runner):
    code = "return [scene.entities({ type: 'ward' }).map((e) => e.id), scene.read('ward-3').beds, scene.info().counts.room, scene.info().kept.map((k) => k.name)];"
    result = runner.run(build_envelope(demo, code, at="b4"))
    assert result["returned"] == [["ward-1", "ward-2", "ward-3"], 16, 4, ["departmentId", "spine", "zoneWidth"]]


def test_calls_awaited_one_after_another_never_overlap_and_calls_made_together_start_together(demo, runner):
    code = ("const a = await modules.mep.risers({ level: 1 });\n"
            "for (let i = 0; i < 200000; i++) {}\n"  # time between the two awaited calls
            "const b = await modules.mep.risers({ level: 2 });\n"
            "const [c, d] = await Promise.all([modules.mep.risers({ level: 3 }), modules.mep.risers({ level: 4 })]);\n"
            "return 1;")
    result = runner.run(build_envelope(demo, code))
    first, second, third, fourth = result["operations"]
    assert second["startMs"] >= first["startMs"] + first["durationMs"]
    assert third["startMs"] >= second["startMs"] + second["durationMs"]
    assert third["startMs"] == fourth["startMs"]  # one batch: made in the same tick
    # Times come from one monotonic clock in fractions of a millisecond, not Date.now()'s whole ones.
    assert any(op["startMs"] != int(op["startMs"]) for op in result["operations"])
