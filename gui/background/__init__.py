"""Work off the GUI thread: the one job runner, the workers' priority, loading (begun before the window for
`wsi gui FILE`) and following a session, the facts over every entry the views find ready."""
