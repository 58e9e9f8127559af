"""One line at the top: how much is loaded and unread, problems, then the repos."""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Static


class StatusBar(Static):
    def show(
        self,
        repos: list[str],
        reviews: int,
        unread: int,
        problems: int,
        filter_label: str,
        loading: tuple[int, int] | None = None,
    ) -> None:
        # Counts and warnings first: the repo list is the part that may be cut off.
        parts: list[tuple[str, str] | str] = [
            ("prdigest-tui", "bold"),
            f"  {reviews:,} reviews · {unread:,} unread",
        ]
        if filter_label:
            parts += ["  ", (f"[{filter_label}]", "$warning")]
        if problems:
            noun = "problem" if problems == 1 else "problems"
            parts += ["  ", (f"⚠ {problems:,} {noun} (p)", "bold $error")]
        if loading is not None:
            done, total = loading
            parts += ["  ", (f"loading {done:,}/{total:,} files…", "$warning")]
        if repos:
            parts += ["  ", (", ".join(repos), "$accent")]
        self.update(Content.assemble(*parts))
