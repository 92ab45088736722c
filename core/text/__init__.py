"""Text for people, one copy for the CLI and the window: counts in words, text safe for one terminal line."""
