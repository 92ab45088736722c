"""The Inputs tab: the manifest at the cursor, filter and value search, and its table."""
