"""The key bench's phases beyond j/k, open, check, back and tag switch
(`startup.keys_app` runs them after those): page keys, `r` and its undo `z`,
the filter keys, the saved views and search as you type, each timed by
`startup.Timings`.

Every phase starts from the same place: every filter off, All chosen, the
review list focused (set up untimed). The views are the worker's own config
(`CONFIG`), written next to the state file before the app starts.

Search as you type: `/` opens the box, each character of a query is one timed
press (`search_type`), then backspaces down to nothing (`search_backspace`),
then escape (`search_clear`: the box closes and the whole list is back). The
very first character typed after the load is also kept on its own
(`search_first_key`): the first search reads every review's text unless that
was done before. Queries differ from one another (a query typed again is
answered from memory) and mix code words with Chinese, as the corpus does.
A search the reader runs off the key (in slices, the loop free in between)
is waited for: its answer's frame is the key's last frame, the box showing the
character is (usually) its first, and the first frame that lists the query's
rows (all of them, or the first of a search still counting: `_rows_shown`) is
its `rows_frame`. The input's cursor does not blink during the phase: a blink is a frame of its
own, and it would land in the key's window now and then.

j held down (`held_j`, last): a terminal's key repeat, one `j` every
`HELD_EVERY_S` sent without waiting for the reader (every other key here waits
for it to go idle, ~70 ms a key, so none can land within two frame intervals
of the frame before). Each is timed from its sending to the first frame whose
list cursor is on its row or past it (keys that come faster than frames share
one).
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from textual.widgets import Input

CONFIG = """\
views:
  deep-kernels: {tags: [kernels, rocm, attention], verdict: [deep]}
  unread-quick: {verdict: [quick, skim], unread: true}
  todo: {unchecked: true}
"""
VIEW_KEYS = ("1", "2", "3")

HELD_EVERY_S = 1 / 30
"""Key repeat: a held key sent ~30 times a second, as terminals do."""

QUERIES = (
    "scheduler",
    "调度器",
    "fused_moe",
    "kv cache",
    "缓存命中率",
    "forward_hip",
    "pin_memory",
    "量化 fp8",
    "tool",
    "图捕获",
)


def write_config(state: Path) -> Path:
    path = state.with_name(state.stem + "-config.yaml")
    path.write_text(CONFIG, encoding="utf-8")
    return path


async def _home(app, pilot) -> None:
    """Every filter off, All chosen, the review list focused (untimed)."""
    from tui.ui.widgets.review_list import ReviewList

    reader = app.reader
    reader._reset_filters()
    reader.search_bar.close()
    reader._focus_pane("reviews")
    await pilot.pause()
    assert app.focused is app.query_one(ReviewList), app.focused


async def _no_blink(pilot, box: Input) -> None:
    """Stop the box's cursor blinking, untimed. Turning it off redraws the box,
    hidden or not, and that refresh must reach the screen before the next key
    is timed: sent into `/`'s window, it made the screen's frame timer tick in
    the middle of `/`'s messages (with nothing on screen to change), and the
    box's own frame then waited for the timer's next tick, 17-33 ms later
    (bench/README.md, "Opening the search box")."""
    if box.cursor_blink:
        box.cursor_blink = False
        await pilot.pause()


def _searched(app, pilot):
    """Wait until no search runs off the key (`tui.ui.search_keys`): its
    answer's frame is the key's last. (A checkout without such searches has
    no search workers: the wait ends at once.)"""

    async def wait() -> None:
        # A plain sleep: Pilot's pause waits for idle in steps, and its own work
        # in between slowed the search it waited for (0.7 s for a 0.2 s search).
        while any(worker.group == "search" and not worker.is_finished for worker in app.reader.workers):
            await asyncio.sleep(0.002)

    return wait


def _rows_shown(app):
    """Does the frame list the typed query's rows (all, or the first of a
    search still counting)? The screen's filters hold the query from then on."""
    box = app.query_one("#search-input", Input)
    return lambda: app.reader.filters.query == box.value


