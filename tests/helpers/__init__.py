"""Data and builders several test modules share (imported, never collected)."""
