"""The reader's marks in memory: reviews read, items checked, and the version of
each review the reader last saw. No disk here: `tui.store.state.ReadState`
adds the state file (load, merge, atomic save) on top.

Every mark carries when it was made, a hybrid logical clock's stamp
(`tui.core.clock`: wall-clock time, but always later than every mark the reader
has seen), so two instances writing the same file merge instead of overwriting
each other (newest wins, field by field), whatever their clocks say.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from collections.abc import Set as AbstractSet
from itertools import repeat
from typing import NamedTuple

from tui.core.changes import ReviewChanges, compare
from tui.core.clock import HybridClock, Stamp
from tui.core.model import SECTIONS, Listed, Review, review_key


def stamp_json(at: Stamp) -> dict[str, object]:
    """A stamp as the state file holds it: `c` only when a mark was stamped past
    the wall clock, so files stay as they were (a float `t`) for everyone whose
    clock never went back."""
    return {"t": at.wall, "c": at.count} if at.count else {"t": at.wall}


class Mark(NamedTuple):
    value: bool
    at: Stamp
    digest: str | None = None  # an item's text digest when it was checked

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"v": self.value, **stamp_json(self.at)}
        if self.digest is not None:
            out["h"] = self.digest
        return out


class Seen(NamedTuple):
    """The fingerprint of a review when the reader last read or checked it."""

    fingerprint: dict[str, object] | str
    """As `changes.fingerprint` made it; or its JSON text, as a shared folder's
    file holds it, read only when first asked for (`Marks.seen`): most are
    never compared, and reading them all is most of a folder's start."""
    at: Stamp

    def to_json(self) -> dict[str, object]:
        return {"v": decoded(self.fingerprint) or {}, **stamp_json(self.at)}


def is_fingerprint(value: object) -> bool:
    """The shape `changes.fingerprint` writes: field digests, and [key, digest] pairs per section.
    (Loops, not `all` over generators: a state file's every `seen` is checked when it is read.)"""
    if not isinstance(value, dict):
        return False
    fields, items = value.get("fields", {}), value.get("items", {})
    if not isinstance(fields, dict) or not isinstance(items, dict):
        return False
    for digest in fields.values():
        if not isinstance(digest, str):
            return False
    for pairs in items.values():
        if not isinstance(pairs, list):
            return False
        for pair in pairs:
            if not isinstance(pair, list) or len(pair) != 2:
                return False
            key, digest = pair
            if not isinstance(key, str) or not isinstance(digest, str):
                return False
    return True


def decoded(fingerprint: dict[str, object] | str) -> dict[str, object] | None:
    """A fingerprint, read from its JSON text if need be; None if it is not one."""
    if isinstance(fingerprint, dict):
        return fingerprint
    try:
        value = json.loads(fingerprint)
    except (ValueError, RecursionError):
        return None
    return value if is_fingerprint(value) else None


class ReviewMarks:
    """One review's marks. (A plain class: see changes.ReviewChanges.)

    Once in a `Marks`, never changed in place: a change puts a changed copy
    (`copy`) in its place, so a shallow copy of `Marks.reviews` is a snapshot
    that the saving thread may read while marks go on changing."""

    __slots__ = ("items", "read", "seen")

    def __init__(self) -> None:
        self.read: Mark | None = None
        self.items: dict[str, Mark] = {}
        self.seen: Seen | None = None

    def copy(self) -> ReviewMarks:
        twin = ReviewMarks()
        twin.read, twin.seen, twin.items = self.read, self.seen, dict(self.items)
        return twin


LOG_MAX = 4096
"""Keys logged as changed (`Marks.changed_since`) before the log starts anew:
past that many, whoever counts from it counts again from scratch."""


