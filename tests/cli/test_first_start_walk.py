"""A first start of the reader, in a real terminal, with no parse cache: the
parse workers walk the folders themselves (the command line lists only the
first frame's), and every file is loaded once, broken ones with their
problems; the next start is served by the cache the first one left."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from tests.entry_files import reviews_in
from tests.pty_session import Session, reader_env
from tui import __version__
from tui.load.cache import ParseCache
from tui.load.discover import discover
from tui.load.first_frame import from_cache

pytestmark = pytest.mark.skipif(not hasattr(os, "posix_spawn"), reason="no posix_spawn")

FOLDERS = {"2024-01": 700, "2024-02": 500, "2025/03": 300}


def tree(root: Path) -> int:
    for name, count in FOLDERS.items():
        reviews_in(root / name, range(count), "pr-{n:05}", f"{name} {{n}}")
    (root / "2025" / "03" / "zz-broken.yaml").write_text("title: [unclosed\n", encoding="utf-8")
    return sum(FOLDERS.values())


def start(argv: list[str], env: dict[str, str], cwd: Path, *shown: str) -> str:
    with Session(argv, env, cwd, rows=40, cols=120) as session:
        for text in shown:
            session.wait_for(text, timeout=90)
        session.send(b"q")
        assert session.wait_exit(timeout=90) == 0, session.status
        return session.text


@pytest.mark.parametrize("no_cache", [False, True])
def test_a_first_start_loads_every_file_of_a_tree_once(
    tmp_path: Path, isolated_dirs: dict[str, Path], no_cache: bool
) -> None:
    root = tmp_path / "entries"
    reviews = tree(root)
    env = reader_env(isolated_dirs)
    argv = [sys.executable, "-c", "from tui.cli import run; run()", "--lang", "en", "--no-watch", str(root)]
    if no_cache:
        argv.insert(-1, "--no-cache")
    text = start(argv, env, tmp_path, f"{reviews:,}/{reviews:,}", "⚠ 1 problem")
    assert f"{reviews:,} reviews · " in text
    assert f"{reviews + 1:,}" not in text  # each review once: never one more
    from tui.store import locations

    cache = ParseCache(locations.cache_file(), version_key=__version__)
    if no_cache:
        assert not cache.load()
        return
    assert cache.load()
    files, _ = discover([root])
    hits, misses = from_cache(files, cache)
    assert not misses and sum(len(update.reviews) for update in hits.values()) == reviews
