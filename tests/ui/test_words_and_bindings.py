"""The UI's words in both languages; every binding has an id, a tooltip and words; the README lists every id."""

from __future__ import annotations

from pathlib import Path

from tui import i18n
from tui.i18n import words

# -- words --------------------------------------------------------------------


def test_language_from_flag_and_locale() -> None:
    assert i18n.normalize("zh_CN.UTF-8") == "zh"
    assert i18n.normalize("zh-Hans") == "zh"
    assert i18n.normalize("en_GB") == "en"
    assert i18n.normalize("fr") is None
    assert i18n.from_environment({"LANG": "zh_CN.UTF-8"}) == "zh"
    assert i18n.from_environment({"LC_ALL": "C", "LANG": "zh_CN.UTF-8"}) == "en"  # LC_ALL wins
    assert i18n.from_environment({"LC_ALL": "", "LC_MESSAGES": "zh_TW", "LANG": "en_US"}) == "zh"
    assert i18n.from_environment({}) == "en"


def test_every_word_exists_in_both_languages() -> None:
    assert set(i18n.EN.bindings) == set(i18n.ZH.bindings)
    for name in i18n.Words._fields:
        english, chinese = getattr(i18n.EN, name), getattr(i18n.ZH, name)
        assert type(chinese) is type(english), name
        if isinstance(english, dict) and english:
            assert set(chinese) >= set(english), name
        if isinstance(english, str) and name != "language":
            assert chinese, name
    i18n.choose("zh")
    assert words().all == "全部" and words().verdict_words["deep"] == "值得精读"
    assert words().binding_text("search", "Search", "x") == ("搜索", "搜索标题、正文和代码引用")
    i18n.choose("en")
    assert words().all == "All"
    assert words().binding_text(None, "d", "t") == ("d", "t")


def test_every_app_binding_has_an_id_a_tooltip_and_words() -> None:
    from textual.binding import Binding

    from tui.ui.app import PrDigestApp
    from tui.ui.keymap import binding_owners

    owners = binding_owners(PrDigestApp)  # the owners a keymap may name: every one the app has
    for owner in owners:
        for binding in owner.BINDINGS:
            assert isinstance(binding, Binding)
            assert binding.id and binding.tooltip, (owner.__name__, binding.key)
            assert binding.id in i18n.EN.bindings, binding.id
    assert PrDigestApp.binding_ids() <= set(i18n.EN.bindings)


def test_the_readme_lists_every_binding_id() -> None:
    import re

    from tui.ui.app import PrDigestApp

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Configuration", 1)[1].split("\n## ", 1)[0]
    listed = set(
        re.findall(r"`([a-z][a-z0-9.-]*)`", section.split("The ids:", 1)[1].split("The key panel")[0])
    )
    assert listed == PrDigestApp.binding_ids()
