"""`prdigest-tui export` and `locate` as real subprocesses, without Textual."""

from __future__ import annotations

import json
import os
from pathlib import Path

from tests.cli_helpers import run_probe
from tests.cli_helpers import run_tui as run
from tui.core.model import Library
from tui.load.parse import load_paths
from tui.store.locations import bundled_entries
from tui.store.state import ReadState


def library() -> Library:
    result = load_paths([bundled_entries()])
    return Library.build(result.files, result.problems)


def marks(path: Path) -> tuple[str, str]:
    """Mark the first review read and one item of the second checked; return their keys."""
    lib = library()
    first, second = lib.reviews[0], lib.reviews[1]
    state = ReadState(path)
    state.set_read(first.key, True)
    item = second.checklist[0]
    state.set_checked(second.key, item.key, True, item.digest)
    action = second.actions[0]
    state.set_checked(second.key, action.key, True, action.digest)
    state.save()
    return first.key, second.key


def test_export_json_lists_every_review_with_what_is_left(tmp_path: Path) -> None:
    state = tmp_path / "state.json"
    marks(state)
    result = run("export", "--format", "json", "--state", str(state), "entries")
    assert result.returncode == 0, result.stderr
    entries = json.loads(result.stdout)
    lib = library()
    assert isinstance(entries, list)
    assert [e["title"] for e in entries] == [r.title for r in lib.reviews]  # reading order
    first, second = entries[0], entries[1]
    assert first["read"] is True and second["read"] is False
    assert first["verdict"] == "deep" and first["tags"] == list(lib.reviews[0].tags)
    assert second["checked"] == 1 and second["total"] == 2
    assert [u["text"] for u in second["unchecked"]] == [lib.reviews[1].checklist[1].text]
    assert second["open"] == []  # its one action was checked in the to-do view
    assert {u["section"] for e in entries for u in e["unchecked"]} <= {"focus", "read_order"}
    assert {"title", "verdict", "tags", "url", "unchecked", "open", "read"} <= set(first)


def test_export_filters_by_unread_and_tag(tmp_path: Path) -> None:
    state = tmp_path / "state.json"
    marks(state)
    result = run("export", "--format", "json", "--unread", "--tag", "rocm", "--state", str(state), "entries")
    assert result.returncode == 0, result.stderr
    titles = [e["title"] for e in json.loads(result.stdout)]
    rocm = [r.title for r in library().tags["rocm"]]
    assert titles == rocm[1:]  # the first rocm review is the one marked read
    result = run("export", "--tag", "#rocm", "--state", str(state), "entries")
    assert result.returncode == 0
    result = run("export", "--tag", "nope", "--state", str(state), "entries")
    assert result.returncode == 2
    assert "No tag `nope`" in result.stderr and "rocm" in result.stderr
    assert result.stdout == ""


def test_export_markdown_is_a_readable_checklist(tmp_path: Path) -> None:
    state = tmp_path / "state.json"
    marks(state)
    result = run("export", "--state", str(state), "entries")
    assert result.returncode == 0, result.stderr
    text = result.stdout
    lib = library()
    assert text.startswith("# Reading list — vllm-project/vllm\n\n8 reviews, 7 unread\n")
    assert f"## ✓ {lib.reviews[0].title}\n" in text
    assert f"## {lib.reviews[1].title}\n" in text
    assert "Deep read · #rocm #kernels #refactor #api-change · read · 0/3 checked" in text
    assert f"- [ ] {lib.reviews[1].checklist[1].text}" in text
    assert f"- [ ] {lib.reviews[1].checklist[0].text}" not in text
    assert "Open actions and items:" in text


def test_export_in_chinese_and_with_the_default_state_file() -> None:
    result = run("export", "entries", LANG="zh_CN.UTF-8", LC_ALL="")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("# 阅读清单 — vllm-project/vllm\n\n8 篇评审，8 篇未读\n")
    assert "值得精读 · #rocm" in result.stdout
    result = run("export", "entries", "--lang", "en", LANG="zh_CN.UTF-8")
    assert result.stdout.startswith("# Reading list")


def test_export_urls_come_from_the_pr(tmp_path: Path) -> None:
    folder = tmp_path / "e"
    folder.mkdir()
    (folder / "a.yaml").write_text(
        "title: t\nrepo: o/r\npr: 7\ntags: [a]\nverdict: deep\nsummary: s\n", encoding="utf-8"
    )
    result = run("export", "--format", "json", str(folder))
    assert json.loads(result.stdout)[0]["url"] == "https://github.com/o/r/pull/7"
    result = run("export", str(folder))
    assert "<https://github.com/o/r/pull/7>" in result.stdout


def test_locate_prints_the_paths(tmp_path: Path) -> None:
    result = run("locate")
    assert result.returncode == 0, result.stderr
    lines = dict(line.split(None, 1) for line in result.stdout.splitlines())
    xdg = {name: os.environ[name] for name in ("XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME")}
    assert lines["config:"] == f"{xdg['XDG_CONFIG_HOME']}/prdigest-tui/config.yaml"
    assert lines["state:"] == f"{xdg['XDG_STATE_HOME']}/prdigest-tui/state.json"
    assert lines["ui:"] == f"{xdg['XDG_STATE_HOME']}/prdigest-tui/ui.json"
    assert lines["cache:"].startswith(f"{xdg['XDG_CACHE_HOME']}/prdigest-tui/")
    assert run("locate", "state").stdout.strip() == lines["state:"]
    assert not Path(lines["config:"]).exists()  # locating creates nothing


def test_export_and_locate_do_not_import_textual(tmp_path: Path) -> None:
    probe = (
        "import sys, io, contextlib\n"
        "from tui.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(sys.argv[1:])\n"
        "bad = sorted(m for m in sys.modules if m == 'textual' or m.startswith('textual.'))\n"
        "print(','.join(bad) or 'clean')\n"
    )
    for args in (["export", "entries"], ["export", "--format", "json", "entries"], ["locate"]):
        result = run_probe(probe, *args)
        assert result.returncode == 0, result.stderr
        assert result.stdout.strip() == "clean", (args, result.stdout)
