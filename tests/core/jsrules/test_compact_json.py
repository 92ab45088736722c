"""One line of JSON as JavaScript prints it, cut for previews (`wsi_inspector.core.jsrules.jsonsize.compact_json`), headless."""
from wsi_inspector.core.jsrules.jsonsize import compact_json, js_stringify
from tests.helpers.session_text import deep


def test_compact_json_prints_as_javascript_does():
    assert compact_json({"b": 1.0, "2": -0.0, "1": [1e21, 1e-7, "é\n"]}) == '{"1":[1e+21,1e-7,"é\\n"],"2":0,"b":1}'
    assert compact_json(print) == "undefined"


def test_a_limit_cuts_the_text_there_and_marks_the_cut():
    value = {"spine": [[k, k * 2] for k in range(50_000)]}
    whole = js_stringify(value)
    cut = compact_json(value, 120)
    assert cut == whole[:120] + "…"
    assert compact_json([1, 2], 120) == "[1,2]"  # short enough: no mark


def test_a_value_nested_1024_deep_prints_without_recursion():
    value: list = [1]
    for _ in range(1023):
        value = [value]
    assert compact_json(value) == deep(1024)
    assert compact_json(value, 100) == "[" * 100 + "…"
