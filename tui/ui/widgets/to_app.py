"""Posting a widget's message straight to the App that answers it.

A message posted the usual way bubbles: the widget's queue, then each
container's, then the screen's, then the App's. The screen goes idle on the way
and paints what the widget has changed so far (the list's cursor), so the
App's answer (the review that cursor previews) waits for another frame, and
Textual's frame timer puts that one 17-33 ms after the first. Posted straight
to the App, the answer is ready before the screen paints, and the key's whole
effect shows in one frame. The App is where these messages are handled; no
container or screen in between listens for them.
"""

from __future__ import annotations

from textual.message import Message
from textual.widget import Widget


def post_to_app(widget: Widget, message: Message) -> bool:
    """Like `widget.post_message`, but delivered to the App in one hop. The
    widget's `prevent()` and disabled messages are honoured as they would be."""
    if not widget.check_message_enabled(message):
        return False
    return widget.app.post_message(message)
