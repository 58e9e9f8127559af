"""Reading lines made by `tui.wrap` back against the text they came from."""

from __future__ import annotations

from tui.core.wrap import Line


def separating_slash(source: str, pos: int) -> bool:
    """A `/` between words (`CNN / RNN`, `推理/部署`), not one that starts a path
    or an option (`/usr/bin`): one not followed by a Latin letter, digit or sign."""
    return source[pos] == "/" and not ("!" <= source[pos + 1 : pos + 2] <= "~")


def text_of(line: Line) -> str:
    return "".join(text for text, _ in line)


def place(source: str, lines: list[Line]) -> list[tuple[int, int]]:
    """Where each line sits in `source`; only spaces and line breaks may lie between lines."""
    out = []
    pos = 0
    for line in lines:
        text = text_of(line)
        start = pos
        while not source.startswith(text, start):
            assert start < len(source) and source[start] in " \n", (
                f"text lost between lines at {pos}: {source[pos : start + 10]!r} / next line {text!r}"
            )
            start += 1
        out.append((start, start + len(text)))
        pos = start + len(text)
    assert source[pos:].strip(" \n") == "", f"text lost at the end: {source[pos:]!r}"
    return out
