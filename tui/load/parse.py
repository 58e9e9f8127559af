"""Read entry files into reviews, or into problems located at file:line:column.

YAML is composed into nodes (libyaml when available) and the nodes are read
here, not by PyYAML's constructor: that keeps every value's position for error
messages, takes text exactly as written (YAML 1.1 would turn `no` into False and
`2026-01-01` into a date), and never constructs objects from tags. A file that
fails does not stop the others; a review that fails does not stop the rest of
its file.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from tui.core.model import SECTIONS, VERDICTS, Item, Location, Problem, Review, digest
from tui.core.text import clean, needs_cleaning

# Finding files lives in tui.load.discover (no yaml there: a warm start needs it, not the
# parser); re-exported for the callers that read files.
from tui.load.discover import discover, safe_problem
from tui.store.safe_read import UnfitFile, read_regular

try:
    _Loader: type = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - libyaml missing
    _Loader = yaml.SafeLoader

_STR = "tag:yaml.org,2002:str"
_NULL = "tag:yaml.org,2002:null"
_SPECIAL_PLAIN = {
    value: yaml.resolver.Resolver().resolve(yaml.ScalarNode, value, (True, False))
    for value in ("", "~", "null", "Null", "NULL", "<<", "=", "!", "&", "*")
}
"""The plain scalars YAML 1.1 resolves to a tag the reader treats apart from text:
null, merge (`<<`), value (`=`) and yaml (`!`, `&`, `*`). No longer than 4 characters."""


class _Composer(_Loader):
    """libyaml's composer with a resolver that does only what the reader needs.

    The composer asks the resolver for the tag of every node, and PyYAML's runs
    YAML 1.1's regular expressions (bool, int, float, timestamp...) on every
    plain scalar, in Python. The reader takes all of those as the text written,
    so a plain scalar resolves to `str` here unless it is one of `_SPECIAL_PLAIN`,
    which keep PyYAML's tag. Path resolvers are not used, so their hooks do nothing.
    """

    def resolve(self, kind: type, value: str | None, implicit: tuple[bool, bool]) -> str:
        if kind is yaml.ScalarNode:
            if implicit[0] and len(value) < 5:  # type: ignore[arg-type]  # a scalar always has a value
                return _SPECIAL_PLAIN.get(value, _STR)  # type: ignore[arg-type]  # as above
            return _STR
        return self.DEFAULT_SEQUENCE_TAG if kind is yaml.SequenceNode else self.DEFAULT_MAPPING_TAG

    def descend_resolver(self, current_node: object, current_index: object) -> None:
        pass

    def ascend_resolver(self) -> None:
        pass


# Limits on one entry file. Each is a problem located in the file when passed;
# docs/entry-format.md and the README list them with these numbers.
MAX_FILE_BYTES = 8 * 1024 * 1024
"""Larger files are skipped unread."""
MAX_NODES = 200_000
"""Nodes visited per file, aliases counted each time they are used ("billion laughs")."""
MAX_TEXT_CHARS = MAX_FILE_BYTES
"""Characters of text per file, aliases counted each time they are used: aliases
cannot make a file hold more text than the largest file could."""
MAX_DEPTH = 64
"""Nesting levels of lists and mappings."""
MAX_REVIEWS = 10_000
"""Reviews per file; the rest of a longer page is skipped."""
MAX_ITEMS = 1_000
"""Items per section (`focus`, `read_order`, `actions`, `caveats`) of a review."""
MAX_TAGS = 32
"""Tags per review."""
MAX_REFS = 32
"""Refs per item."""
MAX_REVIEW_CHARS = 100_000
"""Characters of text in one review, all fields and items together: the review pane
lays a review out whole, so this bounds the work done on a key press."""

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
_SCALAR, _SEQUENCE, _MAPPING = yaml.ScalarNode, yaml.SequenceNode, yaml.MappingNode
_STR_TAGS = frozenset("tag:yaml.org,2002:" + t for t in ("str", "bool", "int", "float", "timestamp", "null"))


@dataclass
class FileResult:
    path: Path
    reviews: list[Review] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


class _Invalid(Exception):
    def __init__(self, node: yaml.Node | None, message: str) -> None:
        super().__init__(message)
        self.node = node
        self.message = message


def load_file(
    path: Path,
    *,
    build_review: Callable[[dict[str, Any], int, int], Any] | None = None,
    build_item: Callable[[str, str, tuple[str, ...], str | None], Any] = Item,
) -> FileResult:
    """Reviews and located problems of one file. Never raises: whatever is wrong
    with the file, or with this reader, becomes a problem.

    Reviews are `Review`s, or what `build_review(fields, line, column)` makes of
    their fields (as `Review` takes them), and items `Item`s, or what
    `build_item(section, text, refs, id)` makes: a parse worker packs reviews
    for the cache and has no use for the objects.
    """
    result = FileResult(path)
    try:
        _load(path, result, build_review, build_item)
    except Exception as exc:  # a bug here must not take the other files down with it
        result.reviews.clear()
        message = f"internal error while reading this file ({type(exc).__name__}: {exc}); please report it"
        result.problems.append(safe_problem(Location(path, 1, 1), message))
    return result


def _load(path: Path, result: FileResult, build_review: Callable | None, build_item: Callable) -> None:
    def problem(line: int, column: int, message: str) -> None:
        result.problems.append(safe_problem(Location(path, line, column), message))

    try:
        text = _read_text(path)
    except _Invalid as exc:
        problem(1, 1, exc.message)
        return
    except _DecodeError as exc:
        problem(exc.line, exc.column, exc.message)
        return
    lines = _Lines(text)
    try:
        root = yaml.compose(text, Loader=_Composer)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, column = lines.at(mark.index) if mark else (1, 1)
        message = " ".join(str(part) for part in (exc.context, exc.problem) if part)
        problem(line, column, f"invalid YAML: {message}")
        return
    except yaml.reader.ReaderError as exc:
        line, column = lines.at(_char_index(text, exc.position))
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


_LINE_BREAK = re.compile(r"\r\n|\r|\n")


class _Lines:
    """1-based line and column of a character index, as editors count them.

    libyaml also breaks lines at NEL, U+2028 and U+2029, which editors, `grep -n`
    and compilers do not; positions are recomputed from the index so that
    `file:line:column` lands where an editor shows it.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self._starts: list[int] | None = None
        self._marks_agree: bool | None = None

    def of(self, mark: yaml.Mark) -> tuple[int, int]:
        """Line and column of a node's mark: libyaml's own when the text has none
        of the line breaks only YAML counts, else recomputed from its index.

        At the end of the text libyaml moves to a new line of its own, so a node
        there (an empty value) is located from its index too.
        """
        if self._marks_agree is None:
            text = self.text
            self._marks_agree = "\x85" not in text and "\u2028" not in text and "\u2029" not in text
        if self._marks_agree and mark.index < len(self.text):
            return mark.line + 1, mark.column + 1
        return self.at(mark.index)

    def at(self, index: int) -> tuple[int, int]:
        if self._starts is None:
            self._starts = [0, *(m.end() for m in _LINE_BREAK.finditer(self.text))]
        index = max(0, min(index, len(self.text)))
        line = bisect.bisect_right(self._starts, index)
        return line, index - self._starts[line - 1] + 1


