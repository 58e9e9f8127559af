"""The mark keys of the reader's screen (`r`, `R`, `z`, checking an item) and
its hand-offs to other programs (`o`, `c`, `e`). What a mark does is
`tui.core.marking`'s, undone by `tui.core.undo`; the hand-offs are
`tui.ui.handover`'s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tui.i18n import words
from tui.ui.panes import ReaderPanes

if TYPE_CHECKING:  # imported where used: start-up does not need them
    from tui.core.external import CopyTurn
    from tui.core.undo import ReadUndo


class MarkKeys(ReaderPanes):
    _undo_marks: ReadUndo | None = None
    _copy_turn: CopyTurn | None = None  # what `c` copied last: again, the next ref

    @property
    def undo_marks(self) -> ReadUndo:
        """What `z` undoes; made (and tui.core.undo imported) at the first mark."""
        if self._undo_marks is None:
            from tui.core.undo import ReadUndo

            self._undo_marks = ReadUndo()
        return self._undo_marks

    def set_checked(self, review_key: str, item_key: str, value: bool) -> None:
        """Check or uncheck an item (here or in the to-do view), and save."""
        from tui.core import marking

        review = self.library.by_key.get(review_key)
        if review is None:
            return
        marking.set_checked(self.state, review, item_key, value)
        self._save()

    def action_toggle_read(self) -> None:
        """Toggle read; on a review updated since it was read, mark it read again."""
        from tui.core import marking

        review = self._current_review()
        if review is None:
            self.app.bell()
            return
        marking.toggle_read(self.state, self.undo_marks, review)
        self._save()

    def action_mark_all_read(self) -> None:
        """Mark every review listed (the tag's, as filtered) read."""
        from tui.core import marking

        reviews = [r for r in self.review_list.reviews if not self.state.is_read(r.key)]
        if not reviews:
            self.notify(words().already_read, timeout=3, markup=False)
            return
        marking.mark_read(self.state, self.undo_marks, reviews)
        self._save()
        self.notify(words().plural(words().marked_read, len(reviews)), timeout=3, markup=False)

    def action_undo(self) -> None:
        restored = self.undo_marks.undo(self.state)
        if not restored:
            self.notify(words().nothing_to_undo, timeout=3, markup=False)
            return
        self._save()
        self.notify(words().plural(words().undone, len(restored)), timeout=3, markup=False)

    # -- other programs ----------------------------------------------------------

    def action_open_pr(self) -> None:
        from tui.ui import handover

        handover.open_pr(self.app, self._current_review())

    def action_copy(self) -> None:
        """In the review pane: the code ref of the item under the cursor (again:
        its next ref). Elsewhere, or with no ref there: the PR URL."""
        from tui.ui import handover

        review = self._current_review()
        item = self.review_view.cursor_item if self.pane == "review" and review is not None else None
        self._copy_turn = handover.copy(self.app, review, item, self._copy_turn)

    def action_edit(self) -> None:
        from tui.ui import handover

        review = self._current_review()
        if review is None:
            self.app.bell()
            return
        handover.edit(self.app, review)
