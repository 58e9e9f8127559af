"""The floor: a bare Textual app (Header, Static("hello"), Footer).

bench/startup.py starts it under a pseudo-terminal exactly as it starts
prdigest-tui, waits for "hello" on screen and quits it with ctrl+q.
"""

from textual.app import App, ComposeResult
from textual.widgets import Footer, Header, Static


class BareApp(App[None]):
    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("hello")
        yield Footer()


if __name__ == "__main__":
    BareApp().run()
