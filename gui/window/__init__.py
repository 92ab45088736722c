"""The window itself: the entry point, the application, the main window and its context, status bar, keys, look, theme, errors."""
