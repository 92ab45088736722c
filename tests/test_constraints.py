"""constraints.txt is what the suite runs with: every pin is the installed version, every dependency is pinned."""
import importlib.metadata
import re

from tests.conftest import ROOT


def _name(requirement: str) -> str:
    return re.sub(r"[-_.]+", "-", re.match(r"[A-Za-z0-9._-]+", requirement).group()).lower()


def pins() -> dict[str, str]:
    lines = (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines()
    return {_name(line): line.split("==", 1)[1].strip() for line in lines if line.strip() and not line.startswith("#")}


def test_every_pinned_version_is_the_one_installed():
    # .ci/setup installs with `-c constraints.txt`, so a pass here is a pass with exactly these versions.
    installed = {name: importlib.metadata.version(name) for name in pins()}
    assert installed == pins(), "the venv differs from constraints.txt: run bash .ci/setup (or refresh the pins)"


def test_every_dependency_and_test_dependency_is_pinned():
    required = {_name(r) for r in importlib.metadata.requires("worker-session-inspector") or []}
    assert required - set(pins()) == set(), "pin the new dependency in constraints.txt (see its header)"
