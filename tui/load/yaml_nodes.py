"""An entry file's text to YAML nodes, each located, read within the limits.

YAML is composed into nodes (libyaml when available) and the nodes are read by
`NodeReader`, not by PyYAML's constructor: that keeps every value's position for
error messages, takes text exactly as written (YAML 1.1 would turn `no` into
False and `2026-01-01` into a date), and never constructs objects from tags.

Apart from the entry format's field rules (`tui.load.parse`): this module knows
YAML, bytes and positions, and the limits that keep a hostile file's cost
bounded (`tui.load.limits`), but not what a review holds.
"""

from __future__ import annotations

import bisect
import os
import re
from pathlib import Path

import yaml

from tui.core.model import Location, Problem
from tui.core.text import clean, needs_cleaning
from tui.load.discover import safe_problem
from tui.load.limits import MAX_DEPTH, MAX_FILE_BYTES, MAX_NODES, MAX_TEXT_CHARS
from tui.store.safe_read import UnfitFile, read_regular

try:
    _Loader: type = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - libyaml missing
    _Loader = yaml.SafeLoader

STR = "tag:yaml.org,2002:str"
_NULL = "tag:yaml.org,2002:null"
_SPECIAL_PLAIN = {
    value: yaml.resolver.Resolver().resolve(yaml.ScalarNode, value, (True, False))
    for value in ("", "~", "null", "Null", "NULL", "<<", "=", "!", "&", "*")
}
"""The plain scalars YAML 1.1 resolves to a tag the reader treats apart from text:
null, merge (`<<`), value (`=`) and yaml (`!`, `&`, `*`). No longer than 4 characters."""


_NO_PATHS: dict[object, object] = {}


class Composer(_Loader):
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
                return _SPECIAL_PLAIN.get(value, STR)  # type: ignore[arg-type]  # as above
            return STR
        return self.DEFAULT_SEQUENCE_TAG if kind is yaml.SequenceNode else self.DEFAULT_MAPPING_TAG

    # Path resolvers are not used: the composer's calls to their hooks, two a
    # node, go to builtins that do nothing with their arguments (the composer
    # drops what they return), not into Python code.
    descend_resolver = _NO_PATHS.get  # `get(parent, index)` of an empty dict: `index`
    ascend_resolver = int  # `int()`


if _Loader is not yaml.SafeLoader:
    # Only libyaml's parser is set up: `CSafeLoader.__init__` is Python code
    # that also sets up PyYAML's constructor and resolver, which are not used.
    Composer.__init__ = yaml.cyaml.CParser.__init__  # type: ignore[method-assign]


def compose(stream: str | bytes) -> yaml.Node | None:
    """The node tree of the stream's single document (None if it has none):
    `yaml.compose(stream, Loader=Composer)`, without its Python frame. `stream`:
    a text, or the UTF-8 bytes of one (the parser reads a text as those)."""
    if _Loader is yaml.SafeLoader:  # pragma: no cover - libyaml missing
        return yaml.compose(stream, Loader=Composer)
    return Composer(stream).get_single_node()  # libyaml's `dispose` does nothing


SCALAR, SEQUENCE, MAPPING = yaml.ScalarNode, yaml.SequenceNode, yaml.MappingNode
STR_TAGS = frozenset("tag:yaml.org,2002:" + t for t in ("str", "bool", "int", "float", "timestamp", "null"))
"""The tags read as text: what YAML 1.1 would resolve a plain scalar to."""


class Invalid(Exception):
    """What is wrong at a node (None: the file as a whole)."""

    def __init__(self, node: yaml.Node | None, message: str) -> None:
        super().__init__(message)
        self.node = node
        self.message = message


_LINE_BREAK = re.compile(r"\r\n|\r|\n")


class Lines:
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


def char_index(text: str, offset: int) -> int:
    """The character index of a reader error's offset.

    libyaml counts the offset in bytes of the UTF-8 encoding, PyYAML in characters.
    """
    if _Loader is not yaml.SafeLoader:
        return len(text.encode("utf-8")[:offset].decode("utf-8", "ignore"))
    return offset  # pragma: no cover - libyaml missing


