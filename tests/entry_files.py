"""Entry files written for tests: reviews one a file, as a folder of a digest
holds them."""

from __future__ import annotations

from pathlib import Path


def review_yaml(title: str, focus: str | None = None) -> str:
    """A file's text: one review, `title`, with one focus item (`item TITLE`
    unless given)."""
    item = f"item {title}" if focus is None else focus
    return f"title: {title}\nrepo: o/r\ntags: [a]\nverdict: deep\nsummary: s\nfocus:\n  - {item}\n"


def reviews_in(folder: Path, numbers: range, name: str = "r{n:04}", title: str = "review {n}") -> Path:
    """`folder` (made if need be) with a file a number: `name`.yaml holding the
    review `title` (both formatted with `n`, the number)."""
    folder.mkdir(parents=True, exist_ok=True)
    for n in numbers:
        (folder / f"{name.format(n=n)}.yaml").write_text(review_yaml(title.format(n=n)), encoding="utf-8")
    return folder
