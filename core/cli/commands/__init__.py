"""One module per `wsi` command: `add_arguments(parser)` and `run(args) -> int`, one line each in COMMANDS."""
