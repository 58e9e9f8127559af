"""Saved views, mutes, `read_on_open` and the Repos section, as a user meets them:
the sidebar and its counts, the digits, the palette, the filter line, `x` and `z`."""

from __future__ import annotations

from pathlib import Path

from textual.command import CommandPalette

from tests.app_helpers import all_saved, screen_text, settled
from tests.ui.test_palette import choose, palette
from tui.core.filters import repo_key, view_key
from tui.core.model import ALL_TAG
from tui.ui.app import PrDigestApp
from tui.ui.widgets.filter_bar import FilterBar
from tui.ui.widgets.review_list import ReviewList
from tui.ui.widgets.review_view import ReviewView
from tui.ui.widgets.tag_list import TagList

ALPHA = """repo: o/alpha
entries:
  - {title: Alpha deep kernels, pr: 1, tags: [rocm, kernels], verdict: deep, summary: s}
  - {title: Alpha skim docs, pr: 2, tags: [docs], verdict: skim, summary: s}
  - {title: Alpha ci bump, pr: 3, tags: [ci], verdict: skip, summary: s}
"""
BETA = """repo: o/beta
entries:
  - {title: Beta deep rocm, pr: 10, tags: [rocm], verdict: deep, summary: s}
  - {title: Beta quick ci, pr: 11, tags: [ci, kernels], verdict: quick, summary: s}
"""
CONFIG = """views:
  rocm-deep: {tags: [rocm, kernels], verdict: [deep], unread: true}
  docs: {tags: [docs, nosuch]}
  beta: {repos: [o/beta]}
mute: [ci]
read_on_open: [skim]
"""


def digest(tmp_path: Path, *, two_repos: bool = True, config: str = CONFIG) -> PrDigestApp:
    entries = tmp_path / "entries"
    entries.mkdir(exist_ok=True)
    (entries / "a.yaml").write_text(ALPHA, encoding="utf-8")
    beta = BETA if two_repos else BETA.replace("o/beta", "o/alpha")
    (entries / "b.yaml").write_text(beta, encoding="utf-8")
    path = tmp_path / "config.yaml"
    path.write_text(config, encoding="utf-8")
    return PrDigestApp([entries], tmp_path / "state.json", config_path=path, watch=False)


def rows(app: PrDigestApp) -> dict[str, tuple[int, int]]:
    return {count.tag: (count.unread, count.total) for count in app.query_one(TagList).counts}


def listed(app: PrDigestApp) -> list[str]:
    return [review.title for review in app.query_one(ReviewList).reviews]


def filter_line(app: PrDigestApp) -> str:
    return app.query_one(FilterBar).plain


