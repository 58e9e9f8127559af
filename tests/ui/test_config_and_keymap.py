"""Keys remapped by binding id from config.yaml; a bad config is reported, never fatal."""

from __future__ import annotations

from pathlib import Path

from tests.app_helpers import make_app, screen_text, toasts
from tui.core.model import FileUpdate
from tui.load.parse import load_file
from tui.store import config, locations
from tui.store.locations import bundled_entries
from tui.ui.app import PrDigestApp
from tui.ui.keymap import valid_key
from tui.ui.widgets.review_view import ReviewView


def app_with_config(tmp_path: Path, text: str | bytes) -> PrDigestApp:
    path = locations.config_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return PrDigestApp([bundled_entries()], tmp_path / "state.json", config_path=path)


def test_the_config_file_honours_xdg_config_home(isolated_dirs: dict[str, Path]) -> None:
    assert locations.config_file() == isolated_dirs["XDG_CONFIG_HOME"] / "prdigest-tui" / "config.yaml"


async def test_keymap_remaps_keys_by_binding_id(tmp_path: Path) -> None:
    app = app_with_config(
        tmp_path,
        "keymap:\n  review.read: m\n  filter.verdict: ctrl+v,V\n  review.toggle: x\n  filter.clear: ctrl+x\n",
    )
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await pilot.pause()
        assert not toasts(app)
        key = app.reader.current_key
        await pilot.press("r")  # no longer bound
        assert not app.reader.state.is_read(key)
        await pilot.press("m")
        assert app.reader.state.is_read(key)
        await pilot.press("V")
        assert app.reader.filters.verdict == "deep"
        await pilot.press("ctrl+v")
        assert app.reader.filters.verdict == "quick"
        assert "ctrl+x clears" in screen_text(app).replace("^x", "ctrl+x")
        await pilot.press("ctrl+x")
        assert app.reader.filters.verdict is None
        await pilot.press("enter")
        await pilot.pause()
        view = app.query_one(ReviewView)
        await pilot.press("x")  # a widget's binding, remapped
        assert view.checklist[0].key in app.reader.state.checked(app.reader.current_key)
        text = screen_text(app)
        assert "m Read" in text  # the footer shows the new key


async def test_a_broken_config_is_reported_and_the_app_runs(tmp_path: Path) -> None:
    app = app_with_config(tmp_path, "keymap:\n  review.read: [m\n")
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await pilot.pause()
        messages = [n.text for n in toasts(app)]
        assert len(messages) == 1 and "invalid YAML at line 3" in messages[0]
        assert str(locations.config_file()) in messages[0]
        await pilot.press("r")
        assert app.reader.state.is_read(app.reader.current_key)


async def test_unknown_keys_ids_and_key_names_are_named(tmp_path: Path) -> None:
    app = app_with_config(
        tmp_path,
        "colour: red\nkeymap:\n  no.such.binding: k\n  review.read: notakey\n  search: ctrl+f\n",
    )
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await pilot.pause()
        messages = " | ".join(n.text for n in toasts(app))
        assert "unknown key `colour`" in messages
        assert "unknown binding id `no.such.binding`" in messages
        assert "`review.read`: not a key: 'notakey'" in messages
        await pilot.press("ctrl+f")  # the good entry still applies
        await pilot.pause()
        assert app.query_one("#search-bar").display


async def test_a_keymap_clash_is_reported_once(tmp_path: Path) -> None:
    app = app_with_config(tmp_path, "keymap:\n  review.read: u\n")
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await pilot.pause()
        await pilot.press("j", "k")
        clashes = [n.text for n in toasts(app) if "more than one action" in n.text]
        assert clashes == ["Config\nKeymap: u is bound to more than one action (filter.unread, review.read)"]


def test_config_load_never_raises(tmp_path: Path) -> None:
    ids = {"search", "review.read"}
    cases = {
        "empty": b"",
        "list": b"- a\n- b\n",
        "scalar": b"just text\n",
        "keymap list": b"keymap: [a, b]\n",
        "binary": b"\xff\xfe\x00bad",
        "deep": b"[" * 5000,
        "non-string keys": b"keymap:\n  search: 5\n  review.read: [ctrl+f, f3]\n",
        "control chars": b'keymap:\n  "\\e]0;x\\a": k\n',
    }
    results = {}
    for name, data in cases.items():
        path = tmp_path / f"{name}.yaml"
        path.write_bytes(data)
        results[name] = config.load(path, ids, valid_key)
    assert results["empty"].warnings == [] and results["empty"].keymap == {}
    assert "expected a mapping" in results["list"].warnings[0]
    assert "expected a mapping" in results["scalar"].warnings[0]
    assert "`keymap` must map" in results["keymap list"].warnings[0]
    assert "Cannot read" in results["binary"].warnings[0]
    assert results["deep"].warnings
    assert results["non-string keys"].keymap == {"review.read": "ctrl+f,f3"}
    assert "not a key: a number" in results["non-string keys"].warnings[0]
    assert "\x1b" not in results["control chars"].warnings[0]
    assert config.load(tmp_path / "missing.yaml").warnings == []
    folder = tmp_path / "a-folder.yaml"
    folder.mkdir()
    assert "Cannot read" in config.load(folder).warnings[0]


