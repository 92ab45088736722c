"""Shared fixtures for the runner tests: the demo session and one real runner per module."""
from __future__ import annotations

import pytest

from wsi_inspector.core.runner.host import Runner
from wsi_inspector.core.session.load import load
from tests.conftest import DEMO


@pytest.fixture(scope="module")
def demo():
    return load(DEMO)


@pytest.fixture(scope="module")
def runner():
    with Runner(size=1) as shared:
        yield shared
