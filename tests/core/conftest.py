"""Fixtures the core tests share."""
import pytest
from py_mini_racer import MiniRacer

from tests.helpers.json_values import UTF8_LENGTH_JS


@pytest.fixture(scope="module")
def v8():
    """A V8 context that measures JSON as the editor does (tests.helpers.json_values.UTF8_LENGTH_JS), one per test module."""
    ctx = MiniRacer()
    ctx.eval(UTF8_LENGTH_JS)
    return ctx
