"""The errors a `wsi` command raises for the dispatcher to print: one plain line each, and their exit status."""
from __future__ import annotations


class CliError(Exception):
    """A usage or file error: its message is printed as one plain line, exit status 2."""

    status = 2
    where: str | None = None


class FileUnreadable(CliError):
    """Nothing of the file reads as JSON (damaged gzip, a syntax error in the document): exit status 1."""

    status = 1

    def __init__(self, message: str, where: str | None):
        super().__init__(message)
        self.where = where or None
