"""A brief run of the loader's fuzz target (tests/fuzz_loader.py) on every test run.

The same target runs for as long as you like with
`python tests/fuzz_loader.py --examples N`.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path
from unittest.mock import patch

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.fuzz_loader import check_load, hostile_review, yaml_bytes, yaml_text

FUZZ_EXAMPLES = 400
"""About three seconds on two cores."""


@settings(
    max_examples=FUZZ_EXAMPLES,
    deadline=None,
    database=None,
    print_blob=True,
    suppress_health_check=list(HealthCheck),
)
@given(data=yaml_bytes)
def test_fuzz_the_loader_briefly(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        check_load(data, Path(folder))


# -- the loader's shortcut for files without aliases agrees with its full check --------------

_PIECES = (
    "a: ", "- ", "? ", ": ", "[", "]", "{", "}", ", ", "\n", "  ", "x", "中文", "&a ", "*a", "a*b",
    "|\n  ", "|+\n  ", ">-\n  ", '"\\x41\\u263A\\N\\_\\\n"', "'it''s'", "\r\n", "\r", "\t", "#c\n",
    "!!str ", "!!null ", "~", "<<", "=", "\u2028",
    "title: t\n", "repo: o/r\n", "tags: [a]\n", "verdict: deep\n", "summary: s\n", "entries:\n",
    "focus:\n", "- text: x\n", "  refs: [a, b]\n", "  id: i\n",
)  # fmt: skip
_YAML_PIECES = st.lists(st.sampled_from(_PIECES), max_size=40).map("".join)


def _unreadable_yaml_is_one_located_problem(text: str, error: BaseException | None) -> None:
    """What the loader makes of a text YAML cannot read (`error`), or of one
    holding no document (None): no review and one problem, at the file's
    line:column where YAML stopped (or 1:1), never a crash."""
    from tui.load.parse import load_file

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "x.yaml"
        path.write_bytes(text.encode("utf-8"))
        result = load_file(path)
    assert not result.reviews
    [problem] = result.problems
    assert problem.location.path == path and not problem.message.startswith("internal error"), problem
    assert str(problem).startswith(f"{path}:{problem.location.line}:{problem.location.column}: ")
    lines = text.splitlines() or [""]
    assert 1 <= problem.location.line <= len(lines) + 1 and problem.location.column >= 1, problem
    mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
    if error is None:
        assert (problem.location.line, problem.location.column) == (1, 1), problem
        assert problem.message.startswith("empty file"), problem
    elif (
        mark is not None
        and problem.message.startswith("invalid YAML")
        and mark.index < len(text)  # at the end libyaml counts a line of its own
        and not _ONLY_YAML_BREAKS.search(text)
    ):
        # Where YAML stopped; an editor counts these lines as YAML does.
        assert (problem.location.line, problem.location.column) == (mark.line + 1, mark.column + 1), problem


_ONLY_YAML_BREAKS = re.compile("[\r\x85\u2028\u2029]")
"""Line breaks where libyaml's count and an editor's may differ."""


def _outcome(result: object) -> tuple[list, list]:
    reviews = [(r.location, r.title, r.summary, r.tags, r.focus) for r in result.reviews]  # type: ignore[attr-defined]
    return reviews, [str(p) for p in result.problems]  # type: ignore[attr-defined]


_PAGES = st.lists(hostile_review(valid_shape=True), min_size=1, max_size=3).map(
    lambda reviews: yaml_text({"repo": "o/r", "entries": reviews})
)


@settings(max_examples=FUZZ_EXAMPLES, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(
    text=st.one_of(_YAML_PIECES, _PAGES, yaml_bytes.map(lambda b: b.decode("utf-8", "replace"))),
    max_nodes=st.integers(8, 150),
)
def test_reading_first_and_checking_limits_after_gives_what_checking_first_gives(
    text: str, max_nodes: int
) -> None:
    import yaml

    from tui.load import parse, yaml_nodes

    try:
        root = yaml.compose(text, Loader=yaml_nodes.Composer)
    except (yaml.YAMLError, RecursionError) as exc:
        _unreadable_yaml_is_one_located_problem(text, exc)
        return
    if root is None:
        _unreadable_yaml_is_one_located_problem(text, None)
        return
    path = Path("x.yaml")

    def reader() -> parse._Reader:
        return parse._Reader(path, parse.FileResult(path), yaml_nodes.Lines(text))

    # Limits small enough for random documents to reach, the depth as small as a valid file allows.
    with patch.multiple(yaml_nodes, MAX_NODES=max_nodes, MAX_DEPTH=parse._DEEPEST, MAX_TEXT_CHARS=len(text)):
        shortcut = reader()
        shortcut.read_root(root)
        checked = reader()
        try:
            checked._count(root, 0)
        except yaml_nodes.Invalid as exc:
            checked.problem(exc.node, exc.message)
        else:
            checked.read(root)
        assert _outcome(shortcut.result) == _outcome(checked.result)
        if yaml_nodes.can_read_first(text):
            assert checked.chars <= len(text)
            if not shortcut.result.problems:
                # A read without problems counted every node, as the full check does.
                assert shortcut.seen == checked.visited
