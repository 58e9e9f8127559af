"""The loader's shortcuts give what the plain way gives, on every kind of input.

The shortcuts (tui.load.yaml_nodes): libyaml's parser set up alone and given
the file's UTF-8 bytes rather than its text, the resolver's path hooks as
builtins; quoted text not cleaned in a file that has no backslash. The plain
way: PyYAML's `yaml.compose` with a `CSafeLoader` whose hooks are Python code
(the stock set-up) on the decoded text, and every value cleaned. Compared: the
node trees (kinds, tags, values, styles, marks, shared nodes), the errors, and
the reviews and problems read from them.
"""

from __future__ import annotations

import marshal
import tempfile
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings

from tests.bench_corpus import generate
from tests.fuzz_loader import yaml_bytes
from tui.load import parse, yaml_nodes
from tui.load.parse import FileResult, load_file
from tui.load.yaml_nodes import DecodeError, Invalid, Lines, read_source

pytestmark = pytest.mark.skipif(not yaml.__with_libyaml__, reason="the shortcuts are libyaml's")


class _Stock(yaml.CSafeLoader):
    """The resolver of `yaml_nodes.Composer`, set up and hooked as PyYAML does."""

    resolve = yaml_nodes.Composer.resolve

    def descend_resolver(self, current_node: object, current_index: object) -> None:
        pass

    def ascend_resolver(self) -> None:
        pass


def _plain_tree(text: str) -> Any:
    return yaml.compose(text, Loader=_Stock)


def _same_tree(a: Any, b: Any, pairs: dict[int, int]) -> None:
    """Same shape and content; a node shared in one (an alias) is shared in the other."""
    if a is None or b is None:
        assert a is b
        return
    if id(a) in pairs:
        assert pairs[id(a)] == id(b)
        return
    pairs[id(a)] = id(b)
    assert a.__class__ is b.__class__
    assert (a.tag, a.start_mark.index, a.start_mark.line, a.start_mark.column) == (
        b.tag,
        b.start_mark.index,
        b.start_mark.line,
        b.start_mark.column,
    )
    assert (a.end_mark.index, a.end_mark.line, a.end_mark.column) == (
        b.end_mark.index,
        b.end_mark.line,
        b.end_mark.column,
    )
    if isinstance(a, yaml.ScalarNode):
        assert (a.value, a.style) == (b.value, b.style)
        return
    assert a.flow_style == b.flow_style and len(a.value) == len(b.value)
    for x, y in zip(a.value, b.value, strict=True):
        if isinstance(a, yaml.MappingNode):
            _same_tree(x[0], y[0], pairs)
            _same_tree(x[1], y[1], pairs)
        else:
            _same_tree(x, y, pairs)


def _error(exc: BaseException) -> tuple:
    marks = [getattr(exc, name, None) for name in ("context_mark", "problem_mark")]
    return (
        type(exc),
        getattr(exc, "context", None),
        getattr(exc, "problem", None),
        getattr(exc, "position", None),
        getattr(exc, "reason", None),
        [(m.index, m.line, m.column) if m is not None else None for m in marks],
    )


def _compose(call: Any) -> tuple[Any, tuple | None]:
    try:
        return call(), None
    except (yaml.YAMLError, RecursionError) as exc:
        return None, _error(exc)