def test_a_keymap_checked_later_warns_as_load_does(tmp_path: Path) -> None:
    """The command line reads the config with `keys=False` and the App checks
    the keymap after: the same keymap, the same warnings in the same order."""
    ids = {"search", "review.read"}
    cases = {
        "in order": b"colour: red\nrepos: [x]\nkeymap:\n  nope: k\n  search: notakey\nmute: 5\n",
        "invalid yaml": b"keymap:\n  review.read: [m\n",
        "keymap list": b"keymap: [a, b]\n",
        "non-string keys": b"keymap:\n  search: 5\n  review.read: [ctrl+f, f3]\nviews: 3\n",
        "no keymap": b"mute: [ci]\nviews: 3\n",
        "binary": b"\xff\xfe\x00bad",
    }
    for name, data in cases.items():
        path = tmp_path / f"{name}.yaml"
        path.write_bytes(data)
        at_once = config.load(path, ids, valid_key)
        later = config.check_keymap(config.load(path, keys=False), ids, valid_key)
        assert (later.keymap, later.warnings) == (at_once.keymap, at_once.warnings), name
    in_order = config.load(tmp_path / "in order.yaml", ids, valid_key).warnings
    named = ["`colour`", "`repos`", "`search`", "`nope`", "`mute`"]  # the keymap's between the others
    assert len(in_order) == len(named)
    assert all(name in warning for name, warning in zip(named, in_order, strict=True))
    assert (
        "invalid YAML at line 3, column 1"
        in config.load(tmp_path / "invalid yaml.yaml", keys=False).warnings[0]
    )


async def test_no_config_path_means_no_config(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await pilot.pause()
        assert not toasts(app)


async def test_hints_in_the_review_name_the_remapped_keys(tmp_path: Path) -> None:
    folder = tmp_path / "entries"
    folder.mkdir()
    entry = folder / "one.yaml"
    entry.write_text("title: one\nrepo: o/r\ntags: [a]\nverdict: deep\nsummary: s\n", encoding="utf-8")
    path = locations.config_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("keymap:\n  review.read: m\n  problems: P\n", encoding="utf-8")
    app = PrDigestApp([folder], tmp_path / "state.json", config_path=path, watch=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("m")  # read it
        entry.write_text(
            entry.read_text(encoding="utf-8").replace("summary: s", "summary: new"), encoding="utf-8"
        )
        app.reader.apply_updates(reloaded(entry))
        await pilot.pause()
        view = app.query_one(ReviewView)

        def pane() -> str:  # the review pane's lines, joined where they wrapped
            return " ".join(" ".join(view.render_line(y).text.split()) for y in range(view.size.height))

        assert "Press m to mark it read again." in pane()
        entry.write_text("title: [broken\n", encoding="utf-8")
        app.reader.apply_updates(reloaded(entry))
        await pilot.pause()
        assert "(P lists problems)" in pane()


def reloaded(path: Path) -> dict[Path, FileUpdate | None]:
    """The file read again, as the watcher's reload hands it over."""
    result = load_file(path)
    return {path: FileUpdate(result.reviews, result.problems)}


def test_repos_map_repositories_to_clones(tmp_path: Path) -> None:
    from tui.store import config

    path = tmp_path / "config.yaml"
    path.write_text(
        "repos:\n  vllm-project/vllm: ~/src/vllm\n  a/b: /abs/b\n  not-a-repo: /x\n  c/d: [1]\n",
        encoding="utf-8",
    )
    loaded = config.load(path)
    assert loaded.repos == {
        "vllm-project/vllm": Path.home() / "src" / "vllm",
        "a/b": Path("/abs/b"),
    }
    assert loaded.warnings == [
        f"{path}: repos: `not-a-repo` is not owner/name",
        f"{path}: repos: `c/d`: the clone's folder must be text, found a list",
    ]
    path.write_text("repos: [a]\n", encoding="utf-8")
    assert config.load(path).warnings == [f"{path}: `repos` must map owner/name to a folder, found a list"]


async def test_the_search_boxs_placeholder_names_the_clear_key_as_remapped(tmp_path: Path) -> None:
    """The box takes the key bar's row while it is open: its placeholder is
    where the key that clears is shown, and it follows the keymap."""
    app = app_with_config(tmp_path, "keymap:\n  search.cancel: ctrl+g\n")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("slash")
        await pilot.pause()
        box = app.reader.search_bar.input
        assert "^g: clear" in box.placeholder and "esc" not in box.placeholder  # as the key bar shows keys
        await pilot.press("ctrl+g")
        await pilot.pause()
        assert not app.query_one("#search-bar").display


async def test_the_search_boxs_placeholder_names_escape_by_default(tmp_path: Path) -> None:
    app = app_with_config(tmp_path, "")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("slash")
        await pilot.pause()
        assert "esc: clear" in app.reader.search_bar.input.placeholder
