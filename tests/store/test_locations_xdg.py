"""The XDG folders `tui.store.locations` works out without platformdirs are
platformdirs' own, whatever the environment says."""

from __future__ import annotations

import itertools

import platformdirs
import pytest

from tui.store import locations

VALUES = (None, "", "relative/dir", "/abs/dir", "/abs/dir/", "/")
HOMES = (None, "", "relative-home", "/home/someone", "/home/someone/", "/")


@pytest.mark.parametrize(("xdg", "home"), list(itertools.product(VALUES, HOMES)))
def test_same_paths_as_platformdirs(
    monkeypatch: pytest.MonkeyPatch, xdg: str | None, home: str | None
) -> None:
    for name in ("XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME"):
        if xdg is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, xdg)
    if home is None:
        monkeypatch.delenv("HOME", raising=False)
    else:
        monkeypatch.setenv("HOME", home)
    app = locations.APP_NAME
    expected = {
        "state": platformdirs.user_state_path(app) / "state.json",
        "ui": platformdirs.user_state_path(app) / "ui.json",
        "config": platformdirs.user_config_path(app) / "config.yaml",
        "cache": platformdirs.user_cache_path(app) / "parse-cache.marshal",
        "known": platformdirs.user_cache_path(app) / "known-reviews.marshal",
        "clones": platformdirs.user_cache_path(app) / "clones",
    }
    got = {
        "state": locations.state_file(),
        "ui": locations.ui_file(),
        "config": locations.config_file(),
        "cache": locations.cache_file(),
        "known": locations.known_file(),
        "clones": locations.clone_cache_dir(),
    }
    assert got == expected
    assert {k: str(v) for k, v in got.items()} == {k: str(v) for k, v in expected.items()}


def test_status_imports_neither_platformdirs_nor_dataclasses(tmp_path) -> None:
    """Each costs every `status` call (a status bar's, every few seconds) ~5-10 ms."""
    import subprocess
    import sys

    (tmp_path / "e").mkdir()
    code = (
        "import sys; from tui.cli import main; main(['status', sys.argv[1]]);"
        "print(sorted(m for m in ('platformdirs', 'dataclasses') if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path / "e")], capture_output=True, text=True, check=True
    )
    assert done.stdout.splitlines()[-1] == "[]"
