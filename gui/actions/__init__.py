"""What the menus do with the session at the cursor: Reduce…, Save repro…, Export, deep links."""
