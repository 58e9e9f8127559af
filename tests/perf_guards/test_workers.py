"""A worker started for the reader's async work (`tui.ui.async_work`) costs
nothing for what its work holds: Textual describes a worker by `repr(work)`
unless told otherwise, and a search's `functools.partial` holds the list it
searches (100,000 reviews: ~0.5 s of reprs in the key's turn). Counted, not
timed."""

from __future__ import annotations

import functools

from textual.app import App

from tui.ui import async_work


class Held:
    """What a worker's work holds, counting how often it is spelled out."""

    def __init__(self) -> None:
        self.spelled = 0

    def __repr__(self) -> str:
        self.spelled += 1
        return "Held()"


async def test_a_partial_of_a_coroutine_function_runs_without_its_arguments_spelled_out() -> None:
    held = Held()
    ran: list[Held] = []

    async def work(what: Held) -> None:
        ran.append(what)

    app = App()
    async with app.run_test() as pilot:
        for _ in range(3):
            async_work.start(app, functools.partial(work, held), "search", exclusive=True)
            await pilot.pause()
        await app.workers.wait_for_complete()
    assert ran == [held] * 3
    assert held.spelled == 0
