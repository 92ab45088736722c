"""`wsi_inspector.core.cli` is a package: the dispatcher runs the commands of `wsi_inspector.core.cli.commands`, which never import it back."""
import argparse
import importlib
import subprocess
import sys
from pathlib import Path

from wsi_inspector.core.cli.dispatch import COMMANDS, build_parser

ROOT = Path(__file__).resolve().parents[3]


def test_every_command_of_the_dispatcher_is_a_module_with_arguments_and_a_run():
    for name in COMMANDS:
        module = importlib.import_module(f"wsi_inspector.core.cli.commands.{name}")
        assert callable(module.add_arguments) and callable(module.run), name
    on_disk = {p.stem for p in (ROOT / "core" / "cli" / "commands").glob("*.py") if p.stem != "__init__"}
    assert on_disk == set(COMMANDS)  # a module not listed would never run; a name without a module neither


def test_importing_every_command_does_not_import_the_dispatcher():
    code = ("import importlib, sys\n"
            f"for name in {sorted(COMMANDS)!r}: importlib.import_module('wsi_inspector.core.cli.commands.' + name)\n"
            "print('wsi_inspector.core.cli.dispatch' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


def test_the_parser_imports_only_the_chosen_commands_module():
    code = ("import sys\nfrom wsi_inspector.core.cli.dispatch import build_parser\nbuild_parser('manifest')\n"
            "print(sorted(m for m in sys.modules if m.startswith('wsi_inspector.core.cli.commands.')))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.stdout.strip() == "['wsi_inspector.core.cli.commands.manifest']", done.stderr
    assert isinstance(build_parser(None), argparse.ArgumentParser)
