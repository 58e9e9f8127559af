"""`lazy_strip_caches`: a Textual `Strip` makes its caches when first used.

Textual's `Strip.__init__` makes seven `FIFOCache`s for every strip (its
crops, cuts, styles, filters, lengths and offsets), and most strips use one or
two of them, or none: a key's frame made ~280-400 strips (a new review's
lines, each styled, filtered and cut at the scrollbar), so ~2,000-2,800 caches,
each an object the young collections then walk. Here a strip's cache is made
the first time it is asked for (`__getattr__` runs only for a slot not set
yet), of the size Textual gives it; what any strip draws is unchanged.

(Replaces the private layout of `Strip.__init__`, whose slots it fills but for
the caches; textual is pinned exactly, and tests/ui/test_kept_lines.py fails
if the caches' names or sizes stop being Textual's.)
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.segment import Segment
from textual.cache import FIFOCache
from textual.strip import Strip

CACHES = {
    "_divide_cache": 4,
    "_crop_cache": 16,
    "_style_cache": 16,
    "_filter_cache": 4,
    "_line_length_cache": 4,
    "_crop_extend_cache": 4,
    "_offsets_cache": 4,
}
"""Each cache `Strip.__init__` makes, and its size (Textual 8.2.8)."""

TEXTUAL_INIT = Strip.__init__


def _init(self: Strip, segments: Iterable[Segment], cell_length: int | None = None) -> None:
    self._segments = list(segments)
    self._cell_length = cell_length
    self._render_cache = None
    self._link_ids = None
    self._cell_count = None


def _cache(self: Strip, name: str) -> FIFOCache[object, object]:
    size = CACHES.get(name)
    if size is None:
        raise AttributeError(name)
    cache: FIFOCache[object, object] = FIFOCache(size)
    setattr(self, name, cache)
    return cache


def lazy_strip_caches() -> None:
    """Make every `Strip` from now on make its caches when first used."""
    Strip.__init__ = _init  # type: ignore[method-assign]
    Strip.__getattr__ = _cache  # type: ignore[attr-defined]
