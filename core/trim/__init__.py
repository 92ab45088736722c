"""The editor's store cap: what trimStore drops at any cap, and what changed between two points."""
