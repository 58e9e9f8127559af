"""`status`'s copy of what it reads of config.yaml (`tui.store.config_cache`):
reused while the file is unchanged, never once it has changed."""

from __future__ import annotations

import marshal
import os
import time
from pathlib import Path

import pytest

from tests.app_helpers import write_review
from tests.cli_helpers import run_probe
from tui.store import config, config_cache, kept_copy

CONFIG = "views:\n  rocm: {tags: [rocm], verdict: [deep], unread: true}\n  b: {repos: [o/r]}\nmute: [ci]\nstate: ~/marks.json\n"


def aged(path: Path, text: str, racy_ns: int = kept_copy.RACY_NS) -> Path:
    """`text` at `path`, written long enough ago for its copy to be kept."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    time.sleep(racy_ns / 1e9 + 0.05)
    return path


@pytest.fixture
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    """In this process, a config is old enough to keep at once (no test waits
    the two seconds; `test_a_config_just_written_is_not_kept` keeps the rule)."""
    monkeypatch.setattr(kept_copy, "RACY_NS", 0)


def as_read(path: Path) -> config_cache.Settings:
    found = config.load(path, keys=False)
    return config_cache.Settings(found.views, found.mute, found.state)


def test_the_copy_answers_as_the_file_does_and_is_kept(
    quick: None, tmp_path: Path, isolated_dirs: dict[str, Path]
) -> None:
    path = aged(tmp_path / "config.yaml", CONFIG, 0)
    copy = tmp_path / "cache" / "copy.marshal"
    first = config_cache.settings(path, copy)
    assert first == as_read(path) and first.state == str(isolated_dirs["HOME"] / "marks.json")
    assert copy.exists()
    assert config_cache.settings(path, copy) == first


def test_an_edit_is_seen_even_at_the_same_size_and_mtime(
    quick: None, tmp_path: Path, isolated_dirs: dict[str, Path]
) -> None:
    path = aged(tmp_path / "config.yaml", CONFIG, 0)
    copy = tmp_path / "copy.marshal"
    config_cache.settings(path, copy)
    info = path.stat()
    path.write_text(CONFIG.replace("[ci]", "[cx]"), encoding="utf-8")  # same size
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))  # and the mtime put back
    assert config_cache.settings(path, copy).mute == frozenset({"cx"})


def test_another_home_expands_state_again(
    quick: None, tmp_path: Path, isolated_dirs: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = aged(tmp_path / "config.yaml", CONFIG, 0)
    copy = tmp_path / "copy.marshal"
    config_cache.settings(path, copy)
    monkeypatch.setenv("HOME", str(tmp_path / "elsewhere"))
    assert config_cache.settings(path, copy).state == str(tmp_path / "elsewhere" / "marks.json")


def test_a_config_just_written_is_not_kept(tmp_path: Path, isolated_dirs: dict[str, Path]) -> None:
    path = tmp_path / "config.yaml"
    path.write_text(CONFIG, encoding="utf-8")
    copy = tmp_path / "copy.marshal"
    assert config_cache.settings(path, copy) == as_read(path)
    assert not copy.exists()


@pytest.mark.parametrize(
    "content",
    [b"", b"garbage", marshal.dumps(("other", 1)), marshal.dumps((("x",), (("v",),), frozenset(), None))],
    ids=["empty", "garbage", "other", "bad-views"],
)
def test_a_damaged_copy_is_a_miss(
    quick: None, tmp_path: Path, isolated_dirs: dict[str, Path], content: bytes
) -> None:
    path = aged(tmp_path / "config.yaml", CONFIG, 0)
    copy = tmp_path / "copy.marshal"
    config_cache.settings(path, copy)
    key = marshal.loads(copy.read_bytes())[0]
    for bad in (content, marshal.dumps((key, (("v", 1, 2, 3, 4, 5, 6),), frozenset(), None))):
        copy.write_bytes(bad)
        assert config_cache.settings(path, copy) == as_read(path)


def test_no_file_is_no_settings(tmp_path: Path) -> None:
    assert config_cache.settings(tmp_path / "none.yaml", tmp_path / "copy.marshal") == config_cache.NONE
    assert not (tmp_path / "copy.marshal").exists()


def test_a_warm_status_with_a_config_reads_no_yaml(tmp_path: Path, isolated_dirs: dict[str, Path]) -> None:
    folder = tmp_path / "entries"
    folder.mkdir()
    write_review(folder / "a.yaml", "Alpha", tags="[rocm]", extra="pr: 1\n")
    write_review(folder / "b.yaml", "Beta", tags="[ci]", extra="pr: 2\n")
    aged(
        isolated_dirs["XDG_CONFIG_HOME"] / "prdigest-tui" / "config.yaml",
        "views:\n  r: {tags: [rocm]}\nmute: [ci]\n",
    )
    argv = ["prdigest-tui", "status", "--lang", "en", str(folder), "--format", "{total} {view:r}"]
    probe = (
        "import sys\n"
        f"sys.argv = {argv!r}\n"
        "import tui.entry\n"
        "from tui.status_command import main\n"
        "main(sys.argv[2:])\n"
        "print(sorted(m for m in sys.modules if m == 'yaml'))\n"
    )
    runs = [run_probe(probe) for _ in range(2)]
    assert [run.stdout.splitlines() for run in runs] == [["1 1", "['yaml']"], ["1 1", "[]"]]
