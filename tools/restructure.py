"""Issue 29, points 1 and 3, as one script the lead runs once, after every branch is merged.

Why a script and not a commit: seven branches change core/, gui/ and tests/ at once; moving 200 files
under them would make every merge a conflict. Run from the checkout's top, on a clean work tree:

    python tools/restructure.py            # moves, rewrites, prints what it left where it was
    bash .ci/setup                         # the editable install now maps wsi_inspector.* onto the folders

It does, in order (each step plain data below, so a reviewer reads the table, not the code):
1. `git mv` every module of MOVES into its feature package (PACKAGES, each with an `__init__.py`
   whose docstring says what the package is for); a module it does not list stays where it is.
2. Rewrites every dotted module name (imports, strings, pyproject keys, docs) to its new place under
   the one installed namespace `wsi_inspector` (`core.check_pool` -> `wsi_inspector.core.check.pool`),
   every path (`core/check_pool.py` -> `core/check/pool.py`), and `from core import reading`-style
   imports whose module moved to another package.
3. Writes setup.py (the `package_dir` mapping) and the pyproject sections that name packages, fixes the
   few places that compute a module name or a path (FIXUPS), redraws docs/architecture.md's map as the
   folders, and adds the wheel's top-level-names test.
It refuses to run twice (the marker: core/session/ exists, or pyproject already says wsi_inspector).
"""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

NAMESPACE = "wsi_inspector"
TOPS = ("core", "gui", "resources")  # the repository's top-level packages, installed as wsi_inspector.<top>

# The feature packages: folder -> what its __init__.py docstring says it is for.
PACKAGES = {
    "core/session": "Loading a session (SPEC 2): bytes to records to the timeline, every problem located; the format versions.",
    "core/jsrules": "The editor's JavaScript rules: run.inputs, JSON.stringify sizes and text, values as JavaScript sees them.",
    "core/search": "What the Inputs and Kept tabs ask: manifests, filter, sort, value search, inputs.last() and why.",
    "core/edits": "Canvas edits and what changed: pairing and chains, one edit in full, diffs, alignment, units, geometry, blame, two runs compared.",
    "core/trim": "The editor's store cap: what trimStore drops at any cap, and what changed between two points.",
    "core/reduce": "Cutting a failure down: delta debugging, the smallest session that fails the same way, one body's repro file.",
    "core/check": "`wsi check` over many sessions: per session, worker processes, a Dask cluster, reports, `--where`, `--baseline`.",
    "core/files": "The files a person names: the one way to read them, the one way to write them, what a followed file was.",
    "core/text": "Text for people, one copy for the CLI and the window: counts in words, text safe for one terminal line.",
    "core/handoff": "Handing a session to someone else: notes attached to it, and redaction that keeps the failure.",
    "core/cli/commands": "One module per `wsi` command: `add_arguments(parser)` and `run(args) -> int`, one line each in COMMANDS.",
    "gui/tabs/notes": "The Notes pane: every note on the open session, and a jump to where each is.",
    "gui/tabs": "The window's tabs, one folder each: the view, its panels and its item models.",
    "gui/tabs/changes": "The Changes tab: what changed between two points of the timeline.",
    "gui/tabs/compare": "File ▸ Compare with…: two sessions side by side, and the tables behind them.",
    "gui/tabs/corpus": "File ▸ Open folder: every session under a folder as a table.",
    "gui/tabs/edits": "The Edits tab: every canvas edit beside the model call it edited, and its tables.",
    "gui/tabs/inputs": "The Inputs tab: the manifest at the cursor, filter and value search, and its table.",
    "gui/tabs/kept": "The Kept tab: the kept manifest at the cursor, and its table.",
    "gui/tabs/problems": "The Problems tab: every loader error and warning with its place, and its table.",
    "gui/tabs/run": "The Run tab: edit and run a body, replay all; its tables and its Replay page.",
    "gui/tabs/timeline": "The timeline dock: bodies with their calls nested, and its tree model.",
    "gui/tabs/trim": "The Trim tab: what the editor's store cap drops, live.",
    "gui/widgets": "Parts several views share: the JSON tree, the body editor, the Edits drawing, a quiet label, the small tables' model.",
    "gui/background": "Work off the GUI thread: the one job runner, the workers' priority, loading and following a session.",
    "gui/actions": "What the menus do with the session at the cursor: Reduce…, Save repro…, Export, deep links.",
    "gui/window": "The window itself: the entry point, the application, the main window and its context, status bar, keys, look, theme, errors.",
    "tests/helpers": "Data and builders several test modules share (imported, never collected).",
    "tests/core/session": None, "tests/core/jsrules": None, "tests/core/search": None, "tests/core/edits": None,
    "tests/core/files": None, "tests/core/handoff": None, "tests/core/trim": None, "tests/core/reduce": None, "tests/core/check": None, "tests/core/cli": None,
}

