"""A stylesheet copy in the cache folder (tui/ui/patches/kept_styles.py) that
would build anything but parsed rules is ignored, not run: the reader starts,
parses its stylesheet as if there were no copy, and keeps a good one."""

from __future__ import annotations

import os
import pickle
from pathlib import Path

import pytest
from textual.app import App

from tests.app_helpers import screen_text, settled
from tui.store import locations, style_copy
from tui.store.locations import bundled_entries
from tui.ui.app import PrDigestApp
from tui.ui.patches.kept_styles import KeptStylesheet, load_rules, variables_of, versions


class Runs:
    """Unpickled, runs `program` (what a copy written by someone else could try)."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple:
        return (os.system, (f"touch {self.marker}",))


def reaches(marker: Path) -> bytes:
    """Unpickled with a plain `getattr`, runs a program: from a function of a
    style module (which the unpickler does build) through its `__globals__`
    to `exec`. Written opcode by opcode, as an attacker would."""

    def call(func: bytes, *args: bytes) -> bytes:
        return func + b"(" + b"".join(args) + b"tR"

    def text(value: str) -> bytes:
        return b"V" + value.encode() + b"\n"

    def attr(owner: bytes, name: str) -> bytes:
        return call(b"cbuiltins\ngetattr\n", owner, text(name))

    namespace = attr(b"ctextual.css.model\n_check_class\n", "__globals__")
    builtins = call(attr(namespace, "get"), text("__builtins__"))
    run = call(attr(builtins, "get"), text("exec"))
    return call(run, text(f"import os; os.system('touch {marker}')")) + b"."


class Builds:
    """Unpickled, builds an object of a Textual class that is not a style."""

    def __reduce__(self) -> tuple:
        return (App, ())


def payloads(marker: Path) -> list[bytes]:
    key = ("Screen {}", ("x", "y"), False, 0, "")
    return [
        pickle.dumps({key: [Runs(marker)]}),
        reaches(marker),
        pickle.dumps({key: [Builds()]}),
        pickle.dumps(Runs(marker)),
    ]


def test_only_parsed_rules_are_built(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    for data in payloads(marker):
        assert load_rules(data) is None
    assert not marker.exists()


@pytest.mark.parametrize("which", range(4))
async def test_the_reader_starts_past_a_copy_that_would_run_code(tmp_path: Path, which: int) -> None:
    marker = tmp_path / "ran"
    app = PrDigestApp(
        [bundled_entries()], tmp_path / "state.json", watch=False, styles_path=locations.style_copy_file()
    )
    key = style_copy.key(variables_of(app.stylesheet), versions())  # the copy's key as this start reads it
    path = locations.style_copy_file()
    style_copy.write(path, key, payloads(marker)[which])
    app = PrDigestApp(
        [bundled_entries()], tmp_path / "state.json", watch=False, styles_path=locations.style_copy_file()
    )
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        assert "Deep read" in screen_text(app)
    sheet = app.stylesheet
    assert isinstance(sheet, KeptStylesheet) and sheet.parsed > 10
    assert not marker.exists()
    kept = style_copy.read(path, key)
    assert kept is not None and load_rules(kept)  # a good copy in its place
