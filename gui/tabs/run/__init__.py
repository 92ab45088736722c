"""The Run tab: edit and run a body, replay all; its tables and its Replay page."""
