"""`needs_cleaning`'s shortcut (a printable text needs no search) never hides a
character `clean` would change."""

from __future__ import annotations

import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from tui.core.text import _DIRTY, clean, needs_cleaning


def test_every_character_clean_changes_is_found() -> None:
    """Each code point alone, after a newline and between printable text: the
    shortcut and the search agree (a character the search finds is never
    printable)."""
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        dirty = _DIRTY.search(char) is not None
        assert needs_cleaning(char) is dirty, hex(code)
        if dirty or not char.isprintable():
            assert needs_cleaning(f"ab\n{char}\ncd") is dirty, hex(code)
            assert needs_cleaning(f"中文{char}") is dirty, hex(code)


def test_newlines_and_tabs_are_not_dirty() -> None:
    assert not needs_cleaning("a\nb\n\n")
    assert not needs_cleaning("a\tb\n")  # not printable, but nothing for `clean` to do
    assert needs_cleaning("a\r\nb") and needs_cleaning("a\x1b[31mb") and needs_cleaning("\u202e")


@settings(max_examples=300, deadline=None, database=None)
@given(st.text(max_size=60))
def test_a_text_needs_cleaning_when_clean_would_change_it(text: str) -> None:
    assert needs_cleaning(text) is (_DIRTY.search(text) is not None)
    if not needs_cleaning(text):
        assert clean(text) is text