class _CleaningReader(parse._Reader):
    """The reader without its cleaning shortcut: every value cleaned."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.clean_all = self.clean_quoted = True


def _reviews(result: FileResult) -> list[tuple]:
    """Every field; the body as its values (marshal's bytes depend on which
    equal strings are one object)."""
    return [
        (r.location, r.title, r.repo, r.pr, r.tags, r.verdict, r.checks, r.key, marshal.loads(r.blob))
        for r in result.reviews
    ]


def check_same(data: bytes, folder: Path) -> None:
    path = folder / "x.yaml"
    path.write_bytes(data)
    try:
        text, stream = read_source(path)
    except (Invalid, DecodeError):
        return  # not text: no YAML read
    assert stream == text or stream == text.encode("utf-8")
    tree, error = _compose(lambda: yaml_nodes.compose(stream))
    plain, plain_error = _compose(lambda: _plain_tree(text))
    assert error == plain_error
    _same_tree(tree, plain, {})
    fast = load_file(path)
    if plain is None:
        return  # `load_file`'s one problem for it: tests/load/test_loader.py
    slow = FileResult(path)
    _CleaningReader(path, slow, Lines(text)).read_root(plain)
    assert fast.problems == slow.problems
    assert _reviews(fast) == _reviews(slow)


_REVIEW = "title: {t}\nrepo: o/r\npr: 1\ntags: [a]\nverdict: deep\nsummary: {s}\n"
EXAMPLES = [
    _REVIEW.format(t="plain", s="plain"),
    _REVIEW.format(t='"quoted \\e[31mred\\e[0m"', s="'single \\e[31m stays'"),
    _REVIEW.format(t='"\\u202e reversed"', s='"\\x1b]8;;http://x\\x07link"'),
    _REVIEW.format(t='"no escapes at all"', s='"中文，“引号”"'),
    _REVIEW.format(t="back\\slash plain", s='"quoted, no escape"'),
    _REVIEW.format(t='"\\N\\_\\L\\P breaks"', s='"tab\\tthere"'),
    _REVIEW.format(t="\u200bhidden", s='"quoted \u200b"'),
    _REVIEW.format(t="! null", s='! "null"') + "verdict_note: !!null\n",
    _REVIEW.format(t="~", s="null") + "date: ''\n",
    "base: &b {title: t, repo: o/r, tags: [a]}\n<<: *b\nverdict: deep\nsummary: s\n",
    "entries:\n  - &r\n    title: t\n    repo: o/r\n    tags: [a]\n    verdict: deep\n    summary: s\n  - *r\n",
    "a: &a [*a]\n",
    "? [a, b]\n: x\n1: 2\n",
    "!!python/object/apply:os.system ['true']\n",
    "title: !<tag:yaml.org,2002:str> t\n",
    "%TAG ! tag:x,2000:\n---\ntitle: !foo t\n",
    "title: [" * 60 + "]" * 60 + "\n",
    "title: t\n---\nrepo: o/r\n",
    "title: *nowhere\n",
    "a: &x 1\nb: &x 2\n",
    "title: 'unclosed\n",
    "title: t\r\nrepo: o/r\r\n",
    "title: t\x85repo: o/r\u2028tags: [a]\n",
    "\ufefftitle: t\n",
    "title: bell\x07here\n",
    "",
    "# only a comment\n",
    # Larger than libyaml's input buffer: read in pieces, characters across them.
    _REVIEW.format(t="big", s="|\n" + "  中文，“引号”—x\n" * 9000),
    _REVIEW.format(t="big", s="|\n" + "  中文，“引号”—x\n" * 9000) + "bad: [\n",
    _REVIEW.format(t="big", s="|\n" + "  中文\n" * 9000 + "  \x07bell\n"),
    _REVIEW.format(t="t", s="|\n  block\n  text\n")
    + "focus:\n  - >\n    folded\n  - text: x\n    refs: ['a', \"b\\\\c\"]\n",
]


@pytest.mark.parametrize("text", EXAMPLES)
def test_the_shortcuts_agree_on_examples(tmp_path: Path, text: str) -> None:
    check_same(text.encode("utf-8"), tmp_path)


@pytest.mark.parametrize("encoding", ["utf-16", "utf-8-sig"])
def test_the_shortcuts_agree_on_other_encodings(tmp_path: Path, encoding: str) -> None:
    for text in EXAMPLES[:8]:
        check_same(text.encode(encoding), tmp_path)


def test_the_shortcuts_agree_on_the_bench_corpus(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    files = generate(corpus, 60, seed=3, per_file=1)
    assert len(files) == 60
    for path in files:
        check_same(path.read_bytes(), tmp_path)


@settings(
    max_examples=300,
    deadline=None,
    database=None,
    print_blob=True,
    suppress_health_check=list(HealthCheck),
)
@given(data=yaml_bytes)
def test_the_shortcuts_agree_on_hostile_files(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        check_same(data, Path(folder))
