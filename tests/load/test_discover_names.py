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


@pytest.mark.parametrize("root", ["entries", "./entries", "entries/", ".", "ABS"])
def test_the_paths_walked_are_the_paths_made_from_their_names(
    tmp_path: Path, root: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each `Path` a walk makes (its parts set at once, see `discover._child`)
    is `Path(str(path))` in every way the reader uses it: text, parts, name,
    parent, equality, hash, order, and joined further."""
    folder = tmp_path / "entries"
    for rel in ("a-c.yaml", "a/b.yaml", "a/z/q.yml", "b.yaml", "B.yaml", "é x.yaml"):
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text("x", encoding="utf-8")
    monkeypatch.chdir(folder if root == "." else tmp_path)
    given = Path(str(folder) if root == "ABS" else root)
    walked, _ = discover([given])
    assert len(walked) == 6
    for path in walked:
        plain = Path(str(path))
        assert str(path) == str(plain) == os.fspath(path) and repr(path) == repr(plain)
        assert path.parts == plain.parts and path.name == plain.name and path.suffix == plain.suffix
        assert path.parent == plain.parent and str(path.parent) == str(plain.parent)
        assert path == plain and hash(path) == hash(plain) and {path: 1}[plain] == 1
        assert str(path / "x") == str(plain / "x") and path.with_suffix(".y") == plain.with_suffix(".y")
        assert path.resolve() == plain.resolve() and path.is_file()
        assert path.relative_to(given) == plain.relative_to(given)
    assert walked == sorted(walked) == sorted(Path(str(p)) for p in walked)
