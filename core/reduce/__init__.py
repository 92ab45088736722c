"""Cutting a failure down: delta debugging, the smallest session that fails the same way, one body's repro file."""