def _char_index(text: str, offset: int) -> int:
    """The character index of a reader error's offset.

    libyaml counts the offset in bytes of the UTF-8 encoding, PyYAML in characters.
    """
    if _Loader is not yaml.SafeLoader:
        return len(text.encode("utf-8")[:offset].decode("utf-8", "ignore"))
    return offset  # pragma: no cover - libyaml missing


class _DecodeError(Exception):
    def __init__(self, line: int, column: int, message: str) -> None:
        super().__init__(message)
        self.line, self.column, self.message = line, column, message


def _read_bytes(path: Path) -> bytes:
    """The file's bytes, never more than `MAX_FILE_BYTES`; a named pipe, a device
    or a huge file is refused (`tui.store.safe_read.read_regular`)."""
    try:
        return read_regular(path, MAX_FILE_BYTES)
    except UnfitFile as exc:
        raise _Invalid(None, _too_large() if exc.too_large else "not a regular file; skipped") from exc
    except (OSError, ValueError) as exc:
        raise _Invalid(None, f"cannot read: {getattr(exc, 'strerror', None) or exc}") from exc


def _too_large() -> str:
    return f"file is larger than {MAX_FILE_BYTES // (1024 * 1024)} MB; skipped"


def _read_text(path: Path) -> str:
    data = _read_bytes(path)
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise _Invalid(None, f"invalid UTF-16: {exc.reason}") from exc
    data = data.removeprefix(b"\xef\xbb\xbf")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = data[: exc.start].decode("utf-8")
        # Columns count characters, as YAML's own error marks do.
        line, column = _Lines(before).at(len(before))
        raise _DecodeError(line, column, f"not valid UTF-8 (byte 0x{data[exc.start]:02x})") from exc


