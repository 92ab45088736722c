"""`wsi` headless: `dispatch` (the command line, COMMANDS, the exit status) and what the commands share.

The commands themselves are the modules of `wsi_inspector.core.cli.commands`; they import `errors`, `options`,
`output` and `sessions` from here, never `dispatch`, which imports them (lazily, by name).
"""
