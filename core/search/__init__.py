"""What the Inputs and Kept tabs ask: manifests, filter, sort, value search, inputs.last() and why."""
