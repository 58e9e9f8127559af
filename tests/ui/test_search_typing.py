"""Search as you type at scale, as a user meets it: a character whose search
is long lists the first matches in its own frame, its count marked as still
counting, and the rest follows in slices; a character typed over a running
scan, backspace, escape, enter, a filter key and moving into the list are all
right mid-scan. Every list is checked against a plain scan. The scans are made
long by testing four candidates a piece (one piece a slice), not by timing."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.app_helpers import by_plain_select, listed, on_each_frame, screen_text, settled
from tests.bench_corpus import generate
from tests.search_scan import plain_search
from tests.waiting import workers_done
from tui.core.model import Review
from tui.ui import search_keys
from tui.ui.app import PrDigestApp
from tui.ui.widgets.filter_bar import FilterBar
from tui.ui.widgets.review_list import ReviewList
from tui.ui.widgets.search_bar import SearchBar


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("corpus") / "c"
    generate(folder, 600, seed=11)
    return folder


@pytest.fixture
def long_scans(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every search scanned in pieces of four candidates, one a slice; a key
    scans until its first page is found, however long that takes, and no more."""
    monkeypatch.setattr(search_keys, "SEARCH_AT_ONCE", -1)
    monkeypatch.setattr(search_keys, "SCAN_PIECE", 4)
    monkeypatch.setattr(search_keys, "SLICE_S", 0.0)
    monkeypatch.setattr(search_keys, "FIRST_ROWS_S", 60.0)
    monkeypatch.setattr(search_keys, "KEY_PIECES", 1)


def app_at(tmp_path: Path, corpus: Path) -> PrDigestApp:
    return PrDigestApp([corpus], tmp_path / "state.json", config_path=tmp_path / "config.yaml", watch=False)


def plain(app: PrDigestApp, query: str) -> list[str]:
    return [r.key for r in plain_search(app.reader.library.reviews, query)]


def bar(app: PrDigestApp) -> str:
    return app.query_one(FilterBar).plain


def page(app: PrDigestApp) -> int:
    return app.query_one(ReviewList).scrollable_content_region.height // 2 + 1


async def test_a_keys_frame_lists_the_first_matches_counting(
    tmp_path: Path, corpus: Path, long_scans
) -> None:
    app = app_at(tmp_path, corpus)
    frames: list[tuple[str, list[str], str]] = []

    def recording() -> None:
        box = app.reader.search_bar._input if app.screen_stack else None
        if box is not None:
            frames.append((box.value, listed(app), screen_text(app)))

    on_each_frame(app, recording)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        await pilot.press("slash", "s")
        await workers_done(pilot, app.reader, "search")
        seen = len(frames)
        await pilot.press("c")
        await workers_done(pilot, app.reader, "search")
        answer = plain(app, "sc")
        assert len(answer) > page(app)
        box, first, text = frames[seen]  # the key's frame
        assert box == "sc"
        assert page(app) <= len(first) < len(answer)  # a page of it, not all
        assert first == answer[: len(first)]  # the first matches, in the list's order
        assert f"/sc  {len(first)}+ reviews, counting…" in text
        box, last, text = frames[-1]
        assert last == answer == listed(app)
        assert f"/sc  {len(answer)} reviews" in text and "counting" not in text
        assert "counting" not in bar(app)


async def test_typed_fast_every_answer_is_the_plain_scans(tmp_path: Path, corpus: Path, long_scans) -> None:
    app = app_at(tmp_path, corpus)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        for query in ("kv cache", "调度器", "fused_moe"):
            await pilot.press("slash", *("space" if c == " " else c for c in query))
            await workers_done(pilot, app.reader, "search")
            assert app.reader.filters.query == query
            assert listed(app) == plain(app, query), query
            for _ in range(3):
                await pilot.press("backspace")
            await workers_done(pilot, app.reader, "search")
            assert listed(app) == plain(app, query[:-3]), query
            await pilot.press("escape")
            await pilot.pause()