async def run(app, pilot, timings, bounce, rounds: int, search: bool = True) -> None:
    """`search`: False leaves the search phase out."""
    from tui.ui.widgets.review_list import ReviewList

    reviews = app.query_one(ReviewList)
    await _home(app, pilot)
    for key in bounce(reviews.highlighted or 0, max(1, len(reviews.reviews) // 18), rounds):
        await timings.press(pilot, "page", "pagedown" if key == "j" else "pageup")

    await _home(app, pilot)
    for _ in range(rounds):
        await timings.press(pilot, "mark_r", "r")  # read (or unread) the highlighted review
        await timings.press(pilot, "undo_z", "z")  # and back
        await pilot.press("j")  # the next review (untimed)
        await pilot.pause()

    await _home(app, pilot)
    for _ in range(rounds):
        await timings.press(pilot, "filter_u", "u")  # unread only
        await timings.press(pilot, "filter_u", "u")  # and off
    for _ in range(max(1, rounds // 5)):
        for _ in range(5):  # deep, quick, skim, skip, every verdict
            await timings.press(pilot, "filter_v", "v")
    for _ in range(rounds):
        await timings.press(pilot, "filter_t", "t")  # unchecked only
        await timings.press(pilot, "filter_t", "t")
    for _ in range(rounds):
        await pilot.press("u", "v")  # something to clear (untimed)
        await pilot.pause()
        await timings.press(pilot, "filter_x", "x")

    await _home(app, pilot)
    for _ in range(rounds):
        for key in VIEW_KEYS:
            await timings.press(pilot, "view_n", key)
        await timings.press(pilot, "filter_x", "x")

    await _home(app, pilot)
    if not search:
        return
    for box in app.query("#search-input").results(Input):
        # No blink from the first `/` on: a blink is a frame, and the frames of
        # the texts made when the box first opens would count as the key's.
        await _no_blink(pilot, box)
    first = True
    for query in QUERIES:
        await timings.press(pilot, "search_open", "slash")
        box = app.query_one("#search-input", Input)
        await _no_blink(pilot, box)  # a checkout that mounts the box on the first `/`
        assert app.focused is box, app.focused
        for char in query:
            key = "space" if char == " " else char
            action = "search_first_key" if first else "search_type"
            await timings.press(pilot, action, key, until=_searched(app, pilot), shown=_rows_shown(app))
            first = False
        assert box.value == query, (box.value, query)
        for _ in query:
            await timings.press(
                pilot, "search_backspace", "backspace", until=_searched(app, pilot), shown=_rows_shown(app)
            )
        await timings.press(pilot, "search_clear", "escape")
        assert not app.reader.filters.query
    await _home(app, pilot)
    await held(app, pilot, timings, max(100, rounds))


async def held(app, pilot, timings, presses: int) -> None:
    """`presses` j (or k, near the list's end) sent as a held key repeats."""
    from textual import events

    from tui.ui.widgets.review_list import ReviewList

    reviews = app.query_one(ReviewList)
    await _home(app, pilot)
    start = reviews.highlighted or 0
    below, above = len(reviews.reviews) - 1 - start, start
    step = 1 if below >= min(presses, above) or below >= above else -1
    presses = min(presses, below if step == 1 else above)  # a short list (the bundled digest): its rows
    if presses < 1:
        return
    key = "j" if step == 1 else "k"
    shown: list[tuple[float, int]] = []  # each frame: when, the cursor's row
    display = app._display

    def recording(screen, renderable) -> None:
        display(screen, renderable)
        if renderable is not None:
            shown.append((time.perf_counter(), reviews.highlighted or 0))

    app._display = recording
    sent: list[float] = []
    c0 = time.process_time()
    first = time.perf_counter()
    for i in range(presses):
        await asyncio.sleep(max(0.0, first + i * HELD_EVERY_S - time.perf_counter()))
        event = events.Key(key, key)
        event.set_sender(app)
        sent.append(time.perf_counter())
        app._driver.send_message(event)
    end = start + step * presses
    while reviews.highlighted != end or not shown or shown[-1][1] != end:
        await asyncio.sleep(0.005)
    await pilot.pause()
    cpu = (time.process_time() - c0) / presses
    app._display = display
    for i, at in enumerate(sent):
        row = start + step * (i + 1)
        frame = next(t for t, shown_row in shown if t >= at and (shown_row - row) * step >= 0)
        timings.wall.setdefault("held_j", []).append(HELD_EVERY_S)
        timings.cpu.setdefault("held_j", []).append(cpu)
        timings.first_frame.setdefault("held_j", []).append(frame - at)
        timings.frame.setdefault("held_j", []).append(frame - at)
