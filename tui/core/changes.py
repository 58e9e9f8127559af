"""What changed in a review since the reader saw it: the fingerprint kept in
the state file when a review is read or checked, and the comparison of a later
version with it ("updated since read", and which items are new or edited)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import cast

from tui.core.model import SECTIONS, Review, blake2b, digest

FIELDS: tuple[str, ...] = ("title", "verdict", "verdict_note", "summary", "tags", "url", "date")
"""Review fields compared for "updated since read" (items are compared one by one)."""


def fingerprint(review: Review) -> dict[str, object]:
    """A compact record of what the reader saw, kept in the state file so a
    later version of the review can be compared with it, even after a restart."""
    return fingerprint_of({name: getattr(review, name) for name in FIELDS}, review.items)


def fingerprint_of(
    fields: Mapping[str, object],
    items: Callable[[str], Iterable[tuple[str, str, tuple[str, ...], str | None]]],
) -> dict[str, object]:
    """`fingerprint` of a review given as its `FIELDS` and each section's items
    as (section, text, refs, id) tuples (`Item`s are): what a parse worker has
    before a `Review` is made. Each item's text is hashed once, for its key
    (`Item.key`) and its digest (`Item.digest`)."""
    out_fields = {name: digest(repr(fields[name])) for name in FIELDS}
    out_items: dict[str, list[list[str]]] = {}
    for section in SECTIONS:
        pairs = out_items[section] = []
        for _, text, _, item_id in items(section):
            text_digest = digest(text)
            pairs.append([f"{section}:{item_id}" if item_id else f"{section}:{text_digest}", text_digest])
    return {"fields": out_fields, "items": out_items}


def fingerprint_digest(fingerprint: Mapping[str, object]) -> bytes:
    """A short digest of a fingerprint, equal for equal fingerprints made the
    same way: `fingerprint(review)`, or the one the state file kept (JSON keeps
    its order, and its lists are lists). The parse cache keeps each review's
    (`tui.load.cache_format`), so telling a read review unchanged is comparing
    two digests, without reading its body. Different digests are not proof of a
    change (another order of keys): the caller then compares as `compare` does.
    Eight bytes, as the fingerprint's own digests are: ten bytes a review in the index."""
    return blake2b(repr(fingerprint).encode(), digest_size=8).digest()


class ReviewChanges:
    """What changed in a review since the reader saw it.

    (This and the other mutable records of the model and the state are plain
    classes: a dataclass compiles its methods from source when the module is
    imported, on the way to the first frame; bench/README.md has the cost.)"""

    __slots__ = ("added", "edited", "fields", "removed")

    def __init__(self) -> None:
        self.fields: list[str] = []
        self.added: set[str] = set()  # item keys, in the new version
        self.edited: set[str] = set()  # item keys, in the new version
        self.removed: dict[str, int] = {}  # section -> how many

    def __bool__(self) -> bool:
        return bool(self.fields or self.added or self.edited or self.removed)


def compare(seen: Mapping[str, object], review: Review) -> ReviewChanges:
    """Diff a stored fingerprint against the current review.

    Items with an `id` keep their key across edits; items without one are
    matched by position within a run of replaced items, so an edited item is
    reported as edited rather than as one removed and one added.
    """
    changes = ReviewChanges()
    now = fingerprint(review)
    if now == seen:
        return changes  # the usual answer, without matching four sections' items
    from difflib import SequenceMatcher  # only here: `status` imports this module, and rarely compares

    now_fields = cast("dict[str, str]", now["fields"])
    now_items = cast("dict[str, list[list[str]]]", now["items"])
    fields, items = seen.get("fields"), seen.get("items")
    old_fields = fields if isinstance(fields, dict) else {}
    old_items = items if isinstance(items, dict) else {}
    for name, value in now_fields.items():
        if old_fields.get(name) != value:
            changes.fields.append(name)
    for section in SECTIONS:
        before = [tuple(pair) for pair in old_items.get(section, [])]
        after = [tuple(pair) for pair in now_items[section]]
        matcher = SequenceMatcher(a=[k for k, _ in before], b=[k for k, _ in after], autojunk=False)
        for op, a0, a1, b0, b1 in matcher.get_opcodes():
            if op == "equal":
                for (_, old_digest), (key, new_digest) in zip(before[a0:a1], after[b0:b1], strict=True):
                    if old_digest != new_digest:
                        changes.edited.add(key)
                continue
            paired = min(a1 - a0, b1 - b0) if op == "replace" else 0
            changes.edited.update(key for key, _ in after[b0 : b0 + paired])
            changes.added.update(key for key, _ in after[b0 + paired : b1])
            if gone := (a1 - a0) - paired:
                changes.removed[section] = changes.removed.get(section, 0) + gone
    return changes
