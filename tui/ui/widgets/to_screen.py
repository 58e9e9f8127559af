"""Posting a widget's message straight to the screen that answers it.

A message posted the usual way bubbles: the widget's queue, then each
container's, then the screen's. The screen goes idle on the way and paints
what the widget has changed so far (the list's cursor), so the screen's answer
(the review that cursor previews) waits for another frame, which Textual's
frame timer puts a tick after the first. Posted straight to the screen, the
answer is ready before the screen paints, and the key's whole effect shows in
one frame (tests/perf_guards/test_frames.py). The screen is where these messages are
handled; no container in between listens for them.
"""

from __future__ import annotations

from textual.message import Message
from textual.widget import Widget


def post_to_screen(widget: Widget, message: Message) -> bool:
    """Like `widget.post_message`, but delivered to the widget's screen in one
    hop. The widget's `prevent()` and disabled messages are honoured as they
    would be."""
    if not widget.check_message_enabled(message):
        return False
    return widget.screen.post_message(message)
