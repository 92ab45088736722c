"""The Notes pane: every note on the open session, and a jump to where each is."""