# old path -> new path (files, or whole folders). Everything under core/, gui/ and tests/ not listed stays.
MOVES = {
    # core/session: loading
    "core/session.py": "core/session/load.py",
    "core/reading.py": "core/session/reading.py",
    "core/records.py": "core/session/records.py",
    "core/model.py": "core/session/model.py",
    "core/schema.py": "core/session/schema.py",
    "core/place.py": "core/session/place.py",
    "core/record_view.py": "core/session/record_view.py",
    "core/timeline.py": "core/session/timeline.py",
    "core/navigation.py": "core/session/navigation.py",
    "core/growing.py": "core/session/growing.py",
    "core/store_scan.py": "core/session/store_scan.py",
    "core/_store_scan.c": "core/session/_store_scan.c",
    "core/_pow5_table.h": "core/session/_pow5_table.h",  # included by _store_scan.c (branch load-speed)
    "core/recorded_failure.py": "core/session/recorded_failure.py",
    "core/in_place.py": "core/session/in_place.py",
    "core/fast_find.py": "core/session/fast_find.py",
    "core/formats": "core/session/formats",
    # core/jsrules
    "core/run_inputs.py": "core/jsrules/run_inputs.py",
    "core/jsonsize.py": "core/jsrules/jsonsize.py",
    "core/js_value.py": "core/jsrules/js_value.py",
    "core/json_values.py": "core/jsrules/json_values.py",
    "core/sizes.py": "core/jsrules/sizes.py",
    # core/search
    "core/manifest.py": "core/search/manifest.py",
    "core/filtering.py": "core/search/filtering.py",
    "core/trigram_filter.py": "core/search/trigram_filter.py",
    "core/resolve.py": "core/search/resolve.py",
    # core/edits
    "core/edits.py": "core/edits/edits.py",
    "core/edit_detail.py": "core/edits/edit_detail.py",
    "core/diff.py": "core/edits/diff.py",
    "core/align.py": "core/edits/align.py",
    "core/units.py": "core/edits/units.py",
    "core/geometry.py": "core/edits/geometry.py",
    "core/provenance.py": "core/edits/provenance.py",
    "core/compare.py": "core/edits/compare.py",
    "core/evidence.py": "core/edits/evidence.py",
    "core/body_reads.py": "core/edits/body_reads.py",
    "core/retyped.py": "core/edits/retyped.py",
    # core/files, core/text, core/handoff (modules of branches bad-input, window, handoff)
    "core/input_file.py": "core/files/input_file.py",
    "core/output_file.py": "core/files/output_file.py",
    "core/file_baseline.py": "core/files/file_baseline.py",
    "core/words.py": "core/text/words.py",
    "core/plain_text.py": "core/text/plain_text.py",
    "core/notes.py": "core/handoff/notes.py",
    "core/redact.py": "core/handoff/redact.py",
    "core/redact_file.py": "core/handoff/redact_file.py",
    # core/trim
    "core/trim_preview.py": "core/trim/preview.py",
    "core/changes.py": "core/trim/changes.py",
    # core/reduce
    "core/ddmin.py": "core/reduce/ddmin.py",
    "core/reduce.py": "core/reduce/reduce.py",
    "core/repro.py": "core/reduce/repro.py",
    # core/check
    "core/check.py": "core/check/check.py",
    "core/check_pool.py": "core/check/pool.py",
    "core/check_cluster.py": "core/check/cluster.py",
    "core/check_report.py": "core/check/report.py",
    "core/check_where.py": "core/check/where.py",
    "core/check_baseline.py": "core/check/baseline.py",
    # core/cli
    "core/commands": "core/cli/commands",
    "core/documents.py": "core/cli/documents.py",
    "core/desktop_entry.py": "core/cli/desktop_entry.py",
    # gui/tabs
    "gui/changes_view.py": "gui/tabs/changes/view.py",
    "gui/compare_window.py": "gui/tabs/compare/window.py",
    "gui/compare_models.py": "gui/tabs/compare/models.py",
    "gui/corpus_view.py": "gui/tabs/corpus/view.py",
    "gui/edits_view.py": "gui/tabs/edits/view.py",
    "gui/edits_models.py": "gui/tabs/edits/models.py",
    "gui/inputs_view.py": "gui/tabs/inputs/view.py",
    "gui/recorded_outcome.py": "gui/tabs/inputs/recorded_outcome.py",
    "gui/read_marks.py": "gui/tabs/inputs/read_marks.py",
    "gui/notes_pane.py": "gui/tabs/notes/pane.py",
    "gui/models/manifest.py": "gui/tabs/inputs/models.py",
    "gui/kept_view.py": "gui/tabs/kept/view.py",
    "gui/models/kept.py": "gui/tabs/kept/models.py",
    "gui/problems_view.py": "gui/tabs/problems/view.py",
    "gui/models/problems.py": "gui/tabs/problems/models.py",
    "gui/run_view.py": "gui/tabs/run/view.py",
    "gui/run_models.py": "gui/tabs/run/models.py",
    "gui/replay_page.py": "gui/tabs/run/replay_page.py",
    "gui/run_choice.py": "gui/tabs/run/choice.py",
    "gui/reads_panel.py": "gui/tabs/run/reads_panel.py",
    "gui/timeline_view.py": "gui/tabs/timeline/view.py",
    "gui/models/timeline.py": "gui/tabs/timeline/models.py",
    "gui/trim_view.py": "gui/tabs/trim/view.py",
    # gui/widgets
    "gui/json_tree.py": "gui/widgets/json_tree.py",
    "gui/code_editor.py": "gui/widgets/code_editor.py",
    "gui/geometry_plot.py": "gui/widgets/geometry_plot.py",
    "gui/quiet_label.py": "gui/widgets/quiet_label.py",
    "gui/models/rows.py": "gui/widgets/rows_model.py",
    # gui/background
    "gui/jobs.py": "gui/background/jobs.py",
    "gui/worker_priority.py": "gui/background/worker_priority.py",
    "gui/loader.py": "gui/background/loader.py",
    "gui/follow.py": "gui/background/follow.py",
    # gui/actions
    "gui/reduce_panel.py": "gui/actions/reduce_panel.py",
    "gui/save_repro.py": "gui/actions/save_repro.py",
    "gui/export.py": "gui/actions/export.py",
    "gui/deep_link.py": "gui/actions/deep_link.py",
    "gui/note_actions.py": "gui/actions/note_actions.py",
    # gui/window
    "gui/main_window.py": "gui/window/main_window.py",
    "gui/context.py": "gui/window/context.py",
    "gui/status.py": "gui/window/status.py",
    "gui/keyboard.py": "gui/window/keyboard.py",
    "gui/errors.py": "gui/window/errors.py",
    "gui/launch.py": "gui/window/launch.py",
    "gui/app.py": "gui/window/app.py",
    "gui/display.py": "gui/window/display.py",
    "gui/look.py": "gui/window/look.py",
    "gui/theme.py": "gui/window/theme.py",
    "gui/services.py": "gui/window/services.py",
    "gui/screen_fit.py": "gui/window/screen_fit.py",
    "gui/focus_ring.py": "gui/window/focus_ring.py",
    # tests/helpers: the modules test files import from each other
    "tests/compare_pairs.py": "tests/helpers/compare_pairs.py",
    "tests/reduce_sessions.py": "tests/helpers/reduce_sessions.py",
    "tests/core/check_corpus.py": "tests/helpers/check_corpus.py",
    # the probes the window tests run as scripts beside them (`Path(__file__).with_name(...)`)
    "tests/gui/window_probe.py": "tests/gui/window/window_probe.py",
    "tests/gui/look_probe.py": "tests/gui/window/look_probe.py",
    # tests/core mirrors core/
    **{f"tests/core/{name}.py": f"tests/core/{room}/{name}.py" for room, names in {
        "session": ["test_bad_input", "test_broken_files", "test_growing", "test_in_place", "test_fast_find", "test_navigation",
                    "test_places", "test_record_texts", "test_session", "test_store_prefix", "test_store_scan",
                    "test_timeline_handed", "test_timeline_rows", "test_json_test_suite", "test_scan_sanitized",
                    "test_recorded_failure"],
        "jsrules": ["test_js_value", "test_jsonsize", "test_run_inputs", "test_sizes", "test_compact_json"],
        "search": ["test_filtering", "test_trigram_filter", "test_search_blocks", "test_resolve", "test_manifest_v8"],
        "edits": ["test_diff", "test_edit_detail", "test_edits", "test_provenance", "test_compare", "test_blame_evidence",
                  "test_change_in_unit", "test_geometry_boxes", "test_reads", "test_retyped"],
        "trim": ["test_trim_preview", "test_changes"],
        "reduce": ["test_reduce", "test_reduce_signature", "test_reduce_reads"],
        "check": ["test_check", "test_check_baseline", "test_check_cli", "test_check_cluster", "test_check_severity",
                  "test_check_failures"],
        "cli": ["test_cli", "test_cli_diff", "test_cli_layout", "test_cli_resolve", "test_cli_show_demo", "test_cli_trim",
                "test_completion", "test_messages", "test_cli_options", "test_cli_streams", "test_desktop_entry"],
        "files": ["test_input_file", "test_output_file"],
        "handoff": ["test_notes", "test_redact"],
    }.items() for name in names},
    # tests/gui mirrors gui/ (tests/gui has no __init__.py: file names stay unique)
    **{f"tests/gui/{name}.py": f"tests/gui/{room}/{name}.py" for room, names in {
        "tabs": ["test_changes_view", "test_compare_window", "test_corpus_view", "test_edits_view", "test_inputs_view",
                 "test_kept_view", "test_problems_view", "test_run_view", "test_timeline_view", "test_trim_view", "test_search_reveal",
                 "test_changed_vs_selected", "test_contradictions", "test_designer_unit", "test_edits_evidence",
                 "test_inputs_read_paths", "test_operations_waterfall", "test_reads_panel", "test_recorded_failure",
                 "test_notes_window", "test_trim_cap_in_context", "test_timeline_keys"],
        "widgets": ["test_quiet_label", "test_drawing", "test_drawing_note", "test_json_tree_room"],
        "background": ["test_jobs", "test_follow_and_load", "test_follow_replaced"],
        "actions": ["test_reduce_panel", "test_export", "test_false_repro"],
        "window": ["test_bad_input_window", "test_bytes_tooltips", "test_gui_exit_codes", "test_keyboard", "test_launch",
                   "test_main_window", "test_real_window", "test_small_screens", "test_theme", "test_qt_binding", "test_qt_libraries",
                   "test_input_refusals_window", "test_output_refusals", "test_window_services", "test_screen_fit",
                   "test_any_monospace", "test_focus_ring", "test_keyboard_wrap", "test_tab_order"],
    }.items() for name in names},
}

