"""File ▸ Open folder: every session under a folder as a table."""
