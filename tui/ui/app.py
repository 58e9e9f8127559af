"""The App: the theme, the user's config and keymap, the command palette, and
the two parts that do the work: the reader's screen (`tui.ui.reader`, the
panes and their keys) and the file reading (`tui.ui.loads`).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from textual import events
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.command import CommandPalette
from textual.reactive import Initialize, Reactive
from textual.screen import Screen

from tui import __version__, runtime
from tui.core.model import Review
from tui.core.text import clean
from tui.i18n import words
from tui.load.cache import ParseCache
from tui.load.first_frame import FirstPart
from tui.store.state import ReadState
from tui.ui import palette, signals, styles
from tui.ui.bindings import APP_BINDINGS, KEYS, READER_BINDINGS
from tui.ui.loads import Loads
from tui.ui.news_feed import NewsFeed
from tui.ui.patches import OneFrameScreen
from tui.ui.reader import ReaderScreen
from tui.ui.theme import follow_choice, remembered_theme
from tui.ui.widgets.search_bar import SearchBar

if TYPE_CHECKING:  # imported where used: start-up does not need them
    from tui.store.config import Config
    from tui.ui.commands import PaletteAction, PaletteTag

READER_ACTIONS = frozenset(binding.action for binding in READER_BINDINGS if isinstance(binding, Binding))


class PrDigestApp(App[None]):
    CSS_PATH = "app.tcss"
    TITLE = "prdigest-tui"
    COMMANDS = App.COMMANDS | {palette.reviews_provider, palette.tags_provider, palette.actions_provider}

    BINDINGS = APP_BINDINGS  # the reader's screen has the others: see tui/ui/bindings.py

    # The remembered theme from the start (`_initial_theme`), not set on mount:
    # setting it then has Textual parse the stylesheet again and restyle every
    # widget before the first frame.
    theme: Reactive[str] = Reactive(Initialize(lambda app: cast("PrDigestApp", app)._initial_theme))
    _initial_theme: str
    _unknown_theme: str | None

    def __init__(
        self,
        paths: list[Path],
        state_path: Path | ReadState | None,
        *,
        watch: bool = True,
        cache_path: Path | None = None,
        config_path: Path | None = None,
        ui_path: Path | None = None,
        first: FirstPart | None = None,
        config: Config | None = None,
        styles_path: Path | None = None,
        shipped_styles: Path | None = None,
    ) -> None:
        """`first`: the first frame's files, planned (and maybe being parsed) by
        the command line before Textual was imported (see first_frame.plan_first_part);
        it brings the parse cache, so `cache_path` is then not read. `config`:
        the file at `config_path` as the command line read it (`keys=False`),
        so it is not parsed again. `styles_path`: where the stylesheet's rules
        are kept from one start to the next (`tui.ui.styles`); None, parsed
        every start. `shipped_styles`: the rules shipped in the package, taken
        when none are kept at `styles_path` yet."""
        # Read before Textual's __init__, which builds the stylesheet's variables from the theme.
        self._initial_theme, self._unknown_theme = remembered_theme(ui_path)
        super().__init__()
        self.styles_path = styles_path
        if styles_path is not None:
            self.stylesheet = styles.kept(self.stylesheet, styles_path, shipped_styles)
        self.config_path = config_path
        self.given_config = config
        self.ui_path = ui_path
        self.keymap: dict[str, str] = {}  # binding id -> keys, from the user's config
        self._clashes: set[frozenset[str]] = set()
        state = state_path if isinstance(state_path, ReadState) else ReadState(state_path)
        self.reader = ReaderScreen(state, self.key_for)
        cache = first.cache if first is not None else ParseCache(cache_path, version_key=__version__)
        self.loads = Loads(self, self.reader, paths, cache, first, watch=watch)
        self.news = NewsFeed(self, self.reader)  # `notify:`, once the config names a program

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.InputEvent):
            # Full collections wait for a pause in the input, young ones for the
            # frame that answers it (drawn by the reader's screen, which says when).
            runtime.note_input(hold=isinstance(self.screen, OneFrameScreen))
        await super().on_event(event)

    def get_default_screen(self) -> Screen:
        return self.reader

    def on_mount(self) -> None:
        signals.end_as_quit(self)  # SIGTERM and SIGHUP quit as `q` does
        self._apply_config()
        follow_choice(self, self._unknown_theme, self.ui_path)  # warn of an unknown one, remember the next
        self.reader.library = self.loads.first_library()  # shown as the reader's screen mounts

    def on_ready(self) -> None:
        """The first frame is on screen: load what it did not show. Not before:
        starting parse workers or the watcher (which imports anyio) would only
        delay it. And not after the next refresh (`call_after_refresh`): widgets
        mounted for the first frame ask for two or three more layouts, which
        would hold the load back."""
        self.loads.load_rest()

    async def on_unmount(self) -> None:
        self.loads.stop()
        self.reader.saver.close()  # the last marks, with a bounded wait; `cli` tells what was not saved
        await self.news.stop()  # a `notify:` program still running is ended
        if self.styles_path is not None:
            styles.keep(self.stylesheet, self.styles_path)

    def notify(self, message: str, *, title: str = "", **options: Any) -> None:
        """Every notification cleaned as entry text is: many quote a path or a name."""
        super().notify(clean(message), title=clean(title), **options)

    def on_resize(self, event: events.Resize) -> None:
        self.reader.resized(event.size.width)

    def action_cycle_pane(self, step: int) -> None:
        """Tab: the reader's next pane; in another view, its next widget."""
        if self.screen is self.reader:
            self.reader.cycle_pane(step)
        else:
            (self.screen.focus_next if step > 0 else self.screen.focus_previous)()

    # -- config and keymap ----------------------------------------------------

    @classmethod
    def binding_ids(cls) -> set[str]:
        """Every binding id a keymap may name: the app's and every widget's and screen's."""
        from tui.ui.keymap import binding_ids, binding_owners

        return binding_ids(binding_owners(cls))

    def _apply_config(self) -> None:
        """Read the user's config; every problem in it is a warning, never fatal."""
        if self.config_path is None or (self.given_config is None and not os.path.lexists(self.config_path)):
            return  # the usual case: no config, and nothing (yaml, every screen's bindings) to import
        from tui.store import config
        from tui.ui.keymap import binding_ids, binding_owners, keymap_clashes, valid_key

        owners = binding_owners(type(self))
        if self.given_config is not None:
            loaded = config.check_keymap(self.given_config, binding_ids(owners), valid_key)
        else:
            loaded = config.load(self.config_path, binding_ids(owners), valid_key)
        for warning in loaded.warnings:
            self.notify(warning, title=words().config, severity="warning", timeout=12, markup=False)
        self.reader.configure(loaded, self.config_path)  # views, mutes, read_on_open
        self.news.configure(loaded.notify)
        for key, ids in keymap_clashes(owners, loaded.keymap):
            self._report_clash(key, ids)
        if loaded.keymap:
            self.keymap = loaded.keymap
            self.set_keymap(loaded.keymap)

    def handle_bindings_clash(self, clashed_bindings: set[Binding], node: object) -> None:
        """Textual found a keymap clash (it calls this on every key press): say so once."""
        keys = ", ".join(sorted({binding.key for binding in clashed_bindings}))
        self._report_clash(keys, [binding.id or binding.action for binding in clashed_bindings])

    def _report_clash(self, key: str, ids: list[str]) -> None:
        clash = frozenset(ids)
        if clash in self._clashes:
            return
        self._clashes.add(clash)
        self.notify(
            words().config_clash.format(key=key, actions=", ".join(sorted(clash))),
            title=words().config,
            severity="warning",
            timeout=12,
            markup=False,
        )

    def key_for(self, binding_id: str) -> str:
        """How the key bound to `binding_id` (a reader or search box binding) is shown,
        after any remapping."""
        for binding in (*KEYS, *SearchBar.BINDINGS):
            if not isinstance(binding, Binding):
                continue
            if binding.id == binding_id:
                remapped = self.keymap.get(binding_id)
                if remapped:
                    binding = binding.with_key(remapped.split(",")[0].strip())
                return self.get_key_display(binding)
        return ""

    # -- command palette ------------------------------------------------------------

    def palette_reviews(self) -> Sequence[Review]:
        return self.reader.library.reviews

    def palette_tags(self) -> list[PaletteTag]:
        from tui.ui.commands import palette_tags

        return palette_tags(self.reader.sidebar_rows())

    def palette_actions(self) -> list[PaletteAction]:
        from tui.ui.commands import palette_actions

        return palette_actions(KEYS, self.key_for, self._run_key_action)

    async def _run_key_action(self, action: str) -> None:
        """Run a key's action where its binding lives: the reader's screen or the App."""
        await self.run_action(action, self.reader if action in READER_ACTIONS else self)

    def jump_to_review(self, key: str) -> None:
        self.reader.jump_to_review(key)

    def jump_to_tag(self, tag: str) -> None:
        self.reader.jump_to_tag(tag)

    def action_command_palette(self) -> None:
        """Textual's palette, its prompt in the UI's language."""
        # Textual types `is_open`'s app as App[object]; App is invariant in its return type.
        if self.use_command_palette and not CommandPalette.is_open(self):  # type: ignore[arg-type]
            self.push_screen(CommandPalette(placeholder=words().palette_placeholder, id="--command-palette"))

    def action_show_help_panel(self) -> None:
        """Textual's keys panel (`?`, the palette's "Keys"), its descriptions
        wrapped as the reader wraps prose (`widgets.keys_panel`)."""
        if not self.screen.query("HelpPanel"):
            from tui.ui.widgets.keys_panel import KeysPanel

            self.screen.mount(KeysPanel())

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        """Textual's own commands, named in the UI's language."""
        for command in super().get_system_commands(screen):
            title, help_text = words().system_commands.get(command.title, (command.title, command.help))
            yield command._replace(title=title, help=help_text)
