"""Small session texts built by hand: a JSON form around entries, values nested deeper than a parser
allows, raw JSON text put where json.dumps cannot write it. For the tests of bad input (core and window)."""
import json

HEAD = {"format": "worker-session/1", "session": {"id": "bad"}}


def deep(levels: int, leaf: str = "1") -> str:
    """`leaf` inside `levels` nested arrays, as JSON text."""
    return "[" * levels + leaf + "]" * levels


def entry(entry_id: str, value: object = 1, **extra: object) -> dict:
    """A store entry of call pack.a.b in mm with `value` as its input."""
    return {"id": entry_id, "call": "pack.a.b", "input": value, "unit": "mm", **extra}


def json_form(*entries: dict, **extra: object) -> str:
    """A JSON form session text holding `entries` (and any other top-level fields)."""
    return json.dumps({**HEAD, "store": list(entries), **extra})


def with_input(text: str, marker: str, value_text: str) -> str:
    """Put raw JSON text where a placeholder string stands (json.dumps cannot write 1,000 levels)."""
    return text.replace(json.dumps(marker), value_text)
