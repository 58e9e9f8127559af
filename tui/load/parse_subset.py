"""The entry format read from `tui.load.yaml_subset`'s plain data, for a file
in which nothing is wrong.

The same rules as `tui.load.parse._Reader` on the same values; at the first
thing `_Reader` would call a problem (an unknown or missing field, a wrong
value, a limit passed) this answers None instead, and the file is read
through libyaml and `_Reader`, which says what and where. So this module
holds no message and no position but a review's own.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from tui.core.model import SECTIONS, VERDICTS, digest
from tui.load.limits import MAX_ITEMS, MAX_NODES, MAX_REFS, MAX_REVIEW_CHARS, MAX_REVIEWS, MAX_TAGS
from tui.load.yaml_subset import Block, read_subset

_REPO = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")
_TEXT = frozenset(("title", "summary"))
_OPTIONAL = frozenset(("verdict_note", "date"))
_SECTIONS = frozenset(SECTIONS)
_REQUIRED = frozenset(("title", "repo", "tags", "verdict", "summary"))
_ITEM_KEYS = frozenset(("text", "refs", "id"))


class _Wrong(Exception):
    """What `_Reader` would report: the file is read through libyaml."""


def read_clean_file(
    text: str,
    build_review: Callable[[dict[str, Any], int, int], Any],
    build_item: Callable[[str, str, tuple[str, ...], str | None], Any],
) -> list | None:
    """The file's reviews, as `_Reader` reads them, if the text is in the YAML
    subset and has no problem at all; else None. `text`: all printable but
    for its newlines (no cleaning needed), at most `MAX_TEXT_CHARS` long."""
    root = read_subset(text)
    if root is None:
        return None
    try:
        return _File(build_review, build_item).read(root)
    except _Wrong:
        return None


def _text(value: object) -> str:
    """A required text (`NodeReader.text`): a scalar, not blank."""
    if value.__class__ is not str:
        raise _Wrong
    value = value.strip("\n")  # type: ignore[attr-defined]
    if not value or value.isspace():  # type: ignore[attr-defined]
        raise _Wrong
    return value  # type: ignore[return-value]


class _File:
    def __init__(self, build_review: Callable, build_item: Callable) -> None:
        self.build_review, self.build_item = build_review, build_item
        self.reviews: list = []
        self.seen = 1  # nodes, counted as `NodeReader.saw` does: more than `MAX_NODES` is a problem

    def saw(self, nodes: int) -> None:
        self.seen += nodes
        if self.seen > MAX_NODES:
            raise _Wrong

    def read(self, root: Block) -> list:
        values = root.values
        self.saw(2 * len(values))
        if "entries" in values:
            if not values.keys() <= {"repo", "entries"}:
                raise _Wrong
            repo = self.repo(values["repo"]) if "repo" in values else None
            entries = values["entries"]
            if entries.__class__ is not list or len(entries) > MAX_REVIEWS:  # type: ignore[arg-type]
                raise _Wrong
            self.saw(len(entries))  # type: ignore[arg-type]
            for entry in entries:  # type: ignore[attr-defined]
                if entry.__class__ is not Block:
                    raise _Wrong
                self.saw(2 * len(entry.values))
                self.review(entry, repo)
        else:
            self.review(root, None)
        return self.reviews

    def review(self, block: Block, default_repo: str | None) -> None:
        out: dict[str, object] = {}
        self.item_chars = 0
        for key, value in block.values.items():
            if key in _TEXT:
                out[key] = _text(value)
            elif key in _SECTIONS:
                out[key] = self.items(key, value)
            elif key == "tags":
                out[key] = self.tags(value)
            elif key == "verdict":
                verdict = _text(value)
                if verdict not in VERDICTS:
                    raise _Wrong
                out[key] = verdict
            elif key == "repo":
                out[key] = self.repo(value)
            elif key == "pr":
                if key not in block.plain or not value.isascii() or not value.isdigit():  # type: ignore[attr-defined]
                    raise _Wrong
                number = int(value, 10)  # type: ignore[call-overload]
                if number <= 0:
                    raise _Wrong
                out[key] = number
            elif key in _OPTIONAL:
                if value.__class__ is not str:
                    raise _Wrong
                out[key] = value.strip("\n") or None  # type: ignore[attr-defined]
            elif key == "url":
                url = _text(value)
                if not url.startswith(("https://", "http://")):
                    raise _Wrong
                out[key] = url
            else:
                raise _Wrong  # unknown, or `entries` in a review
        if "repo" not in out and default_repo is not None:
            out["repo"] = default_repo
        if not out.keys() >= _REQUIRED:
            raise _Wrong
        size = self.item_chars + sum(map(len, out["tags"]))  # type: ignore[call-overload]
        for value in out.values():
            if value.__class__ is str:
                size += len(value)  # type: ignore[arg-type]
        if size > MAX_REVIEW_CHARS:
            raise _Wrong
        self.reviews.append(self.build_review(out, block.line, block.column))

    @staticmethod
    def repo(value: object) -> str:
        repo = _text(value).strip()
        if not _REPO.match(repo):
            raise _Wrong
        return repo

    def tags(self, value: object) -> tuple[str, ...]:
        if value.__class__ is not list or not value or len(value) > MAX_TAGS:  # type: ignore[arg-type]
            raise _Wrong
        self.saw(len(value))  # type: ignore[arg-type]
        tags: dict[str, None] = {}
        for child in value:  # type: ignore[attr-defined]
            tags.setdefault(" ".join(_text(child).split()), None)
        return tuple(tags)

    def items(self, section: str, value: object) -> tuple:
        """A section's items, as `_Reader.items` makes them."""
        if value.__class__ is not list or len(value) > MAX_ITEMS:  # type: ignore[arg-type]
            raise _Wrong
        self.saw(len(value))  # type: ignore[arg-type]
        items = []
        ids: set[str] = set()
        repeats: dict[str, int] = {}
        chars = 0
        build_item = self.build_item
        for child in value:  # type: ignore[attr-defined]
            if child.__class__ is str:
                text = _text(child)
                chars += len(text)
                if text in repeats:
                    items.append(build_item(section, text, (), _repeat_id(repeats, text)))
                else:
                    repeats[text] = 1
                    items.append(build_item(section, text, (), None))
                continue
            if child.__class__ is not Block:
                raise _Wrong
            fields = child.values
            if "text" not in fields or not fields.keys() <= _ITEM_KEYS:
                raise _Wrong
            self.saw(2 * len(fields))
            text = _text(fields["text"])
            refs: tuple[str, ...] = ()
            if "refs" in fields:
                listed = fields["refs"]
                if listed.__class__ is not list or len(listed) > MAX_REFS:  # type: ignore[arg-type]
                    raise _Wrong
                self.saw(len(listed))  # type: ignore[arg-type]
                refs = tuple([_text(ref).strip() for ref in listed])  # type: ignore[attr-defined]
            item_id: str | None = None
            if "id" in fields:
                item_id = _text(fields["id"]).strip()
                if item_id in ids:
                    raise _Wrong
                ids.add(item_id)
            chars += len(text) + len(item_id or "")
            for ref in refs:
                chars += len(ref)
            items.append(build_item(section, text, refs, item_id or _repeat_id(repeats, text)))
        self.item_chars += chars
        return tuple(items)


def _repeat_id(repeats: dict[str, int], text: str) -> str | None:
    """`tui.load.parse._repeat_id`: the n-th item with this text and no `id`."""
    n = repeats[text] = repeats.get(text, 0) + 1
    return None if n == 1 else f"{digest(text)}~{n}"
