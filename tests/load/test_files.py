"""Finding entry files with `os.scandir` finds what `os.walk` found.

`tui.files._walk` reads link and folder types from the directory listing
instead of a `stat` per file; this checks it against the `os.walk` version it
replaced, on a tree with every kind of entry the walk treats specially.
(An unreadable folder: tests/hostile/test_hostile_loader.py, as a user without root.)
"""

from __future__ import annotations

import os
from pathlib import Path

from tui.core.text import unsafe_name
from tui.load.discover import discover, is_entry_file


def walk_reference(folder: Path) -> tuple[list[Path], list[str]]:
    """The walk before os.scandir: os.walk, os.path.islink per file."""
    real_folder = os.path.realpath(folder)
    found: list[Path] = []
    problems: list[str] = []

    def unreadable(error: OSError) -> None:
        problems.append(f"{error.filename}: cannot read folder")

    for dirpath, dirnames, filenames in os.walk(folder, onerror=unreadable):
        keep = []
        for name in sorted(dirnames):
            if name.startswith("."):
                continue
            if unsafe_name(name):
                problems.append(f"{dirpath}: folder {name!r}")
                continue
            keep.append(name)
        dirnames[:] = keep
        for name in sorted(filenames):
            path = Path(dirpath, name)
            if not is_entry_file(path):
                continue
            if unsafe_name(name):
                problems.append(f"{dirpath}: file {name!r}")
                continue
            real = os.path.realpath(path)
            inside = real == real_folder or real.startswith(real_folder.rstrip(os.sep) + os.sep)
            if os.path.islink(path) and not inside:
                problems.append(f"{path}: outside")
                continue
            found.append(path)
    return sorted(found), problems


def tricky_tree(tmp_path: Path) -> Path:
    root = tmp_path / "digest"
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.yaml").write_text("title: s\n")
    (outside / "sub").mkdir()
    (outside / "sub" / "far.yaml").write_text("title: f\n")
    for folder in ("a", "a/b", "a/b/c", "z", ".hidden", "with-dash", "with"):
        (root / folder).mkdir(parents=True, exist_ok=True)
    for name in (
        "top.yaml",
        "a/one.yml",
        "a/b/two.yaml",
        "a/b/c/three.yaml",
        "z/last.yaml",
        ".hidden/no.yaml",
        "with-dash/x.yaml",
        "with/y.yaml",
        "a/.dot.yaml",
        "a/#autosave.yaml#",
        "a/backup.yaml~",
        "a/notes.txt",
        "a/bad\x1bname.yaml",
    ):
        (root / name).write_text("title: t\n")
    (root / "bad\x07folder").mkdir()
    (root / "bad\x07folder" / "in.yaml").write_text("title: t\n")
    (root / "a" / "inside-link.yaml").symlink_to(root / "top.yaml")
    (root / "a" / "outside-link.yaml").symlink_to(outside / "secret.yaml")
    (root / "a" / "broken.yaml").symlink_to(root / "nowhere.yaml")
    (root / "link-to-folder").symlink_to(outside / "sub")
    (root / "link-to-inner").symlink_to(root / "a" / "b")
    (root / "folder.yaml").mkdir()  # a folder with an entry file's name
    (root / "folder.yaml" / "deep.yaml").write_text("title: t\n")
    return root


def problem_text(problems: list) -> list[str]:
    return sorted(str(p.location.path) for p in problems)


def test_scandir_walk_finds_what_os_walk_found(tmp_path: Path) -> None:
    root = tricky_tree(tmp_path)
    found, problems = discover([root])
    expected, expected_problems = walk_reference(root)
    assert found == expected
    assert len(problems) == len(expected_problems)
    assert root / "a" / "inside-link.yaml" in found
    assert root / "folder.yaml" / "deep.yaml" in found
    assert root / "a" / "outside-link.yaml" not in found
    assert not any("link-to-folder" in str(p) or "link-to-inner" in str(p) for p in found)
    assert not any(".hidden" in str(p) for p in found)
