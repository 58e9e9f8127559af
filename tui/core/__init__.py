"""The library without Textual, YAML or disk: model, filters, search, text, wrap, marks."""
