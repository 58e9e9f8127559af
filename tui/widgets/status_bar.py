"""One line at the top: what is loaded, how much is unread, and any problems."""

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
        parts: list[tuple[str, str] | str] = [("prdigest-tui", "bold")]
        if repos:
            parts += ["  ", (", ".join(repos), "$accent")]
        parts += [f"  {reviews} reviews · {unread} unread"]
        if filter_label:
            parts += ["  ", (f"[{filter_label}]", "$warning")]
        if loading is not None:
            done, total = loading
            parts += ["  ", (f"loading {done:,}/{total:,} files…", "$warning")]
        if problems:
            noun = "problem" if problems == 1 else "problems"
            parts += ["  ", (f"⚠ {problems} {noun} (p)", "bold $error")]
        self.update(Content.assemble(*parts))
