"""The user's own files: where they live, state, UI choices, config; atomic writes."""
