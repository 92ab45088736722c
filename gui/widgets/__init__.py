"""Parts several views share: the JSON tree, the body editor, the Edits drawing, a quiet label, the small tables' model, the body choosers' list."""
