"""Hostile entry text and a fuzz target for the loader.

The strategies here make the text an entry file's author could write to
attack the reader: arbitrary Unicode (CJK, emoji, combining marks,
right-to-left, zero-width), markup look-alikes, ANSI CSI/OSC sequences, C0 and
C1 controls, very long lines and words. `yaml_text` writes them into YAML as a
real author would have to (double-quoted, escaped where YAML demands it).

`check_load` is the fuzz target: whatever the bytes, `load_file` returns
reviews or located problems and never raises. The tests run it briefly
(`tests/hostile/test_hostile_fuzz.py`); run it for longer by hand:

    python tests/fuzz_loader.py --examples 100000
"""

from __future__ import annotations

import re
import string
import sys
import tempfile
from pathlib import Path

from hypothesis import strategies as st

from tui.core.model import Item, Review
from tui.load.parse import MAX_FILE_BYTES, load_file

# -- hostile text --------------------------------------------------------------------

MARKUP = [
    "[b]",
    "[/]",
    "[/b]",
    "[/",
    "[@click=app.quit]",
    "[@click=app.bell]Q[/]",
    "[link='x']",
    "[link=https://evil.example]L[/link]",
    "\\[",
    "[bold red]X[/]",
    "list[int]",
    '[on red]custom_ops=["all"]',
    "$accent",
    "[$error]e[/]",
    "<|tool_response>",
]
ESCAPES = [
    "\x1b[31m",
    "\x1b[1;31;42m",
    "\x1b[0m",
    "\x1b[2J",
    "\x1b[H",
    "\x1b]0;pwned title\x07",
    "\x1b]8;;https://evil.example\x1b\\link\x1b]8;;\x1b\\",
    "\x1b]52;c;ZXZpbA==\x07",
    "\x1bP+q544e\x1b\\",
    "\x1b_apc\x1b\\",
    "\x1b",
    "\x9b31m",
    "\x9d0;t\x9c",
    "\x90dcs\x9c",
    "\x98sos\x9c",
]
CONTROLS = [chr(c) for c in [*range(0x00, 0x20), 0x7F, *range(0x80, 0xA0)]]
UNICODE = [
    "中文字符",
    "，。、；：？！",
    "（括号）「引号」",
    "ｆｕｌｌｗｉｄｔｈ",
    "한국어",
    "日本語のテキスト",
    "e\u0301",
    "\u0301",
    "a\u0338\u0321\u0334",
    "👩\u200d👩\u200d👧",
    "🇺🇳",
    "👍🏽",
    "\u2764\ufe0f",
    "עברית",
    "العربية",
    "\u202e",
    "\u202a",
    "\u2066",
    "\u2069",
    "\u200f",
    "\u061c",
    "\u200b",
    "\u200c",
    "\u200d",
    "\u2060",
    "\ufeff",
    "\u00ad",
    "\u2028",
    "\u2029",
    "\U000e0041",
    "\ue000",
    "\U0010fffd",
    "\uffff",
    "\t",
    "\n",
    "\r\n",
    "\r",
    "`code`",
    "`",
    "——",
    "/path/to/file.py",
]
YAMLISH = [
    "~",
    "null",
    "&a",
    "*a",
    "#",
    ": ",
    "- ",
    "'",
    '"',
    "\\",
    "{",
    "}",
    "!!python/object:os.system",
    "---",
]

_PLAIN = st.text(st.characters(codec="utf-8"), max_size=12)
_WORDS = st.text(string.ascii_letters + "中文 ", min_size=1, max_size=30)


@st.composite
def _long_run(draw: st.DrawFn) -> str:
    """A very long word (no break opportunity but soft ones, or none) or a very long line of words."""
    unit = draw(st.sampled_from(["x", "中", "e\u0301", "a/b.c_", "😀", "word ", "字 "]))
    return unit * draw(st.integers(100, 800))


_SHORT = st.one_of(
    st.sampled_from(MARKUP),
    st.sampled_from(ESCAPES),
    st.sampled_from(CONTROLS),
    st.sampled_from(UNICODE),
    st.sampled_from(YAMLISH),
    _PLAIN,
    _WORDS,
)
# One piece in twenty is very long: enough to meet them often, few enough to stay quick.
hostile_text = st.lists(
    st.integers(0, 19).flatmap(lambda n: _long_run() if n == 0 else _SHORT),
    max_size=8,
).map("".join)
"""Text as an untrusted author could write it: anything a YAML string can hold."""


def yaml_str(text: str) -> str:
    """`text` as a YAML double-quoted scalar: printable characters as they are,
    anything else escaped (YAML forbids raw control characters)."""
    out = ['"']
    for char in text:
        code = ord(char)
        if char in '"\\':
            out.append("\\" + char)
        elif char.isprintable() and code != 0xFEFF:
            out.append(char)
        elif code <= 0xFF:
            out.append(f"\\x{code:02x}")
        elif code <= 0xFFFF:
            out.append(f"\\u{code:04x}")
        else:
            out.append(f"\\U{code:08x}")
    out.append('"')
    return "".join(out)


