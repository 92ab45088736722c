"""The Kept tab: the kept manifest at the cursor, and its table."""
