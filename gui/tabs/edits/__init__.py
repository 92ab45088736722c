"""The Edits tab: every canvas edit beside the model call it edited, and its tables."""
