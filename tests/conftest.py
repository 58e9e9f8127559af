"""Shared fixtures. Every test runs with its own XDG folders and HOME under tmp_path,
so no test reads or writes the real user's state, cache or config."""

from __future__ import annotations

from pathlib import Path

import pytest

XDG_VARS = ("XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME")


@pytest.fixture(autouse=True)
def isolated_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    """Point HOME and the XDG base folders at fresh folders under tmp_path."""
    dirs = {name: tmp_path / "xdg" / name.lower() for name in XDG_VARS}
    dirs["HOME"] = tmp_path / "home"
    for name, path in dirs.items():
        path.mkdir(parents=True)
        monkeypatch.setenv(name, str(path))
    return dirs


# App fixtures go below.


@pytest.fixture(autouse=True)
def english_words():
    """Each test starts and ends with the UI in English (a test may switch to Chinese)."""
    from tui import i18n

    i18n.choose("en")
    yield
    i18n.choose("en")


@pytest.fixture
def installed_runtime():
    """The process-wide tweaks of `tui.runtime` in place, as `tui.cli.run` runs
    every command (input holds the collector for its frame only then)."""
    from tui import runtime

    with runtime.installed():
        yield
