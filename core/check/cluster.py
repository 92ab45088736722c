"""`wsi check --scheduler ADDRESS`: the same per-session work (`wsi_inspector.core.check.check.check_raw`) on a Dask cluster.

Needs the optional extra `[cluster]` (dask[distributed]) here and on the workers, and this project
installed on the workers. The client reads each file (within --max-size) and ships its bytes, so the
workers need no shared filesystem; at most a few sessions per worker thread are in flight, so the
client never holds the whole corpus. Each worker process keeps one warm runner for all the sessions
it gets. A task whose worker died (Dask retries it elsewhere first) is reported as `crashed`.

Every way a cluster can fail is a finding, never a hang or a traceback (issue 27, case 10): an
address that accepts a connection and says nothing, or answers as something else (an SSH banner),
is refused within `PROBE_S` of connecting, saying which; a cluster with no worker left for
`NO_WORKER_S`, or a scheduler that goes away mid-check, ends the check with every session not yet
checked reported as `cluster-lost` and the reports already in kept. Ctrl+C is seen within `POLL_S`.
"""
from __future__ import annotations

import logging
import socket
import struct
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

from wsi_inspector.core.check.check import CheckOptions, SessionReport, check_raw, failed_report, read_or_report

IN_FLIGHT_PER_THREAD = 2
POLL_S = 0.2
CONNECT_TIMEOUT_S = 10.0
PROBE_S = 2.0  # a Dask scheduler speaks first, at once: its first frame header
NO_WORKER_S = 15.0  # tasks waiting with no worker in the cluster this long: the check ends
MOST_FIRST_FRAME = 1 << 30  # a Dask message's first header (its length) is below this; a text banner is not

_runner: Any = None
_runner_lock = threading.Lock()


class ClusterUnavailable(Exception):
    """Dask is not installed, or the scheduler cannot be reached; the message says what to do."""


def _warm_runner() -> Any:
    """This worker process's runner, started on its first session and kept for the next ones."""
    global _runner
    with _runner_lock:
        if _runner is None:
            from wsi_inspector.core.runner.host import Runner

            _runner = Runner(size=_worker_threads())  # a guest per thread: sessions run side by side
        return _runner


def _worker_threads() -> int:
    try:
        from distributed import get_worker

        return max(1, int(get_worker().state.nthreads))
    except (ImportError, ValueError, AttributeError):  # not inside a Dask worker
        return 1


def check_on_worker(raw: bytes, path: str, options: dict[str, Any], where_texts: list[str]) -> SessionReport:
    """The task a Dask worker runs: one session's report."""
    from wsi_inspector.core.check.where import parse_where

    where = parse_where(where_texts) if where_texts else None
    return check_raw(raw, path, _warm_runner(), CheckOptions(**options), where)


def connect(address: str, should_stop: Callable[[], bool] = lambda: False) -> Any:
    """A Dask client on the scheduler at `address`; ClusterUnavailable saying why not, within about
    2 × CONNECT_TIMEOUT_S + PROBE_S whatever listens there. `should_stop()` true (Ctrl+C) meanwhile:
    KeyboardInterrupt at once."""
    try:
        from distributed import Client
    except ImportError:
        raise ClusterUnavailable("--scheduler needs Dask: pip install 'worker-session-inspector[cluster]'") from None
    logging.getLogger("distributed").setLevel(logging.CRITICAL)  # its own tracebacks: each failure is a finding here
    made: list[Any] = []
    failed: list[BaseException] = []

    def make() -> None:  # in a thread: the main thread stays free to see Ctrl+C
        try:
            why_not = probe(address)
            if why_not is not None:
                raise ClusterUnavailable(f"--scheduler {address}: {why_not}; check the address (tcp://HOST:8786) "
                                         "and that a Dask scheduler runs there")
            made.append(Client(address, timeout=CONNECT_TIMEOUT_S))
        except BaseException as exc:  # noqa: BLE001 — whatever it is, it is said below
            failed.append(exc)

    thread = threading.Thread(target=make, name="wsi-dask-connect", daemon=True)
    thread.start()
    deadline = time.monotonic() + 2 * CONNECT_TIMEOUT_S + PROBE_S  # the probe, then the client's own connect
    while thread.is_alive() and time.monotonic() < deadline:
        thread.join(POLL_S)
        if should_stop():
            raise KeyboardInterrupt
    if made:
        return made[0]
    if failed and isinstance(failed[0], ClusterUnavailable):
        raise failed[0]
    reason = f"{type(failed[0]).__name__}: {failed[0]}" if failed else f"no answer in {2 * CONNECT_TIMEOUT_S + PROBE_S:g} s"
    raise ClusterUnavailable(f"--scheduler {address}: cannot reach the Dask scheduler ({reason}); "
                             "check the address (tcp://HOST:8786) and that it is running")


