"""The pre-commit hook this repository offers (.pre-commit-hooks.yaml), and the
configuration docs/entry-format.md tells a digest repository to add."""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "entry-format.md").read_text(encoding="utf-8")


def _hooks() -> dict[str, dict]:
    return {hook["id"]: hook for hook in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())}


def _doc_block(containing: str) -> str:
    [block] = [b for b in re.findall(r"```yaml\n(.*?)```", DOC, re.DOTALL) if containing in b]
    return block


def test_the_hook_runs_check_on_yaml_files() -> None:
    hook = _hooks()["prdigest-check"]
    assert hook["language"] == "python"
    assert hook["files"] == r"\.ya?ml$"
    # pre-commit appends the files: `prdigest-tui check FILE...`, the installed script.
    assert shlex.split(hook["entry"]) == ["prdigest-tui", "check"]
    # The console script: tui.entry sends `check` (every command but `status`) on to tui.cli.
    assert 'prdigest-tui = "tui.entry:run"' in (ROOT / "pyproject.toml").read_text()
    for name, matches in [("a.yaml", True), ("entries/b.yml", True), ("a.yaml~", False), ("notes.md", False)]:
        assert bool(re.search(hook["files"], name)) is matches, name


def test_the_documented_config_uses_the_hook_on_entry_files_only() -> None:
    config = yaml.safe_load(_doc_block("repos:"))
    [repo] = config["repos"]
    assert set(repo) == {"repo", "rev", "hooks"}
    [hook] = repo["hooks"]
    assert hook["id"] in _hooks()
    for name, matches in [
        ("entries/a.yaml", True),
        ("entries/x/b.yml", True),
        (".github/workflows/ci.yml", False),
    ]:
        assert bool(re.search(hook["files"], name)) is matches, name


def test_the_docs_show_the_schema_line_and_the_command_that_finds_the_path() -> None:
    block = _doc_block("yaml-language-server")
    assert block.startswith("# yaml-language-server: $schema=/")
    assert block.split("\n")[0].endswith("/tui/schema/entry.schema.json")
    assert "prdigest-tui schema --path" in DOC


def test_the_manifest_is_valid_for_pre_commit_when_it_is_installed() -> None:
    """pre-commit is not a test dependency; where it is installed, its own check runs."""
    import subprocess

    pre_commit = shutil.which("pre-commit")
    if pre_commit is None:
        pytest.skip("pre-commit is not installed")
    result = subprocess.run(
        [pre_commit, "validate-manifest", str(ROOT / ".pre-commit-hooks.yaml")],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
