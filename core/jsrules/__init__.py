"""The editor's JavaScript rules: run.inputs, JSON.stringify sizes and text, values as JavaScript sees them."""
