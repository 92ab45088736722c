"""The exception hook: an unexpected exception is logged and shown in a dialog; the app keeps running.

The log is `$WSI_LOG` when set, else `wsi.log` in the platform's state folder (Qt's
AppLocalDataLocation). Dialogs are non-modal, so a burst of errors never blocks the window.
"""
from __future__ import annotations

import logging
import os
import sys
import threading
import traceback
from pathlib import Path
from types import TracebackType
from typing import Any

from PySide6.QtCore import QStandardPaths, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

_logger = logging.getLogger("wsi")
MAX_OPEN_DIALOGS = 3
_dialogs: list[QMessageBox] = []


def log_path() -> Path:
    """Where unexpected exceptions are written."""
    if os.environ.get("WSI_LOG"):
        return Path(os.environ["WSI_LOG"])
    folder = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppLocalDataLocation) or str(Path.home() / ".wsi")
    return Path(folder) / "wsi.log"


def _ensure_handler() -> None:
    path = log_path()
    if any(getattr(h, "baseFilename", None) == str(path) for h in _logger.handlers):
        return
    for old in list(_logger.handlers):
        _logger.removeHandler(old)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handler: logging.Handler = logging.FileHandler(path, encoding="utf-8")
    except OSError:
        handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
    _logger.addHandler(handler)
    _logger.setLevel(logging.INFO)
    _logger.propagate = False


def log_exception(exc: BaseException) -> str:
    """Write the exception and its traceback to the log; returns the traceback text."""
    text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    _ensure_handler()
    _logger.error("unexpected exception\n%s", text)
    for handler in _logger.handlers:
        handler.flush()
    return text


def report(exc: BaseException, parent: QWidget | None = None) -> QMessageBox | None:
    """Log `exc` and show it in a non-modal dialog (on the GUI thread); the app keeps running."""
    details = log_exception(exc)
    app = QApplication.instance()
    if app is None:
        print(details, file=sys.stderr)
        return None
    if threading.current_thread() is not threading.main_thread():
        QTimer.singleShot(0, app, lambda: _show(exc, details, parent))
        return None
    return _show(exc, details, parent)


def _show(exc: BaseException, details: str, parent: QWidget | None) -> QMessageBox | None:
    _dialogs[:] = [d for d in _dialogs if d.isVisible()]
    if len(_dialogs) >= MAX_OPEN_DIALOGS:
        return None  # logged already; more dialogs would only bury the window
    box = QMessageBox(QMessageBox.Icon.Warning, "Unexpected error",
                      f"Something went wrong: {type(exc).__name__}: {exc}\n\n"
                      "The inspector keeps running; what you were doing may not have finished. "
                      f"The details are in {log_path()}.", QMessageBox.StandardButton.Close, parent)
    box.setObjectName("unexpectedErrorDialog")
    box.setDetailedText(details)
    box.setModal(False)
    box.show()
    _dialogs.append(box)
    return box


def install(parent: Any = None) -> None:
    """Route unhandled exceptions (main and other threads) to `report` instead of ending the app."""
    def hook(kind: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
        if issubclass(kind, KeyboardInterrupt):
            sys.__excepthook__(kind, exc, tb)
            return
        report(exc.with_traceback(tb), parent() if callable(parent) else parent)

    sys.excepthook = hook
    threading.excepthook = lambda args: hook(args.exc_type, args.exc_value, args.exc_traceback)  # type: ignore[arg-type]
