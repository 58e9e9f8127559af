"""`discover_names`: the files `discover` finds, as strings, in `Path` order."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tui.load.discover import discover, discover_names, path_order


def test_strings_sort_as_their_paths_do() -> None:
    names = ["a/b", "a-c", "a", "/x/y", "/x-y", "-a/b", "//s/t", "/", " a", "a/b/c", "a.b/c", "ab", "a b"]
    paths = [str(Path(name)) for name in names]
    assert [list(Path(name).parts) for name in paths] == [path_order(name) for name in paths]
    assert sorted(paths, key=path_order) == [str(p) for p in sorted(map(Path, paths))]


@pytest.mark.parametrize("root", ["entries", "./entries", "entries/", ".", "ABS"])
def test_the_names_are_the_paths_discover_finds(
    tmp_path: Path, root: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "entries"
    for rel in ("a-c.yaml", "a/b.yaml", "a/z/q.yml", "b.yaml", ".hidden/x.yaml", "notes.md"):
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text("x", encoding="utf-8")
    os.symlink(folder / "b.yaml", folder / "link.yaml")  # inside the folder: read
    os.symlink(tmp_path, folder / "out")  # a link to a folder: not walked
    monkeypatch.chdir(folder if root == "." else tmp_path)
    given = Path(str(folder) if root == "ABS" else root)
    names, problems = discover_names([given, given / "b.yaml"])
    paths, same_problems = discover([given, given / "b.yaml"])
    assert names == [str(path) for path in paths] and problems == same_problems
    assert [Path(name) for name in names] == sorted(
        {*(given / rel for rel in ("a-c.yaml", "a/b.yaml", "a/z/q.yml", "b.yaml", "link.yaml"))}
    )
