"""The block YAML a generator writes, read in Python without libyaml, as plain data.

libyaml's compose through PyYAML's CParser was ~55 % of a one-review file's
parse and reading its nodes ~35 % (bench/README.md). The entry files a
generator writes use a small part of YAML: block mappings of plain keys, block
lists, `|-` literal text, plain and quoted one-line scalars, flow lists of words
or quoted text, comment lines. `read_subset` reads exactly that, as plain data:
a mapping is a `Block` (its position, its values by key, which were plain
scalars), a list a `list`, a scalar its `str`; and answers None for anything
else, which then goes to libyaml. It never locates a problem: the loader
(`tui.load.parse_subset`) takes its data only for a file in which it finds
none, and reads any other through libyaml, so every problem, and every
"invalid YAML", is located as before.

Whatever this module accepts must be YAML that libyaml composes to the same
values (tests/load/test_yaml_subset.py compares them).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from tui.load.yaml_nodes import STR, resolve_plain

_TOKEN = re.compile(
    r"""(?:[ ]*(?:\#[^\n]*)?\n)*
    ([ ]*)(?:(-[ ])(?![ ]))?(?:([A-Za-z_][A-Za-z0-9_]*):(?:[ ]+|(?=\n)|\Z))?
    (?:\|-[ ]*\n(([ ]+)[^ \n][^\n]*(?:\n\5[ ]*[^ \n][^\n]*)*)((?=(?:\n[ ]*)*?\n\5))?
      |([^\n]*))
    \n?""",
    re.VERBOSE,
)
"""A line, after the blank and comment lines before it: its indent, a list
entry's dash, a plain key with its colon; then either a `|-` with its block
(the lines as indented as its first, or more, none blank; the block's indent;
whether a line as indented follows after blank lines, in which case the block
may go on), or the rest of the line."""
_PLAIN = re.compile(r"[^\s\-?:,\[\]{}#&*!|>'\"%@`\\][^#,\[\]{}\\]*")
"""A one-line plain scalar: no indicator first, no comment, no flow indicators
(libyaml allows some of these in block context; they are left to it)."""
_NOT_PLAIN = frozenset("|>\"'[")
"""What a value that is not a plain scalar starts with (the others are checked by `_PLAIN`)."""
_DOUBLE = re.compile(r'"(?:[^"\\]|\\["\\])*"')
"""Double-quoted text whose only escapes are `\\"` and `\\\\`."""
_ESCAPE = re.compile(r'\\(["\\])')
_SINGLE = re.compile(r"'[^']*'")
_FLOW_ITEM = r'(?:[A-Za-z0-9_][A-Za-z0-9_./+-]*|"(?:[^"\\]|\\["\\])*")'
_FLOW = re.compile(rf"\[ *(?:{_FLOW_ITEM} *(?:, *{_FLOW_ITEM} *)*)?\]")
_FLOW_ITEMS = re.compile(r'"((?:[^"\\]|\\["\\])*)"|([^ ,\[\]"]+)')


class Block(NamedTuple):
    """A block mapping: where its first key is (1-based, as editors count), its
    values by key in the file's order, and the keys whose value was a plain scalar."""

    line: int
    column: int
    values: dict[str, object]
    plain: list[str]


_block = tuple.__new__  # `Block(...)` without its Python `__new__`


class _Outside(Exception):
    """The text leaves the subset: libyaml reads it."""


def _unescape(quoted: str) -> str:
    return _ESCAPE.sub(r"\1", quoted) if "\\" in quoted else quoted


def read_subset(text: str) -> Block | None:
    """The root mapping of `text` if it is in the subset (see the module), else None.

    `text` must be all printable but for its newlines (`needs_cleaning` false):
    no tab, no carriage return, none of the line breaks only YAML counts.
    """
    try:
        return _Composer(text).root()
    except (_Outside, IndexError, RecursionError):
        return None


class _Composer:
    """A block's values by recursion over the text's lines (`_TOKEN`'s matches,
    a `|-` block with its lines as one); `self.at`: the next line's index."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = [*_TOKEN.finditer(text)]
        self.at = 0
        self._counted = (0, 0)  # (index, line): newlines counted up to index

    def line_of(self, token: re.Match[str]) -> int:
        """The 1-based line where `token` starts (its blank and comment lines skipped)."""
        at, line = self._counted
        pos = token.start(1)
        line += self.text.count("\n", at, pos)
        self._counted = (pos, line)
        return line + 1

    def next(self) -> tuple[int, str | None, str | None, str | None, str | None, str | None, str | None]:
        """The next line as (indent, dash, key, block, block's indent, block
        goes on, rest); indent -1 at the end."""
        tokens, at = self.tokens, self.at
        if at < len(tokens):
            spaces, dash, key, block, width, more, rest = tokens[at].groups()
            if dash or key or block is not None or (rest and rest[0] != "#"):
                return len(spaces), dash, key, block, width, more, rest
            if at + 1 < len(tokens) and tokens[at + 1].end() > tokens[at].end():
                raise _Outside  # pragma: no cover - blank and comment lines are skipped with the next
        return -1, None, None, None, None, None, None

    def root(self) -> Block:
        indent, dash, key, block, width, more, rest = self.next()
        if indent < 0 or dash or key is None:
            raise _Outside  # empty, a list, or text: rare, libyaml's
        value = self.mapping(indent, key, block, width, more, rest)
        if self.next()[0] >= 0:
            raise _Outside  # something after the root: libyaml says what
        return value

    def literal(self, block: str, width: str, more: str | None, indent: int) -> str:
        """A `|-` block's text: its lines, indented more than `indent`."""
        size = len(width)
        if size <= indent or more is not None:
            raise _Outside  # empty, or it may go on after blank lines
        value = block[size:]
        if "\n" in value:
            value = value.replace("\n" + width, "\n")
        return value

    def mapping(
        self,
        indent: int,
        key: str | None,
        block: str | None,
        width: str | None,
        more: str | None,
        rest: str | None,
    ) -> Block:
        """A block mapping at `indent` whose first key is on the current line."""
        values: dict[str, object] = {}
        plain: list[str] = []
        node = _block(Block, (self.line_of(self.tokens[self.at]), indent + 1, values, plain))
        while True:
            if key is None or key in values:
                raise _Outside  # not a key, or one said twice: the reader's problem
            self.at += 1
            if block is not None:
                values[key] = self.literal(block, width, more, indent)  # type: ignore[arg-type]
            elif not rest:
                values[key] = self.nested(indent)
            elif rest[0] in _NOT_PLAIN:
                values[key] = _inline(rest)
            else:
                values[key] = _plain(rest)
                plain.append(key)
            next_indent, dash, key, block, width, more, rest = self.next()
            if next_indent == indent and not dash:
                continue
            if next_indent > indent:
                raise _Outside
            return node

    def nested(self, indent: int) -> object:
        """The value of a key with nothing after it: a block on the lines below."""
        next_indent, dash, key, block, width, more, rest = self.next()
        if dash and next_indent >= indent:  # a list may be at its key's indent
            return self.sequence(next_indent, key, block, width, more, rest)
        if next_indent > indent and not dash:
            return self.mapping(next_indent, key, block, width, more, rest)
        raise _Outside  # an empty value: the reader would find a problem anyway

    def sequence(
        self,
        indent: int,
        key: str | None,
        block: str | None,
        width: str | None,
        more: str | None,
        rest: str | None,
    ) -> list[object]:
        """A block list at `indent` whose first entry (after its dash) is on the current line."""
        items: list[object] = []
        while True:
            if key is not None:
                items.append(self.mapping(indent + 2, key, block, width, more, rest))
            else:
                self.at += 1
                if block is not None:
                    items.append(self.literal(block, width, more, indent))  # type: ignore[arg-type]
                elif not rest or rest[0] == "-" or rest[0] == "#":
                    raise _Outside  # an empty entry, a list in a list, a comment
                elif rest[0] in _NOT_PLAIN:
                    items.append(_inline(rest))
                else:
                    items.append(_plain(rest))
            next_indent, dash, key, block, width, more, rest = self.next()
            if next_indent == indent and dash:
                continue
            if next_indent > indent:
                raise _Outside
            return items


def _inline(rest: str) -> object:
    """A quoted scalar, or a flow list, on one line."""
    rest = rest.rstrip(" ")
    first = rest[0]
    if first == '"':
        if _DOUBLE.fullmatch(rest) is None:
            raise _Outside
        return _unescape(rest[1:-1])
    if first == "'":
        if _SINGLE.fullmatch(rest) is None:
            raise _Outside
        return rest[1:-1]
    if first == "[":
        if _FLOW.fullmatch(rest) is None:
            raise _Outside
        items = []
        for quoted, plain in _FLOW_ITEMS.findall(rest[1:-1]):
            if plain:
                if len(plain) < 5 and resolve_plain(plain) != STR:
                    raise _Outside
                items.append(plain)
            else:
                items.append(_unescape(quoted))
        return items
    raise _Outside  # `|` and its kin not on their own: folded, kept, indented...


def _plain(rest: str) -> str:
    rest = rest.rstrip(" ")
    if _PLAIN.fullmatch(rest) is None or ": " in rest or rest[-1] == ":":
        raise _Outside
    if len(rest) < 5 and resolve_plain(rest) != STR:
        raise _Outside  # null, `<<`, `=`: not text
    return rest
