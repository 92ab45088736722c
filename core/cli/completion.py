"""`wsi --completion bash|zsh`: a shell completion script for the commands and options of this `wsi`.

The script is written out whole (no `wsi` process runs at each Tab): the command names and each
command's options are read from the parsers when the script is printed, so it matches the
installed `wsi`. Install it with `eval "$(wsi --completion bash)"` in ~/.bashrc (or save it as
~/.local/share/bash-completion/completions/wsi), or for zsh `eval "$(wsi --completion zsh)"` in
~/.zshrc after `compinit`. Words that are not options complete as file names.
"""
from __future__ import annotations

SHELLS = ("bash", "zsh")
# `wsi gui`'s options: its parser lives in gui/ (it imports Qt), which core never imports; a test
# compares this with `wsi gui --help`.
GUI_OPTIONS = ("--screenshot", "--tab", "--at", "--gzip-limit", "--help")
TOP_OPTIONS = ("--help", "--version", "--completion", "--install-desktop")  # dispatch.py's own


def script(shell: str, options: dict[str, list[str]]) -> str:
    """The completion script for `shell`, given each command's options (in `wsi --help` order)."""
    return (_bash if shell == "bash" else _zsh)(options)


def _bash(options: dict[str, list[str]]) -> str:
    cases = "\n".join(f'        {name}) opts="{" ".join(opts)}" ;;' for name, opts in options.items())
    return f'''# wsi completion for bash: eval "$(wsi --completion bash)" (or save as
# ~/.local/share/bash-completion/completions/wsi)
_wsi() {{
    local cur="${{COMP_WORDS[COMP_CWORD]}}" command="" opts="" i
    for ((i = 1; i < COMP_CWORD; i++)); do
        case "${{COMP_WORDS[i]}}" in
            -*) ;;
            *) command="${{COMP_WORDS[i]}}"; break ;;
        esac
    done
    if [[ -z "$command" ]]; then
        if [[ "$cur" == -* ]]; then
            COMPREPLY=($(compgen -W "{" ".join(TOP_OPTIONS)}" -- "$cur"))
        else
            COMPREPLY=($(compgen -W "{" ".join(options)}" -- "$cur"))
        fi
        return 0
    fi
    case "$command" in
{cases}
    esac
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
    else
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
    return 0
}}
complete -o default -F _wsi wsi
'''


def _zsh(options: dict[str, list[str]]) -> str:
    cases = "\n".join(f"    {name}) opts=({' '.join(opts)}) ;;" for name, opts in options.items())
    return f'''#compdef wsi
# wsi completion for zsh: eval "$(wsi --completion zsh)" after compinit in ~/.zshrc
_wsi() {{
  local -a opts
  if (( CURRENT == 2 )); then
    if [[ $PREFIX == -* ]]; then compadd -- {" ".join(TOP_OPTIONS)}; else compadd -- {" ".join(options)}; fi
    return
  fi
  case ${{words[2]}} in
{cases}
  esac
  if [[ $PREFIX == -* ]]; then compadd -- $opts; else _files; fi
}}
compdef _wsi wsi
'''
