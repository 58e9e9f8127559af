"""The reader's saved views, mutes and reading habits from the config: `1`-`9`
choose the first nine views, the palette chooses any view and mutes or unmutes
a tag until the reader quits, and a review whose verdict is in `read_on_open`
is marked read when it is opened (`z` undoes it like any mark). The news hook
(`tui.ui.news_feed`) hears of reviews that arrived. What a view lists is
`tui.core.views`'; what the sidebar counts, `tui.ui.sidebar`'s.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from tui.core.filters import tag_label, view_key
from tui.core.views import unknown_names
from tui.i18n import words
from tui.ui.mark_keys import MarkKeys

if TYPE_CHECKING:
    from pathlib import Path

    from textual.command import Provider

    from tui.store.config import Config


def _views_provider() -> type[Provider]:
    from tui.ui.view_commands import ViewCommands

    return ViewCommands


def _mutes_provider() -> type[Provider]:
    from tui.ui.view_commands import MuteCommands

    return MuteCommands


class ViewKeys(MarkKeys):
    COMMANDS = {_views_provider, _mutes_provider}

    config_path: Path | None = None
    news_hook: Callable[[Sequence[str] | None], None] | None = None
    """Told the keys of reviews a reload added or updated, and None once the
    first load is done (`tui.ui.news_feed.NewsFeed` sets it)."""

    def configure(self, config: Config, path: Path) -> None:
        """The config's views, mutes and `read_on_open`; read before the screen mounts."""
        self.config_path = path
        self.views = dict(config.views)
        self.mute = config.mute
        self.read_on_open = config.read_on_open
        self.repos: dict[str, Path] | None = dict(config.repos)  # for the clone session (ref_keys)
        self.sidebar.forget()

    def loaded(self) -> None:
        """Every file of the first load is in: warn of views naming tags no review
        has (the rest of the view still applies), and tell the news hook."""
        for view, tag in unknown_names(self.views, self.library.tags):
            self.notify(
                words().config_view_unknown_tag.format(path=self.config_path, view=view, tag=tag),
                title=words().config,
                severity="warning",
                timeout=12,
                markup=False,
            )
        self.news_arrived(None)

    def news_arrived(self, keys: Sequence[str] | None) -> None:
        if self.news_hook is not None:
            self.news_hook(keys)

    # -- views -------------------------------------------------------------------

    def action_choose_view(self, number: int) -> None:
        """`1`-`9`: the views in the order the config names them."""
        names = list(self.views)
        if not 1 <= number <= len(names):
            self.notify(words().no_view.format(n=number), timeout=4, markup=False)
            return
        self.choose_view(names[number - 1])

    def choose_view(self, name: str) -> None:
        if name in self.views:
            self.jump_to_tag(view_key(name))

    def jump_to_tag(self, tag: str) -> None:
        """A tag, view or repo from anywhere (the palette, `1`-`9`): chosen as in the sidebar."""
        self.filters = self.filters.choose(tag, self.views)
        self.tag_list.show_counts(self.sidebar_rows(), self.filters.tag)
        self._focus_pane("reviews")

    # -- mutes -------------------------------------------------------------------

    def set_muted(self, tag: str, muted: bool) -> None:
        """Mute or unmute a tag for this run (the config is never written)."""
        self.mute = self.mute | {tag} if muted else self.mute - {tag}
        self._refresh_all()
        template = words().muted_tag if muted else words().unmuted_tag
        self.notify(template.format(tag=tag_label(tag)), timeout=4, markup=False)

    # -- read on open ------------------------------------------------------------

    def watch_current_key(self) -> None:
        super().watch_current_key()
        if self.pane == "review":
            self._read_on_open()

    def watch_pane(self, pane: str) -> None:
        super().watch_pane(pane)
        if pane == "review":
            self._read_on_open()

    def _read_on_open(self) -> None:
        """The review shown in the review pane, marked read if its verdict says so."""
        if not self.read_on_open or self.current_key is None:
            return
        review = self.library.by_key.get(self.current_key)
        if review is None or review.verdict not in self.read_on_open or self.state.is_read(review.key):
            return
        from tui.core import marking

        marking.mark_read(self.state, self.undo_marks, [review])
        self._save()
