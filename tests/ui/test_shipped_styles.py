"""The stylesheet's rules shipped in the package (tui/ui/styles.py,
`python -m tui.ui.ship_styles`): a start with nothing kept yet takes them and
parses nothing, draws what a start that parses everything draws, and the
shipped copy is what the command writes today."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import textual
from textual.app import App

import tui
from tests.app_helpers import settled
from tests.ui.test_kept_styles import drawn, parsed_rules, rule_parts
from tui.store import locations, style_copy, uistate
from tui.store.locations import bundled_entries
from tui.ui import styles
from tui.ui.app import PrDigestApp
from tui.ui.patches.kept_styles import KeptStylesheet, Rules, load_rules, shipped_versions, variables_of

STALE = "the shipped stylesheet is not what a start parses: run `python -m tui.ui.ship_styles`"


def first_start_app(tmp_path: Path, shipped: Path | None) -> PrDigestApp:
    return PrDigestApp(
        [bundled_entries()],
        tmp_path / "state.json",
        watch=False,
        ui_path=locations.ui_file(),
        styles_path=locations.style_copy_file(),
        shipped_styles=shipped,
    )


async def start(app: App, *keys: str) -> tuple[list, list[tuple]]:
    """What `app` draws at 120x40 once settled and after `keys` (as a real start:
    the tooltip and the notifications' rack), and its rules."""
    async with app.run_test(size=(120, 40), tooltips=True, notifications=True) as pilot:
        await settled(app, pilot)  # type: ignore[arg-type]
        await pilot.press(*keys)
        await pilot.pause()
        return drawn(app), parsed_rules(app.stylesheet)  # type: ignore[arg-type]


def parsed(app: App) -> int:
    assert isinstance(app.stylesheet, KeptStylesheet)
    return app.stylesheet.parsed


def shipped_rules(path: Path) -> Rules:
    data = style_copy.read(path, style_copy.key(variables_of(App().stylesheet), shipped_versions()))
    assert data is not None, STALE
    rules = load_rules(data)
    assert rules is not None
    return rules


async def test_a_first_start_takes_the_shipped_rules_and_parses_nothing(tmp_path: Path) -> None:
    app = first_start_app(tmp_path, locations.shipped_style_file())
    shown = await start(app, "slash", "escape")
    assert parsed(app) == 0, STALE
    assert not locations.style_copy_file().exists()  # nothing new to keep
    parsing = first_start_app(tmp_path, None)
    assert await start(parsing, "slash", "escape") == shown
    assert parsed(parsing) > 10
    assert locations.style_copy_file().is_file()  # kept for the next start, which takes it first
    again = first_start_app(tmp_path, locations.shipped_style_file())
    assert await start(again) == (await start(PrDigestApp([bundled_entries()], tmp_path / "s.json")))
    assert parsed(again) == 0


def test_the_command_writes_what_is_shipped(tmp_path: Path) -> None:
    out = tmp_path / "shipped.pickle"
    done = subprocess.run(
        [sys.executable, "-m", "tui.ui.ship_styles", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    )
    assert done.returncode == 0, done.stderr
    written, shipped = shipped_rules(out), shipped_rules(locations.shipped_style_file())
    assert f"{len(written)} sources' rules written to {out}" in done.stdout
    assert written.keys() == shipped.keys(), STALE
    for key, rules in written.items():
        assert [rule_parts(rule) for rule in rules] == [rule_parts(rule) for rule in shipped[key]], STALE
    assert all(key[1][0].startswith(("<textual>/", "<tui>/")) for key in shipped)


def test_the_commands_help_writes_nothing(tmp_path: Path) -> None:
    (tmp_path / "work").mkdir()
    done = subprocess.run(
        [sys.executable, "-m", "tui.ui.ship_styles", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path / "work",
    )
    assert done.returncode == 0, done.stderr
    assert "PATH" in done.stdout
    assert list((tmp_path / "work").iterdir()) == []


async def test_another_theme_parses_as_it_did(tmp_path: Path) -> None:
    """Shipped rules hold the default theme's colours: a reader whose theme is
    another parses every source with its own."""
    uistate.save(locations.ui_file(), theme="nord")
    app = first_start_app(tmp_path, locations.shipped_style_file())
    shown = await start(app)
    assert parsed(app) > 10
    assert shown == await start(first_start_app(tmp_path / "plain", None))


async def test_a_copy_for_another_textual_is_not_taken(tmp_path: Path) -> None:
    """The shipped rules themselves, under the key of a Textual whose style
    modules differ in size: not taken."""
    variables = variables_of(App().stylesheet)
    data = style_copy.read(locations.shipped_style_file(), style_copy.key(variables, shipped_versions()))
    assert data is not None
    other = tmp_path / "other.pickle"
    sizes = shipped_versions()[1]
    style_copy.write(other, style_copy.key(variables, ("shipped", (sizes[0] + 1, *sizes[1:]))), data)
    app = first_start_app(tmp_path, other)
    await start(app)
    assert parsed(app) > 10


def test_sources_are_named_by_where_they_sit_in_their_package() -> None:
    textual_root = os.path.dirname(os.path.abspath(textual.__file__ or ""))
    tui_root = os.path.dirname(os.path.abspath(tui.__file__ or ""))
    here: Rules = {
        (
            "A {}",
            (os.path.join(textual_root, "widgets", "_static.py"), "Static.DEFAULT_CSS"),
            True,
            -1,
            "Static",
        ): [],
        ("B {}", (os.path.join(tui_root, "ui", "app.tcss"), ""), False, 0, ""): [],
        ("C {}", ("/home/someone/my.tcss", ""), False, 0, ""): [],
    }
    portable = styles.portable(here)
    assert [key[1][0] for key in portable] == ["<textual>/widgets/_static.py", "<tui>/ui/app.tcss"]
    assert styles.placed(portable) == {key: value for key, value in here.items() if key[0] != "C {}"}
    assert styles.placed({("D {}", ("<other>/x.py", ""), False, 0, ""): []}) == {}
    assert styles.placed({("D {}", ("/abs/x.py", ""), False, 0, ""): []}) == {}
