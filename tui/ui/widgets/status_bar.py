"""One line at the top: how much is loaded and unread, problems, then the repos."""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Static

from tui.i18n import words


class StatusBar(Static):
    _shown: list[tuple[str, str] | str] | None = None

    def show(
        self,
        repos: list[str],
        reviews: int,
        unread: int,
        problems: int,
        loading: tuple[int, int] | None = None,
    ) -> None:
        # Counts and warnings first: the repo list is the part that may be cut off.
        parts: list[tuple[str, str] | str] = [
            ("prdigest-tui", "bold"),
            "  " + words().status_counts.format(reviews=f"{reviews:,}", unread=f"{unread:,}"),
        ]
        if problems:
            parts += ["  ", (words().plural(words().status_problems, problems), "bold $error")]
        if loading is not None:
            done, total = loading
            parts += ["  ", (words().status_loading.format(done=f"{done:,}", total=f"{total:,}"), "$warning")]
        if repos:
            parts += ["  ", (", ".join(repos), "$accent")]
        if parts == self._shown:
            return  # a filter or tag key asks again: drawn as it is, the line is left alone
        self._shown = parts
        self.update(Content.assemble(*parts), layout=False)  # one line, fixed size: no layout needed
