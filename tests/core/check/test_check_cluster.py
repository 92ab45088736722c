"""`wsi check --scheduler`: the same reports and exit codes from a Dask LocalCluster as from local workers."""
from __future__ import annotations

import json

import pytest

pytest.importorskip("distributed", reason="the [cluster] extra (dask[distributed]) is not installed")

from distributed import LocalCluster  # noqa: E402

from wsi_inspector.core.check.check import CheckOptions  # noqa: E402
from wsi_inspector.core.check.cluster import connect, run_on_cluster  # noqa: E402
from wsi_inspector.core.check.pool import LocalChecker  # noqa: E402
from wsi_inspector.core.cli.dispatch import main  # noqa: E402
from tests.helpers.check_corpus import session, write  # noqa: E402

# What differs between two runs of one session: the time it took.
VOLATILE = ("seconds", "ms")


def _stable(value):
    if isinstance(value, dict):
        return {k: _stable(v) for k, v in value.items() if k not in VOLATILE}
    if isinstance(value, list):
        return [_stable(v) for v in value]
    return value


@pytest.fixture(scope="module")
def cluster():
    with LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None) as local:
        yield local


@pytest.fixture
def paths(tmp_path):
    return [write(tmp_path / "a.json", session("a", bodies=2, edit=True)),
            write(tmp_path / "b.jsonl.gz", session("b", bodies=2, differs=True)),
            write(tmp_path / "c.json", session("c", bodies=1))]


def test_the_cluster_gives_the_same_reports_as_local_workers(cluster, paths):
    options = CheckOptions(timeout_s=2)
    local, remote = {}, {}
    assert LocalChecker(options, jobs=1).run(paths, local.__setitem__)
    client = connect(cluster.scheduler_address)
    try:
        assert run_on_cluster(client, paths, options, [], remote.__setitem__)
    finally:
        client.close()
    assert _stable(remote) == _stable(local)
    assert [remote[i]["clean"] for i in range(3)] == [True, False, True]


def test_wsi_check_scheduler_prints_the_same_document_and_exit_code(cluster, paths, capsys):
    status = main(["check", *map(str, paths), "--scheduler", cluster.scheduler_address, "--json", "--where", "!clean"])
    document = json.loads(capsys.readouterr().out)
    assert status == 1
    assert [s["path"] for s in document["sessions"]] == [str(paths[1])]
    assert document["sessions"][0]["findings"][0]["code"] == "replay-returned"


def test_an_unreachable_scheduler_is_a_usage_error(paths, capsys, monkeypatch):
    monkeypatch.setattr("wsi_inspector.core.check.cluster.CONNECT_TIMEOUT_S", 1.0)
    assert main(["check", str(paths[0]), "--scheduler", "tcp://127.0.0.1:9"]) == 2
    assert "cannot reach the Dask scheduler" in capsys.readouterr().err