class DecodeError(Exception):
    def __init__(self, line: int, column: int, message: str) -> None:
        super().__init__(message)
        self.line, self.column, self.message = line, column, message


def as_path(path: Path | str) -> Path:
    """`path` as a `Path`: a parse worker reads files by name, and makes a
    `Path` (~20,000 instructions, more than the file's `stat`) only to locate a problem."""
    return path if isinstance(path, Path) else Path(path)


def _read_bytes(path: Path | str, known: os.stat_result | None = None) -> bytes:
    """The file's bytes, never more than `MAX_FILE_BYTES`; a named pipe, a device
    or a huge file is refused (`tui.store.safe_read.read_regular`)."""
    try:
        return read_regular(path, MAX_FILE_BYTES, known)
    except UnfitFile as exc:
        raise Invalid(None, _too_large() if exc.too_large else "not a regular file; skipped") from exc
    except (OSError, ValueError) as exc:
        raise Invalid(None, f"cannot read: {getattr(exc, 'strerror', None) or exc}") from exc


def _too_large() -> str:
    return f"file is larger than {MAX_FILE_BYTES // (1024 * 1024)} MB; skipped"


def read_text(path: Path | str, known: os.stat_result | None = None) -> str:
    """The file's text (UTF-8, or UTF-16 with a byte-order mark); `Invalid` or
    `DecodeError` when it cannot be read as text. `known`: `os.stat(path)`, just taken."""
    return read_source(path, known)[0]


def read_source(path: Path | str, known: os.stat_result | None = None) -> tuple[str, str | bytes]:
    """`read_text`'s text, and what to give `compose` for it: the file's UTF-8
    bytes, once they are known to be valid (the same bytes libyaml would get
    from encoding the text again), or the text (UTF-16)."""
    data = _read_bytes(path, known)
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            text = data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise Invalid(None, f"invalid UTF-16: {exc.reason}") from exc
        return text, text
    data = data.removeprefix(b"\xef\xbb\xbf")
    try:
        return data.decode("utf-8"), data
    except UnicodeDecodeError as exc:
        before = data[: exc.start].decode("utf-8")
        # Columns count characters, as YAML's own error marks do.
        line, column = Lines(before).at(len(before))
        raise DecodeError(line, column, f"not valid UTF-8 (byte 0x{data[exc.start]:02x})") from exc


