"""The Trim tab: what the editor's store cap drops, live."""
