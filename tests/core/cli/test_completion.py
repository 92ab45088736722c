"""`wsi --completion bash|zsh` (issue 32 point 9): a script bash accepts that completes commands and options."""
import shutil
import subprocess

import pytest

from wsi_inspector.core.cli.completion import GUI_OPTIONS
from wsi_inspector.core.cli.dispatch import COMMANDS
from tests.helpers.cli import help_text, options_in_help, wsi


@pytest.fixture(scope="module")
def bash_script():
    done = wsi("--completion", "bash")
    assert done.returncode == 0, done.stderr
    return done.stdout


def complete(script: str, *words: str) -> list[str]:
    """What Tab offers after `words` (the last one being completed), in a bash subprocess."""
    array = " ".join(f"'{w}'" for w in words)
    program = f'{script}\nCOMP_WORDS=({array}); COMP_CWORD={len(words) - 1}; _wsi; printf "%s\\n" "${{COMPREPLY[@]}}"'
    done = subprocess.run(["bash", "-c", program], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_bash_accepts_the_script(bash_script):
    assert subprocess.run(["bash", "-n"], input=bash_script, text=True, timeout=30).returncode == 0
    assert bash_script.rstrip().endswith("complete -o default -F _wsi wsi")


def test_bash_completes_commands_and_each_command_s_options(bash_script):
    assert complete(bash_script, "wsi", "ma") == ["manifest"]
    # every command of COMMANDS that starts so, in their order (the completion is made from COMMANDS)
    assert complete(bash_script, "wsi", "re") == [name for name in COMMANDS if name.startswith("re")]
    assert {"replay", "resolve", "reduce"} <= set(complete(bash_script, "wsi", "re"))
    assert complete(bash_script, "wsi", "check", "--ses") == ["--session-budget"]
    assert complete(bash_script, "wsi", "gui", "--scr") == ["--screenshot"]
    assert complete(bash_script, "wsi", "--comp") == ["--completion"]
    assert complete(bash_script, "wsi", "--inst") == ["--install-desktop"]  # a top option of dispatch.py's own


def test_zsh_script_parses():
    done = wsi("--completion", "zsh")
    assert done.returncode == 0 and "compdef _wsi wsi" in done.stdout
    assert "    show) opts=(" in done.stdout
    if shutil.which("zsh") is None:
        pytest.skip("no zsh here to parse it")
    assert subprocess.run(["zsh", "-n"], input=done.stdout, text=True, timeout=30).returncode == 0


def test_an_unknown_shell_is_bad_usage():
    done = wsi("--completion", "fish")
    assert done.returncode == 2 and "invalid choice: 'fish'" in done.stderr


def test_the_gui_options_the_script_offers_are_wsi_gui_s():
    assert set(GUI_OPTIONS) - {"--help"} == options_in_help(help_text("gui"))
