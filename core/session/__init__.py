"""Loading a session (SPEC 2): bytes to records to the timeline, every problem located; the format versions."""