async def test_views_in_the_sidebar_between_unread_and_the_tags_with_counts(tmp_path: Path) -> None:
    app = digest(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        tags = app.query_one(TagList).tags
        assert tags[:5] == [ALL_TAG, "\x00unread", view_key("rocm-deep"), view_key("docs"), view_key("beta")]
        assert tags.index(view_key("beta")) < tags.index("rocm")
        counts = rows(app)
        # Muted `ci` (2 reviews) is in no count but its own.
        assert counts[ALL_TAG] == (3, 3)
        assert counts[view_key("rocm-deep")] == (2, 2)
        assert counts[view_key("docs")] == (1, 1)
        assert counts[view_key("beta")] == (1, 1)  # Beta quick ci is muted
        assert counts["ci"] == (2, 2)
        assert counts["kernels"] == (1, 1)
        text = screen_text(app)
        assert "◆ rocm-deep" in text and "◆ docs" in text
        await pilot.press("r")  # Alpha deep kernels, first in reading order, read
        await all_saved(app, pilot)
        counts = rows(app)
        assert counts[ALL_TAG] == (2, 3)
        assert counts[view_key("rocm-deep")] == (1, 2)
        assert counts["kernels"] == (0, 1)


async def test_a_digit_chooses_a_view_the_filter_line_names_it_and_x_clears_it(tmp_path: Path) -> None:
    app = digest(tmp_path)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settled(app, pilot)
        await pilot.press("1")
        await pilot.pause()
        assert app.reader.filters.tag == view_key("rocm-deep")
        assert listed(app) == ["Alpha deep kernels", "Beta deep rocm"]
        line = filter_line(app)
        assert (
            "◆ rocm-deep" in line and "#kernels | #rocm" in line and "Deep read" in line and "unread" in line
        )
        assert app.query_one(TagList).tag == view_key("rocm-deep")  # highlighted in the sidebar
        assert app.focused is app.query_one(ReviewList)
        await pilot.press("3")
        await pilot.pause()
        assert listed(app) == ["Beta deep rocm"]  # its repo, less the muted review
        assert "o/beta" in filter_line(app)
        await pilot.press("x")
        await pilot.pause()
        assert app.reader.filters.tag == ALL_TAG and not app.reader.filters.active
        assert listed(app) == ["Alpha deep kernels", "Beta deep rocm", "Alpha skim docs"]
        assert "none" in filter_line(app)
        await pilot.press("9")  # no ninth view: said, nothing changes
        await pilot.pause()
        assert not app.reader.filters.active
        assert any("No view 9" in str(n.message) for n in app._notifications)


async def test_leaving_a_view_in_the_sidebar_drops_what_it_set(tmp_path: Path) -> None:
    app = digest(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        await pilot.press("shift+tab")  # the tags
        await pilot.press("j", "j")  # Unread, then the first view
        await pilot.pause()
        assert app.reader.filters.tag == view_key("rocm-deep")
        assert app.reader.filters.unread
        await pilot.press("j")  # the second view: only what it names
        await pilot.pause()
        assert app.reader.filters.tag == view_key("docs") and not app.reader.filters.unread
        assert listed(app) == ["Alpha skim docs"]
        for _ in range(2):
            await pilot.press("j")
        await pilot.pause()
        assert app.reader.filters.tag == "ci"  # the first tag (most reviews) after the views
        assert not app.reader.filters.sets
        assert listed(app) == ["Beta quick ci", "Alpha ci bump"]  # muted, listed under their tag


async def test_a_view_naming_an_unknown_tag_is_a_warning_naming_the_file_and_view(tmp_path: Path) -> None:
    app = digest(tmp_path)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settled(app, pilot)
        messages = [str(n.message) for n in app._notifications]
        assert any(
            str(tmp_path / "config.yaml") in m and "`docs`" in m and "`nosuch`" in m for m in messages
        ), messages
        await pilot.press("2")  # the rest of the view still applies
        await pilot.pause()
        assert listed(app) == ["Alpha skim docs"]


async def test_views_in_the_palette(tmp_path: Path) -> None:
    app = digest(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        shown = await palette(pilot, "rocm-d")
        assert "View: rocm-deep" in shown
        assert not any(s.startswith("Tag: ◆") for s in shown)  # not a tag
        await choose(pilot, "View: rocm-deep")
        assert not isinstance(app.screen, CommandPalette)
        assert app.reader.filters.tag == view_key("rocm-deep")
        assert listed(app) == ["Alpha deep kernels", "Beta deep rocm"]


async def test_muted_reviews_leave_all_and_stay_dimmed_under_their_tag(tmp_path: Path) -> None:
    app = digest(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        assert "Alpha ci bump" not in listed(app) and "Beta quick ci" not in listed(app)
        assert "3 reviews · 3 unread" in screen_text(app)  # the status bar does not count them
        app.reader.jump_to_tag("kernels")
        await pilot.pause()
        assert listed(app) == ["Alpha deep kernels", "Beta quick ci"]
        muted = {row.review.title: row.muted for row in app.query_one(ReviewList).rows}
        assert muted == {"Alpha deep kernels": False, "Beta quick ci": True}
        listing = app.query_one(ReviewList)
        dim = listing.get_component_rich_style("review-list--title-muted")
        strip = listing.render_line(2)  # Beta quick ci's first line (not the cursor's row)
        assert any(seg.text.startswith("Beta quick ci") and seg.style == dim for seg in strip)
        assert next(c for c in app.query_one(TagList).counts if c.tag == "ci").dim


async def test_the_palette_mutes_and_unmutes_a_tag(tmp_path: Path) -> None:
    app = digest(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        shown = await palette(pilot, "unmute #ci")
        assert shown[0] == "Unmute #ci"
        await choose(pilot, "Unmute #ci")
        assert app.reader.mute == frozenset()
        assert rows(app)[ALL_TAG] == (5, 5)
        assert "Beta quick ci" in listed(app)
        shown = await palette(pilot, "mute #docs")
        await choose(pilot, "Mute #docs")
        assert app.reader.mute == {"docs"}
        assert rows(app)[ALL_TAG] == (4, 4)
        assert "Alpha skim docs" not in listed(app)
        assert rows(app)[view_key("docs")] == (0, 0)  # views lose muted reviews too
    assert "mute" not in (tmp_path / "config.yaml").read_text().split("views:")[0]  # never written


async def test_read_on_open_marks_a_skim_read_and_z_undoes_it(tmp_path: Path) -> None:
    app = digest(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        state = app.reader.state
        await pilot.press("enter")  # a deep read: not in read_on_open
        await pilot.pause()
        first = app.reader.current_key
        assert app.focused is app.query_one(ReviewView)
        assert not state.is_read(first)
        await pilot.press("escape", "j", "j")  # previewing a skim does not mark it
        await pilot.pause()
        skim = app.reader.current_key
        assert app.reader.library.by_key[skim].verdict == "skim"
        assert not state.is_read(skim)
        await pilot.press("enter")
        await pilot.pause()
        assert state.is_read(skim)
        await all_saved(app, pilot)
        assert rows(app)[ALL_TAG] == (2, 3)
        await pilot.press("z")
        await all_saved(app, pilot)
        assert not state.is_read(skim)
        assert rows(app)[ALL_TAG] == (3, 3)
    reopened = digest(tmp_path)
    async with reopened.run_test(size=(120, 40)) as pilot:
        await settled(reopened, pilot)
        assert not reopened.reader.state.is_read(skim)  # the undo was saved


async def test_a_two_repo_digest_has_a_repos_section_and_the_repo_in_each_row(tmp_path: Path) -> None:
    app = digest(tmp_path, config="mute: [ci]\n")
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        counts = rows(app)
        assert counts[repo_key("o/alpha")] == (2, 2) and counts[repo_key("o/beta")] == (1, 1)
        text = screen_text(app)
        assert "Repos" in text
        assert "Deep read  o/alpha" in text and "Deep read  o/beta" in text
        app.reader.jump_to_tag(repo_key("o/beta"))
        await pilot.pause()
        assert listed(app) == ["Beta deep rocm"]
        assert "o/beta" in filter_line(app)
        await pilot.press("r")
        await all_saved(app, pilot)
        assert rows(app)[repo_key("o/beta")] == (0, 1)


async def test_with_nothing_muted_each_review_counts_under_all_its_tags_and_its_repo(tmp_path: Path) -> None:
    app = digest(tmp_path, config="read_on_open: []\n")
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        assert rows(app) == {
            ALL_TAG: (5, 5),
            "\x00unread": (5, 5),
            "rocm": (2, 2),
            "kernels": (2, 2),
            "ci": (2, 2),
            "docs": (1, 1),
            repo_key("o/alpha"): (3, 3),
            repo_key("o/beta"): (2, 2),
        }
        assert listed(app)[0] == "Alpha deep kernels"
        await pilot.press("r")
        await all_saved(app, pilot)
        counts = rows(app)
        assert counts[ALL_TAG] == (4, 5) and counts["kernels"] == (1, 2) and counts["rocm"] == (1, 2)
        assert counts[repo_key("o/alpha")] == (2, 3) and counts[repo_key("o/beta")] == (2, 2)


async def test_one_repo_changes_nothing(tmp_path: Path) -> None:
    app = digest(tmp_path, two_repos=False, config="mute: [ci]\n")
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        assert not any(tag.startswith("\x00repo:") for tag in app.query_one(TagList).tags)
        assert "Repos" not in screen_text(app)
        assert all(row.repo == "" for row in app.query_one(ReviewList).rows)
