"""Regenerate docs/screenshot.svg: the reader on the bundled digest at 120x36.

Run from the repository root: `python docs/screenshot.py`. Marks go to a
temporary state file, so your own marks are neither used nor changed.
"""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from tui.store.locations import bundled_entries
from tui.ui.app import PrDigestApp

OUT = Path(__file__).with_name("screenshot.svg")


async def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        app = PrDigestApp([bundled_entries()], Path(tmp) / "state.json")
        async with app.run_test(size=(120, 36)) as pilot:
            await pilot.press("r", "j", "j", "enter", "space", "j", "space", "j")
            await pilot.pause()
            app.save_screenshot(str(OUT.name), path=str(OUT.parent))
    print(f"wrote {OUT}")


if __name__ == "__main__":
    asyncio.run(main())
