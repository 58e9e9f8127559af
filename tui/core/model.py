"""The library: reviews, their items, tags and the indexes the UI reads.

No Textual here: the model is built and tested without a UI, and the app only
asks it questions (which reviews are under this tag? in what order?).
"""

from __future__ import annotations

import marshal
from collections.abc import Callable, Iterable, Mapping
from operator import attrgetter
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple, Protocol

from tui.core.text import escaped, one_line

if TYPE_CHECKING:
    from tui.core.table import ReviewTable

try:
    # hashlib.blake2b is this very function; importing hashlib also loads OpenSSL,
    # and the first frame needs digests (its review's item keys).
    from _blake2 import blake2b
except ImportError:  # a Python built without it
    from hashlib import blake2b

VERDICTS: tuple[str, ...] = ("deep", "quick", "skim", "skip")
"""Verdicts in reading-priority order: deep-read first."""

SECTIONS: tuple[str, ...] = ("focus", "read_order", "actions", "caveats")
CHECKABLE: tuple[str, ...] = ("focus", "read_order")
"""Sections whose items are a checklist."""
NOTES: tuple[str, ...] = ("actions", "caveats")
"""Sections whose items are notes: open until checked in the to-do view."""

ALL_TAG = "\x00all"
UNREAD_TAG = "\x00unread"
"""Pseudo-tags for the sidebar. The NUL prefix keeps them apart from any real tag."""


def digest(text: str) -> str:
    return blake2b(text.encode(), digest_size=8).hexdigest()


class Location(NamedTuple):
    path: Path
    line: int  # 1-based
    column: int  # 1-based

    def __str__(self) -> str:
        """`path:line:column`, the path escaped: a name holding an escape sequence
        (a folder named on the command line is not checked) shows it as `\\x1b`."""
        return f"{escaped(str(self.path))}:{self.line}:{self.column}"


class Problem(NamedTuple):
    """Something wrong in a user's file, located so an editor can jump to it.

    An error stops what it is in from loading; a warning (a ref the clone does
    not have) does not, and says so in its text."""

    location: Location
    message: str
    severity: str = "error"  # or "warning"

    def __str__(self) -> str:
        if self.severity == "error":
            return f"{self.location}: {one_line(self.message)}"
        return f"{self.location}: {self.severity}: {one_line(self.message)}"


class Item(NamedTuple):
    """One focus item, read-order step, action or caveat.

    A record, not a dataclass: 10,000 reviews build ~50,000 of these from the
    parse cache, and a dataclass's methods are compiled from source when the
    module is imported, on the way to the first frame.
    """

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
        return f"{self.section}:{digest(self.text)}"

    @property
    def digest(self) -> str:
        """Changes when the item's text changes, whatever its key."""
        return digest(self.text)


_as_item = tuple.__new__
"""An `Item` from its packed fields (always four): half the time of `Item(*fields)`."""

BODY: tuple[str, ...] = (
    "summary", "url", "date", "verdict_note", "focus", "read_order", "actions", "caveats",
)  # fmt: skip
"""The fields a list row does not need, in the order a packed body holds them
(`Review.blob`, and the parse cache, which packs bodies without making reviews);
a cached review keeps them packed until read."""


def body_default(name: str) -> tuple[()] | None:
    """A body field the entry leaves out: no items, or nothing."""
    return () if name in SECTIONS else None


def review_key(repo: str, pr: int | None, title: str) -> str:
    """Stable key for read state: repo#pr, else repo and title. Kept on the review
    (`Review.key`): indexing, counting and drawing ask for it tens of thousands of times."""
    if pr is not None:
        return f"{repo}#{pr}"
    return f"{repo}:{title}"


