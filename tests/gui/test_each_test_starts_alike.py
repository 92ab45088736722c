"""Each GUI test starts from the same application whatever ran before it (conftest `same_application_each_test`):
the first test here leaves the application as a careless test would, the second finds it as every test should."""
from wsi_inspector.core.edits import body_reads
from wsi_inspector.core.session.load import load
from wsi_inspector.gui.window import theme
from PySide6.QtWidgets import QStyleFactory
from tests.conftest import DEMO


def test_a_test_turns_the_theme_dark_changes_the_style_and_remembers_reads(qapp):
    qapp.setStyle(QStyleFactory.create("Fusion"))
    qapp.setPalette(theme.application_palette(qapp.style().standardPalette(), True))
    theme.use_palette(qapp.palette())
    session = load(DEMO)
    body_reads.remember(session, session.bodies[0].id, [])
    assert theme.dark() and body_reads.cached_reads(session, session.bodies[0].id) == []


def test_the_next_test_starts_light_in_the_product_s_style_with_no_reads_remembered(qapp):
    session = load(DEMO)
    assert not theme.dark() and not theme.is_dark(qapp.palette())
    assert isinstance(qapp.style(), theme.LookStyle)
    assert body_reads.cached_reads(session, session.bodies[0].id) is None
