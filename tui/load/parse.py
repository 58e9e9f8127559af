"""Read entry files into reviews, or into problems located at file:line:column.

The entry format's rules: which fields a review has and how each is read, items,
tags and refs, and the limits on them. The YAML under them (text to located
nodes, the limits on the node tree) is `tui.load.yaml_nodes`; the limits'
numbers are in `tui.load.limits`. A file that fails does not stop the others; a
review that fails does not stop the rest of its file.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import yaml

from tui.core.model import SECTIONS, VERDICTS, Item, Location, Problem, Review, digest
from tui.core.text import clean

# Finding files lives in tui.load.discover (no yaml there: a warm start needs it, not the
# parser); re-exported for the callers that read files.
from tui.load.discover import discover, safe_problem
from tui.load.limits import (  # noqa: F401  # re-exported: the limits are read as parse.MAX_*
    MAX_DEPTH,
    MAX_FILE_BYTES,
    MAX_ITEMS,
    MAX_NODES,
    MAX_REFS,
    MAX_REVIEW_CHARS,
    MAX_REVIEWS,
    MAX_TAGS,
    MAX_TEXT_CHARS,
)
from tui.load.yaml_nodes import (
    SCALAR,
    SEQUENCE,
    STR_TAGS,
    DecodeError,
    Invalid,
    Lines,
    NodeReader,
    as_path,
    at_most,
    char_index,
    compose,
    kind_of,
    read_source,
)

REVIEW_FIELDS = (
    "title",
    "repo",
    "pr",
    "url",
    "date",
    "tags",
    "verdict",
    "verdict_note",
    "summary",
    *SECTIONS,
)
PAGE_FIELDS = ("repo", "entries")
ITEM_FIELDS = ("text", "refs", "id")
_REPO = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")


class FileResult:
    """One file's reviews and problems. A plain class, not a dataclass: a parse
    worker imports this module, and `dataclasses` (with `inspect`) and the
    making of two dataclasses were a few ms of its start (bench/README.md)."""

    __slots__ = ("path", "problems", "reviews")

    def __init__(
        self, path: Path | str, reviews: list[Review] | None = None, problems: list[Problem] | None = None
    ) -> None:
        self.path = path
        self.reviews: list[Review] = reviews if reviews is not None else []
        self.problems: list[Problem] = problems if problems is not None else []

    def __repr__(self) -> str:
        return f"FileResult(path={self.path!r}, reviews={self.reviews!r}, problems={self.problems!r})"


def load_file(
    path: Path | str,
    *,
    build_review: Callable[[dict[str, Any], int, int], Any] | None = None,
    build_item: Callable[[str, str, tuple[str, ...], str | None], Any] = Item,
    known: os.stat_result | None = None,
) -> FileResult:
    """Reviews and located problems of one file. Never raises: whatever is wrong
    with the file, or with this reader, becomes a problem. `known`: the file's
    `os.stat`, if the caller has just taken it. `path`: a `Path`, or its `str`
    (a parse worker has the name: the problems' `Path` is made if there are any).

    Reviews are `Review`s, or what `build_review(fields, line, column)` makes of
    their fields (as `Review` takes them), and items `Item`s, or what
    `build_item(section, text, refs, id)` makes: a parse worker packs reviews
    for the cache and has no use for the objects.
    """
    result = FileResult(path)
    try:
        _load(path, result, build_review, build_item, known)
    except Exception as exc:  # a bug here must not take the other files down with it
        result.reviews.clear()
        message = f"internal error while reading this file ({type(exc).__name__}: {exc}); please report it"
        result.problems.append(safe_problem(Location(as_path(path), 1, 1), message))
    return result


def _load(
    path: Path | str,
    result: FileResult,
    build_review: Callable | None,
    build_item: Callable,
    known: os.stat_result | None = None,
) -> None:
    def problem(line: int, column: int, message: str) -> None:
        result.problems.append(safe_problem(Location(as_path(path), line, column), message))

    try:
        text, stream = read_source(path, known)
    except Invalid as exc:
        problem(1, 1, exc.message)
        return
    except DecodeError as exc:
        problem(exc.line, exc.column, exc.message)
        return
    lines = Lines(text)
    try:
        root = compose(stream)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, column = lines.at(mark.index) if mark else (1, 1)
        message = " ".join(str(part) for part in (exc.context, exc.problem) if part)
        problem(line, column, f"invalid YAML: {message}")
        return
    except yaml.reader.ReaderError as exc:
        line, column = lines.at(char_index(text, exc.position))
        code = exc.character if isinstance(exc.character, int) else ord(exc.character or "\0")
        problem(line, column, f"invalid YAML: {exc.reason} (character U+{code:04X})")
        return
    except (yaml.YAMLError, RecursionError) as exc:
        problem(1, 1, f"invalid YAML: {exc}")
        return
    if root is None:
        problem(1, 1, "empty file: expected a review or a list under `entries:`")
        return
    _Reader(path, result, lines, build_review, build_item).read_root(root)


class _Reader(NodeReader):
    """Reads one file's node tree as the entry format's reviews and items."""

    def __init__(
        self,
        path: Path | str,
        result: FileResult,
        lines: Lines,
        build_review: Callable[[dict[str, Any], int, int], Any] | None = None,
        build_item: Callable[[str, str, tuple[str, ...], str | None], Any] = Item,
    ) -> None:
        super().__init__(path, result.problems, lines)
        self.result = result
        self.build_review = build_review or self.review
        self.build_item = build_item
        self.item_chars = 0

    def discard(self) -> None:
        self.result.reviews.clear()
        self.result.problems.clear()

    def read(self, root: yaml.Node) -> None:
        try:
            pairs = self.mapping(root, "a review or a page with `entries:`")
        except Invalid as exc:
            self.problem(exc.node, exc.message)
            return
        keys = {k for k, _, _ in pairs}
        if "entries" in keys:
            self.read_page(root, pairs)
        else:
            self.read_review(root, pairs, default_repo=None)

    def read_page(self, root: yaml.Node, pairs: list[tuple[str, yaml.Node, yaml.Node]]) -> None:
        repo: str | None = None
        entries: yaml.Node | None = None
        for key, key_node, value in pairs:
            try:
                if key == "repo":
                    repo = self.repo(value)
                elif key == "entries":
                    entries = value
                else:
                    raise Invalid(key_node, self.unknown(key, PAGE_FIELDS + REVIEW_FIELDS))
            except Invalid as exc:
                self.problem(exc.node, exc.message)
        if entries is None:
            return
        if not isinstance(entries, yaml.SequenceNode):
            self.problem(entries, "`entries` must be a list of reviews")
            return
        self.saw(len(entries.value))
        if len(entries.value) > MAX_REVIEWS:
            self.problem(
                entries.value[MAX_REVIEWS],
                f"more than {MAX_REVIEWS:,} reviews in one file; the rest are skipped",
            )
        for node in entries.value[:MAX_REVIEWS]:
            try:
                pairs = self.mapping(node, "a review")
            except Invalid as exc:
                self.problem(exc.node, exc.message)
                continue
            self.read_review(node, pairs, default_repo=repo)

    def read_review(
        self,
        node: yaml.Node,
        pairs: list[tuple[str, yaml.Node, yaml.Node]],
        default_repo: str | None,
    ) -> None:
        values: dict[str, object] = {}
        failed = False
        self.item_chars = 0
        for key, key_node, value in pairs:
            read = _FIELDS.get(key)
            try:
                if read is None:
                    if key in PAGE_FIELDS:
                        raise Invalid(key_node, "`entries` belongs at the top of a page, not in a review")
                    raise Invalid(key_node, self.unknown(key, REVIEW_FIELDS))
                values[key] = read(self, key, value)
            except Invalid as exc:
                self.problem(exc.node, exc.message)
                failed = True
        if "repo" not in values and default_repo is not None:
            values["repo"] = default_repo
        if not values.keys() >= _REQUIRED_SET:
            missing = [name for name in _REQUIRED if name not in values]
            present = {key for key, _, _ in pairs}  # a field that failed is not missing
            for required in missing:
                if required not in present:
                    self.problem(node, f"missing required field `{required}`")
                    failed = True
        if failed:
            return
        # Characters of text: the items' (counted as they were read) and the tags' and other fields'.
        size = self.item_chars + sum(map(len, values["tags"]))  # type: ignore[call-overload]  # tags: checked above
        for value in values.values():
            if isinstance(value, str):
                size += len(value)
        if size > MAX_REVIEW_CHARS:
            self.problem(node, f"review holds {size:,} characters of text, more than {MAX_REVIEW_CHARS:,}")
            return
        self.result.reviews.append(self.build_review(values, *self.lines.of(node.start_mark)))

    def review(self, fields: dict[str, Any], line: int, column: int) -> Review:
        return Review(location=Location(as_path(self.path), line, column), **fields)

    # -- fields, each read as `read(self, key, node)` (see `_FIELDS`) -----------

    def required_text(self, key: str, node: yaml.Node) -> str:
        return self.text(node, key)

    def optional_text(self, key: str, node: yaml.Node) -> str | None:
        return self.text(node, key, allow_empty=True) or None

    def repo_field(self, key: str, node: yaml.Node) -> str:
        return self.repo(node)

    def url(self, key: str, node: yaml.Node) -> str:
        url = self.text(node, key)
        if not url.startswith(("https://", "http://")):
            raise Invalid(node, "`url` must start with https:// or http://")
        return url

    def verdict(self, key: str, node: yaml.Node) -> str:
        verdict = self.text(node, key)
        if verdict not in VERDICTS:
            raise Invalid(node, f"`verdict` must be one of {', '.join(VERDICTS)}, not {verdict!r}")
        return verdict

    def repo(self, node: yaml.Node) -> str:
        repo = self.text(node, "repo").strip()
        if not _REPO.match(repo):
            raise Invalid(node, f"`repo` must be owner/name, not {repo!r}")
        return repo

    def pr(self, key: str, node: yaml.Node) -> int:
        if (
            node.__class__ is SCALAR
            and not node.style  # plain: None in PyYAML, "" in libyaml
            and node.value.isascii()
            and node.value.isdigit()
        ):
            number = int(node.value, 10)
            if number > 0:
                return number
        raise Invalid(node, "`pr` must be a positive whole number")

    def tags(self, key: str, node: yaml.Node) -> tuple[str, ...]:
        if node.__class__ is SCALAR and node.tag in STR_TAGS:
            raise Invalid(node, "`tags` must be a list, e.g. [rocm, kernels]")
        if node.__class__ is not SEQUENCE:
            raise Invalid(node, f"`tags` must be a list, found {kind_of(node)}")
        self.saw(len(node.value))
        at_most(node, MAX_TAGS, "`tags` has more than {} tags")
        tags: dict[str, None] = {}
        for child in node.value:
            tag = " ".join(self.text(child, "tags").split())
            tags.setdefault(tag, None)
        if not tags:
            raise Invalid(node, "`tags` must name at least one tag")
        return tuple(tags)

    def items(self, section: str, node: yaml.Node) -> tuple[Item, ...]:
        """A section's items; their characters are added to `item_chars`."""
        if node.__class__ is not SEQUENCE:
            raise Invalid(node, f"`{section}` must be a list, found {kind_of(node)}")
        children = node.value
        self.saw(len(children))
        if len(children) > MAX_ITEMS:  # the message made only then
            at_most(node, MAX_ITEMS, f"`{section}` has more than {{}} items")
        items: list[Item] = []
        ids: dict[str, yaml.Node] = {}
        repeats: dict[str, int] = {}
        chars = 0
        text_of, build_item = self.text, self.build_item
        what: str | None = None  # what an item is, for `mapping`'s message
        for child in children:
            if child.__class__ is SCALAR:
                text = text_of(child, section)
                chars += len(text)
                if text in repeats:
                    items.append(build_item(section, text, (), _repeat_id(repeats, text)))
                else:
                    repeats[text] = 1  # as `_repeat_id` counts a first
                    items.append(build_item(section, text, (), None))
                continue
            if what is None:
                what = f"a {section} item: text, or a mapping with `text`"
            pairs = self.mapping(child, what)
            text: str | None = None  # type: ignore[no-redef]  # the plain-text branch above `continue`s
            refs: tuple[str, ...] = ()
            item_id: str | None = None
            for key, key_node, value in pairs:
                if key == "text":
                    text = text_of(value, "text")
                elif key == "refs":
                    refs = self.refs(value)
                elif key == "id":
                    item_id = text_of(value, "id").strip()
                    if item_id in ids:
                        first = self.where(ids[item_id]).line
                        raise Invalid(
                            value, f"duplicate `id` {item_id!r} in `{section}` (first at line {first})"
                        )
                    ids[item_id] = value
                else:
                    raise Invalid(key_node, self.unknown(key, ITEM_FIELDS))
            if text is None:
                raise Invalid(child, f"a {section} item needs `text`")
            chars += len(text) + len(item_id or "")
            for ref in refs:
                chars += len(ref)
            items.append(build_item(section, text, refs, item_id or _repeat_id(repeats, text)))
        self.item_chars += chars
        return tuple(items)

    def refs(self, node: yaml.Node) -> tuple[str, ...]:
        if node.__class__ is not SEQUENCE:
            raise Invalid(node, f"`refs` must be a list, found {kind_of(node)}")
        children = node.value
        self.saw(len(children))
        at_most(node, MAX_REFS, "`refs` has more than {} refs")
        text_of = self.text
        return tuple([text_of(child, "refs").strip() for child in children])

    @staticmethod
    def unknown(key: str, allowed: Iterable[str]) -> str:
        return f"unknown key `{clean(key)}` (expected one of: {', '.join(allowed)})"


def _repeat_id(repeats: dict[str, int], text: str) -> str | None:
    """An item without an `id` is keyed by its text (`Item.key`), so two with the
    same text in one section would share one check: ticking one ticked both.
    The first keeps the plain key (checks made before stay); each repeat gets
    an id of its own, `<hash of the text>~<n>`, which no author's id is."""
    n = repeats[text] = repeats.get(text, 0) + 1
    return None if n == 1 else f"{digest(text)}~{n}"


_FIELDS = {
    "title": _Reader.required_text,
    "summary": _Reader.required_text,
    "verdict_note": _Reader.optional_text,
    "date": _Reader.optional_text,
    "repo": _Reader.repo_field,
    "pr": _Reader.pr,
    "url": _Reader.url,
    "tags": _Reader.tags,
    "verdict": _Reader.verdict,
    **dict.fromkeys(SECTIONS, _Reader.items),
}
"""How each review field is read: `read(reader, key, node)`."""
_REQUIRED = ("title", "repo", "tags", "verdict", "summary")
_REQUIRED_SET = frozenset(_REQUIRED)


_DEEPEST = 6
"""The depth of the deepest node in a file read without problems: a ref, in
root → `entries` → review → section → item → `refs` → ref. `MAX_DEPTH` is no less."""


class LoadResult:
    """Every file's reviews and problems (`load_paths`)."""

    __slots__ = ("files", "problems")

    def __init__(self, files: dict[Path, list[Review]], problems: dict[Path, list[Problem]]) -> None:
        self.files = files
        self.problems = problems

    @property
    def reviews(self) -> list[Review]:
        return [r for path in sorted(self.files) for r in self.files[path]]

    def all_problems(self) -> list[Problem]:
        return [p for path in sorted(self.problems) for p in self.problems[path]]


def load_paths(paths: Iterable[Path]) -> LoadResult:
    files, missing = discover(paths)
    result = LoadResult({}, {})
    for problem in missing:
        result.problems.setdefault(problem.location.path, []).append(problem)
    for path, file_result in zip(files, map(load_file, files), strict=True):
        result.files[path] = file_result.reviews
        if file_result.problems:
            result.problems[path] = file_result.problems
    return result