class Closable(Protocol):
    """What `disconnect` needs of a Dask client."""

    def close(self, timeout: float = ...) -> object: ...


def disconnect(client: Closable) -> None:
    """Close the client; a scheduler already gone is not an error here (the check said so)."""
    try:
        client.close(timeout=CONNECT_TIMEOUT_S)
    except Exception:  # noqa: BLE001 — nothing left to close cleanly
        pass


def probe(address: str) -> str | None:
    """Why a plain TCP `address` is not a Dask scheduler (silent, or answering as something else); None
    when it may be one, or when the address is not plain TCP (then the client's own checks apply)."""
    text = address.removeprefix("tcp://")
    if "://" in text or ":" not in text:
        return None
    host, _, port = text.rpartition(":")
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=CONNECT_TIMEOUT_S) as conn:
            conn.settimeout(PROBE_S)
            first = b""
            while len(first) < 8:
                piece = conn.recv(8 - len(first))
                if not piece:
                    return "the connection was closed without a word: not a Dask scheduler"
                first += piece
    except socket.timeout:
        return f"it accepts connections but says nothing within {PROBE_S:g} s: not a Dask scheduler, or a stuck one"
    except (OSError, ValueError) as exc:
        return f"cannot reach the Dask scheduler ({exc})"
    if struct.unpack("<Q", first)[0] >= MOST_FIRST_FRAME:
        return f"it answers as something else ({first.decode('ascii', 'backslashreplace')!r}…): not a Dask scheduler"
    return None


def run_on_cluster(client: Any, paths: Sequence[Path], options: CheckOptions, where_texts: list[str],
                   on_report: Callable[[int, SessionReport], None],
                   should_stop: Callable[[], bool] = lambda: False) -> bool:
    """Check every path on the cluster behind `client`; False when stopped early (running tasks are cancelled)."""
    from distributed import wait

    threads = max(1, sum(client.nthreads().values()))
    limit = threads * IN_FLIGHT_PER_THREAD
    queue = list(enumerate(paths))[::-1]
    running: dict[Any, tuple[int, Path]] = {}
    idle_since: float | None = None  # since when tasks wait with no worker in the cluster
    try:
        while queue or running:
            if should_stop():
                return False
            while queue and len(running) < limit:
                index, path = queue.pop()
                raw = read_or_report(path, options.max_bytes)
                if isinstance(raw, dict):
                    on_report(index, raw)
                    continue
                future = client.submit(check_on_worker, raw, str(path), options.as_json(), where_texts, pure=False)
                running[future] = (index, path)
            if not running:
                continue
            try:
                done = wait(list(running), timeout=POLL_S, return_when="FIRST_COMPLETED").done
            except TimeoutError:
                done = set()
            for future in done:
                index, path = running.pop(future)
                on_report(index, _result(future, path))
            if not done:
                idle_since = _no_worker_since(client, idle_since)
                if idle_since is not None and time.monotonic() - idle_since > NO_WORKER_S:
                    _lost(running, queue, on_report, f"the cluster has had no worker for {NO_WORKER_S:g} s")
                    return True  # the tasks still waiting are cancelled below
        return True
    except Exception as exc:  # the scheduler went away (CancelledError, CommClosedError, OSError …)
        detail = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        _lost(running, queue, on_report, f"the Dask scheduler went away ({detail})")
        running.clear()
        return True
    finally:
        if running:
            try:
                client.cancel(list(running))
            except Exception:  # noqa: BLE001 — a scheduler already gone: nothing left to cancel
                pass


def _no_worker_since(client: Any, since: float | None) -> float | None:
    """When the cluster was first seen without a worker (None while it has one)."""
    try:
        workers = client.nthreads()
    except Exception:  # noqa: BLE001 — asked again at the next poll; a scheduler gone shows in `wait`
        return since
    if workers:
        return None
    return since if since is not None else time.monotonic()


def _lost(running: dict[Any, tuple[int, Path]], queue: list[tuple[int, Path]],
          on_report: Callable[[int, SessionReport], None], why: str) -> None:
    """Report every session still running or waiting as not checked, saying why; the reports already in stay."""
    for index, path in sorted([*running.values(), *queue]):
        on_report(index, failed_report(str(path), "cluster-lost", f"not checked: {why}; check it again, or "
                                       "without --scheduler"))


def _result(future: Any, path: Path) -> SessionReport:
    try:
        return future.result()
    except Exception as exc:  # KilledWorker and the like: that session only
        return failed_report(str(path), "crashed", f"its cluster task failed ({type(exc).__name__}: {exc}); "
                             "the other sessions went on (check it alone to see why)")
