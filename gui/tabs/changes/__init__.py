"""The Changes tab: what changed between two points of the timeline."""
