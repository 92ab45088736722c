"""What a body read (SPEC 7 "Reads"): recorded by the runner, exactly, and invisible to the body."""
from __future__ import annotations


from wsi_inspector.core.runner.envelope import build_envelope


def reads_of(runner, session, code, at=None):
    result = runner.run(build_envelope(session, code, at=at))
    assert result["ok"], result.get("error")
    return result["reads"]


def test_a_read_a_spread_a_destructuring_and_a_helper_are_recorded_with_the_bodys_place(runner, demo):
    code = (
        "const base = inputs.last('pack.corridorRuns');\n"
        "const { outline } = inputs.at('c29');\n"
        "function depthOf(v) { return v.bandDepth; }\n"
        "const copy = { ...inputs.last('site.boundary'), extra: depthOf(base) };\n"
        "inputs.last('nothing.here');\n"
        "return [outline.length, copy.extra];\n"
    )
    spread = ["/" + key for key in demo.entry("c30").input]
    assert reads_of(runner, demo, code) == [
        # The helper's read is the body's line 3, where `v.bandDepth` is read.
        {"what": "inputs.last", "arg": "pack.corridorRuns", "entry": "c21", "paths": ["/bandDepth"], "line": 1, "column": 21},
        # Destructuring reads the one key it names.
        {"what": "inputs.at", "arg": "c29", "entry": "c29", "paths": ["/outline"], "line": 2, "column": 28},
        # Spreading reads every own key, in order.
        {"what": "inputs.last", "arg": "site.boundary", "entry": "c30", "paths": spread, "line": 4, "column": 26},
        {"what": "inputs.last", "arg": "nothing.here", "entry": None, "paths": [], "line": 5, "column": 8},
    ]


def test_a_value_handed_on_whole_reads_the_empty_path_and_kept_reads_name_the_value(runner, demo):
    code = (
        "const base = inputs.last('pack.corridorRuns');\n"
        "const names = Object.keys(kept);\n"
        "const z = kept[names[0]];\n"
        "await modules.pack.corridorRuns.score(base);\n"
        "return names.length;\n"
    )
    reads = reads_of(runner, demo, code)
    name = list(demo.state_at(None).kept)[0]
    assert reads[0]["paths"] == [""] and reads[0]["entry"] == "c21"
    assert reads[1] == {"what": "kept", "arg": None, "entry": None, "name": name,
                        "paths": [] if isinstance(demo.state_at(None).kept[name], (dict, list)) else [""],
                        "line": 3, "column": 15}


def test_reads_then_overwrites_record_the_read(runner, demo):
    code = "const b = inputs.last('pack.corridorRuns');\nb.bandDepth = b.bandDepth + 1;\nreturn b.bandDepth;\n"
    reads = reads_of(runner, demo, code)
    assert reads == [{"what": "inputs.last", "arg": "pack.corridorRuns", "entry": "c21", "paths": ["/bandDepth"],
                      "line": 1, "column": 18}]


def test_a_body_that_replaces_builtins_cannot_break_or_fool_the_tracer(runner, demo):
    code = (
        "Error.prepareStackTrace = () => 'fooled';\nError.stackTraceLimit = 0;\n"
        "Reflect.ownKeys = () => [];\nWeakMap.prototype.get = () => undefined;\n"
        "Map.prototype.set = () => { throw new Error('no'); };\n"
        "Object.defineProperty(Array.prototype, '0', { set() { throw new Error('no'); }, configurable: true });\n"
        "const b = inputs.last('pack.corridorRuns');\nreturn b.level;\n"
    )
    result = runner.run(build_envelope(demo, code))
    assert result["ok"], result.get("error")
    assert result["reads"] == [{"what": "inputs.last", "arg": "pack.corridorRuns", "entry": "c21", "paths": ["/level"],
                                "line": 7, "column": 18}]


def test_reads_past_the_bound_are_counted_not_kept(runner, demo):
    code = "for (let i = 0; i < 2100; i++) inputs.last('x' + i);\nreturn 1;\n"
    result = runner.run(build_envelope(demo, code))
    assert len(result["reads"]) == 2000 and result["readsCut"] == 100


