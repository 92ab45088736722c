"""Canvas edits and what changed: pairing and chains, one edit in full, diffs, alignment, units, geometry, blame, two runs compared."""
