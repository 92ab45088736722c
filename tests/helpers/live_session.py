"""A JSON Lines session written line by line, as the editor writes one still open: for the tests that follow a file."""
import orjson

HEADER = {"format": "worker-session/1", "session": {"id": "live", "title": "still being written"}}


def record_line(record) -> bytes:
    """A JSON Lines record: its JSON and a newline."""
    return orjson.dumps(record) + b"\n"


def entry_record(n: int, body: str = "b1") -> dict:
    """Entry record c`n` of body `body`."""
    return {"kind": "entry", "id": f"c{n}", "call": "pack.corridorRuns.corridorRuns", "input": {"n": n}, "body": body}