async def test_a_character_typed_over_a_running_scan_narrows_it(
    tmp_path: Path, corpus: Path, long_scans
) -> None:
    app = app_at(tmp_path, corpus)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        reader = app.reader
        await pilot.press("slash")
        reader.on_search_bar_changed(SearchBar.Changed("s"))
        await workers_done(pilot, reader, "search")
        reader.on_search_bar_changed(SearchBar.Changed("sc"))
        first = reader.search_typing
        assert first is not None and not first.scan.done  # the key's state: first rows, counting
        assert listed(app) == plain(app, "sc")[: len(listed(app))] and "counting" in bar(app)
        found, left = len(first.scan.found), len(reader.library.reviews) - first.scan.place
        reader.on_search_bar_changed(SearchBar.Changed("sch"))
        further = reader.search_typing
        assert further is not None and further is not first
        assert further.scan.candidates <= found + left  # from what "sc" knew, not from "s"
        assert listed(app) == plain(app, "sch")[: len(listed(app))]
        reader.on_search_bar_changed(SearchBar.Changed("sc"))  # backspace over a running scan
        await workers_done(pilot, reader, "search")
        assert reader.filters.query == "sc" and listed(app) == plain(app, "sc")
        reader.on_search_bar_changed(SearchBar.Changed("scx"))
        reader.on_search_bar_changed(SearchBar.Changed("sc"))  # backspace to an answer kept: at once
        assert reader.search_typing is None
        assert listed(app) == plain(app, "sc") and "counting" not in bar(app)
        await workers_done(pilot, reader, "search")
        assert listed(app) == plain(app, "sc")


async def test_escape_enter_a_filter_key_and_the_list_mid_scan(
    tmp_path: Path, corpus: Path, long_scans
) -> None:
    app = app_at(tmp_path, corpus)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        reader = app.reader
        everything = listed(app)

        await pilot.press("slash")
        reader.on_search_bar_changed(SearchBar.Changed("ca"))
        assert reader.search_typing is not None and len(listed(app)) < len(plain(app, "ca"))
        reader.on_search_bar_cancelled(SearchBar.Cancelled())  # escape: everything back
        assert reader.filters.query == "" and listed(app) == everything
        await workers_done(pilot, reader, "search")
        assert reader.filters.query == "" and listed(app) == everything and "counting" not in bar(app)

        await pilot.press("slash")
        reader.on_search_bar_changed(SearchBar.Changed("ca"))
        reader._focus_pane("reviews")  # out of the box, into the list (tab's way): all of it at once
        assert listed(app) == plain(app, "ca") and "counting" not in bar(app)
        await pilot.press("end")  # the last match, not the last of the first rows
        await pilot.pause()
        assert reader.current_key == plain(app, "ca")[-1]
        await workers_done(pilot, reader, "search")
        assert listed(app) == plain(app, "ca")

        await pilot.press("escape", "escape")
        await pilot.press("slash")
        reader.on_search_bar_changed(SearchBar.Changed("kv"))
        reader.action_cycle_verdict()  # a filter key (from the palette): on the whole answer
        wanted = by_plain_select(app)
        assert reader.filters.query == "kv" and reader.filters.verdict == "deep"
        assert listed(app) == wanted
        await workers_done(pilot, reader, "search")
        assert listed(app) == wanted  # the scan's end changes nothing
        reader.action_cycle_verdict()
        reader.action_cycle_verdict()
        reader.action_cycle_verdict()
        reader.action_cycle_verdict()
        await pilot.pause()

        reader.on_search_bar_changed(SearchBar.Changed("kv c"))
        reader.on_search_bar_submitted(SearchBar.Submitted("kv c"))  # enter: the first match opened
        assert listed(app) == plain(app, "kv c")
        assert reader.current_key == plain(app, "kv c")[0] and reader.pane == "review"
        await workers_done(pilot, reader, "search")
        assert listed(app) == plain(app, "kv c")


async def test_the_open_review_stays_selected_as_a_search_done_at_once_keeps_it(
    tmp_path: Path, corpus: Path, long_scans
) -> None:
    app = app_at(tmp_path, corpus)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        reader = app.reader
        answer = plain(app, "sc")
        deep = answer[3 * page(app)]  # far past the first page
        reader._go_to(deep)
        await pilot.press("slash")
        reader.on_search_bar_changed(SearchBar.Changed("sc"))
        assert reader.current_key == deep  # its rows wait until the scan passes it
        assert deep in listed(app) or "searching" in bar(app)
        await workers_done(pilot, reader, "search")
        assert listed(app) == answer and reader.current_key == deep
        assert app.query_one(ReviewList).key == deep


