"""The benchmarks' generated corpus (`bench/make_corpus.py`) for the tests that
need thousands of reviews: bench/ is scripts, not a package, so its module is
imported from its folder."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from tui.core.model import Library

MAKE_CORPUS = Path(__file__).resolve().parents[1] / "bench" / "make_corpus.py"


def generate(folder: Path, reviews: int, seed: int = 0, per_file: int = 10) -> list[Path]:
    """`make_corpus.generate`: `reviews` reviews in files of `per_file` under `folder`."""
    spec = importlib.util.spec_from_file_location("make_corpus", MAKE_CORPUS)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    written: list[Path] = module.generate(folder, reviews, seed=seed, per_file=per_file)
    return written


def generated_library(folder: Path, reviews: int, seed: int = 0) -> Library:
    """A library of `generate`'s reviews, loaded from `folder` as the reader loads it."""
    from tui.load.parse import load_paths

    generate(folder, reviews, seed=seed)
    result = load_paths([folder])
    return Library.build(result.files, result.problems)
