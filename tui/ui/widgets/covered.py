"""The reader's containers, which its panes cover edge to edge: nothing of
their own is ever seen, so they draw nothing of their own (Textual's `BLANK`:
one blank strip for every line). Each layout drew both of them in full, ~37
lines apiece at 120x40, under the panes that cover them (`/` and escape)."""

from __future__ import annotations

from textual.containers import Horizontal, Vertical


class CoveredRow(Horizontal):
    BLANK = True


class CoveredColumn(Vertical):
    BLANK = True
