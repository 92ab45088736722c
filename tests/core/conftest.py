"""Fixtures the core tests share."""
import pytest
from py_mini_racer import MiniRacer

from wsi_inspector.core.runner.host import Runner
from wsi_inspector.core.session.load import load
from tests.conftest import DEMO
from tests.helpers.json_values import UTF8_LENGTH_JS


@pytest.fixture(scope="module")
def demo():
    """The demo session, loaded once per test module."""
    return load(DEMO)


@pytest.fixture(scope="module")
def runner():
    """One real runner (a V8 guest process) per test module."""
    with Runner(size=1) as shared:
        yield shared


@pytest.fixture(scope="module")
def v8():
    """A V8 context that measures JSON as the editor does (tests.helpers.json_values.UTF8_LENGTH_JS), one per test module."""
    ctx = MiniRacer()
    ctx.eval(UTF8_LENGTH_JS)
    return ctx