class Marks:
    """Every review's marks, by review key, stamped by `clock` (which the state
    file's reader shows every mark it reads: a new mark wins over all of them).

    The keys read and the keys with an item mark are kept as sets, and every
    key whose marks change is logged (`changed_since`), so the counts of a big
    state follow a mark at the cost of that one review's marks."""

    def __init__(self, clock: HybridClock | None = None) -> None:
        self.clock = clock if clock is not None else HybridClock()
        self._reviews: dict[str, ReviewMarks] = {}
        # Marks given whole but not made yet (`adopt`): until then `_reviews`
        # holds the reviews with item marks, and `_seen_texts` the others' `seen`.
        self._rest: Callable[[], dict[str, ReviewMarks]] | None = None
        self._seen_texts: Mapping[str, str] = {}
        self._read_set: set[str] = set()
        self._marked_set: set[str] = set()
        self._log: list[str] = []
        self._titled = False  # some key is a `repo:title` one (`adopt_title_marks`)
        self.epoch = 0
        """Bumped when every mark may have changed (a load, a log started anew)."""
        self._changes = 0  # marks made so far

    @property
    def reviews(self) -> dict[str, ReviewMarks]:
        """Every review's marks. Read-only: change them with the methods below
        (or `put` a new `ReviewMarks`), which keep the sets and the log."""
        if self._rest is not None:
            self.materialize()
        return self._reviews

    @reviews.setter
    def reviews(self, reviews: dict[str, ReviewMarks]) -> None:
        self._reviews = reviews
        self._rest, self._seen_texts = None, {}
        self._read_set = {key for key, marks in reviews.items() if marks.read and marks.read.value}
        self._marked_set = {key for key, marks in reviews.items() if marks.items}
        self._titled = any(":" in key for key in reviews)
        self._log.clear()
        self.epoch += 1

    def adopt(
        self,
        marked_reviews: dict[str, ReviewMarks],
        read: set[str],
        keys: Iterable[str],
        rest: Callable[[], dict[str, ReviewMarks]],
        seen_texts: Mapping[str, str],
    ) -> None:
        """As setting `reviews` to what `rest()` makes, made only when first
        needed (a mark, a save, a merge; or `materialize`): what the first frame
        asks (`is_read`, `checked`, `seen`, `touched`, the sets) is answered from
        the keys read, the reviews with item marks (`marked_reviews`, whole) and
        the other reviews' fingerprints as JSON text (`seen_texts`). `keys`:
        every review's."""
        self._reviews, self._read_set, self._marked_set = marked_reviews, read, set(marked_reviews)
        self._rest, self._seen_texts = rest, seen_texts
        self._titled = any(map(str.__contains__, keys, repeat(":")))
        self._log.clear()
        self.epoch += 1

    def materialize(self) -> None:
        """Make every review's marks given to `adopt`, if not made yet."""
        rest, self._rest = self._rest, None
        if rest is not None:
            self._reviews, self._seen_texts = rest(), {}

    def put(self, review_key: str, marks: ReviewMarks) -> None:
        """`marks` in place of the review's (a new object, never changed after)."""
        self.reviews[review_key] = marks
        self.noted((review_key,))

    def noted(self, keys: Iterable[str]) -> None:
        """The marks of `keys` were replaced (by `put` or a merge): keep the sets and the log."""
        reviews, read, marked, log = self._reviews, self._read_set, self._marked_set, self._log
        for key in keys:
            marks = reviews.get(key)
            if marks is not None and marks.read is not None and marks.read.value:
                read.add(key)
            else:
                read.discard(key)
            if marks is not None and marks.items:
                marked.add(key)
            else:
                marked.discard(key)
            if ":" in key:
                self._titled = True
            log.append(key)
        if len(log) > LOG_MAX:
            log.clear()
            self.epoch += 1

    def changed_since(self, epoch: int, position: int) -> list[str] | None:
        """The keys whose marks changed since the log was `position` long at
        `epoch` (repeats possible); None if that is not known any more: count again."""
        if epoch != self.epoch or position > len(self._log):
            return None
        return self._log[position:]

    @property
    def log_position(self) -> int:
        return len(self._log)

    def _changed(self, review_key: str) -> ReviewMarks:
        """A copy of the review's marks to change and `put` back."""
        marks = self.reviews.get(review_key)
        return marks.copy() if marks is not None else ReviewMarks()

    # -- queries -------------------------------------------------------------

    def is_read(self, review_key: str) -> bool:
        return review_key in self._read_set

    def read_keys(self) -> frozenset[str]:
        """The keys read, as they are now."""
        return frozenset(self._read_set)

    def marked_keys(self) -> frozenset[str]:
        """Reviews with any item mark (checked or unchecked since): nothing of
        the others is checked."""
        return frozenset(self._marked_set)

    @property
    def read_set(self) -> AbstractSet[str]:
        """The keys read: the set kept up to date, not a copy (not to be
        changed, nor kept past the next mark)."""
        return self._read_set

    @property
    def marked_set(self) -> AbstractSet[str]:
        """`marked_keys`, the set kept up to date (as `read_set`)."""
        return self._marked_set

    def checked(self, review_key: str, digests: dict[str, str] | None = None) -> frozenset[str]:
        """Checked item keys. Given the items' current digests, a check made on
        different text does not count: the reader has not seen the new text."""
        marks = self._reviews.get(review_key)
        if not marks:
            return frozenset()
        return frozenset(
            key
            for key, mark in marks.items.items()
            if mark.value and (digests is None or mark.digest is None or digests.get(key) == mark.digest)
        )

    def seen(self, review_key: str) -> dict[str, object] | None:
        marks = self._reviews.get(review_key)
        if marks is None and self._rest is not None and review_key in self._seen_texts:
            return decoded(self._seen_texts[review_key])
        if not marks or not marks.seen:
            return None
        if isinstance(marks.seen.fingerprint, dict):
            return marks.seen.fingerprint
        fingerprint = decoded(marks.seen.fingerprint)
        if fingerprint is not None:  # else not a fingerprint: as if never seen
            # The same record, read: a snapshot sharing it writes the same JSON.
            marks.seen = marks.seen._replace(fingerprint=fingerprint)
        return fingerprint

    def touched(self, review_key: str) -> bool:
        """Read, or with any item checked: a change to it is news to the reader."""
        if review_key in self._read_set:
            return True
        marks = self._reviews.get(review_key)
        return bool(marks and any(m.value for m in marks.items.values()))

    # -- changes -------------------------------------------------------------

    def _now(self) -> Stamp:
        self._changes += 1
        return self.clock.now()

    def set_read(self, review_key: str, value: bool) -> None:
        marks = self._changed(review_key)
        marks.read = Mark(value, self._now())
        self.put(review_key, marks)

    def set_checked(self, review_key: str, item_key: str, value: bool, digest: str | None = None) -> None:
        marks = self._changed(review_key)
        marks.items[item_key] = Mark(value, self._now(), digest)
        self.put(review_key, marks)

    def set_seen(self, review_key: str, fingerprint: dict[str, object]) -> None:
        marks = self._changed(review_key)
        marks.seen = Seen(fingerprint, self._now())
        self.put(review_key, marks)

    def adopt_title_marks(self, reviews: Iterable[Listed]) -> int:
        """Marks made before a review had a `pr:` are under its `repo:title` key;
        a review that has gained one (key `repo#pr`) and has no marks of its own
        takes a copy of them. The old key's marks stay, for an older version
        of the file. Returns how many reviews adopted marks."""
        if not self._titled:  # `repo#pr` keys have no ':'
            return 0
        adopted = 0
        for review in reviews:
            if review.pr is None or review.key in self.reviews:
                continue
            old = self.reviews.get(review_key(review.repo, None, review.title))
            if old is not None:
                self.put(review.key, old.copy())
                adopted += 1
        return adopted


def checked_items(marks: Marks, review: Review) -> frozenset[str]:
    """Checked item keys of every section; a check made on other text does not count."""
    marked = marks.checked(review.key)
    if not marked:
        return marked  # nothing checked: no need to hash the items
    digests = {item.key: item.digest for section in SECTIONS for item in review.items(section)}
    return marks.checked(review.key, digests)


def changes(marks: Marks, review: Review) -> ReviewChanges | None:
    """What changed since the reader read or checked this review, if anything."""
    if not marks.touched(review.key):
        return None
    seen = marks.seen(review.key)
    if seen is None:
        return None
    return compare(seen, review) or None
