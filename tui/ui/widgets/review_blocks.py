"""What a review shows, paragraph by paragraph: its title, verdict, marks,
banners, summary and sections as blocks of styled runs, for `ReviewView` to
wrap and draw. Styles are the view's component class names."""

from __future__ import annotations

from collections.abc import Hashable
from typing import NamedTuple

from tui.core.changes import ReviewChanges
from tui.core.model import CHECKABLE, SECTIONS, Item, Review
from tui.core.search import split_runs
from tui.core.text import code_refs, code_spans
from tui.i18n import words
from tui.ui import presenting

Runs = list[tuple[str, Hashable]]


def check_mark(section: str, checked: bool) -> str:
    """How an item of `section` shows whether it is checked: a box for a
    checklist item, a tick or a bullet for a note."""
    if section in CHECKABLE:
        return "[✓]" if checked else "[ ]"
    return "✓" if checked else "•"


class Block:
    """A paragraph to lay out: runs of (text, style name) behind a prefix.
    (A plain class: see `tui.core.changes.ReviewChanges`.)"""

    __slots__ = ("fill", "gap_before", "item", "prefix", "runs", "searched")

    def __init__(
        self,
        runs: Runs,
        prefix: Runs,
        item: int | None = None,  # index into the cursor's stops (checklist, then notes)
        fill: str | None = None,  # a style for the whole line (focus items)
        gap_before: int = 0,
        searched: bool = True,  # search matches are highlighted here (not in the UI's own lines)
    ) -> None:
        self.runs = runs
        self.prefix = prefix
        self.item = item
        self.fill = fill
        self.gap_before = gap_before
        self.searched = searched


class Shown(NamedTuple):
    """The reader's marks and search on a review, as the view shows them."""

    checklist: tuple[Item, ...]
    checked: frozenset[str]
    read: bool
    changes: ReviewChanges | None
    stale: bool
    hint_keys: dict[str, str]  # key names shown in hints, after remapping
    terms: tuple[str, ...]
    refs: frozenset[str] = frozenset()  # ref texts found in the user's clone: marked
    no_color: bool = False


def review_blocks(review: Review | None, shown: Shown) -> list[Block]:
    if review is None:
        return [Block([(words().no_review, "dim")], [(" ", None)])]
    blocks: list[Block] = []
    pad: Runs = [(" ", None)]
    blocks.append(Block([(review.title, "title")], pad))
    meta: Runs = [
        (f" {words().verdict_words.get(review.verdict, review.verdict)} ", f"verdict-{review.verdict}"),
    ]
    for tag in review.tags:
        meta += [("  ", None), (f"#{tag}", "tag")]
    blocks.append(Block(meta, pad, searched=False))
    state: Runs = [("✓ " + words().read, "read") if shown.read else ("● " + words().not_read, "unread")]
    if shown.checklist:
        done = sum(1 for item in shown.checklist if item.key in shown.checked)
        state += [
            ("  ", None),
            (words().checked_count.format(done=done, total=len(shown.checklist)), "meta"),
        ]
    state += [("  ", None), (review.repo, "meta")]
    if review.pr is not None:
        state += [(f"#{review.pr}", "meta")]
    if review.date:
        state += [("  ", None), (review.date, "meta")]
    blocks.append(Block(state, pad, searched=False))
    if review.link:
        blocks.append(Block([(review.link, "meta")], pad, searched=False))
    if shown.stale:
        banner = "⚠ " + words().stale_banner.format(problems=shown.hint_keys.get("problems", "p"))
        blocks.append(Block([(banner, "stale")], pad, gap_before=1, searched=False))
    if shown.changes:
        described = words().change_sep.join(
            f"{what} {how}" for what, how in presenting.describe_changes(shown.changes, review)
        )
        text = words().updated_banner.format(
            since=words().updated_since_read,
            what=described,
            hint=words().updated_hint.format(read=shown.hint_keys.get("read", "r")),
        )
        blocks.append(Block([(text, "banner")], pad, gap_before=1, searched=False))
    if review.verdict_note:
        blocks.append(Block(_styled(review.verdict_note, "note", shown), pad, gap_before=1))
    for paragraph in review.summary.split("\n\n"):
        blocks.append(Block(_styled(paragraph, None, shown), pad, gap_before=1))
    index = 0
    for section in SECTIONS:
        items = review.items(section)
        if not items:
            continue
        heading: Runs = [(words().section_headings[section], "heading")]
        if section in CHECKABLE:
            done = sum(1 for item in items if item.key in shown.checked)
            heading += [(f"  {done}/{len(items)}", "meta")]
        blocks.append(Block(heading, pad, gap_before=1, searched=False))
        for number, item in enumerate(items, 1):
            text_style = "focus" if section == "focus" else None
            runs = _styled(item.text, text_style, shown)
            if shown.changes and (badge := _badge(shown.changes, item.key)):
                runs = [(f"{badge} ", "badge"), *runs]
            extra = [ref for ref in item.refs if ref not in code_refs(item.text)]
            if extra:
                runs += [("  → ", "dim")]
                for n, ref in enumerate(extra):
                    runs += [(", ", "dim")] if n else []
                    runs += _code(ref, shown)
            checked = item.key in shown.checked
            if section in CHECKABLE:
                lead: Runs = [(f"{check_mark(section, checked)} ", "checked" if checked else "box")]
                if section == "read_order":
                    lead += [(f"{number}. ", "meta")]
                bar: Runs = [(" ▌", "focus-bar")] if section == "focus" else [("  ", None)]
                blocks.append(
                    Block(runs, bar + lead, item=index, fill="focus" if section == "focus" else None)
                )
            else:  # a note: the cursor stops on it too
                note_mark: Runs = [(f"  {check_mark(section, checked)} ", "checked" if checked else "dim")]
                blocks.append(Block(runs, note_mark, item=index))
            index += 1
    if shown.terms:
        for block in blocks:
            if block.searched:
                block.runs, _ = split_runs(block.runs, shown.terms)
    return blocks


def _badge(changes: ReviewChanges, key: str) -> str | None:
    if key in changes.added:
        return words().change_badges["added"]
    if key in changes.edited:
        return words().change_badges["edited"]
    return None


def _styled(text: str, base: str | None, shown: Shown) -> Runs:
    """Runs for a text whose backticked spans are code (refs found in the clone marked)."""
    runs: Runs = []
    for run, is_code in code_spans(text):
        runs += _code(run, shown) if is_code else [(run, base)]
    return runs


def _code(text: str, shown: Shown) -> Runs:
    """A code span: underlined when it is a ref found in the clone, and then,
    with NO_COLOR (where the underline may be all that tells it), a `*` after it."""
    if text not in shown.refs:
        return [(text, "code")]
    return [(text + "*" if shown.no_color else text, "ref")]
