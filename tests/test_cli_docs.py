"""Every option of every `wsi` command is in docs/cli.md, and nothing there that a command lacks (issue 32 point 5).

Black-box, from `wsi --help` and `wsi COMMAND --help`, so a command added later (compare, notes, …)
is checked the moment it is registered: its row in docs/cli.md's command table must name every
option it takes. A row is the command's synopsis (its first code span); `--gzip-limit` is
documented once for every command that reads a FILE or PATH, so a row with one of those has it.
The README's command table may be shorter, but may show no option that does not exist.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.helpers.cli import help_text, options_in_help

ROOT = Path(__file__).resolve().parent.parent
OPTION = re.compile(r"(?<![\w-])--[a-z][a-z-]*")
ROW = re.compile(r"^\| `(wsi(?: [^`]*)?)`", re.MULTILINE)
READS_A_FILE = re.compile(r"\bFILE\b|\bPATH\b")


def commands() -> list[str]:
    """The commands `wsi --help` lists (gui and every module of COMMANDS)."""
    names = re.findall(r"^    ([a-z][a-z-]*)\s", help_text(), re.MULTILINE)
    assert "gui" in names and "manifest" in names, names
    return names


def documented_rows(page: Path) -> dict[str, set[str]]:
    """command name ('' for `wsi` alone and its own options) → the options its rows show."""
    rows: dict[str, set[str]] = {}
    for synopsis in ROW.findall(page.read_text(encoding="utf-8")):
        words = synopsis.split()
        name = words[1] if len(words) > 1 and not words[1].startswith("-") and words[1] != "COMMAND" else ""
        if len(words) > 1 and words[1] == "COMMAND":
            continue
        shown = set(OPTION.findall(synopsis))
        if name and READS_A_FILE.search(synopsis):
            shown.add("--gzip-limit")
        rows.setdefault(name, set()).update(shown)
    return rows


CLI_ROWS = documented_rows(ROOT / "docs" / "cli.md")


@pytest.mark.parametrize("name", commands())
def test_every_option_of_the_command_is_in_cli_md_and_no_other(name: str) -> None:
    assert name in CLI_ROWS, f"docs/cli.md's command table has no row for `wsi {name}`"
    actual = options_in_help(help_text(name))
    documented = CLI_ROWS[name]
    assert actual - documented == set(), f"wsi {name} takes {sorted(actual - documented)}, which docs/cli.md does not show"
    assert documented - actual == set(), f"docs/cli.md shows {sorted(documented - actual)} for wsi {name}, which it lacks"


def test_wsi_own_options_are_in_cli_md() -> None:
    assert options_in_help(help_text()) == CLI_ROWS[""]


def test_the_readme_shows_no_option_that_does_not_exist() -> None:
    for name, shown in documented_rows(ROOT / "README.md").items():
        actual = options_in_help(help_text(name) if name else help_text())
        assert shown - actual - {"--gzip-limit"} == set(), f"README shows {sorted(shown - actual)} for wsi {name}"


def test_a_missing_option_would_be_caught() -> None:
    rows = documented_rows(ROOT / "docs" / "cli.md")
    assert "--max-size" in rows["check"] and "--gzip-limit" in rows["check"] and "--gzip-limit" not in rows["demo"]
    assert options_in_help("  --jobs N  runs\n  -h, --help  show\n      --not-an-option in prose") == {"--jobs"}
    assert options_in_help("  -o OUT, --out OUT  where") == {"--out"}