async def test_the_open_review_deep_in_the_list_comes_with_the_matches_after_it_in_the_keys_frame(
    tmp_path: Path, corpus: Path, long_scans
) -> None:
    """The scan cannot reach the open review in the key's time (one piece here):
    the key lists it, at the top of the pane, with the matches after it, as
    the whole answer shows them; the whole answer keeps it on that line."""
    app = app_at(tmp_path, corpus)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        reader = app.reader
        answer = plain(app, "sc")
        at = 3 * page(app)
        deep = answer[at]
        reader._go_to(deep)
        await pilot.pause()
        await pilot.press("slash")
        reader.on_search_bar_changed(SearchBar.Changed("sc"))
        reviews = app.query_one(ReviewList)
        assert listed(app) == answer[at : at + page(app)]
        assert reviews.key == deep and reviews.highlighted_line() == 0
        assert "counting" in bar(app)
        await pilot.pause()
        shown = screen_text(app)
        await workers_done(pilot, reader, "search")
        assert listed(app) == answer and reader.current_key == deep
        assert reviews.key == deep and reviews.highlighted_line() == 0
        rows = [line[: reviews.region.right] for line in screen_text(app).splitlines()]
        before = [line[: reviews.region.right] for line in shown.splitlines()]
        top, bottom = reviews.region.y + 1, reviews.region.bottom - 1  # inside its border
        assert rows[top:bottom] == before[top:bottom]  # the same rows, where they were


async def test_the_open_review_deep_in_the_list_is_found_without_comparing_reviews(
    tmp_path: Path, corpus: Path, long_scans, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where the open review is listed, to keep it selected, is found by its
    key: comparing reviews (`Review.__eq__`, their contents in Python) down to
    it cost ~30 ms a character at 100,000 reviews."""
    app = app_at(tmp_path, corpus)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        await pilot.press("end")  # the last review
        reader = app.reader
        last = reader.library.by_key[reader.current_key]
        term = "".join(c for c in last.title.lower() if c.isalnum())[:3]
        compared = []
        equal = Review.__eq__

        def counted(self: Review, other: object) -> bool:
            compared.append(other)
            return equal(self, other)

        monkeypatch.setattr(Review, "__eq__", counted)
        await pilot.press("slash", *term)
        await workers_done(pilot, reader, "search")
        assert listed(app) == plain(app, term) and reader.current_key == last.key
        assert compared == []


async def test_tab_and_end_typed_right_after_a_character(tmp_path: Path, corpus: Path, long_scans) -> None:
    app = app_at(tmp_path, corpus)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        await pilot.press("slash", "c", "a", "tab", "shift+tab", "end")
        assert app.reader.current_key == plain(app, "ca")[-1]
        assert listed(app) == plain(app, "ca")


async def test_a_rare_term_shows_searching_until_its_rows_come(
    tmp_path: Path, corpus: Path, long_scans, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(search_keys, "FIRST_ROWS_S", 0.0)  # no time for the first rows on the key
    app = app_at(tmp_path, corpus)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        reader = app.reader
        everything = listed(app)
        await pilot.press("slash")
        reader.on_search_bar_changed(SearchBar.Changed("fp8"))
        assert "/fp8  searching…" in bar(app) and listed(app) == everything
        assert reader.filters.query == ""
        await workers_done(pilot, reader, "search")
        assert reader.filters.query == "fp8" and listed(app) == plain(app, "fp8")
        assert "searching" not in bar(app)


async def test_a_jump_mid_scan_to_a_match_past_the_first_rows_keeps_the_search(
    tmp_path: Path, corpus: Path, long_scans
) -> None:
    app = app_at(tmp_path, corpus)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        reader = app.reader
        await pilot.press("slash")
        reader.on_search_bar_changed(SearchBar.Changed("ca"))
        last = plain(app, "ca")[-1]
        assert last not in listed(app)  # not among the first rows yet
        reader.jump_to_review(last)  # the palette's way: filters that hide it are cleared
        assert reader.filters.query == "ca" and listed(app) == plain(app, "ca")
        assert reader.current_key == last


@pytest.fixture
def texts_being_made(monkeypatch: pytest.MonkeyPatch) -> None:
    """The search's texts made only once the box opens (as past
    `PREPARE_AHEAD_MAX` reviews), and that work left a minute after its first
    piece: every character below is typed while they are still being made."""
    monkeypatch.setattr(search_keys, "PREPARE_AHEAD_MAX", 0)
    monkeypatch.setattr(search_keys, "PREPARE_SLICE_S", 0.0)
    monkeypatch.setattr(search_keys, "PREPARE_PAUSE_S", 60.0)


async def test_the_first_rows_come_in_the_keys_frame_while_texts_are_made(
    tmp_path: Path, corpus: Path, long_scans, texts_being_made
) -> None:
    """The first search of a session at 100,000 reviews came before its texts
    were made: it showed "searching" until every candidate's text was. Now
    its candidates are tested in the list's order, each text made as reached,
    so the key's own frame lists the first page."""
    app = app_at(tmp_path, corpus)
    frames: list[tuple[str, list[str], str, int]] = []

    def recording() -> None:
        box = app.reader.search_bar._input if app.screen_stack else None
        if box is not None:
            frames.append((box.value, listed(app), screen_text(app), len(app.reader.search_index)))

    on_each_frame(app, recording)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        reader = app.reader
        total = len(reader.library.reviews)
        assert len(reader.search_index) == 0  # nothing made ahead
        await pilot.press("slash")
        await pilot.pause()
        assert len(reader.search_index) < total // 10  # the first piece, then a minute's pause
        seen = len(frames)
        await pilot.press("s")
        answer = plain(app, "s")
        box, first, text, made = frames[seen]  # the key's
        assert box == "s"
        assert page(app) <= len(first) < len(answer)
        assert first == answer[: len(first)]  # the start of the plain answer
        assert f"/s  {len(first)}+ reviews, counting…" in text and "searching" not in text
        assert made < total // 2  # its texts, made in the list's order, and few more
        await workers_done(pilot, reader, "search")
        assert listed(app) == answer
        assert f"/s  {len(answer)} reviews" in screen_text(app) and "counting" not in bar(app)
        assert len(reader.search_index) == total  # the rest made for the count


