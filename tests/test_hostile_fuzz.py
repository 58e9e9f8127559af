"""A brief run of the loader's fuzz target (tests/fuzz_loader.py) on every test run.

The same target runs for as long as you like with
`python tests/fuzz_loader.py --examples N`.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from unittest.mock import patch

from fuzz_loader import check_load, yaml_bytes
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

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


# -- the loader's cheap limit check agrees with its full walk ---------------------------

_PIECES = (
    "a: ", "- ", "? ", ": ", "[", "]", "{", "}", ", ", "\n", "  ", "x", "中文", "&a ", "*a", "a*b",
    "|\n  ", "|+\n  ", ">-\n  ", '"\\x41\\u263A\\N\\_\\\n"', "'it''s'", "\r\n", "\r", "\t", "#c\n",
    "!!str ", "!!null ", "~", "<<", "=", "\u2028",
)  # fmt: skip
_YAML_PIECES = st.lists(st.sampled_from(_PIECES), max_size=40).map("".join)


@settings(max_examples=FUZZ_EXAMPLES, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(text=st.one_of(_YAML_PIECES, yaml_bytes.map(lambda b: b.decode("utf-8", "replace"))))
def test_the_cheap_limit_check_passes_only_what_the_full_walk_passes(text: str) -> None:
    import yaml

    from tui import loader

    try:
        root = yaml.compose(text, Loader=loader._Composer)
    except (yaml.YAMLError, RecursionError):
        return
    if root is None:
        return
    # Small limits, so that random documents reach them.
    with patch.multiple(loader, MAX_NODES=12, MAX_DEPTH=2, MAX_TEXT_CHARS=len(text)):
        reader = loader._Reader(Path("x.yaml"), loader.FileResult(Path("x.yaml")), loader._Lines(text))
        try:
            reader._count(root, 0)
            passes = True
        except loader._Invalid:
            passes = False
        assert not loader._within_limits(root, text) or passes
        if not loader._ALIAS.search(text):
            # Without aliases, the cheap check is exact, and text cannot outgrow the file.
            assert loader._within_limits(root, text) == passes
            assert reader.chars <= len(text)
