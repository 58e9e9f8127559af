"""A brief run of the loader's fuzz target (tests/fuzz_loader.py) on every test run.

The same target runs for as long as you like with
`python tests/fuzz_loader.py --examples N`.
"""

from __future__ import annotations

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
    except (yaml.YAMLError, RecursionError):
        return
    if root is None:
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
