"""Issue 27, case 10: `wsi check` bounds its workers, and every cluster failure is a located finding
(or one clear line), never a hang, a traceback or "out of memory"; sessions already checked are kept.
Only local processes and sockets on 127.0.0.1 are used."""
from __future__ import annotations

import json
import socket
import threading

import pytest

from wsi_inspector.core.check.check import CheckOptions
from wsi_inspector.core.check.pool import LocalChecker, most_jobs
from tests.helpers.check_corpus import session, write
from tests.helpers.cli import wsi


@pytest.fixture
def paths(tmp_path):
    return [write(tmp_path / f"{name}.json", session(name, bodies=1)) for name in "abcd"]


def test_jobs_100000_is_capped_at_twice_the_cores_and_says_so(paths):
    assert LocalChecker(CheckOptions(), jobs=100_000).jobs == most_jobs()
    done = wsi("check", paths[0], "--jobs", "100000", "--json")
    assert done.returncode == 0, done.stderr
    assert f"using {most_jobs()}, twice the" in done.stderr
    assert json.loads(done.stdout)["sessions"][0]["clean"]


class _Server:
    """A TCP server on 127.0.0.1 that accepts and then says `greeting` (nothing: stays silent)."""

    def __init__(self, greeting: bytes = b""):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.greeting = greeting
        self.held: list[socket.socket] = []
        threading.Thread(target=self._serve, daemon=True).start()

    @property
    def address(self) -> str:
        return f"tcp://127.0.0.1:{self.sock.getsockname()[1]}"

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.held.append(conn)
            if self.greeting:
                conn.sendall(self.greeting)

    def close(self) -> None:
        self.sock.close()
        for conn in self.held:
            conn.close()


@pytest.mark.parametrize("greeting, said", [
    (b"", "accepts connections but says nothing within 2 s"),
    (b"SSH-2.0-OpenSSH_9.6\r\n", "answers as something else ('SSH-2.0-'"),
])
def test_a_port_that_is_not_a_dask_scheduler_is_one_clear_line(paths, greeting, said):
    pytest.importorskip("distributed")
    server = _Server(greeting)
    try:
        done = wsi("check", paths[0], "--scheduler", server.address, "--json")
    finally:
        server.close()
    assert done.returncode == 2
    assert said in done.stderr and "out of memory" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert "error" in json.loads(done.stdout)


def _cluster():
    distributed = pytest.importorskip("distributed")
    return distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None)


def test_the_scheduler_going_away_mid_check_keeps_what_was_checked(paths):
    from wsi_inspector.core.check.cluster import connect, run_on_cluster

    cluster = _cluster()
    client = connect(cluster.scheduler_address)
    reports: dict[int, dict] = {}

    def on_report(index, report):
        reports[index] = report
        if len(reports) == 1:
            cluster.close()  # the scheduler and its worker go away after the first report

    try:
        assert run_on_cluster(client, paths, CheckOptions(timeout_s=2), [], on_report)
    finally:
        client.close(timeout=2)
    assert sorted(reports) == [0, 1, 2, 3]
    checked = [r for r in reports.values() if r["clean"]]
    lost = [r for r in reports.values() if r["findings"] and r["findings"][0]["code"] == "cluster-lost"]
    assert len(checked) >= 1 and lost and len(checked) + len(lost) == 4
    assert all("the Dask scheduler went away" in r["findings"][0]["message"] for r in lost)


def test_the_only_worker_leaving_mid_check_ends_the_check_with_a_finding(paths, monkeypatch):
    from wsi_inspector.core.check import cluster as check_cluster

    monkeypatch.setattr(check_cluster, "NO_WORKER_S", 1.0)
    cluster = _cluster()
    client = check_cluster.connect(cluster.scheduler_address)
    reports: dict[int, dict] = {}

    def on_report(index, report):
        reports[index] = report
        if len(reports) == 1:
            cluster.scale(0)  # the only worker goes; no other will come
            cluster.sync(cluster._correct_state)

    try:
        assert check_cluster.run_on_cluster(client, paths, CheckOptions(timeout_s=2), [], on_report)
    finally:
        client.close(timeout=2)
        cluster.close()
    assert sorted(reports) == [0, 1, 2, 3]
    lost = [r for r in reports.values() if r["findings"] and r["findings"][0]["code"] == "cluster-lost"]
    assert lost and all("no worker for 1 s" in r["findings"][0]["message"] for r in lost)


def test_one_ctrl_c_while_a_silent_port_is_probed_stops_at_once(paths):
    import signal
    import subprocess
    import time

    from tests.helpers.cli import WSI

    pytest.importorskip("distributed")
    server = _Server()
    try:
        child = subprocess.Popen([str(WSI), "check", str(paths[0]), "--scheduler", server.address],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 30
        while not server.held and time.monotonic() < deadline:  # the check is now waiting on the port
            time.sleep(0.01)
        assert server.held
        child.send_signal(signal.SIGINT)
        _out, err = child.communicate(timeout=10)
    finally:
        server.close()
    assert child.returncode == 130
    assert err.strip() == "wsi: interrupted"
