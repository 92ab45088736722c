"""The body runner: a host that ships run envelopes to guest processes running V8 (SPEC 5, DESIGN 3).

Kept import-free: the guest process imports this package before V8 starts. Use
`wsi_inspector.core.runner.host.Runner`, `wsi_inspector.core.runner.envelope.build_envelope` and `wsi_inspector.core.runner.replay`.
"""