class _Reader:
    """Walks one file's node tree, collecting reviews and problems."""

    def __init__(
        self,
        path: Path,
        result: FileResult,
        lines: _Lines,
        build_review: Callable[[dict[str, Any], int, int], Any] | None = None,
        build_item: Callable[[str, str, tuple[str, ...], str | None], Any] = Item,
    ) -> None:
        self.path = path
        self.result = result
        self.lines = lines
        self.build_review = build_review or self.review
        self.build_item = build_item
        self.visited = 0
        self.chars = 0
        self.seen = 0
        self.item_chars = 0
        # Text that is clean as written stays clean in YAML, but for escapes in
        # double quotes ("\e[31m"): one search of the file spares most values theirs.
        self.raw_text_clean = not needs_cleaning(lines.text)

    def where(self, node: yaml.Node | None) -> Location:
        if node is None:
            return Location(self.path, 1, 1)
        return Location(self.path, *self.lines.of(node.start_mark))

    def problem(self, node: yaml.Node | None, message: str) -> None:
        self.result.problems.append(safe_problem(self.where(node), message))

    def read_root(self, root: yaml.Node) -> None:
        """Read the file's root node, within the limits on nodes, depth and text.

        The limits are checked by `_count`, which visits every node (aliases
        each time they are used) and locates the first that breaks one. A file
        that may hold an alias is checked so before anything is read. Any other
        is a tree (see `_can_read_first`) and is read at once, counting nodes as
        it goes (`_saw`): a read without problems has then seen every node, none
        deeper than `_DEEPEST`. Only a read with problems, or with too many
        nodes, is checked by `_count` afterwards, and a limit's problem then
        replaces what was read.
        """
        if not _can_read_first(self.lines.text):
            try:
                self._count(root, 0)
            except _Invalid as exc:
                self.problem(exc.node, exc.message)
                return
            self.read(root)
            return
        self.seen = 1
        try:
            self.read(root)
        except _TooManyNodes:
            pass
        else:
            if not self.result.problems:
                return
        try:
            self._count(root, 0)
        except _Invalid as exc:
            self.result.reviews.clear()
            self.result.problems.clear()
            self.problem(exc.node, exc.message)
            return
        if self.seen > MAX_NODES:  # pragma: no cover - `_count` counts every node `_saw` does
            raise RuntimeError("node count of the read and of the check disagree")

    def read(self, root: yaml.Node) -> None:
        try:
            pairs = self.mapping(root, "a review or a page with `entries:`")
        except _Invalid as exc:
            self.problem(exc.node, exc.message)
            return
        keys = {k for k, _, _ in pairs}
        if "entries" in keys:
            self.read_page(root, pairs)
        else:
            self.read_review(root, pairs, default_repo=None)

    def _saw(self, nodes: int) -> None:
        """Count nodes read; more than `MAX_NODES` stops the read."""
        self.seen += nodes
        if self.seen > MAX_NODES:
            raise _TooManyNodes

    def _count(self, node: yaml.Node, depth: int) -> None:
        """Refuse alias bombs and absurd nesting before reading anything.

        Visits every node, aliases each time they are used, and stops at the
        first that breaks a limit, to locate it.
        """
        self.visited += 1
        if self.visited > MAX_NODES:
            raise _Invalid(node, f"too many YAML nodes (over {MAX_NODES}, aliases included)")
        if depth > MAX_DEPTH:
            raise _Invalid(node, f"nested deeper than {MAX_DEPTH} levels")
        if isinstance(node, yaml.ScalarNode):
            self.chars += len(node.value)
            if self.chars > MAX_TEXT_CHARS:
                raise _Invalid(node, f"more than {MAX_TEXT_CHARS:,} characters of text (aliases included)")
        elif isinstance(node, yaml.SequenceNode):
            for child in node.value:
                self._count(child, depth + 1)
        elif isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                self._count(key, depth + 1)
                self._count(value, depth + 1)

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
                    raise _Invalid(key_node, self.unknown(key, PAGE_FIELDS + REVIEW_FIELDS))
            except _Invalid as exc:
                self.problem(exc.node, exc.message)
        if entries is None:
            return
        if not isinstance(entries, yaml.SequenceNode):
            self.problem(entries, "`entries` must be a list of reviews")
            return
        self._saw(len(entries.value))
        if len(entries.value) > MAX_REVIEWS:
            self.problem(
                entries.value[MAX_REVIEWS],
                f"more than {MAX_REVIEWS:,} reviews in one file; the rest are skipped",
            )
        for node in entries.value[:MAX_REVIEWS]:
            try:
                pairs = self.mapping(node, "a review")
            except _Invalid as exc:
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
                        raise _Invalid(key_node, "`entries` belongs at the top of a page, not in a review")
                    raise _Invalid(key_node, self.unknown(key, REVIEW_FIELDS))
                values[key] = read(self, key, value)
            except _Invalid as exc:
                self.problem(exc.node, exc.message)
                failed = True
        if "repo" not in values and default_repo is not None:
            values["repo"] = default_repo
        missing = [name for name in _REQUIRED if name not in values]
        if missing:
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
        return Review(location=Location(self.path, line, column), **fields)

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
            raise _Invalid(node, "`url` must start with https:// or http://")
        return url

    def verdict(self, key: str, node: yaml.Node) -> str:
        verdict = self.text(node, key)
        if verdict not in VERDICTS:
            raise _Invalid(node, f"`verdict` must be one of {', '.join(VERDICTS)}, not {verdict!r}")
        return verdict

    # -- node readers ---------------------------------------------------------

    def mapping(self, node: yaml.Node, what: str) -> list[tuple[str, yaml.Node, yaml.Node]]:
        if node.__class__ is not _MAPPING:
            raise _Invalid(node, f"expected {what} (a mapping), found {_kind(node)}")
        self._saw(2 * len(node.value))
        pairs: list[tuple[str, yaml.Node, yaml.Node]] = []
        seen: dict[str, yaml.Node] = {}
        for key_node, value in node.value:
            if key_node.__class__ is not _SCALAR or key_node.tag not in _STR_TAGS:
                raise _Invalid(key_node, f"keys must be plain names, found {_kind(key_node)}")
            key = key_node.value
            if key in seen:
                first = self.where(seen[key])
                raise _Invalid(key_node, f"duplicate key `{clean(key)}` (first at line {first.line})")
            seen[key] = key_node
            pairs.append((key, key_node, value))
        return pairs

    def text(self, node: yaml.Node, name: str, allow_empty: bool = False) -> str:
        if node.__class__ is not _SCALAR:
            raise _Invalid(node, f"`{name}` must be text, found {_kind(node)}")
        tag = node.tag
        if tag != _STR:
            if tag not in _STR_TAGS:
                raise _Invalid(node, f"`{name}`: YAML tag {tag} is not allowed")
            if (
                tag == _NULL
                and not node.style  # plain: None in PyYAML, "" in libyaml
                and node.value in ("", "~", "null", "Null", "NULL")
            ):
                if allow_empty:
                    return ""
                raise _Invalid(node, f"`{name}` is empty")
        value = node.value
        if not self.raw_text_clean or node.style == '"':
            value = clean(value)
        value = value.strip("\n")
        if not allow_empty and (not value or value.isspace()):
            raise _Invalid(node, f"`{name}` is empty")
        return value

    def repo(self, node: yaml.Node) -> str:
        repo = self.text(node, "repo").strip()
        if not _REPO.match(repo):
            raise _Invalid(node, f"`repo` must be owner/name, not {repo!r}")
        return repo

    def pr(self, key: str, node: yaml.Node) -> int:
        if (
            node.__class__ is _SCALAR
            and not node.style  # plain: None in PyYAML, "" in libyaml
            and node.value.isascii()
            and node.value.isdigit()
        ):
            number = int(node.value, 10)
            if number > 0:
                return number
        raise _Invalid(node, "`pr` must be a positive whole number")

    def tags(self, key: str, node: yaml.Node) -> tuple[str, ...]:
        if node.__class__ is _SCALAR and node.tag in _STR_TAGS:
            raise _Invalid(node, "`tags` must be a list, e.g. [rocm, kernels]")
        if node.__class__ is not _SEQUENCE:
            raise _Invalid(node, f"`tags` must be a list, found {_kind(node)}")
        self._saw(len(node.value))
        _at_most(node, MAX_TAGS, "`tags` has more than {} tags")
        tags: dict[str, None] = {}
        for child in node.value:
            tag = " ".join(self.text(child, "tags").split())
            tags.setdefault(tag, None)
        if not tags:
            raise _Invalid(node, "`tags` must name at least one tag")
        return tuple(tags)

    def items(self, section: str, node: yaml.Node) -> tuple[Item, ...]:
        """A section's items; their characters are added to `item_chars`."""
        if node.__class__ is not _SEQUENCE:
            raise _Invalid(node, f"`{section}` must be a list, found {_kind(node)}")
        self._saw(len(node.value))
        _at_most(node, MAX_ITEMS, f"`{section}` has more than {{}} items")
        items: list[Item] = []
        ids: dict[str, yaml.Node] = {}
        repeats: dict[str, int] = {}
        chars = 0
        for child in node.value:
            if child.__class__ is _SCALAR:
                text = self.text(child, section)
                chars += len(text)
                items.append(self.build_item(section, text, (), _repeat_id(repeats, text)))
                continue
            pairs = self.mapping(child, f"a {section} item: text, or a mapping with `text`")
            text: str | None = None  # type: ignore[no-redef]  # the plain-text branch above `continue`s
            refs: tuple[str, ...] = ()
            item_id: str | None = None
            for key, key_node, value in pairs:
                if key == "text":
                    text = self.text(value, "text")
                elif key == "refs":
                    refs = self.refs(value)
                elif key == "id":
                    item_id = self.text(value, "id").strip()
                    if item_id in ids:
                        first = self.where(ids[item_id]).line
                        raise _Invalid(
                            value, f"duplicate `id` {item_id!r} in `{section}` (first at line {first})"
                        )
                    ids[item_id] = value
                else:
                    raise _Invalid(key_node, self.unknown(key, ITEM_FIELDS))
            if text is None:
                raise _Invalid(child, f"a {section} item needs `text`")
            chars += len(text) + sum(map(len, refs)) + len(item_id or "")
            items.append(self.build_item(section, text, refs, item_id or _repeat_id(repeats, text)))
        self.item_chars += chars
        return tuple(items)

    def refs(self, node: yaml.Node) -> tuple[str, ...]:
        if node.__class__ is not _SEQUENCE:
            raise _Invalid(node, f"`refs` must be a list, found {_kind(node)}")
        self._saw(len(node.value))
        _at_most(node, MAX_REFS, "`refs` has more than {} refs")
        return tuple([self.text(child, "refs").strip() for child in node.value])

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


