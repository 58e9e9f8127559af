"""Resolving refs in a real git repository built in tmp_path (tui.clone)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.clone_repo import REPO, build, commit, git
from tui.clone import content
from tui.clone.find import Clone, find_clone, url_names
from tui.clone.prs import PrCommits
from tui.clone.resolve import Resolver, ReviewRefs
from tui.core.model import Item, Location, Review
from tui.store import locations


@pytest.fixture
def repo(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    root = tmp_path / "widgets"
    return root, build(root)


def review(*items: tuple[str, tuple[str, ...]], pr: int | None = None, summary: str = "s") -> Review:
    return Review(
        title="a review",
        repo=REPO,
        verdict="deep",
        summary=summary,
        tags=(),
        location=Location(Path("r.yaml"), 1, 1),
        pr=pr,
        focus=tuple(Item("focus", text, item_refs) for text, item_refs in items),
    )


def resolve(root: Path, *items: tuple[str, tuple[str, ...]], pr: int | None = None) -> ReviewRefs:
    clone = find_clone(REPO, repo_dir=root).clone
    assert clone is not None
    return Resolver(clone, PrCommits(clone, locations.clone_cache_dir())).resolve(review(*items, pr=pr))


def by_text(result: ReviewRefs) -> dict[str, tuple[str, str | None, int | None, list[str]]]:
    return {r.ref.text: (r.status, r.path, r.line, [str(c) for c in r.candidates]) for r in result.unique()}


def test_paths_files_modules_and_symbols(repo: tuple[Path, dict[str, str]]) -> None:
    root, _ = repo
    result = resolve(
        root,
        ("read `pkg/engine.py` then `pkg/engine.py:12` and `pkg/`", ()),
        ("`engine.py`, `pkg.engine`, `pkg.engine.helper`", ()),
        ("`helper()`, `LIMIT`, `Engine`, `Engine.start`, `Engine.speed`, `Other.start`", ()),
        ("`nothing_like_this`, `len + 1`, `None`, `>=`", ()),
    )
    assert by_text(result) == {
        "pkg/engine.py": ("found", "pkg/engine.py", None, []),
        "pkg/engine.py:12": ("found", "pkg/engine.py", 12, []),
        "pkg/": ("found", "pkg", None, []),
        "engine.py": ("found", "pkg/engine.py", None, []),
        "pkg.engine": ("found", "pkg/engine.py", None, []),
        "pkg.engine.helper": ("found", "pkg/engine.py", 19, []),
        "helper()": ("found", "pkg/engine.py", 19, []),
        "LIMIT": ("found", "pkg/engine.py", 3, []),
        # docs/engine.md has a `class Engine:` line too: docs come after code
        "Engine": ("found", "pkg/engine.py", 6, []),
        "Engine.start": ("found", "pkg/engine.py", 12, []),
        "Engine.speed": ("found", "pkg/engine.py", 10, []),
        "Other.start": ("found", "pkg/other.py", 2, []),
        "nothing_like_this": ("missing", None, None, []),
        "len + 1": ("not-a-ref", None, None, []),
        "None": ("not-a-ref", None, None, []),
        ">=": ("not-a-ref", None, None, []),
    }
    assert result.note is None and result.pr_commit is None


def test_ambiguity_is_settled_by_the_pr_then_the_item_then_non_tests(
    repo: tuple[Path, dict[str, str]],
) -> None:
    root, _ = repo
    plain = resolve(root, ("`scheduler.py` and `start`", ()))
    assert by_text(plain)["scheduler.py"] == (
        "ambiguous",
        None,
        None,
        ["pkg/core/scheduler.py", "pkg/sched/scheduler.py"],
    )
    assert by_text(plain)["start"] == ("ambiguous", None, None, ["pkg/engine.py:12", "pkg/other.py:2"])
    # PR #10 added pkg/sched/scheduler.py: its scheduler.py is that one
    with_pr = resolve(root, ("`scheduler.py`", ()), pr=10)
    assert by_text(with_pr)["scheduler.py"] == ("found", "pkg/sched/scheduler.py", None, [])
    assert with_pr.pr_commit == git(root, "rev-parse", "HEAD~2").strip()
    # the item's other ref names pkg/other.py: its `start` is Other.start
    same_item = resolve(root, ("`start` in `pkg/other.py`", ()), ("`start` again", ()))
    assert [(r.use.index, r.path, r.line) for r in same_item.resolutions if r.ref.text == "start"] == [
        (0, "pkg/other.py", 2),
        (1, "pkg/other.py", 2),  # then the review's other refs
    ]
    # a test file and a source file define `test_start`/`start`... tests come last
    (root / "tests" / "helpers.py").write_text("def helper():\n    pass\n", encoding="utf-8")
    git(root, "add", "--", "tests/helpers.py")
    assert by_text(resolve(root, ("`helper`", ())))["helper"][:3] == ("found", "pkg/engine.py", 19)


def test_what_the_pr_deleted_resolves_in_its_parent(repo: tuple[Path, dict[str, str]]) -> None:
    root, commits = repo
    result = resolve(root, ("`legacy.py`, `pkg/legacy.py`, `OldBatch.size`, `old_copy()`", ()), pr=20)
    parent = git(root, "rev-parse", f"{commits['20']}^").strip()
    assert by_text(result) == {
        "legacy.py": ("found", "pkg/legacy.py", None, []),
        "pkg/legacy.py": ("found", "pkg/legacy.py", None, []),
        "OldBatch.size": ("found", "pkg/legacy.py", 2, []),
        "old_copy()": ("found", "pkg/legacy.py", 6, []),
    }
    assert {r.commit for r in result.resolutions} == {parent}
    assert content.file_text(Clone(root.resolve()), "pkg/legacy.py", parent).startswith("class OldBatch")
    # without the PR, nothing says where to look
    assert {r.status for r in resolve(root, ("`old_copy()`", ())).resolutions} == {"missing"}


def test_a_pr_missing_from_the_clone_says_so(repo: tuple[Path, dict[str, str]]) -> None:
    root, _ = repo
    result = resolve(root, ("`helper()`", ()), pr=55358)
    assert result.note == "PR #55358 is not in your clone: git fetch?"
    assert result.pr_commit is None
    assert by_text(result)["helper()"][:2] == ("found", "pkg/engine.py")  # the work tree still answers


def test_hostile_refs_find_nothing_and_reach_no_option(
    repo: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    root, _ = repo
    outside = tmp_path / "secret.py"
    outside.write_text("def helper():\n    pass\n", encoding="utf-8")
    os.symlink(outside, root / "pkg" / "evil.py")
    git(root, "add", "--", "pkg/evil.py")
    target = tmp_path / "x"
    other = tmp_path / "o"  # what `-O` would write to, were it read as an option
    hostile = (
        f"--output={target}",
        f"-O{other}",
        "../secret.py",
        str(outside),
        "pkg/evil.py",
        "evil.py",
        ":(glob)**",
        "pkg/*.py",
        "$(touch x)",
        "a\nb",
    )
    result = resolve(root, ("text", hostile))
    assert {r.ref.text: r.status for r in result.unique()} == {
        f"--output={target}": "not-a-ref",
        f"-O{other}": "not-a-ref",
        "../secret.py": "missing",
        str(outside): "missing",
        "pkg/evil.py": "missing",  # tracked, but it leads out of the clone
        "evil.py": "missing",
        ":(glob)**": "not-a-ref",
        "pkg/*.py": "not-a-ref",
        "$(touch x)": "not-a-ref",
        "a\nb": "not-a-ref",
    }
    assert not target.exists() and not other.exists() and not (root / "x").exists()
    clone = Clone(root.resolve())
    for path in ("../secret.py", "pkg/evil.py", "/etc/passwd"):
        with pytest.raises(content.RefusedPath):
            content.file_text(clone, path)


def test_without_pcre_the_results_are_the_same(repo: tuple[Path, dict[str, str]]) -> None:
    root, _ = repo
    clone = Clone(root.resolve())
    items = (("`helper()`, `Engine.start`, `LIMIT`, `start`, `Engine.speed`", ()),)
    fast = Resolver(clone)
    words = Resolver(clone)
    words._perl = False
    assert by_text(fast.resolve(review(*items))) == by_text(words.resolve(review(*items)))


def test_pr_commits_are_cached_per_head(repo: tuple[Path, dict[str, str]]) -> None:
    root, commits = repo
    clone = Clone(root.resolve())
    prs = PrCommits(clone, locations.clone_cache_dir())
    assert prs.commit(10) == commits["10"]
    assert prs.commit(29) is None  # only named inside a revert's subject
    assert prs.commit(30) == commits["30"]
    cached = json.loads(next(locations.clone_cache_dir().glob("*.json")).read_text())
    assert cached["head"] == commits["30"] and cached["prs"]["20"] == commits["20"]
    # another process reads the cache; a new commit is scanned from the cached HEAD on
    later = commit(root, {"pkg/new.py": "x = 1\n"}, "Add new (#40)")
    again = PrCommits(clone, locations.clone_cache_dir())
    assert again.commit(40) == later and again.commit(10) == commits["10"]
    assert [c.path for c in again.changed(commits["20"])] == ["pkg/legacy.py"]


def test_file_text_and_diffs(repo: tuple[Path, dict[str, str]]) -> None:
    root, commits = repo
    clone = Clone(root.resolve())
    assert content.file_text(clone, "pkg/other.py").startswith("class Other")
    whole = content.diff_by_file(clone, commits["10"])
    assert [part.path for part in whole] == ["pkg/engine.py", "pkg/sched/scheduler.py"]
    assert "+def tune() -> None:" in content.file_diff(clone, commits["10"], "pkg/engine.py")
    assert content.file_diff(clone, commits["10"], "pkg/other.py") == ""
    deleted = content.file_diff(clone, commits["20"], "pkg/legacy.py")
    assert "deleted file mode" in deleted and "-class OldBatch:" in deleted
    assert content.absolute_path(clone, "pkg/engine.py") == str(root.resolve() / "pkg/engine.py")


def test_finding_the_clone(repo: tuple[Path, dict[str, str]], tmp_path: Path) -> None:
    root, _ = repo
    inside = root / "pkg"
    assert find_clone(REPO, cwd=inside).clone == Clone(root.resolve())
    assert find_clone("acme/other", cwd=inside).clone is None
    note = find_clone("acme/other", cwd=inside, config_path=Path("/c/config.yaml")).note
    assert note == "No clone of acme/other: map it under `repos:` in /c/config.yaml, or pass --repo-dir DIR"
    assert find_clone("acme/other", configured={"acme/other": root}, cwd=tmp_path).clone is not None
    assert find_clone(REPO, repo_dir=tmp_path).note == f"{tmp_path} is not a git work tree"
    for url in (
        "https://github.com/acme/widgets",
        "https://github.com/acme/widgets.git/",
        "git@github.com:ACME/widgets.git",
        "ssh://git@github.com/acme/widgets",
    ):
        assert url_names(url, REPO), url
    for url in ("https://github.com/acme/widgets-fork", "https://github.com/notacme/widgets", "/work/x"):
        assert not url_names(url, REPO), url
