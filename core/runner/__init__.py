"""The body runner: a host that ships run envelopes to guest processes running V8 (SPEC 5, DESIGN 3).

Kept import-free: the guest process imports this package before V8 starts. Use
`core.runner.host.Runner`, `core.runner.envelope.build_envelope` and `core.runner.replay`.
"""