class NodeReader:
    """Walks one file's node tree within the limits, reading mappings and text;
    a subclass's `read` says what the tree should hold."""

    def __init__(self, path: Path | str, problems: list[Problem], lines: Lines) -> None:
        self.path = path
        self.problems = problems
        self.lines = lines
        self.visited = 0
        self.chars = 0
        self.seen = 0
        # Text that is clean as written stays clean in YAML, but for escapes in
        # double quotes ("\e[31m"), which start with a backslash: one search of
        # the file spares most values theirs, and all when it has no backslash.
        self.clean_all = needs_cleaning(lines.text)
        self.clean_quoted = self.clean_all or "\\" in lines.text

    def where(self, node: yaml.Node | None) -> Location:
        if node is None:
            return Location(as_path(self.path), 1, 1)
        return Location(as_path(self.path), *self.lines.of(node.start_mark))

    def problem(self, node: yaml.Node | None, message: str) -> None:
        self.problems.append(safe_problem(self.where(node), message))

    def read(self, root: yaml.Node) -> None:
        raise NotImplementedError

    def discard(self) -> None:
        """Drop what a read found: a limit's problem replaces it."""
        self.problems.clear()

    def read_root(self, root: yaml.Node) -> None:
        """Read the file's root node, within the limits on nodes, depth and text.

        The limits are checked by `_count`, which visits every node (aliases
        each time they are used) and locates the first that breaks one. A file
        that may hold an alias is checked so before anything is read. Any other
        is a tree (see `can_read_first`) and is read at once, counting nodes as
        it goes (`saw`): a read without problems has then seen every node, none
        deeper than the entry format's deepest (`tui.load.parse._DEEPEST`). Only
        a read with problems, or with too many nodes, is checked by `_count`
        afterwards, and a limit's problem then replaces what was read.
        """
        if not can_read_first(self.lines.text):
            try:
                self._count(root, 0)
            except Invalid as exc:
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
            if not self.problems:
                return
        try:
            self._count(root, 0)
        except Invalid as exc:
            self.discard()
            self.problem(exc.node, exc.message)
            return
        if self.seen > MAX_NODES:  # pragma: no cover - `_count` counts every node `saw` does
            raise RuntimeError("node count of the read and of the check disagree")

    def saw(self, nodes: int) -> None:
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
            raise Invalid(node, f"too many YAML nodes (over {MAX_NODES}, aliases included)")
        if depth > MAX_DEPTH:
            raise Invalid(node, f"nested deeper than {MAX_DEPTH} levels")
        if isinstance(node, yaml.ScalarNode):
            self.chars += len(node.value)
            if self.chars > MAX_TEXT_CHARS:
                raise Invalid(node, f"more than {MAX_TEXT_CHARS:,} characters of text (aliases included)")
        elif isinstance(node, yaml.SequenceNode):
            for child in node.value:
                self._count(child, depth + 1)
        elif isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                self._count(key, depth + 1)
                self._count(value, depth + 1)

    def mapping(self, node: yaml.Node, what: str) -> list[tuple[str, yaml.Node, yaml.Node]]:
        if node.__class__ is not MAPPING:
            raise Invalid(node, f"expected {what} (a mapping), found {kind_of(node)}")
        self.seen += 2 * len(node.value)  # `saw`, inline: a mapping is read for every review and item
        if self.seen > MAX_NODES:
            raise _TooManyNodes
        pairs: list[tuple[str, yaml.Node, yaml.Node]] = []
        seen: dict[str, yaml.Node] = {}
        for key_node, value in node.value:
            if key_node.__class__ is not SCALAR or key_node.tag not in STR_TAGS:
                raise Invalid(key_node, f"keys must be plain names, found {kind_of(key_node)}")
            key = key_node.value
            if key in seen:
                first = self.where(seen[key])
                raise Invalid(key_node, f"duplicate key `{clean(key)}` (first at line {first.line})")
            seen[key] = key_node
            pairs.append((key, key_node, value))
        return pairs

    def text(self, node: yaml.Node, name: str, allow_empty: bool = False) -> str:
        if node.__class__ is not SCALAR:
            raise Invalid(node, f"`{name}` must be text, found {kind_of(node)}")
        tag = node.tag
        if tag != STR:
            if tag not in STR_TAGS:
                raise Invalid(node, f"`{name}`: YAML tag {tag} is not allowed")
            if (
                tag == _NULL
                and not node.style  # plain: None in PyYAML, "" in libyaml
                and node.value in ("", "~", "null", "Null", "NULL")
            ):
                if allow_empty:
                    return ""
                raise Invalid(node, f"`{name}` is empty")
        value = node.value
        if self.clean_quoted and (self.clean_all or node.style == '"'):
            value = clean(value)
        value = value.strip("\n")
        if not allow_empty and (not value or value.isspace()):
            raise Invalid(node, f"`{name}` is empty")
        return value


_ALIAS = re.compile(r"(?<!\w)\*")
"""Where an alias may be: a `*` right after a letter, digit or `_` never starts one."""


def can_read_first(text: str) -> bool:
    """True when the text cannot hold an alias and has no more than
    `MAX_TEXT_CHARS` characters: its nodes are then a tree, read in time bounded
    by the file's size, and its scalars cannot hold more text than the file (no
    scalar is longer than the text it is written as)."""
    return len(text) <= MAX_TEXT_CHARS and ("*" not in text or _ALIAS.search(text) is None)


class _TooManyNodes(Exception):
    """A read counted more than `MAX_NODES` nodes."""


def at_most(node: yaml.SequenceNode, limit: int, message: str) -> None:
    """A list longer than `limit` is a problem at its first extra entry."""
    if len(node.value) > limit:
        raise Invalid(node.value[limit], message.format(f"{limit:,}"))


def kind_of(node: yaml.Node) -> str:
    if isinstance(node, yaml.MappingNode):
        return "a mapping"
    if isinstance(node, yaml.SequenceNode):
        return "a list"
    return f"{node.value!r}" if len(node.value) < 40 else "text"
