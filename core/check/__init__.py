"""`wsi check` over many sessions: per session, worker processes, a Dask cluster, reports, `--where`, `--baseline`."""