_VISIBLE = st.text("abcxyz中文字", min_size=1, max_size=6)


def _text(draw: st.DrawFn, nonempty: bool) -> str:
    """Hostile text; with `nonempty`, after a visible word so it is never blank."""
    return (draw(_VISIBLE) if nonempty else "") + draw(hostile_text)


def _item(draw: st.DrawFn, nonempty: bool) -> object:
    text = _text(draw, nonempty)
    if draw(st.booleans()):
        return text
    item: dict[str, object] = {"text": text}
    if draw(st.booleans()):
        item["refs"] = [_text(draw, nonempty) for _ in range(draw(st.integers(0, 3)))]
    if draw(st.booleans()):
        item["id"] = _text(draw, nonempty)
    return item


@st.composite
def hostile_review(draw: st.DrawFn, *, valid_shape: bool = False) -> dict[str, object]:
    """A review as a dict of fields, every text field hostile. With
    `valid_shape`, required fields are present and the fixed-format fields
    (repo, verdict, pr, url) are well formed, so text alone decides."""

    def text() -> str:
        return _text(draw, valid_shape)

    review: dict[str, object] = {
        "title": text(),
        "repo": "o/r" if valid_shape else draw(st.sampled_from(["o/r", "a.b/c-d"]) | hostile_text),
        "tags": [text() for _ in range(draw(st.integers(1, 4)))],
        "verdict": draw(st.sampled_from(["deep", "quick", "skim", "skip"]))
        if valid_shape
        else draw(st.sampled_from(["deep", "skip"]) | hostile_text),
        "summary": text(),
    }
    if draw(st.booleans()):
        review["verdict_note"] = text()
    if draw(st.booleans()):
        review["date"] = text()
    if draw(st.booleans()):
        review["url"] = "https://example.com/" + text()
    for section in ("focus", "read_order", "actions", "caveats"):
        if draw(st.booleans()):
            review[section] = [_item(draw, valid_shape) for _ in range(draw(st.integers(0, 4)))]
    return review


def yaml_text(value: object, indent: int = 0) -> str:
    """A YAML document for nested dicts, lists and strings (block style)."""
    pad = " " * indent
    if isinstance(value, dict):
        if not value:
            return pad + "{}\n"
        lines = []
        for key, item in value.items():
            if isinstance(item, dict | list) and item:
                lines.append(f"{pad}{yaml_str(key)}:\n{yaml_text(item, indent + 2)}")
            else:
                lines.append(f"{pad}{yaml_str(key)}: {_inline(item)}\n")
        return "".join(lines)
    if isinstance(value, list):
        if not value:
            return pad + "[]\n"
        lines = []
        for item in value:
            if isinstance(item, dict | list) and item:
                body = yaml_text(item, indent + 2)
                lines.append(f"{pad}- {body[indent + 2 :]}")
            else:
                lines.append(f"{pad}- {_inline(item)}\n")
        return "".join(lines)
    return pad + _inline(value) + "\n"


def _inline(value: object) -> str:
    if isinstance(value, str):
        return yaml_str(value)
    if isinstance(value, dict | list) and not value:
        return "{}" if isinstance(value, dict) else "[]"
    if isinstance(value, int):
        return str(value)
    raise TypeError(value)


# -- hostile files ---------------------------------------------------------------------

VALID = "title: {title}\nrepo: o/r\ntags: [a]\nverdict: deep\nsummary: s\n"

HOSTILE_FILES: dict[str, bytes] = {
    "empty.yaml": b"",
    "comments.yaml": b"# nothing\n# here\n",
    "list.yaml": b"- title: x\n",
    "binary.yaml": bytes(range(256)) * 4,
    "latin1.yaml": "title: caf\xe9\n".encode("latin-1"),
    "bom.yaml": b"\xef\xbb\xbf" + VALID.format(title="bom").encode(),
    "utf16.yaml": VALID.format(title="utf16").encode("utf-16"),
    "crlf.yaml": VALID.format(title="crlf").replace("\n", "\r\n").encode(),
    "tabs.yaml": b"title:\tt\nrepo: o/r\n\ttags: [a]\n",
    "bomb.yaml": (
        "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
        + "".join(
            f"{c}: &{c} [{', '.join(['*' + p] * 10)}]\n" for p, c in zip("abcdefgh", "bcdefghi", strict=True)
        )
    ).encode(),
    "deep.yaml": b"title: " + b"[" * 5000 + b"]" * 5000 + b"\n",
    "dupes.yaml": b"title: a\ntitle: b\n",
    "keys.yaml": b"? [a, b]\n: x\n",
    "python.yaml": b"title: !!python/object/apply:os.system ['touch PWNED']\n",
    "huge.yaml": b"title: " + b"x" * (MAX_FILE_BYTES + 1),
}
"""Files a folder of entries may hold, by name. `bom`, `utf16` and `crlf` are
valid reviews titled so; every other one is a problem."""