# Exact text changes the general rewrite cannot infer (a module name computed from a path, a folder built
# with `/`). (file after the move, old, new); a pair not found is reported, not fatal.
FIXUPS = [
    # The guest starts with `python -S` (no site, so no editable install's finder): it makes the namespace
    # itself, `wsi_inspector` being the folder that holds core/ (the checkout's top, or the installed package).
    ("core/runner/host.py",
     f'GUEST_CODE = "import sys; sys.modules[\'ssl\'] = None; from {NAMESPACE}.core.runner.guest import main; main()"',
     "# The guest runs without `site` (no editable install's finder), so it makes the one namespace itself:\n"
     "# `wsi_inspector` is the folder that holds core/ (the checkout's top, or the installed package).\n"
     "GUEST_CODE = (\"import sys, types; sys.modules['ssl'] = None; namespace = types.ModuleType('wsi_inspector'); \"\n"
     "              f\"namespace.__path__ = [{str(ROOT)!r}]; sys.modules['wsi_inspector'] = namespace; \"\n"
     f'              "from {NAMESPACE}.core.runner.guest import main; main()")'),
    ("core/runner/host.py", "    folders = [str(ROOT)]\n", "    folders: list[str] = []  # the project itself: GUEST_CODE's namespace\n"),
    ("tests/test_tooling.py", 'module = ".".join(path.relative_to(ROOT).with_suffix("").parts)',
     f'module = "{NAMESPACE}." + ".".join(path.relative_to(ROOT).with_suffix("").parts)'),
    # core imports no gui: the names it checks are namespaced now, so a prefix test, not the first dotted part
    ("tests/core/test_layers.py", 'FORBIDDEN = ("PySide6", "shiboken6", "pyqtgraph", "gui")',
     f'FORBIDDEN = ("PySide6", "shiboken6", "pyqtgraph", "{NAMESPACE}.gui")'),
    ("tests/core/test_layers.py", 'if n.split(".")[0] in FORBIDDEN)', 'if any(n == f or n.startswith(f + ".") for f in FORBIDDEN))'),
    ("tests/core/test_layers.py", '".".join(path.relative_to(CORE.parent).with_suffix("").parts)',
     f'"{NAMESPACE}." + ".".join(path.relative_to(CORE.parent).with_suffix("").parts)'),
    ("tests/core/test_layers.py", "if m.split('.')[0] in {FORBIDDEN!r}]", "if any(m == f or m.startswith(f + '.') for f in {FORBIDDEN!r})]"),
    ("tests/core/cli/test_cli_layout.py", '(ROOT / "core" / "commands")', '(ROOT / "core" / "cli" / "commands")'),
    ("tests/test_install.py", f'"import {NAMESPACE}.core.runner, gui, importlib.resources as r;"',
     f'"import {NAMESPACE}.core.runner, {NAMESPACE}.gui, importlib.resources as r;"'),
]

