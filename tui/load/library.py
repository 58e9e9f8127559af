"""Every entry file loaded at once, for commands that print and exit (`status`).

The parse cache answers what it can, so a warm `status` reads no YAML (the
parser is not even imported); only files new or changed since the cache was
written are parsed, in this process.
"""

from __future__ import annotations

from pathlib import Path

from tui.core.model import Library
from tui.load.cache import ParseCache
from tui.load.first_frame import first_library, first_part, from_cache, parse_now


def load_library(paths: list[Path], cache: ParseCache) -> Library:
    """The library of `paths`. Files the cache had to be told about are saved to
    it, so the next call reads no YAML; a call that parsed nothing writes nothing
    (a save keeps only the files used since load: it would drop other folders')."""
    hits, later, missing = first_part(paths, cache)
    more, misses = from_cache(later, cache)
    hits.update(more)
    hits.update(parse_now(misses, cache))
    if cache.dirty:  # something was parsed
        cache.save()
    return first_library(hits, missing)
