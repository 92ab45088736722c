"""worker-session/1 (SPEC 2): the format name, its header, and its two readers, JSON and JSON Lines.

What the version says is written once, here and in the modules beside this one:
- the name: `header.FORMAT`; the header parts and their models: `header` (models in `wsi_inspector.core.session.schema`);
- the record field sets and checks: `wsi_inspector.core.session.records` (`ENTRY_FIELDS`, `BODY_FIELDS`, `RecordChecker`);
- the length units: `wsi_inspector.core.edits.units.UNITS`;
- the JSON form: `json_form.read_json`; the JSON Lines form: `json_lines.read_json_lines`, one
  line at a time by `json_lines.LineReader.read_line`.
"""
from wsi_inspector.core.session.formats.worker_session_1.header import FORMAT
from wsi_inspector.core.session.formats.worker_session_1.json_form import read_json
from wsi_inspector.core.session.formats.worker_session_1.json_lines import LineReader, read_json_lines

__all__ = ["FORMAT", "LineReader", "read_json", "read_json_lines"]
