"""Refs in the reader's screen: the review's refs resolved in the user's clone
as it is selected (off the loop, `tui.ui.clone_session`), the ones found marked
in the review pane, `enter` on an item opening its ref (again: the next) in
the code pane, which takes the review pane's place until `escape`; there `e`
opens the editor, `d` / `D` the PR's diff and `space` checks the item or note
the file was opened from, as `space` on it in the review pane does (a
`read_order` step: the route's next stop is one key away).

Resolving is `tui.clone`'s; the clone is found from `--repo-dir`, the config's
`repos:`, or the current folder. Without one the reader works as before, and
the first `enter` on a ref says how to set one.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from tui.core.model import SECTIONS, Review
from tui.i18n import words
from tui.ui.mark_keys import MarkKeys
from tui.ui.widgets.code_pane import CodePane
from tui.ui.widgets.review_blocks import check_mark
from tui.ui.widgets.review_view import ReviewView

if TYPE_CHECKING:
    from tui.clone.find import Clone
    from tui.clone.resolve import Candidate, Resolution, ReviewRefs
    from tui.ui.clone_session import CloneSession
    from tui.ui.widgets.code_view import CodeFile

OPENS = ("found", "ambiguous")
"""Statuses of the refs `enter` opens (marked in the review pane)."""


class RefKeys(MarkKeys):
    _clones: CloneSession | None = None
    repo_dir: Path | None = None  # `--repo-dir`, for this run
    repos: dict[str, Path] | None = None  # the config's `repos:`, as the App read it
    _turn: tuple[str, str, int, int] | None = None  # the last `enter`: review, place, index, which ref
    _pending: tuple[str, str, int] | None = None  # an `enter` waiting for its review's refs
    _origin: tuple[str, str, int] | None = None  # what the code pane was opened from

    @property
    def clones(self) -> CloneSession:
        """Made (and its module imported) when the first review is shown."""
        if self._clones is None:
            from tui.ui.clone_session import CloneSession

            self._clones = CloneSession(self._refs_resolved)
            self._clones.repo_dir = self.repo_dir
            if self.repos is not None:
                self._clones.use_repos(self.repos)
        return self._clones

    @property
    def code_pane(self) -> CodePane:
        return self.query_one(CodePane)

    # -- resolving -------------------------------------------------------------

    def _refresh_review(self) -> None:
        """The review with its refs marked (those resolved already), and its
        refs resolved in the background if they are not (or not lately)."""
        review = self.library.by_key.get(self.current_key) if self.current_key else None
        if self._origin is not None and (review is None or review.key != self._origin[0]):
            self.close_code(focus=False)  # another review: the file was this one's
        if review is not None:
            refs = self.clones.refs_of(review) or self.clones.last_of(review.key)
            self.review_view.resolved_refs = openable(refs)
        super()._refresh_review()
        if review is not None:
            self.call_after_refresh(self._want_refs, review)

    def _want_refs(self, review: Review) -> None:
        if self.is_attached and review.key == self.current_key:
            self.clones.want(self.app, review)

    def _refs_resolved(self, refs: ReviewRefs) -> None:
        if refs.review_key != self.current_key:
            return
        self.review_view.set_refs(openable(refs))
        if self._pending is not None and self._pending[0] == refs.review_key:
            _, place, index = self._pending
            self._pending = None
            review = self.library.by_key.get(refs.review_key)
            if review is not None:
                self._open_item(review, refs, place, index)

    # -- enter -------------------------------------------------------------------

    def on_review_view_ref_opened(self, message: ReviewView.RefOpened) -> None:
        review = self.library.by_key.get(message.review_key)
        if review is None:
            return
        refs = self.clones.refs_of(review)
        if refs is None:
            self._pending = (review.key, message.place, message.index)
            self.clones.want(self.app, review)
            self.notify(words().refs_resolving, timeout=2, markup=False)
            return
        self._open_item(review, refs, message.place, message.index)

    def _open_item(self, review: Review, refs: ReviewRefs, place: str, index: int) -> None:
        uses = [r for r in refs.of_item(place, index) if r.ref.is_ref]
        if not uses:
            self.notify(words().no_item_refs, timeout=3, markup=False)
            return
        turn = self._turn
        n = (turn[3] + 1) % len(uses) if turn is not None and turn[:3] == (review.key, place, index) else 0
        self._turn = (review.key, place, index, n)
        resolution = uses[n]
        origin = (review.key, place, index)
        status = resolution.status
        if status == "found" and refs.clone is not None and resolution.target is not None:
            self._open_target(refs.clone, resolution.target, origin)
        elif status == "ambiguous" and refs.clone is not None:
            self._pick(refs.clone, resolution, origin)
        elif status == "no-clone":
            self._say_no_clone(review.repo, refs.note)
        else:
            self.notify(
                words().ref_missing.format(ref=resolution.ref.text),
                severity="warning",
                timeout=4,
                markup=False,
            )

    def _say_no_clone(self, repo: str, note: str | None) -> None:
        """How to set a clone, the first time; after that, shortly."""
        noted = self.clones.noted
        if repo in noted:
            self.notify(words().no_clone_again.format(repo=repo), timeout=3, markup=False)
            return
        noted.add(repo)
        message = note or words().no_clone.format(repo=repo, config="config.yaml")
        self.notify(message, severity="warning", timeout=12, markup=False)

    def _pick(self, clone: Clone, resolution: Resolution, origin: tuple[str, str, int]) -> None:
        from tui.ui.screens.ref_picker import RefPicker

        candidates = list(resolution.candidates)

        def chosen(index: int | None) -> None:
            if index is not None and 0 <= index < len(candidates):
                self._open_target(clone, candidates[index], origin)

        self.app.push_screen(RefPicker(resolution.ref.text, [str(c) for c in candidates]), chosen)

    def _open_target(self, clone: Clone, target: Candidate, origin: tuple[str, str, int]) -> None:
        """The file now if it was read with the refs; else read in a worker first."""
        file = self.clones.cached_file(clone, target)
        if file is not None:
            self.show_code(file, origin)
            return

        def read() -> None:
            try:
                found = self.clones.open_file(clone, target)
            except Exception as exc:  # a folder, a file gone since, git failing: said, never raised
                error = getattr(exc, "strerror", None) or str(exc)
                self.app.call_from_thread(
                    self.notify,
                    words().open_failed.format(path=target.path, error=error),
                    severity="warning",
                    timeout=6,
                    markup=False,
                )
                return
            self.app.call_from_thread(self.show_code, found, origin)

        self.run_worker(read, thread=True, group="open-ref", exit_on_error=False)

    # -- the code pane -------------------------------------------------------------

    def show_code(self, file: CodeFile, origin: tuple[str, str, int]) -> None:
        if origin[0] != self.current_key:
            return  # the reader has moved on since
        pane = self.code_pane
        self._origin = origin
        pane.show_file(file, self._origin_note())
        self.review_view.add_class("-covered")
        pane.add_class("-open")
        self.pane = "review"
        self.set_focus(pane.code_view)

    def close_code(self, *, focus: bool = True) -> None:
        if self._origin is None:
            return
        self._origin = None
        self.code_pane.remove_class("-open")
        self.review_view.remove_class("-covered")
        if focus:
            self._focus_pane("review")

    def _focus_pane(self, pane: str) -> None:
        """The review's place is the code pane's while it is open."""
        if pane == "review" and self._origin is not None:
            self.pane = pane
            self.set_focus(self.code_pane.code_view)
            return
        super()._focus_pane(pane)

    def _origin_item(self) -> tuple[Review, str, int, int] | None:
        """The review, item key, position and count of the item or note the code pane was opened from."""
        if self._origin is None:
            return None
        key, place, index = self._origin
        review = self.library.by_key.get(key)
        if review is None or place not in SECTIONS:
            return None
        items = review.items(place)
        if not 0 <= index < len(items):
            return None
        return review, items[index].key, index, len(items)

    def _origin_note(self) -> str:
        found = self._origin_item()
        if found is None:
            return ""
        review, item_key, index, total = found
        assert self._origin is not None
        place = self._origin[1]
        box = check_mark(place, item_key in self.checked(review))  # as the review pane shows it
        section = words().section_headings[place]
        return words().code_opened_from.format(section=section, n=index + 1, total=total, box=box)

    def on_code_pane_closed(self, message: CodePane.Closed) -> None:
        self.close_code()

    def on_code_pane_check_item(self, message: CodePane.CheckItem) -> None:
        found = self._origin_item()
        if found is None:
            self.app.bell()
            return
        review, item_key, _, _ = found
        self.set_checked(review.key, item_key, item_key not in self.checked(review))
        self.code_pane.set_note(self._origin_note())

    def on_code_pane_open_editor(self, message: CodePane.OpenEditor) -> None:
        file = self.code_pane.file
        if not message.path:
            if file is not None:  # read from a commit: its title says which, and read-only
                self.notify(file.title(), timeout=4, markup=False)
            return
        from tui.ui import handover

        handover.edit_file(self.app, Path(message.path), message.line)

    def on_code_pane_show_diff(self, message: CodePane.ShowDiff) -> None:
        review = self.library.by_key.get(self._origin[0]) if self._origin else None
        refs = self.clones.refs_of(review) if review is not None else None
        if review is None or refs is None or refs.clone is None:
            return
        if refs.pr_commit is None:
            if review.pr is not None:
                note = words().pr_not_in_clone.format(pr=review.pr)
            else:
                note = words().no_pr_commit
            self.notify(note, severity="warning", timeout=5, markup=False)
            return
        clone, commit, path, pr = refs.clone, refs.pr_commit, message.path, review.pr

        def load() -> None:
            from tui.clone import content

            try:
                if path is None:
                    parts = [(part.path, part.text) for part in content.diff_by_file(clone, commit)]
                else:
                    text = content.file_diff(clone, commit, path)
                    parts = [(path, text)] if text else []
            except Exception as exc:  # git failing: said, never raised
                self.app.call_from_thread(self.notify, str(exc), severity="warning", timeout=6, markup=False)
                return
            self.app.call_from_thread(self._show_diff, pr, path, parts)

        self.run_worker(load, thread=True, group="diff", exit_on_error=False)

    def _show_diff(self, pr: int | None, path: str | None, parts: list[tuple[str, str]]) -> None:
        if path is not None and not parts:
            self.notify(words().no_diff.format(path=path), timeout=4, markup=False)
            return
        from tui.ui.screens.diff import DiffScreen

        if path is None:
            title = words().diff_title.format(pr=pr)
        else:
            title = words().file_diff_title.format(pr=pr, path=path)
        self.app.push_screen(DiffScreen(title, parts))


def openable(refs: ReviewRefs | None) -> frozenset[str]:
    if refs is None:
        return frozenset()
    return frozenset(r.ref.text for r in refs.resolutions if r.status in OPENS)
