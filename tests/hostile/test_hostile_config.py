"""A config with hundreds of mistakes in it: one notification for each kind,
listing the first few and the count, however many there are (one toast each
held the first frame back ~10 s at a thousand). The real App on a real config
file; the good entries still apply."""

from __future__ import annotations

from pathlib import Path

from tests.app_helpers import toasts
from tui.store import config, locations
from tui.store.locations import bundled_entries
from tui.ui.app import PrDigestApp

IDS = [f"no.such.binding{n}" for n in range(1000)]


def write_config(text: str) -> Path:
    path = locations.config_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


async def test_a_thousand_unknown_binding_ids_are_one_notification(tmp_path: Path) -> None:
    unknown_keys = "".join(f"colour{n}: red\n" for n in range(300))
    keymap = "".join(f"  {binding_id}: k\n" for binding_id in IDS)
    path = write_config(f"{unknown_keys}keymap:\n{keymap}  search: ctrl+f\n")
    app = PrDigestApp([bundled_entries()], tmp_path / "state.json", config_path=path)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await pilot.pause()
        messages = [n.text for n in toasts(app)]
        assert len(messages) == 2, messages[:5]
        ids, keys = sorted(messages, key=lambda m: "binding" not in m)
        assert "keymap: 1,000 unknown binding ids: " in ids
        assert ids.endswith("`no.such.binding0`, `no.such.binding1`, `no.such.binding2`, "
                            "`no.such.binding3`, `no.such.binding4`, …")  # fmt: skip
        assert "300 unknown keys: `colour0`," in keys and "(known: keymap, repos, views, " in keys
        await pilot.press("ctrl+f")  # the good entry still applies
        await pilot.pause()
        assert app.query_one("#search-bar").display


def test_a_few_unknown_ids_are_listed_whole(tmp_path: Path) -> None:
    path = write_config("keymap:\n  a.b: k\n  c.d: j\n")
    loaded = config.load(path, {"search"})
    assert loaded.warnings == [f"{path}: keymap: 2 unknown binding ids: `a.b`, `c.d`"]
