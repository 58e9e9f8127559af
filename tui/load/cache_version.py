"""The parse cache's format version, apart from `tui.load.cache_format`: `status`
keys its summary by it (`tui.load.status_summary`) without importing the model."""

VERSION = 9
"""Bump when the model, the loader's rules or `tui.core.changes.fingerprint` change:
old caches are then ignored."""

__all__ = ["VERSION"]
