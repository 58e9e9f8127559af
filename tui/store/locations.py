"""Where things live on disk: config, state, UI choices, cache and the bundled digest.

One module so `--state`, XDG variables and packaging are decided in one place.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path

APP_NAME = "prdigest-tui"


def _user_dir(variable: str, default: str, kind: str) -> Path:
    """platformdirs' `user_<kind>_path(APP_NAME)`, without importing it (~10 ms
    of every `status` call) where its answer is plain: on Linux, not an
    Android app, with the XDG variable an absolute path (or unset, and HOME
    absolute), it is `$VARIABLE/prdigest-tui` or `~/<default>/prdigest-tui`.
    Anything else (macOS, Windows, a relative HOME) asks platformdirs."""
    if sys.platform == "linux" and not hasattr(sys, "getandroidapilevel"):
        env = os.environ
        if env.get("ANDROID_DATA") != "/data" or env.get("ANDROID_ROOT") != "/system":
            base = env.get(variable, "")
            if base.startswith("/"):
                return Path(os.path.join(base, APP_NAME))
            home = env.get("HOME")
            if home is not None and home.startswith("/"):
                return Path(os.path.join((home.rstrip("/") + "/" + default) or "/", APP_NAME))
    import platformdirs

    user_path: Callable[[str], Path] = getattr(platformdirs, f"user_{kind}_path")
    return user_path(APP_NAME)


def _state_dir() -> Path:
    return _user_dir("XDG_STATE_HOME", ".local/state", "state")


def _cache_dir() -> Path:
    return _user_dir("XDG_CACHE_HOME", ".cache", "cache")


def _config_dir() -> Path:
    return _user_dir("XDG_CONFIG_HOME", ".config", "config")


def state_file() -> Path:
    """The default state file; honours XDG_STATE_HOME (platformdirs' rules)."""
    return _state_dir() / "state.json"


def state_place(raw: str | Path) -> tuple[Path, bool]:
    """Where `--state` or `state:` says marks are kept, and whether it is a
    shared state folder: a path that ends in `/` or is a folder now."""
    text = str(raw)
    path = Path(text)
    return path, text.endswith(("/", "\\")) or path.is_dir()


def machine_file() -> Path:
    """This machine's id for a shared state folder (`tui.store.machine`); kept locally."""
    return state_file().parent / "machine.json"


def locks_dir() -> Path:
    """Locks of shared state folders' files, taken by the readers on this machine only."""
    return state_file().parent / "locks"


def config_file() -> Path:
    """The user's config (`keymap:`); honours XDG_CONFIG_HOME. Read, never written."""
    return _config_dir() / "config.yaml"


def ui_file() -> Path:
    """Choices made in the UI (the theme), kept apart from the user's config
    so that file is never rewritten; honours XDG_STATE_HOME."""
    return _state_dir() / "ui.json"


def cache_file() -> Path:
    """The parse cache; honours XDG_CACHE_HOME (platformdirs' rules)."""
    return _cache_dir() / "parse-cache.marshal"


def config_copy_file() -> Path:
    """What `status` read of the config, kept while the config is unchanged
    (`tui.store.config_cache`); in the cache folder."""
    return _cache_dir() / "status-config.marshal"


def status_summary_file() -> Path:
    """What `status` needs of the entry files (`tui.load.status_summary`); in the cache folder."""
    return _cache_dir() / "status-summary.marshal"


def marks_copy_file() -> Path:
    """What `status` needs of the state file (`tui.store.marks_copy`); in the cache folder."""
    return _cache_dir() / "status-marks.marshal"


def style_copy_file() -> Path:
    """The stylesheet's rules as the last start parsed them (`tui.store.style_copy`); in the cache folder."""
    return _cache_dir() / "stylesheet.pickle"


def shipped_style_file() -> Path:
    """The stylesheet's rules as the reader's first start parses them, shipped
    in the package (`tui.store.style_copy`, written by `python -m tui.ui.ship_styles`)."""
    return Path(__file__).resolve().parent.parent / "shipped_stylesheet.pickle"


def state_copy_file(state: Path) -> Path:
    """A copy of the state file `state`'s marks, read in its place while it is
    unchanged (`tui.store.state_copy`); in the cache folder, one per state file."""
    name = _short_digest(state)
    return _cache_dir() / "state-copies" / f"{name}.marshal"


def _short_digest(path: Path) -> str:
    """A file name for `path`'s own copy. `_blake2` is what `hashlib.blake2b`
    is, without `hashlib`'s import of OpenSSL (~3 ms on the reader's way to
    its first frame, which opens the state file's copy)."""
    try:
        from _blake2 import blake2b
    except ImportError:  # a Python built without it
        from hashlib import blake2b
    return blake2b(os.fsencode(os.path.abspath(path)), digest_size=8).hexdigest()


def shared_cache_file(folder: Path) -> Path:
    """What a shared state folder's files merged to at the last start
    (`tui.store.shared_cache`): this machine's, in its cache folder, one per folder."""
    name = _short_digest(folder)
    return _cache_dir() / "shared-marks" / f"{name}.marshal"


def known_file() -> Path:
    """The review keys known at the last run (for `notify:`); in the cache folder."""
    return _cache_dir() / "known-reviews.marshal"


def clone_cache_dir() -> Path:
    """What is learnt from the user's clones (PR -> commit, per HEAD); honours
    XDG_CACHE_HOME. Anything in it can be deleted."""
    return _cache_dir() / "clones"


def bundled_entries() -> Path:
    """The digest shipped with the package.

    An installed wheel carries it as `tui/entries`; a source checkout or an
    editable install reads the repository's `entries/` folder.
    """
    packaged = Path(__file__).resolve().parent.parent / "entries"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parent.parent.parent / "entries"


def default_paths(cwd: Path | None = None) -> list[Path]:
    """`./entries` when the current folder has one, else the bundled digest."""
    local = (cwd or Path.cwd()) / "entries"
    return [local if local.is_dir() else bundled_entries()]
