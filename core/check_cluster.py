"""`wsi check --scheduler ADDRESS`: the same per-session work (`core.check.check_raw`) on a Dask cluster.

Needs the optional extra `[cluster]` (dask[distributed]) here and on the workers, and this project
installed on the workers. The client reads each file (within --max-size) and ships its bytes, so the
workers need no shared filesystem; at most a few sessions per worker thread are in flight, so the
client never holds the whole corpus. Each worker process keeps one warm runner for all the sessions
it gets. A task whose worker died (Dask retries it elsewhere first) is reported as `crashed`.
"""
from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from core.check import CheckOptions, SessionReport, TooLarge, check_raw, failed_report, read_raw

IN_FLIGHT_PER_THREAD = 2
POLL_S = 0.2
CONNECT_TIMEOUT_S = 10.0

_runner: Any = None
_runner_lock = threading.Lock()


class ClusterUnavailable(Exception):
    """Dask is not installed, or the scheduler cannot be reached; the message says what to do."""


def _warm_runner() -> Any:
    """This worker process's runner, started on its first session and kept for the next ones."""
    global _runner
    with _runner_lock:
        if _runner is None:
            from core.runner.host import Runner

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
    from core.check_where import parse_where

    where = parse_where(where_texts) if where_texts else None
    return check_raw(raw, path, _warm_runner(), CheckOptions(**options), where)


def connect(address: str) -> Any:
    """A Dask client on the scheduler at `address`; ClusterUnavailable saying why not."""
    try:
        from distributed import Client
    except ImportError:
        raise ClusterUnavailable("--scheduler needs Dask: pip install 'worker-session-inspector[cluster]'") from None
    try:
        return Client(address, timeout=CONNECT_TIMEOUT_S)
    except (OSError, TimeoutError, ValueError) as exc:
        raise ClusterUnavailable(f"--scheduler {address}: cannot reach the Dask scheduler ({exc}); "
                                 "check the address (tcp://HOST:8786) and that it is running") from None


def run_on_cluster(client: Any, paths: Sequence[Path], options: CheckOptions, where_texts: list[str],
                   on_report: Callable[[int, SessionReport], None],
                   should_stop: Callable[[], bool] = lambda: False) -> bool:
    """Check every path on the cluster behind `client`; False when stopped early (running tasks are cancelled)."""
    from distributed import wait

    threads = max(1, sum(client.nthreads().values()))
    limit = threads * IN_FLIGHT_PER_THREAD
    queue = list(enumerate(paths))[::-1]
    running: dict[Any, tuple[int, Path]] = {}
    try:
        while queue or running:
            if should_stop():
                return False
            while queue and len(running) < limit:
                index, path = queue.pop()
                try:
                    raw = read_raw(path, options.max_bytes)
                except TooLarge as exc:
                    on_report(index, failed_report(str(path), "too-large", f"not checked: {exc}; raise --max-size to check it"))
                    continue
                except OSError as exc:
                    on_report(index, failed_report(str(path), "unreadable", f"cannot be read: {exc.strerror or exc}"))
                    continue
                future = client.submit(check_on_worker, raw, str(path), options.as_json(), where_texts, pure=False)
                running[future] = (index, path)
            if not running:
                continue
            try:
                done = wait(list(running), timeout=POLL_S, return_when="FIRST_COMPLETED").done
            except TimeoutError:
                continue
            for future in done:
                index, path = running.pop(future)
                on_report(index, _result(future, path))
        return True
    finally:
        if running:
            client.cancel(list(running))


def _result(future: Any, path: Path) -> SessionReport:
    try:
        return future.result()
    except Exception as exc:  # KilledWorker and the like: that session only
        return failed_report(str(path), "crashed", f"its cluster task failed ({type(exc).__name__}: {exc}); "
                             "the other sessions went on (check it alone to see why)")