# Text files the rewrite reads (by suffix, or by exact path for the suffix-less ones).
TEXT_SUFFIXES = {".c", ".h", ".py", ".toml", ".md", ".cfg", ".ini", ".txt", ".sh", ".yml", ".yaml"}
TEXT_PATHS = {".ci/setup"}
SKIP = {"tools/restructure.py", "constraints.txt"}


def git(*args: str) -> str:
    return subprocess.run(["git", *args], check=True, capture_output=True, text=True).stdout


def module_of(path: str) -> str | None:
    """`core/check/pool.py` -> `core.check.pool`; a package's `__init__.py` -> the package; None for non-modules."""
    p = Path(path)
    if p.suffix not in (".py", ".c"):
        return None
    parts = list(p.with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def plan(tracked: list[str]) -> tuple[list[tuple[str, str]], dict[str, str], dict[str, str]]:
    """The file moves, the module renames (old dotted -> new dotted, without the namespace) and path renames."""
    moves: list[tuple[str, str]] = []
    absent = []
    for old, new in MOVES.items():
        under = [f for f in tracked if f == old or f.startswith(old + "/")]
        if not under:
            absent.append(old)
        moves += [(f, new + f[len(old):]) for f in under]
    if absent:
        print(f"restructure: {len(absent)} rows of MOVES name nothing in this tree (not merged yet?): {' '.join(absent)}")
    modules: dict[str, str] = {}
    paths: dict[str, str] = {}
    for old, new in moves:
        paths[old] = new
        old_module, new_module = module_of(old), module_of(new)
        if old_module and new_module:
            modules[old_module] = new_module
    for old, new in MOVES.items():  # folders as paths too (`core/formats/` in prose)
        if not old.endswith((".py", ".c")):
            paths[old] = new
            modules[old.replace("/", ".")] = new.replace("/", ".")
    return moves, modules, paths


def build_rewriter(modules: dict[str, str], paths: dict[str, str]):
    """One regex pass over a text: `from P import names`, dotted names, old paths, `files("resources")`."""
    heads = "|".join((*TOPS, "tests"))
    from_import = (r"^(?P<indent>[ \t]*)from[ \t]+(?P<mod>(?:" + heads + r")(?:\.\w+)*)[ \t]+import[ \t]+"
                   r"(?P<names>\([^)]*\)|[^\n#(]+?)(?P<tail>[ \t]*(?:#[^\n]*)?)$")
    dotted = r"(?<![\w./-])(?P<dotted>(?:" + heads + r")(?:\.\w+)+)"
    old_paths = sorted(paths, key=len, reverse=True)
    path = r"(?<![\w./-])(?P<path>" + "|".join(re.escape(p) for p in old_paths) + r")(?![\w.]*\w)" if old_paths else r"(?!x)x"
    bare_import = r"^(?P<bindent>[ \t]*)import[ \t]+(?P<bare>" + "|".join(TOPS) + r")[ \t]*$"
    # `files("resources")` (importlib.resources), and a quoted prefix such as `"gui."` (a module-name test)
    files_call = r"(?:(?<=files\()(?P<fq>[\"'])(?P<top>" + "|".join(TOPS) + r")(?P=fq)(?=\)))"
    quoted_prefix = r"(?:(?P<pq>[\"'])(?P<ptop>" + "|".join(TOPS) + r")\.(?P=pq))"
    pattern = re.compile("|".join(f"(?:{p})" for p in (from_import, bare_import, path, dotted, files_call, quoted_prefix)), re.M)

    def new_name(name: str) -> str:
        """The longest known prefix renamed, the namespace put in front of core/gui/resources."""
        parts = name.split(".")
        for cut in range(len(parts), 0, -1):
            head = ".".join(parts[:cut])
            if head in modules:
                renamed = ".".join([modules[head], *parts[cut:]])
                break
        else:
            if parts[0] == "tests" or (len(parts) > 1 and parts[1] in ("py", "md", "json", "c", "so", "txt", "toml", "png", "js")):
                return name
            renamed = name
        return f"{NAMESPACE}.{renamed}" if renamed.split(".")[0] in TOPS else renamed

    def rewrite_from(m: re.Match[str]) -> str:
        mod, names_text = m["mod"], m["names"]
        inner = names_text.strip("()")
        names = [n.strip() for n in re.sub(r"#[^\n]*", "", inner).replace("\\\n", " ").split(",") if n.strip()]
        groups: dict[str, list[str]] = {}
        for spec in names:
            name, _, alias = (s.strip() for s in spec.partition(" as "))
            full = f"{mod}.{name}"
            if full in modules:
                parent, leaf = new_name(full).rsplit(".", 1)
                bound = alias or name
                groups.setdefault(parent, []).append(leaf if leaf == bound else f"{leaf} as {bound}")
            else:
                groups.setdefault(new_name(mod), []).append(spec)
        if list(groups) == [new_name(mod)]:  # nothing moved apart: keep the statement's own layout
            return m.group(0).replace(mod, new_name(mod), 1)
        lines = [f"{m['indent']}from {parent} import {', '.join(specs)}" for parent, specs in groups.items()]
        lines[0] += m["tail"]
        return "\n".join(lines)

    def replace(m: re.Match[str]) -> str:
        if m["mod"] is not None:
            return rewrite_from(m)
        if m["path"] is not None:
            return paths[m["path"]]
        if m["dotted"] is not None:
            return new_name(m["dotted"])
        if m["bare"] is not None:
            return f'{m["bindent"]}import {NAMESPACE}.{m["bare"]}'
        if m["fq"] is not None:
            return f'{m["fq"]}{NAMESPACE}.{m["top"]}{m["fq"]}'
        return f'{m["pq"]}{NAMESPACE}.{m["ptop"]}.{m["pq"]}'

    return lambda text: pattern.sub(replace, text)


def depth_fix(text: str, delta: int) -> str:
    """A moved file finds the checkout's top `delta` folders further up (`Path(__file__)...parents[N]`)."""
    if delta == 0:
        return text

    def parents(m: re.Match[str]) -> str:
        return f"{m[1]}.parents[{int(m[2]) + delta}]"

    def parent_chain(m: re.Match[str]) -> str:
        count = m[2].count(".parent")
        return m[1] + ".parent" * (count + delta) if count >= 2 else m.group(0)

    text = re.sub(r"(Path\(__file__\)(?:\.resolve\(\))?)\.parents\[(\d+)\]", parents, text)
    return re.sub(r"(Path\(__file__\)(?:\.resolve\(\))?)((?:\.parent\b)+)", parent_chain, text)


SETUP_PY = '''"""What pyproject.toml cannot say: the one namespace, and the optional C scanner of the JSON form's store.

The checkout keeps `core/`, `gui/` and `resources/` at its top; installed, they are `{ns}.core`,
`{ns}.gui` and `{ns}.resources`, so nothing generic lands in site-packages (issue 29). The editable
install (`pip install -e .`, .ci/setup) maps the same names onto the checkout's folders.

`optional=True`: where there is no C compiler the build goes on without it, and the loader measures
each input in Python (core/session/store_scan.py says which way ran).
"""
from setuptools import Extension, find_packages, setup

TOPS = {tops!r}
PACKAGES = [f"{ns}.{{name}}" for name in find_packages(include=[f"{{top}}*" for top in TOPS]) if name.split(".")[0] in TOPS]

setup(packages=PACKAGES, package_dir={{f"{ns}.{{top}}": top for top in TOPS}},
      ext_modules=[Extension("{ns}.core.session._store_scan", ["core/session/_store_scan.c"], optional=True)])
'''


def rewrite_pyproject(text: str) -> str:
    """The sections that name packages: found by setup.py now; package data keyed by the namespaced name."""
    text = re.sub(r"\[tool\.setuptools\.packages\.find\]\n(?:#[^\n]*\n)*include = \[[^\]]*\]\n\n?", "", text)
    text = re.sub(r'^resources = \[', f'"{NAMESPACE}.resources" = [', text, flags=re.M)
    text = text.replace('root_packages = ["core", "gui"]', f'root_packages = ["{NAMESPACE}.core", "{NAMESPACE}.gui"]')
    text = text.replace('source_modules = ["core"]', f'source_modules = ["{NAMESPACE}.core"]')
    text = text.replace('forbidden_modules = ["gui", ', f'forbidden_modules = ["{NAMESPACE}.gui", ')
    # mypy reads the folders through the namespace's mirror of links (it cannot see the editable finder)
    text = text.replace('files = ["core"]', f'mypy_path = ".namespace"\npackages = ["{NAMESPACE}.core"]\nexplicit_package_bases = true')
    return text


TOP_NAMES_TEST = f'''

def test_the_wheel_installs_one_top_level_name(tmp_path):
    """Nothing generic lands in site-packages (issue 29): the wheel holds `{NAMESPACE}/` and its dist-info only."""
    import zipfile
    env = {{k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}}
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=NOT_SHIPPED)
    built = run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", tmp_path / "dist", source], tmp_path, env)
    assert built.returncode == 0, built.stderr
    (wheel,) = (tmp_path / "dist").glob("worker_session_inspector-*.whl")
    tops = {{name.split("/")[0] for name in zipfile.ZipFile(wheel).namelist()}}
    assert {{t for t in tops if not t.endswith(".dist-info")}} == {{"{NAMESPACE}"}}, sorted(tops)
'''

ONE_WINDOW_TEST = """

def main_window_importers() -> list[str]:
    \"\"\"The gui modules that import `MainWindow` by name.\"\"\"
    found = []
    for path in sorted((ROOT / "gui").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").endswith("main_window") and any(a.name == "MainWindow" for a in node.names):
                found.append(path.relative_to(ROOT).as_posix())
    return found


def test_no_gui_module_but_the_app_imports_the_main_window():
    \"\"\"Views and actions take the context and the window's services, never `MainWindow` (issue 29): no import circle.\"\"\"
    assert set(main_window_importers()) <= {"gui/window/app.py"}
"""


def main_window_importers() -> list[str]:
    """The same scan as ONE_WINDOW_TEST, run here to know whether the test may be added yet."""
    import ast
    found = []
    for path in sorted(Path("gui").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").endswith("main_window") and any(a.name == "MainWindow" for a in node.names):
                found.append(path.as_posix())
    return found


MAP_SECTIONS = {
    "core": ("## core/: the answers", "`core/` computes every answer and never imports Qt, one folder per question."),
    "gui": ("## gui/: the window", "`gui/` is what the window is made of: its tabs, the widgets they share, background work, actions, the window."),
}

HOW_TO_FOLDERS = {
    "## Add a view": "The folder to start in: `gui/tabs/` (one folder per tab: its `view.py`, its `models.py`, its panels).",
    "## Add a format version": "The folder to start in: `core/session/formats/` (one package per version).",
    "## Add a CLI command": "The folder to start in: `core/cli/commands/` (one module per command).",
}


def redraw_architecture(doc: Path, unmapped: list[str]) -> None:
    """The map is the folders: one row per package (its docstring), plus any module no package holds yet."""
    text = doc.read_text(encoding="utf-8")
    rooms: dict[str, list[tuple[str, str]]] = {"core": [], "gui": []}
    for top in ("core", "gui"):
        for init in sorted(Path(top).rglob("__init__.py")):
            folder = init.parent
            if folder == Path(top) or "__pycache__" in folder.parts:
                continue
            first = (_docstring(init) or "").split("\n\n")[0].replace("\n", " ")
            rooms[top].append((f"`{folder.as_posix()}/`", first))
        for module in unmapped:
            if module.startswith(top + "/") and module.count("/") == 1 and module.endswith(".py"):
                rooms[top].append((f"`{module}`", (_docstring(Path(module)) or "").split("\n\n")[0].replace("\n", " ")))
    for top, (heading, lead) in MAP_SECTIONS.items():
        start = text.index(heading + "\n")
        end = text.index("\n## ", start + len(heading)) if top == "core" else text.index("\n`tests/` mirrors", start)
        table = "\n".join(f"| {room} | {what} |" for room, what in rooms[top])
        text = text[:start] + f"{heading}\n\n{lead}\n\n| folder | what it holds |\n| --- | --- |\n{table}\n" + text[end:]
    text = text.replace("`tests/` mirrors both:", "`tests/` mirrors both, folder for folder (what several test modules share: `tests/helpers/`):", 1)
    for heading, line in HOW_TO_FOLDERS.items():
        if heading + "\n\n" in text and line not in text:
            text = text.replace(heading + "\n\n", f"{heading}\n\n{line}\n", 1)
    doc.write_text(text, encoding="utf-8")


def _docstring(path: Path) -> str | None:
    import ast
    try:
        return ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
    except (SyntaxError, OSError):
        return None


def main() -> int:
    started = time.monotonic()
    if not Path("core").is_dir() or not Path(".git").exists():
        print("restructure: run me from the checkout's top", file=sys.stderr)
        return 2
    if Path("core/session").is_dir() or NAMESPACE in Path("pyproject.toml").read_text(encoding="utf-8"):
        print("restructure: already done here (core/session/ exists or pyproject names wsi_inspector); refusing to run twice", file=sys.stderr)
        return 2
    if git("status", "--porcelain", "--untracked-files=no").strip():
        print("restructure: the work tree has uncommitted changes; commit or stash them first", file=sys.stderr)
        return 2
    tracked = git("ls-files").splitlines()
    moves, modules, paths = plan(tracked)

    # 1. the moves, and each new package's __init__.py
    targets = {new for _, new in moves}
    for folder, doc in PACKAGES.items():
        if not any(t.startswith(folder + "/") for t in targets):
            continue  # a package for modules this tree does not have (yet)
        Path(folder).mkdir(parents=True, exist_ok=True)
        init = Path(folder) / "__init__.py"
        old_init = next((old for old, new in moves if new == init.as_posix()), None)
        if old_init is None and not init.exists():
            init.write_text(f'"""{doc}"""\n' if doc else "", encoding="utf-8")
            git("add", str(init))
    for old, new in moves:
        Path(new).parent.mkdir(parents=True, exist_ok=True)
        git("mv", old, new)
    # gui/models/ is dissolved into the tabs and widgets: drop its __init__ if nothing else lives there
    if Path("gui/models/__init__.py").exists() and not [p for p in Path("gui/models").glob("*.py") if p.name != "__init__.py"]:
        git("rm", "-q", "gui/models/__init__.py")
    moved = {new: old for old, new in moves}
    # What the moves leave behind untracked: the in-place build of a moved C extension, and folders
    # (core/formats/, core/commands/, gui/models/) holding nothing but __pycache__
    for old, _new in moves:
        if old.endswith(".c"):
            for built in Path(old).parent.glob(Path(old).stem + ".*.so"):
                built.unlink()
    for folder in sorted({str(Path(old).parent) for old, _ in moves}, key=len, reverse=True):
        if Path(folder).is_dir() and not any(p.is_file() and "__pycache__" not in p.parts for p in Path(folder).rglob("*")):
            shutil.rmtree(folder)
    for folder, doc in PACKAGES.items():  # a moved package's __init__ without a docstring gets its purpose
        init = Path(folder) / "__init__.py"
        if doc and init.exists() and _docstring(init) is None:
            init.write_text(f'"""{doc}"""\n' + init.read_text(encoding="utf-8"), encoding="utf-8")

    # 2. the rewrite of every text file
    rewrite = build_rewriter(modules, paths)
    tracked = git("ls-files").splitlines()
    changed = 0
    for name in tracked:
        path = Path(name)
        if name in SKIP or not path.is_file() or not (path.suffix in TEXT_SUFFIXES or name in TEXT_PATHS):
            continue
        text = path.read_text(encoding="utf-8")
        new = rewrite(text)
        if name in moved and path.suffix == ".py":
            new = depth_fix(new, len(Path(name).parts) - len(Path(moved[name]).parts))
        if name == "pyproject.toml":
            new = rewrite_pyproject(new)
        if new != text:
            path.write_text(new, encoding="utf-8")
            changed += 1

    # 3. setup.py, the namespace's mirror for mypy, the fixups, the map, the wheel test
    Path("setup.py").write_text(SETUP_PY.format(ns=NAMESPACE, tops=TOPS), encoding="utf-8")
    mirror = Path(".namespace") / NAMESPACE
    mirror.mkdir(parents=True, exist_ok=True)
    for top in TOPS:
        link = mirror / top
        if not link.is_symlink():
            link.symlink_to(Path("..") / ".." / top)
    for name, old, new in FIXUPS:
        path = Path(name)
        text = path.read_text(encoding="utf-8") if path.exists() else ""
        if old in text:
            path.write_text(text.replace(old, new), encoding="utf-8")
        else:
            print(f"restructure: fixup not applied, {name} has no {old!r}: check it by hand")
    unmapped = sorted(f for f in git("ls-files").splitlines()
                      if f.split("/")[0] in ("core", "gui") and f.endswith(".py") and f.count("/") == 1 and not f.endswith("__init__.py"))
    unmapped += sorted(f for f in tracked if f.startswith("gui/models/") and f.endswith(".py") and f not in moved)
    redraw_architecture(Path("docs/architecture.md"), unmapped)
    install_test = Path("tests/test_install.py")
    if "test_the_wheel_installs_one_top_level_name" not in install_test.read_text(encoding="utf-8"):
        install_test.write_text(install_test.read_text(encoding="utf-8") + TOP_NAMES_TEST, encoding="utf-8")
    importers = set(main_window_importers()) - {"gui/window/app.py"}
    doc_test = Path("tests/test_architecture_doc.py")
    if importers:
        print(f"restructure: NOT adding the one-window test: these gui modules import MainWindow: {' '.join(sorted(importers))}")
    elif "test_no_gui_module_but_the_app_imports_the_main_window" not in doc_test.read_text(encoding="utf-8"):
        text = doc_test.read_text(encoding="utf-8").replace("import re\n", "import ast\nimport re\n", 1)
        doc_test.write_text(text + ONE_WINDOW_TEST, encoding="utf-8")
    git("add", "-u")  # every rewritten tracked file, wherever it is (tools/, .ci/, docs/ …)
    git("add", "-A", "core", "gui", "tests", ".namespace")

    print(f"restructure: {len(moves)} files moved, {changed} files rewritten, in {time.monotonic() - started:.1f} s")
    left = list(unmapped) + sorted(f for f in git("ls-files").splitlines()
                                          if re.fullmatch(r"tests/(core|gui)/test_\w+\.py", f))
    if left:
        print("restructure: left where they were (no row in MOVES; their imports are rewritten):")
        for f in left:
            print(f"  {f}")
    print("restructure: now `bash .ci/setup` (the editable install maps wsi_inspector.* onto the folders), then the suite")
    return 0


if __name__ == "__main__":
    sys.exit(main())
