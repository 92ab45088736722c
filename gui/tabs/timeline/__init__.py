"""The timeline dock: bodies with their calls nested, and its tree model."""
