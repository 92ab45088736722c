"""The window's tabs, one folder each: the view, its panels and its item models."""
