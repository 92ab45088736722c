"""`wsi redact FILE [--out OUT] [--body B] [--keep-text KEYS] [--json]`: a copy of FILE that can leave the firm.

Free texts become stable placeholders and coordinates move by one offset per unit (wsi_inspector.core.handoff.redact); with
`--body B` the copy is checked to fail as B does in FILE, values that had to stay listed in `keptAsIs`
(wsi_inspector.core.handoff.redact_file). OUT defaults to FILE's name plus `.redacted.json` (`.redacted.jsonl` for JSON Lines)
beside FILE; the report goes beside OUT as `OUT.redaction.json`. OUT carries FILE's notes (those FILE
carries and those of its sidecar, their texts redacted the same way) in its top-level `notes`, so it
is one file to hand on. FILE is never written.

`--json` prints `{"out", "texts", "coordinates", "offset", "keptAsIs": [{"where", "why"}], "reproduced"}`.
Exit status 0 written (and, with --body, reproduced), 1 B does not fail in FILE or the copy does not
reproduce, 2 bad usage or a file that cannot be read or written.
"""
from __future__ import annotations

import argparse
from pathlib import Path

from wsi_inspector.core.cli.errors import CliError
from wsi_inspector.core.cli.options import add_file_argument
from wsi_inspector.core.cli.output import print_json
from wsi_inspector.core.session.reading import LoadError
from wsi_inspector.core.handoff.redact import RedactError
from wsi_inspector.core.handoff.redact_file import default_redacted, redact_file, report_path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_file_argument(parser, at=False)
    parser.add_argument("-o", "--out", metavar="OUT", help="where to write the copy (default: FILE.redacted.json beside FILE)")
    parser.add_argument("--body", metavar="B", help="check that body B still fails (or differs) the same way in the copy")
    parser.add_argument("--keep-text", metavar="KEYS", default="",
                        help="comma-separated keys whose string values stay as they are (e.g. name,label)")
    parser.add_argument("--timeout", type=float, default=10.0, metavar="S", help="stop each run of B after S seconds")


def run(args: argparse.Namespace) -> int:
    from wsi_inspector.core.reduce.reduce import NoFailure

    file = Path(args.file)
    out = Path(args.out) if args.out else default_redacted(file)
    if file.exists() and out.exists() and out.resolve() == file.resolve():
        raise CliError(f"wsi redact: --out {args.out}: that is FILE itself, which is never written; choose another path")
    if not out.parent.is_dir():
        raise CliError(f"wsi redact: --out {out}: no folder {out.parent}; choose a path in a folder that exists")
    keep = frozenset(k.strip() for k in args.keep_text.split(",") if k.strip())
    try:
        outcome = redact_file(file, out, args.body, keep, args.timeout)
    except LoadError as exc:
        raise CliError(f"wsi redact: {exc}") from None
    except RedactError as exc:
        raise CliError(f"wsi redact: {file.name}: {exc}", ) from None
    except KeyError:
        raise CliError(f"wsi redact: --body {args.body}: no body {args.body!r} in {file.name}") from None
    except NoFailure as exc:
        error = CliError(f"wsi redact: {file.name}: {exc}; nothing to keep, drop --body to redact anyway")
        error.status = 1
        raise error from None
    except OSError as exc:
        raise CliError(f"wsi redact: --out {out}: cannot write it ({exc.strerror or exc}); choose a folder you can write to") from None
    document = outcome.document()
    if args.json:
        print_json(document)
    else:
        print(f"wrote {out}: {document['texts']} texts replaced, {document['coordinates']} points moved "
              f"(offset {', '.join(f'{u} {dx:g},{dy:g}' for u, (dx, dy) in outcome.offset.items())}); "
              f"report in {report_path(out)}")
        for item in outcome.kept_as_is:
            print(f"kept as it was: {item['where']}: {item['why']}")
        for line in outcome.left_out:
            print(f"left out: {line}")
        if outcome.reproduced is not None:
            print(f"body {args.body} {'fails the same way in the copy' if outcome.reproduced else 'does NOT fail the same way in the copy'}")
    return 1 if outcome.reproduced is False else 0
