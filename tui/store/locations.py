"""Where things live on disk: config, state, UI choices, cache and the bundled digest.

One module so `--state`, XDG variables and packaging are decided in one place.
"""

from __future__ import annotations

from pathlib import Path

APP_NAME = "prdigest-tui"


def state_file() -> Path:
    """The default state file; honours XDG_STATE_HOME through platformdirs."""
    import platformdirs

    return platformdirs.user_state_path(APP_NAME) / "state.json"


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
    import platformdirs

    return platformdirs.user_config_path(APP_NAME) / "config.yaml"


def ui_file() -> Path:
    """Choices made in the UI (the theme), kept apart from the user's config
    so that file is never rewritten; honours XDG_STATE_HOME."""
    import platformdirs

    return platformdirs.user_state_path(APP_NAME) / "ui.json"


def cache_file() -> Path:
    """The parse cache; honours XDG_CACHE_HOME through platformdirs."""
    import platformdirs

    return platformdirs.user_cache_path(APP_NAME) / "parse-cache.marshal"


def known_file() -> Path:
    """The review keys known at the last run (for `notify:`); in the cache folder."""
    import platformdirs

    return platformdirs.user_cache_path(APP_NAME) / "known-reviews.marshal"


def clone_cache_dir() -> Path:
    """What is learnt from the user's clones (PR -> commit, per HEAD); honours
    XDG_CACHE_HOME. Anything in it can be deleted."""
    import platformdirs

    return platformdirs.user_cache_path(APP_NAME) / "clones"


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
