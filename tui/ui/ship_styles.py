"""`python -m tui.ui.ship_styles [PATH]`: write the stylesheet's rules shipped
in the package (`tui.ui.styles`), as a first start parses them.

Run it after changing any CSS (app.tcss, a widget's DEFAULT_CSS) or the
Textual pin: tests/ui/test_shipped_styles.py fails while the shipped copy is
not what this writes. It starts the reader headless on the bundled digest
with the default theme, opens and closes the search box (whose input brings
its own rules), and writes every source the stylesheet parsed to PATH
(default: the package's copy, `locations.shipped_style_file()`).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from tui.store import locations
from tui.ui import styles
from tui.ui.app import PrDigestApp
from tui.ui.patches.kept_styles import KeptStylesheet

SIZE = (120, 40)
KEYS = ("slash", "escape")
"""After the first frame: the search box opened and closed."""


async def _parsed(folder: Path) -> KeptStylesheet:
    app = PrDigestApp(
        [locations.bundled_entries()],
        folder / "state.json",
        watch=False,
        styles_path=folder / "stylesheet.pickle",
    )
    # With the tooltip and the notifications' rack, as a real start has them.
    async with app.run_test(size=SIZE, tooltips=True, notifications=True) as pilot:
        await pilot.pause()
        await pilot.press(*KEYS)
        await pilot.pause()
    assert isinstance(app.stylesheet, KeptStylesheet)
    return app.stylesheet


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tui.ui.ship_styles",
        description="Write the stylesheet's rules shipped in the package, as a first start parses them.",
    )
    parser.add_argument(
        "path", nargs="?", type=Path, metavar="PATH", help="where to write (default: the package's copy)"
    )
    given = parser.parse_args(argv).path
    path = given.resolve() if given is not None else locations.shipped_style_file()
    with tempfile.TemporaryDirectory(prefix="prdigest-ship-styles-") as folder:
        sheet = asyncio.run(_parsed(Path(folder)))
    sources = styles.ship(sheet, path)
    print(f"{sources} sources' rules written to {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