_ALIAS = re.compile(r"(?<!\w)\*")
"""Where an alias may be: a `*` right after a letter, digit or `_` never starts one."""
_DEEPEST = 6
"""The depth of the deepest node in a file read without problems: a ref, in
root → `entries` → review → section → item → `refs` → ref."""


def _can_read_first(text: str) -> bool:
    """True when the text cannot hold an alias and has no more than
    `MAX_TEXT_CHARS` characters: its nodes are then a tree, read in time bounded
    by the file's size, and its scalars cannot hold more text than the file (no
    scalar is longer than the text it is written as)."""
    return len(text) <= MAX_TEXT_CHARS and ("*" not in text or _ALIAS.search(text) is None)


class _TooManyNodes(Exception):
    """A read counted more than `MAX_NODES` nodes."""


def _at_most(node: yaml.SequenceNode, limit: int, message: str) -> None:
    """A list longer than `limit` is a problem at its first extra entry."""
    if len(node.value) > limit:
        raise _Invalid(node.value[limit], message.format(f"{limit:,}"))


def _kind(node: yaml.Node) -> str:
    if isinstance(node, yaml.MappingNode):
        return "a mapping"
    if isinstance(node, yaml.SequenceNode):
        return "a list"
    return f"{node.value!r}" if len(node.value) < 40 else "text"


@dataclass
class LoadResult:
    files: dict[Path, list[Review]]
    problems: dict[Path, list[Problem]]

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