class Listed(Protocol):
    """What a review is without its body: what counting and muting read. A
    `Review` is one. (`status` counts without building reviews, from columns:
    `tui.load.status_summary`.)"""

    @property
    def key(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def repo(self) -> str: ...
    @property
    def verdict(self) -> str: ...
    @property
    def tags(self) -> tuple[str, ...]: ...
    @property
    def pr(self) -> int | None: ...


BodySource = bytes | Callable[[], bytes] | tuple
"""A review's body as `Review.body_source` gives it and `Review.of_row` takes it."""


class Review:
    """One review. The fields a list needs (title, repo, verdict, tags, pr,
    location) are plain attributes; the body (summary, items, ...) may be a
    packed blob from the parse cache, unpacked the first time it is read. So
    10,000 cached reviews load as 10,000 small objects plus bytes, and a body
    costs something only when its review is opened, searched or compared.

    Treated as immutable.
    """

    __slots__ = ("_blob", "_body", "checks", "key", "location", "pr", "repo", "tags", "title", "verdict")

    def __init__(
        self,
        title: str,
        repo: str,
        verdict: str,
        summary: str,
        tags: tuple[str, ...],
        location: Location,
        pr: int | None = None,
        url: str | None = None,
        date: str | None = None,
        verdict_note: str | None = None,
        focus: tuple[Item, ...] = (),
        read_order: tuple[Item, ...] = (),
        actions: tuple[Item, ...] = (),
        caveats: tuple[Item, ...] = (),
    ) -> None:
        self.title, self.repo, self.verdict, self.tags = title, repo, verdict, tags
        self.location, self.pr = location, pr
        self.key = review_key(repo, pr, title)
        self.checks = len(focus) + len(read_order)
        self._body: tuple | None = (summary, url, date, verdict_note, focus, read_order, actions, caveats)
        self._blob: bytes | Callable[[], bytes] | None = None

    @classmethod
    def packed(
        cls,
        title: str,
        repo: str,
        verdict: str,
        tags: tuple[str, ...],
        location: Location,
        pr: int | None,
        blob: bytes | Callable[[], bytes],
        checks: int,
    ) -> Review:
        """A review whose body is still packed (see `blob`): its bytes, or a
        function that reads them when the body is first needed. `checks`: how
        many items its checklist has (filters ask without unpacking)."""
        review = cls.__new__(cls)
        review.title, review.repo, review.verdict, review.tags = title, repo, verdict, tags
        review.location, review.pr, review.checks = location, pr, checks
        review.key = review_key(repo, pr, title)
        review._body, review._blob = None, blob
        return review

    @classmethod
    def of_row(
        cls,
        fields: tuple[str, str, str, tuple[str, ...], Location, int | None, int, str],
        body: BodySource,
    ) -> Review:
        """A review from a table's row (`tui.core.table`): (title, repo, verdict,
        tags, location, pr, checks, key) and what `body_source` gave."""
        review = cls.__new__(cls)
        review.title, review.repo, review.verdict, review.tags, review.location, review.pr = fields[:6]
        review.checks, review.key = fields[6], fields[7]
        if type(body) is tuple:  # unpacked (not a cache's reference, a tuple too): shared, as immutable
            review._body, review._blob = body, None
        else:
            review._body, review._blob = None, body  # type: ignore[assignment]  # bytes or a reader of them
        return review

    @property
    def body_source(self) -> BodySource:
        """The body as it is held: packed (bytes, or a function that reads them)
        or, for a fresh parse's review, unpacked. `of_row` makes an equal review
        from it without packing or reading anything."""
        blob = self._blob
        return blob if blob is not None else self._body  # type: ignore[return-value]  # one is always set

    @property
    def blob(self) -> bytes:
        """The body packed with marshal: plain tuples and strings."""
        blob = self._blob
        if blob is None:
            summary, url, date, note, *sections = self._body  # type: ignore[misc]  # a body while there is no blob
            packed = tuple(tuple((i.section, i.text, i.refs, i.id) for i in items) for items in sections)
            blob = self._blob = marshal.dumps((summary, url, date, note, *packed))
        elif not isinstance(blob, bytes):
            return blob()  # read from the parse cache's file, which keeps it: a saved table points there
        return blob

    def body_once(self) -> tuple:
        """The body's fields (items as packed tuples), leaving a packed body
        packed and its bytes where they are: a search reads every body once,
        and 100,000 bodies kept unpacked would hold ~250 MB."""
        body = self._body
        if body is not None:
            summary, url, date, note, *sections = body
            return (summary, url, date, note, *(tuple(tuple(item) for item in items) for items in sections))
        blob = self._blob
        return marshal.loads(blob if isinstance(blob, bytes) else blob())  # type: ignore[misc]

    def _unpacked(self) -> tuple:
        body = self._body
        if body is None:
            summary, url, date, note, *sections = marshal.loads(self.blob)
            items = tuple(tuple([_as_item(Item, fields) for fields in raw]) for raw in sections)
            body = self._body = (summary, url, date, note, *items)
        return body

    summary = property(lambda self: self._unpacked()[0])
    url = property(lambda self: self._unpacked()[1])
    date = property(lambda self: self._unpacked()[2])
    verdict_note = property(lambda self: self._unpacked()[3])
    focus = property(lambda self: self._unpacked()[4])
    read_order = property(lambda self: self._unpacked()[5])
    actions = property(lambda self: self._unpacked()[6])
    caveats = property(lambda self: self._unpacked()[7])

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Review):
            return NotImplemented
        return self.location == other.location and self.content == other.content

    __hash__ = None  # type: ignore[assignment]  # equal by content, and not immutable to Python

    def __repr__(self) -> str:
        return f"Review(title={self.title!r}, repo={self.repo!r}, pr={self.pr!r}, location={self.location})"

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

    @property
    def content(self) -> tuple[object, ...]:
        """Everything the reader sees; unlike equality, blind to the file position."""
        return (self.title, self.repo, self.verdict, self.tags, self.pr, *self._unpacked())

    def same_content(self, other: Review) -> bool:
        """`content == other.content`, leaving packed bodies packed: a reload
        compares each review of the changed files with its last version, and
        bodies unpacked for that would stay unpacked, and memory would grow
        with every edit of a file (bench/README.md)."""
        packed = [review for review in (self, other) if review._body is None]
        try:
            return self.content == other.content
        finally:
            for review in packed:
                review._body = None  # unpacked again from its blob when read


