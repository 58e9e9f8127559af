"""Reviews built in memory for unit tests, and the bundled digest loaded."""

from __future__ import annotations

from pathlib import Path

from tui.core.model import Library, Location, Review
from tui.load.parse import load_paths
from tui.store.locations import bundled_entries


def review(title: str, *, key: int = 1, verdict: str = "deep", summary: str = "s", **kw: object) -> Review:
    return Review(
        title=title,
        repo="o/r",
        verdict=verdict,
        summary=summary,
        tags=("a",),
        location=Location(Path("x.yaml"), 1, 1),
        pr=key,
        **kw,  # type: ignore[arg-type]
    )


def bundled() -> Library:
    result = load_paths([bundled_entries()])
    return Library.build(result.files, result.problems)