# The same observations over the traced value and over an untraced copy built by hand (no JSON, no
# spread: the copy must not be made through the tracer's traps): every answer must be equal.
INVISIBLE = """
function plain(v) {
  if (v === null || typeof v !== "object") return v;
  if (Array.isArray(v)) { const out = []; for (let i = 0; i < v.length; i++) out.push(plain(v[i])); return out; }
  const out = {};
  for (const k of Reflect.ownKeys(v)) out[k] = plain(v[k]);
  return out;
}
function look(v, again) {
  const spread = { ...v };
  const entries = [];
  for (const k in v) entries.push(k);
  return {
    keys: Object.keys(v), names: Object.getOwnPropertyNames(v), own: Reflect.ownKeys(v).map(String),
    json: JSON.stringify(v), size: JSON.stringify(v).length, typeof: typeof v, isArray: Array.isArray(v),
    tag: Object.prototype.toString.call(v), proto: Object.getPrototypeOf(v) === Object.prototype,
    spreadKeys: Object.keys(spread), spreadJson: JSON.stringify(spread), forIn: entries,
    entries: JSON.stringify(Object.entries(v)), identity: v === again, has: "level" in v,
    hasOwn: Object.prototype.hasOwnProperty.call(v, "level"), frozen: Object.isFrozen(v),
    extensible: Object.isExtensible(v), descriptor: JSON.stringify(Object.getOwnPropertyDescriptor(v, "level")),
    spineIsArray: Array.isArray(v.spine), spineLength: v.spine.length,
  };
}
const traced = inputs.last("pack.corridorRuns");
const copy = plain(traced);
return { traced: look(traced, inputs.last("pack.corridorRuns")), plain: look(copy, copy) };
"""


def test_a_body_cannot_tell_that_it_is_traced(runner, demo):
    result = runner.run(build_envelope(demo, INVISIBLE))
    assert result["ok"], result.get("error")
    assert result["returned"]["traced"] == result["returned"]["plain"]
    seen = result["returned"]["traced"]
    assert seen["keys"] == list(demo.entry("c21").input) and seen["identity"] is True and seen["spineIsArray"] is True
    # And what it read is all of it: Reflect.ownKeys and the spread read every own key.
    assert result["reads"][0]["paths"] == ["/" + key for key in demo.entry("c21").input]


def test_a_run_stopped_at_its_timeout_has_no_reads_rather_than_none(runner, demo):
    code = "const b = inputs.last('pack.corridorRuns');\nb.level;\nwhile (true) {}\n"
    result = runner.run(build_envelope(demo, code, options={"timeout_s": 0.3}))
    assert result["error"]["name"] == "TimeoutError" and "reads" not in result


def test_a_body_that_throws_still_reports_what_it_read(runner, demo):
    result = runner.run(build_envelope(demo, "const b = inputs.last('pack.corridorRuns');\nthrow new Error(b.level);\n"))
    assert result["ok"] is False and result["reads"][0]["paths"] == ["/level"]


def test_each_kept_name_is_a_read_of_its_own_and_paths_are_bounded(runner, demo):
    code = ("const a = kept.spine;\nconst b = kept.zoneWidth;\nconst s = kept.summary;\n"
            "const big = inputs.last('pack.corridorRuns');\nfor (let i = 0; i < 300; i++) big['k' + i] = i;\n"
            "const copy = { ...big };\nreturn [a.length, b, Object.keys(s).length];\n")
    reads = reads_of(runner, demo, code)
    assert [(r["what"], r.get("name"), r["line"]) for r in reads] == [
        ("kept", "spine", 1), ("kept", "zoneWidth", 2), ("kept", "summary", 3), ("inputs.last", None, 4)]
    assert reads[0]["paths"] == [] and reads[1]["paths"] == [""]
    assert reads[2]["paths"] == ["/" + key for key in demo.state_at(None).kept["summary"]]
    assert len(reads[3]["paths"]) == 200 and reads[3]["pathsCut"] == 305 - 200