async def test_typed_on_while_texts_are_made_every_answer_is_the_plain_scans(
    tmp_path: Path, corpus: Path, long_scans, texts_being_made
) -> None:
    app = app_at(tmp_path, corpus)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        reader = app.reader
        await pilot.press("slash")
        for typed in ("s", "sc", "sch", "sc", "sch", "sche"):  # over scans making texts
            reader.on_search_bar_changed(SearchBar.Changed(typed))
            assert listed(app) == plain(app, typed)[: len(listed(app))] or "searching" in bar(app)
        assert len(reader.search_index) < len(reader.library.reviews)
        await workers_done(pilot, reader, "search")
        assert reader.filters.query == "sche" and listed(app) == plain(app, "sche")
        await pilot.press("escape", "slash", "k", "v")
        await workers_done(pilot, reader, "search")
        assert listed(app) == plain(app, "kv") and "counting" not in bar(app)


async def test_a_big_answers_lists_are_old_before_the_next_key(
    tmp_path: Path, corpus: Path, long_scans, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under the reader's collector (`tui.runtime`), a scan's whole answer has
    the young generations collected after its frame: its lists (the matches,
    their texts) are no longer young when the next key comes, so no young
    collection inside that key's frame walks them."""
    import gc

    from tui import runtime

    monkeypatch.setattr(search_keys, "YOUNG_AFTER", 1)
    app = app_at(tmp_path, corpus)
    with runtime.installed():
        async with app.run_test(size=(120, 40)) as pilot:
            await settled(app, pilot)
            runtime.loaded()
            await pilot.press("slash", "s", "c")
            await workers_done(pilot, app.reader, "search")
            await pilot.pause()
            answer = plain(app, "sc")
            assert listed(app) == answer and len(answer) > 20
            reviews = app.reader.search_index._lists[-1].full[("sc",)].reviews
            assert [r.key for r in reviews] == answer
            young = {id(one) for generation in (0, 1) for one in gc.get_objects(generation)}
            assert id(reviews) not in young
