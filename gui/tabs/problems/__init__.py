"""The Problems tab: every loader error and warning with its place, and its table."""
