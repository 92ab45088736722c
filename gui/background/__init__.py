"""Work off the GUI thread: the one job runner, the workers' priority, loading and following a session."""
