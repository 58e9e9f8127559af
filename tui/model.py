"""The library: reviews, their items, tags and the indexes the UI reads.

No Textual here: the model is built and tested without a UI, and the app only
asks it questions (which reviews are under this tag? in what order?).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

VERDICTS: tuple[str, ...] = ("deep", "quick", "skim", "skip")
"""Verdicts in reading-priority order: deep-read first."""

VERDICT_LABELS: Mapping[str, str] = {
    "deep": "值得精读",
    "quick": "快速通读",
    "skim": "快速浏览",
    "skip": "无需细读",
}

SECTIONS: tuple[str, ...] = ("focus", "read_order", "actions", "caveats")
CHECKABLE: tuple[str, ...] = ("focus", "read_order")
"""Sections whose items are a checklist; actions and caveats are notes."""

ALL_TAG = "\x00all"
UNREAD_TAG = "\x00unread"
"""Pseudo-tags for the sidebar. The NUL prefix keeps them apart from any real tag."""


@dataclass(frozen=True, slots=True)
class Location:
    path: Path
    line: int  # 1-based
    column: int  # 1-based

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"


@dataclass(frozen=True, slots=True)
class Problem:
    """Something wrong in a user's file, located so an editor can jump to it."""

    location: Location
    message: str

    def __str__(self) -> str:
        return f"{self.location}: {self.message}"


@dataclass(frozen=True, slots=True)
class Item:
    """One focus item, read-order step, action or caveat."""

    section: str
    text: str
    refs: tuple[str, ...] = ()
    id: str | None = None

    @property
    def key(self) -> str:
        """Stable key for read state: the author's id, else a hash of the text.

        Hashing the text means an edited item loses its check, which is the
        honest outcome: the reader has not seen the new text.
        """
        if self.id:
            return f"{self.section}:{self.id}"
        digest = hashlib.blake2b(self.text.encode(), digest_size=8).hexdigest()
        return f"{self.section}:{digest}"


@dataclass(frozen=True, slots=True)
class Review:
    title: str
    repo: str
    verdict: str
    summary: str
    tags: tuple[str, ...]
    location: Location
    pr: int | None = None
    url: str | None = None
    date: str | None = None
    verdict_note: str | None = None
    focus: tuple[Item, ...] = ()
    read_order: tuple[Item, ...] = ()
    actions: tuple[Item, ...] = ()
    caveats: tuple[Item, ...] = ()

    @property
    def key(self) -> str:
        """Stable key for read state: repo#pr, else repo and title."""
        if self.pr is not None:
            return f"{self.repo}#{self.pr}"
        return f"{self.repo}:{self.title}"

    @property
    def link(self) -> str | None:
        if self.url:
            return self.url
        if self.pr is not None:
            return f"https://github.com/{self.repo}/pull/{self.pr}"
        return None

    def items(self, section: str) -> tuple[Item, ...]:
        return getattr(self, section)

    @property
    def checklist(self) -> tuple[Item, ...]:
        return self.focus + self.read_order


def verdict_rank(verdict: str) -> int:
    return VERDICTS.index(verdict) if verdict in VERDICTS else len(VERDICTS)


@dataclass
class Library:
    """All loaded reviews, with a tag index, in reading order.

    Built from per-file results so a reload can replace one file's reviews
    without re-reading the others.
    """

    files: dict[Path, list[Review]] = field(default_factory=dict)
    problems: dict[Path, list[Problem]] = field(default_factory=dict)
    reviews: list[Review] = field(default_factory=list)
    by_key: dict[str, Review] = field(default_factory=dict)
    tags: dict[str, list[Review]] = field(default_factory=dict)

    @classmethod
    def build(
        cls,
        files: Mapping[Path, list[Review]],
        problems: Mapping[Path, list[Problem]] | None = None,
    ) -> Library:
        library = cls(files=dict(files), problems=dict(problems or {}))
        library._index()
        return library

    def _index(self) -> None:
        ordered: list[Review] = []
        by_key: dict[str, Review] = {}
        for path in sorted(self.files):
            for review in self.files[path]:
                if review.key in by_key:
                    first = by_key[review.key].location
                    self.problems.setdefault(path, []).append(
                        Problem(review.location, f"duplicate review (first at {first}); skipped")
                    )
                    continue
                by_key[review.key] = review
                ordered.append(review)
        # Stable sort: deep-read first, file order within a verdict.
        ordered.sort(key=lambda r: verdict_rank(r.verdict))
        tags: dict[str, list[Review]] = {}
        for review in ordered:
            for tag in review.tags:
                tags.setdefault(tag, []).append(review)
        self.reviews = ordered
        self.by_key = by_key
        self.tags = dict(sorted(tags.items(), key=lambda kv: (-len(kv[1]), kv[0])))

    def all_problems(self) -> list[Problem]:
        return [p for path in sorted(self.problems) for p in self.problems[path]]

    def under(self, tag: str) -> list[Review]:
        """Reviews under a real tag or the All pseudo-tag, in reading order."""
        if tag in (ALL_TAG, UNREAD_TAG):
            return self.reviews
        return self.tags.get(tag, [])

    @property
    def repos(self) -> list[str]:
        return sorted({r.repo for r in self.reviews})
