"""Every `wsi` command the documentation shows runs as written, with the exit status and output it says.

A doc that drifts from the tool is a newcomer's first ten minutes lost (issue 32), so the docs are
tested like code:

- every line starting with `wsi` in a fenced shell block (```sh, bash, shell, console) of README.md
  and docs/*.md runs, in order per page, in a folder made by `wsi demo --copy` (the demo session
  and every file of resources/examples/), through bash with this venv's `wsi` first on PATH;
- the exit status is 0 unless the line's comment says `exit N`; no traceback, no internal error;
  a `--json` command prints exactly one JSON document; any other prints something (unless redirected);
- a command that would open the window (`wsi`, `wsi gui …` without `--screenshot`) runs with
  `--screenshot` added, offscreen, so its FILE, `--at` and `--tab` are still checked;
- a ```json block right after a shell block whose last command has `--json` is that command's
  output, abridged: a template (`"…"` matches anything, a list ending in `"…"` matches any list
  that starts so, an object's keys must be there in that order, numbers and strings exactly), so
  an example's figures cannot go stale;
- a session a doc shows whole (a ```json block with a `format`) is a file of resources/examples/.

A line whose comment says `illustrative` is not run (keep those rare: a Dask cluster, say).
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SHELL_FENCES = {"sh", "bash", "shell", "console"}
FENCE = re.compile(r"^```(\S*)")
BIN = Path(sys.executable).parent
ANY = "…"


@dataclass
class Command:
    page: str
    line: int
    text: str
    status: int
    illustrative: bool
    output_template: object = None  # the ```json block that follows, when it is this command's output

    @property
    def where(self) -> str:
        return f"{self.page}:{self.line}: {self.text}"


def split_comment(line: str) -> tuple[str, str]:
    """(command, comment): the comment is what follows a ` #` outside quotes."""
    quote = None
    for i, char in enumerate(line):
        if quote:
            quote = None if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "#" and i > 0 and line[i - 1] == " ":
            return line[:i].rstrip(), line[i + 1:].strip()
    return line.rstrip(), ""


def blocks(text: str) -> list[tuple[str, int, list[str]]]:
    """The fenced blocks of a page: (info word, line number of its first line, lines)."""
    found, current = [], None
    for number, line in enumerate(text.splitlines(), 1):
        match = FENCE.match(line)
        if match and current is None:
            current = (match.group(1).lower(), number + 1, [])
        elif line.startswith("```") and current is not None:
            found.append(current)
            current = None
        elif current is not None:
            current[2].append(line)
    return found


def page_commands(page: Path) -> list[Command]:
    """The `wsi` commands of one page, in order, each with the output template that follows it."""
    name = str(page.relative_to(ROOT))
    commands: list[Command] = []
    last_block_commands: list[Command] = []
    for info, first, lines in blocks(page.read_text(encoding="utf-8")):
        if info in SHELL_FENCES:
            last_block_commands = []
            for offset, raw in enumerate(lines):
                line = raw.strip().removeprefix("$ ")
                if line != "wsi" and not line.startswith("wsi "):
                    continue
                text, comment = split_comment(line)
                status = re.search(r"\bexit (\d+)", comment)
                command = Command(name, first + offset, text, int(status.group(1)) if status else 0,
                                  "illustrative" in comment)
                commands.append(command)
                last_block_commands.append(command)
            continue
        if info == "json" and last_block_commands and "--json" in last_block_commands[-1].text:
            last_block_commands[-1].output_template = json.loads("\n".join(lines))
        last_block_commands = []
    return commands


def matches(template: object, actual: object, path: str = "") -> str | None:
    """None when `actual` fits the abridged `template`, else where and how it does not."""
    if template == ANY:
        return None
    if isinstance(template, dict):
        if not isinstance(actual, dict):
            return f"{path or '/'}: an object in the doc, {type(actual).__name__} in the output"
        keys = [k for k in actual if k in template]
        missing = [k for k in template if k not in actual]
        if missing:
            return f"{path or '/'}: the doc shows {missing}, the output has {list(actual)}"
        if keys != list(template):
            return f"{path or '/'}: keys in the order {keys}, the doc shows {list(template)}"
        for key, value in template.items():
            problem = matches(value, actual[key], f"{path}/{key}")
            if problem:
                return problem
        return None
    if isinstance(template, list):
        if not isinstance(actual, list):
            return f"{path or '/'}: an array in the doc, {type(actual).__name__} in the output"
        abridged = bool(template) and template[-1] == ANY
        shown = template[:-1] if abridged else template
        if len(actual) < len(shown) or (not abridged and len(actual) != len(shown)):
            return f"{path or '/'}: {len(shown)} items in the doc, {len(actual)} in the output"
        for i, value in enumerate(shown):
            problem = matches(value, actual[i], f"{path}/{i}")
            if problem:
                return problem
        return None
    if template != actual or type(template) is not type(actual) and not {type(template), type(actual)} <= {int, float}:
        return f"{path or '/'}: the doc says {template!r}, the output is {actual!r}"
    return None


def as_run(text: str) -> str:
    """The command as run here: one that would open the window renders it offscreen instead."""
    if text == "wsi" or (text.startswith("wsi gui") and "--screenshot" not in text):
        return ("wsi gui" if text == "wsi" else text) + " --screenshot window.png"
    return text


def run_page_commands(commands: list[Command], folder: Path) -> list[str]:
    """Run the commands in order in `folder`; the list of what went wrong, each naming its line."""
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}", "QT_QPA_PLATFORM": "offscreen",
           "WSI_DOC_TEST": "1"}
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    problems = []
    for command in commands:
        if command.illustrative:
            continue
        done = subprocess.run(["bash", "-c", as_run(command.text)], cwd=folder, env=env, capture_output=True,
                              text=True, timeout=300)
        said = (done.stderr.strip().splitlines() or [""])[-1]
        if done.returncode != command.status:
            problems.append(f"{command.where}: exit {done.returncode}, the doc says {command.status} ({said})")
            continue
        if "Traceback" in done.stderr or "internal error" in done.stderr:
            problems.append(f"{command.where}: {said}")
        redirected = ">" in command.text.replace("->", "")
        if "--json" in command.text and not redirected:
            try:
                document = json.loads(done.stdout)
            except ValueError:
                problems.append(f"{command.where}: --json printed no one JSON document: {done.stdout[:200]!r}")
                continue
            if command.output_template is not None:
                problem = matches(command.output_template, document)
                if problem:
                    problems.append(f"{command.where}: the output shown below it is stale: {problem}")
        elif not redirected and not (done.stdout.strip() or done.stderr.strip()):
            problems.append(f"{command.where}: printed nothing")
    return problems


@pytest.fixture
def tour(tmp_path: Path) -> Path:
    """A folder as `wsi demo --copy` makes it: what every documented command runs in."""
    folder = tmp_path / "tour"
    made = subprocess.run([BIN / "wsi", "demo", "--copy", folder], capture_output=True, text=True, timeout=120)
    assert made.returncode == 0, made.stderr
    return folder


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_documented_command_runs_as_written(page: Path, tour: Path) -> None:
    commands = page_commands(page)
    problems = run_page_commands(commands, tour)
    assert not problems, "\n".join(problems)


def test_the_docs_show_commands_and_few_are_illustrative() -> None:
    commands = [c for page in PAGES for c in page_commands(page)]
    assert len(commands) >= 30, "the doc test found too few commands: has the fence syntax changed?"
    illustrative = [c.where for c in commands if c.illustrative]
    assert len(illustrative) <= 3, illustrative
    assert sum(c.output_template is not None for c in commands) >= 3


def test_every_session_a_doc_shows_whole_ships_in_resources_examples() -> None:
    shipped = [json.loads(p.read_text(encoding="utf-8")) for p in (ROOT / "resources" / "examples").glob("*.json")]
    shown = 0
    for page in PAGES:
        for info, first, lines in blocks(page.read_text(encoding="utf-8")):
            if info != "json":
                continue
            try:
                value = json.loads("\n".join(lines))
            except ValueError:
                continue  # a shape with placeholders, not a file
            if isinstance(value, dict) and "format" in value and "store" in value:
                shown += 1
                assert value in shipped, f"{page.name}:{first}: a session shown whole that resources/examples/ lacks"
    assert shown >= 2


def test_the_template_check_catches_a_stale_figure() -> None:
    assert matches({"cap": 4000, "fell": ANY}, {"cap": 4000, "fell": 13, "bytes": 1}) is None
    assert "3987" in str(matches({"bytes": 3987}, {"bytes": 3971}))
    assert matches({"kept": ["c14", ANY]}, {"kept": ["c14", "c15"]}) is None
    assert matches({"kept": ["c14"]}, {"kept": ["c14", "c15"]}) is not None
    assert "order" in str(matches({"b": 1, "a": 2}, {"a": 2, "b": 1}))


def test_comments_and_quotes_are_read_as_bash_reads_them() -> None:
    assert split_comment("wsi check . --where 'differs #x'  # exit 1") == ("wsi check . --where 'differs #x'", "exit 1")
    assert split_comment("wsi replay demo.json") == ("wsi replay demo.json", "")