def verdict_rank(verdict: str) -> int:
    return VERDICTS.index(verdict) if verdict in VERDICTS else len(VERDICTS)


class FileUpdate(NamedTuple):
    """A file's fresh load: its reviews and problems, or None when it is gone."""

    reviews: list[Review]
    problems: list[Problem]


class LibraryChanges:
    """What one reload did, for the reader's notification."""

    __slots__ = ("added", "problem_files", "removed", "updated")

    def __init__(
        self,
        added: list[str] | None = None,
        removed: list[str] | None = None,
        updated: list[str] | None = None,
        problem_files: list[Path] | None = None,
    ) -> None:
        self.added = added if added is not None else []
        self.removed = removed if removed is not None else []
        self.updated = updated if updated is not None else []
        self.problem_files = problem_files if problem_files is not None else []

    def __bool__(self) -> bool:
        return bool(self.added or self.removed or self.updated or self.problem_files)


_parts = attrgetter("parts")


class Library:
    """All loaded reviews, with a tag index, in reading order.

    Built from per-file results so a reload can replace one file's reviews
    without re-reading the others. A file that breaks keeps its last good
    reviews, marked stale, next to its problems.
    """

    def __init__(
        self,
        files: dict[Path, list[Review]] | None = None,
        problems: dict[Path, list[Problem]] | None = None,
    ) -> None:
        self.files: dict[Path, list[Review]] = files if files is not None else {}
        self.problems: dict[Path, list[Problem]] = problems if problems is not None else {}
        self.stale: set[Path] = set()
        # The index, made by `_index`:
        self.reviews: list[Review] = []
        self.by_key: dict[str, Review] = {}
        self.tags: dict[str, list[Review]] = {}
        self.duplicates: list[Problem] = []
        self.repos: list[str] = []  # every repo reviewed, sorted
        self._table: ReviewTable | None = None

    @classmethod
    def build(
        cls,
        files: Mapping[Path, list[Review]],
        problems: Mapping[Path, list[Problem]] | None = None,
    ) -> Library:
        library = cls(files=dict(files), problems=dict(problems or {}))
        library._index()
        return library

    def apply(self, updates: Mapping[Path, FileUpdate | None], *, compare: bool = True) -> LibraryChanges:
        """Replace the given files' reviews and re-index; the others are untouched.

        Only reviews of the changed files are compared, so the cost of telling
        what changed does not grow with the corpus. `compare` False: nothing is
        compared and the changes are left empty but for the files with
        problems (the first load, which hands over every file once, and would
        compare 100,000 reviews to nothing).
        """
        old_by_key = self.by_key
        touched = (
            {review.key for path in updates for review in self.files.get(path, [])} if compare else set()
        )
        changes = LibraryChanges()
        for path, update in updates.items():
            if update is None:
                self.files.pop(path, None)
                self.problems.pop(path, None)
                self.stale.discard(path)
                continue
            if update.problems:
                changes.problem_files.append(path)
                self.problems[path] = update.problems
                if self.files.get(path):
                    self.stale.add(path)  # keep the last good version on screen
                    continue
            else:
                self.problems.pop(path, None)
            self.files[path] = update.reviews
            self.stale.discard(path)
        self._index()
        if not compare:
            return changes
        for path in updates:
            for review in self.files.get(path, []):
                if self.by_key.get(review.key) is not review:
                    continue  # a duplicate, skipped
                old = old_by_key.get(review.key)
                if old is None:
                    changes.added.append(review.key)
                elif old is not review and not old.same_content(review):
                    changes.updated.append(review.key)
        changes.removed = [key for key in touched if key not in self.by_key]
        return changes

    def add_problems(self, problems: Iterable[Problem]) -> None:
        """Problems that are not a file's own (a folder that cannot be read, a
        file skipped), found after the library was built."""
        self._table = None
        for problem in problems:
            self.problems.setdefault(problem.location.path, []).append(problem)

    def is_stale(self, review: Review) -> bool:
        return review.location.path in self.stale

    def table(self) -> ReviewTable:
        """The library as columns (`tui.core.table`), made on first request after
        each re-index: ~0.4 s at 100,000 reviews, so nothing on the way to a frame asks."""
        if self._table is None:
            from tui.core.table import ReviewTable

            self._table = ReviewTable.from_reviews(self.files, self.problems, self.stale)
        return self._table

    def _index(self) -> None:
        self._table = None
        ordered: list[Review] = []
        by_key: dict[str, Review] = {}
        duplicates: list[Problem] = []
        # Sorted by `parts` (how paths compare), compared as tuples of strings:
        # `Path.__lt__` costs ~2 µs a comparison, ~0.1 s a re-index at 10,000 files.
        for path in sorted(self.files, key=_parts):
            for review in self.files[path]:
                if review.key in by_key:
                    first = by_key[review.key].location
                    duplicates.append(
                        Problem(review.location, f"duplicate review (first at {first}); skipped")
                    )
                    continue
                by_key[review.key] = review
                ordered.append(review)
        # Stable sort: deep-read first, file order within a verdict.
        rank = {verdict: verdict_rank(verdict) for verdict in {r.verdict for r in ordered}}
        ordered.sort(key=lambda r: rank[r.verdict])
        tags: dict[str, list[Review]] = {}
        for review in ordered:
            for tag in review.tags:
                tags.setdefault(tag, []).append(review)
        self.reviews = ordered
        self.by_key = by_key
        self.duplicates = duplicates
        self.repos = sorted({r.repo for r in ordered})
        self.tags = dict(sorted(tags.items(), key=lambda kv: (-len(kv[1]), kv[0])))

    def all_problems(self) -> list[Problem]:
        """Every problem in file order, then line and column, as a compiler lists
        them (duplicates among them, next to the other problems of their file)."""
        located = [p for problems in self.problems.values() for p in problems]
        return sorted(
            located + self.duplicates, key=lambda p: (p.location.path, p.location.line, p.location.column)
        )

    @property
    def problem_count(self) -> int:
        """len(all_problems()) without sorting them: the status bar shows it on every refresh."""
        return sum(map(len, self.problems.values())) + len(self.duplicates)

    def under(self, tag: str) -> list[Review]:
        """Reviews under a real tag or the All pseudo-tag, in reading order."""
        if tag in (ALL_TAG, UNREAD_TAG):
            return self.reviews
        return self.tags.get(tag, [])
