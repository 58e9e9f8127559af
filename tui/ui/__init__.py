"""Textual only here: the App, its screens and widgets."""