# -- what the reader may show -----------------------------------------------------------

_SCREEN_UNSAFE = re.compile(
    r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069"
    r"\u061c\u200b\u200e\u200f\u2060-\u2064\u206a-\u206f\ufeff\ufff9-\ufffb]"
)


def unsafe_characters(text: str) -> list[str]:
    """Characters that must never reach the terminal: C0 (tab and newline
    included: a screen row holds neither), DEL, C1 (ESC and CSI among them),
    line and paragraph separators, bidi controls and marks, invisible characters
    (ZWSP, word joiner, BOM and their family; joiners are judged by `clean`)."""
    return _SCREEN_UNSAFE.findall(text)


def review_texts(review: Review) -> list[str]:
    items: list[Item] = [*review.focus, *review.read_order, *review.actions, *review.caveats]
    return [
        review.title,
        review.repo,
        review.verdict,
        review.summary,
        *review.tags,
        review.url or "",
        review.date or "",
        review.verdict_note or "",
        *(item.text for item in items),
        *(ref for item in items for ref in item.refs),
        *(item.id or "" for item in items),
    ]


def stored_text_is_clean(text: str) -> bool:
    """Loaded text keeps tab and newline only; no other control, escape, separator or override."""
    return not [c for c in unsafe_characters(text) if c not in "\t\n"]


# -- the fuzz target --------------------------------------------------------------------


def check_load(data: bytes, folder: Path, name: str = "fuzz.yaml") -> None:
    """The fuzz target: any bytes in an entry file load to reviews or located
    problems; nothing raises, everything loaded is clean, every problem points
    into the file and is printable on one line."""
    path = folder / name
    path.write_bytes(data)
    result = load_file(path)  # must not raise
    assert result.path == path
    assert result.reviews or result.problems
    for review in result.reviews:
        assert isinstance(review, Review)
        assert review.location.path == path
        for text in review_texts(review):
            assert type(text) is str
            assert stored_text_is_clean(text), ascii(text)
        assert review.pr is None or type(review.pr) is int
    lines = data.count(b"\n") + data.count(b"\r") + 1
    for problem in result.problems:
        assert problem.location.path == path
        assert 1 <= problem.location.line <= lines, (problem, lines)
        assert problem.location.column >= 1, problem
        assert not unsafe_characters(problem.message), ascii(problem.message)
        assert not problem.message.startswith("internal error"), problem.message


yaml_bytes = st.one_of(
    st.binary(max_size=400),
    st.text(st.characters(codec="utf-8"), max_size=400).map(lambda t: t.encode("utf-8")),
    st.builds(
        lambda review, encoding, bom: (b"\xef\xbb\xbf" if bom else b"") + yaml_text(review).encode(encoding),
        hostile_review(),
        st.sampled_from(["utf-8", "utf-16"]),
        st.booleans(),
    ),
    st.lists(
        st.sampled_from(
            [
                "title: ",
                "repo: o/r\n",
                "tags: [",
                "]\n",
                "verdict: deep\n",
                "summary: |\n  ",
                "entries:\n  - ",
                "focus:\n  - text: ",
                "    refs: [",
                "&a ",
                "*a",
                "<<: *a\n",
                "!!python/object/apply:os.system ['true']",
                "!!binary aGk=",
                "!<tag:yaml.org,2002:str> ",
                "!<%1b%5b31m> x",
                "? [a, b]\n: x\n",
                "{",
                "}",
                "\t",
                "\r\n",
                "\u2028",
                "\x85",
                '"\\e[31m"',
                "'",
                '"',
                "---\n",
                "...\n",
                "%YAML 1.1\n",
                "%TAG ! tag:x,2000:\n",
                "#",
                "中文",
                "\n",
                "  ",
            ]
        ),
        max_size=30,
    ).map(lambda parts: "".join(parts).encode("utf-8")),
)
"""Bytes for an entry file: random bytes, random text, hostile reviews in YAML
(UTF-8 or UTF-16, with or without BOM), and YAML fragments glued together."""


def main(argv: list[str]) -> int:
    import argparse

    from hypothesis import HealthCheck, given, settings

    parser = argparse.ArgumentParser(description="Fuzz the entry loader for a while.")
    parser.add_argument("--examples", type=int, default=20_000)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:

        @settings(
            max_examples=args.examples,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        @given(yaml_bytes)
        def fuzz(data: bytes) -> None:
            check_load(data, Path(folder))

        fuzz()
    print(f"{args.examples} examples, no failure")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
