"""The stylesheet's rules kept from one start to the next (tui/ui/styles.py,
tui/ui/patches/kept_styles.py): a start with the last one's sources and theme
parses nothing and draws exactly what a start that parses everything draws; a
theme other than the kept one, chosen before the start or while the reader
runs, is drawn in its own colours."""

from __future__ import annotations

import inspect
from pathlib import Path

from textual.css.model import RuleSet
from textual.css.stylesheet import Stylesheet
from textual.layout import Layout
from textual.strip import Strip

from tests.app_helpers import settled
from tui.store import locations, uistate
from tui.store.locations import bundled_entries
from tui.ui.app import PrDigestApp
from tui.ui.patches.kept_styles import KeptStylesheet, dump_rules, load_rules


def styles_app(tmp_path: Path, *, kept: bool = True) -> PrDigestApp:
    return PrDigestApp(
        [bundled_entries()],
        tmp_path / "state.json",
        watch=False,
        ui_path=locations.ui_file(),
        styles_path=locations.style_copy_file() if kept else None,
    )


def parsed_rules(sheet: Stylesheet) -> list[tuple]:
    """Every rule of `sheet`: its selectors, declarations and precedence; a
    layout by its name (each parse makes new layout objects, equal to none).
    (`Stylesheet.css` cannot be used: Textual's own rules make it raise.)"""
    return [rule_parts(rule) for rule in sheet.rules]


def rule_parts(rule: RuleSet) -> tuple:
    """A rule's selectors, declarations and precedence (see `parsed_rules`)."""
    return (
        rule.selectors,
        {
            name: value.name if isinstance(value, Layout) else value
            for name, value in rule.styles.get_rules().items()
        },
        rule.is_default_rules,
        rule.tie_breaker,
        rule.selector_names,
    )


def drawn(app: PrDigestApp) -> list[Strip]:
    """The screen as drawn: every cell's text and style."""
    return list(app.screen._compositor.render_strips())


async def start(app: PrDigestApp, *keys: str) -> tuple[list[Strip], list[tuple], int]:
    """What `app` draws at 120x40 once settled and after `keys`, its rules, and how many sources it parsed."""
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        await pilot.press(*keys)
        await pilot.pause()
        screen, css = drawn(app), parsed_rules(app.stylesheet)
    sheet = app.stylesheet
    assert isinstance(sheet, KeptStylesheet)
    return screen, css, sheet.parsed


async def test_a_second_start_parses_nothing_and_draws_what_a_full_parse_draws(tmp_path: Path) -> None:
    path = locations.style_copy_file()
    first = await start(styles_app(tmp_path))
    assert first[2] > 10  # every source parsed: Textual's widgets', ours and app.tcss
    assert path.is_file()
    written = path.stat().st_mtime_ns

    second = await start(styles_app(tmp_path))
    assert second[2] == 0
    assert second[:2] == first[:2]
    assert path.stat().st_mtime_ns == written  # nothing new to keep: not written again

    plain = styles_app(tmp_path, kept=False)
    async with plain.run_test(size=(120, 40)) as pilot:
        await settled(plain, pilot)
        assert type(plain.stylesheet) is Stylesheet  # no path: Textual's own, parsed every start
        assert (drawn(plain), parsed_rules(plain.stylesheet)) == second[:2]


async def test_a_screen_opened_later_is_kept_too(tmp_path: Path) -> None:
    """The keys panel's sources are parsed when `?` first opens it: kept at the
    quit, they are taken from the copy at the next start."""
    first = await start(styles_app(tmp_path), "question_mark")
    second = await start(styles_app(tmp_path), "question_mark")
    assert first[2] > second[2] == 0
    assert second[:2] == first[:2]


async def test_another_theme_is_parsed_in_its_own_colours_and_kept_in_place_of_the_old(
    tmp_path: Path,
) -> None:
    await start(styles_app(tmp_path))
    uistate.save(locations.ui_file(), theme="nord")
    nord = await start(styles_app(tmp_path))
    assert nord[2] > 10  # the kept rules hold textual-dark's colours: all parsed again
    plain = styles_app(tmp_path, kept=False)
    async with plain.run_test(size=(120, 40)) as pilot:
        await settled(plain, pilot)
        assert plain.theme == "nord"
        assert (drawn(plain), parsed_rules(plain.stylesheet)) == nord[:2]
    again = await start(styles_app(tmp_path))
    assert again[2] == 0 and again[:2] == nord[:2]


async def test_a_theme_chosen_while_running_draws_in_its_colours_with_rules_kept(tmp_path: Path) -> None:
    """The kept rules are textual-dark's: after `nord` is chosen, the screen and
    a panel opened then (its sources parsed with nord's variables, not taken
    from the copy) are what a reader that parsed everything draws."""
    await start(styles_app(tmp_path), "question_mark")  # the panel's rules kept in textual-dark
    shown = []
    for kept in (True, False):
        app = styles_app(tmp_path, kept=kept)
        async with app.run_test(size=(120, 40)) as pilot:
            await settled(app, pilot)
            app.theme = "nord"
            await pilot.pause()
            before_panel = drawn(app)
            await pilot.press("question_mark")
            await pilot.pause()
            shown.append((before_panel, drawn(app), parsed_rules(app.stylesheet)))
        uistate.save(locations.ui_file(), theme="textual-dark")
    assert shown[0] == shown[1]


async def test_a_damaged_copy_is_a_miss(tmp_path: Path) -> None:
    first = await start(styles_app(tmp_path))
    path = locations.style_copy_file()
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    damaged = await start(styles_app(tmp_path))
    assert damaged[2] == first[2] and damaged[:2] == first[:2]
    assert path.read_bytes() == data  # kept whole again


SOURCE = "Screen { background: $primary; }\n#x.y > Label:focus { width: 1fr; }"


def test_kept_rules_come_back_equal_and_anything_else_is_refused() -> None:
    sheet = KeptStylesheet(variables={"primary": "#ff0000"})
    sheet.add_source(SOURCE, read_from=("t", "T"))
    sheet.parse()
    rules = sheet.kept_rules()
    assert rules is not None
    back = load_rules(dump_rules(rules))
    assert back is not None
    assert [rule.css for rules in back.values() for rule in rules] == [rule.css for rule in sheet.rules]
    again = KeptStylesheet(variables={"primary": "#ff0000"}, kept=back)
    again.add_source(SOURCE, read_from=("t", "T"))
    again.parse()
    assert again.parsed == 0 and again.css == sheet.css and again.kept_rules() is None
    other = KeptStylesheet(variables={"primary": "#ff0000"}, kept=back)
    other.set_variables({"primary": "#00ff00"})  # a theme set since: the kept rules are not used
    other.add_source(SOURCE, read_from=("t", "T"))
    other.parse()
    assert "#00FF00" in other.css.upper()
    for data in (b"", b"not a pickle", dump_rules({("k",): ["not a rule"]}), dump_rules([])):
        assert load_rules(data) is None


def test_the_private_textual_api_it_overrides_is_still_textuals() -> None:
    """Textual 8.2.8: `_parse_rules(css, read_from, is_default_rules, tie_breaker,
    scope)` is what `parse` calls per source, and `_variables` what it parses with."""
    names = list(inspect.signature(Stylesheet._parse_rules).parameters)
    assert names == ["self", "css", "read_from", "is_default_rules", "tie_breaker", "scope"]
    assert "self._parse_rules(" in inspect.getsource(Stylesheet.parse)
    assert Stylesheet(variables={"a": "b"})._variables == {"a": "b"}
