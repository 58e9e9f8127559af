"""Classifying refs (tui.core.refs): pure, from the text alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from tui.core import refs
from tui.core.model import Item, Location, Review


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("vllm/v1/utils.py", "path"),
        ("vllm/v1/", "path"),
        ("./pkg/a.py:12", "path"),
        ("../../etc/passwd", "path"),
        ("scheduler.py", "file"),
        ("tpu_input_batch.py", "file"),
        ("CMakeLists.txt", "file"),
        ("vllm.models.glm5next.sparse_indexer", "module"),
        ("CustomOp", "symbol"),
        ("CpuGpuBuffer.copy_to_gpu", "symbol"),
        ("_get_constraint_start()", "symbol"),
        ("THINK_START", "symbol"),
        ("self.speed", "symbol"),
        ("len + 1", "text"),
        ("None", "text"),
        (">=", "text"),
        ("<=", "text"),
        ('custom_ops=["all"]', "text"),
        ("<think>", "text"),
        ("<|tool_response>", "text"),
        ("len", "text"),
        ("--output=/tmp/x", "text"),
        ("-rf", "text"),
        ("", "text"),
        ("1895", "text"),
        ("a; rm -rf /", "text"),
        ("$(touch x)", "text"),
    ],
)
def test_kinds(text: str, kind: str) -> None:
    assert refs.classify(text).kind == kind


def test_terms() -> None:
    member = refs.classify("CpuGpuBuffer.copy_to_gpu")
    assert (member.name, member.owner, member.modules) == ("copy_to_gpu", "CpuGpuBuffer", ())
    module = refs.classify("pkg.sub.mod")
    assert module.modules == ("pkg/sub/mod.py", "pkg/sub/mod/__init__.py", "pkg/sub/mod.pyi")
    assert module.parents[0] == "pkg/sub.py" and module.name == "mod"
    qualified = refs.classify("pkg.sub.Engine.start()")
    assert (qualified.kind, qualified.name, qualified.owner) == ("symbol", "start", "Engine")
    assert qualified.modules[0] == "pkg/sub.py"
    located = refs.classify("pkg/a.py:12")
    assert (located.path, located.line) == ("pkg/a.py", 12)
    assert refs.classify("./pkg/a.py").path == "pkg/a.py"
    assert refs.search_names([member, module, refs.classify("None")]) == [
        "CpuGpuBuffer",
        "copy_to_gpu",
        "mod",
    ]


def test_review_refs_in_reading_order_once_per_item() -> None:
    review = Review(
        title="t",
        repo="a/b",
        verdict="deep",
        summary="see `pkg/a.py` and `None`",
        tags=(),
        location=Location(Path("x.yaml"), 1, 1),
        focus=(
            Item("focus", "call `start()` in `pkg/a.py`", ("start()",)),
            Item("focus", "then `stop` and `start()`"),
        ),
    )
    uses = refs.review_refs(review)
    assert [(u.ref.text, u.place, u.index) for u in uses] == [
        ("pkg/a.py", "summary", None),
        ("None", "summary", None),
        ("start()", "focus", 0),
        ("pkg/a.py", "focus", 0),
        ("stop", "focus", 1),
        ("start()", "focus", 1),
    ]
    assert [u.ref.text for u in refs.unique(uses)] == ["pkg/a.py", "None", "start()", "stop"]


def test_test_paths() -> None:
    assert refs.is_test_path("tests/v1/x.py")
    assert refs.is_test_path("pkg/test_x.py")
    assert not refs.is_test_path("pkg/testing_utils.py")
    assert not refs.is_test_path("vllm/v1/attestation.py")
