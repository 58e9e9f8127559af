"""Where a line may break in mixed Chinese and Latin text: the rules, the
character classes and the cutting of text into unbreakable atoms.

Apart from the line filler (`tui.core.wrap`, which lays the atoms out and cuts
a word longer than the line where these rules allow): this module says where
text may break, that one where it does.

Rich and Textual break lines at spaces only, so a run of Chinese is one long
"word" that is either pushed whole to the next line or cut at an arbitrary cell.
Here the basics of UAX #14 with the Chinese rules of W3C clreq on top:

- a break is allowed between any two wide (CJK) characters, and between a wide
  character and a Latin word, number, path or code span;
- a run of narrow characters (a Latin word, number, path, identifier, "20+",
  "enforce-eager") is never broken unless it is longer than the line; then it
  is cut (by `tui.core.wrap`) at a space (in a code span), after `/` or `::`, then after `.`, `_`,
  `-`, `=` or `,`, and only then at the width; it starts a fresh line when
  that gives it a better kind of cut than the room left on this one;
- closing punctuation (，。、；：？！）」』”’… and the like) never starts a line and
  opening punctuation (（「『“‘ and the like) never ends one, even across spaces:
  the character or word before is pushed down with it (clreq's "push out": a
  terminal cannot hang or squeeze punctuation), and no line starts with a space;
- a slash that separates words (`CNN / RNN`, `推理/部署`) stays with what it
  follows, as closing punctuation does;
- an ASCII quote stays with what it quotes: a lone one is opening after a space
  or an opening mark, closing before a space or a closing mark, and between
  two ideographs whichever the quotes before it in the paragraph make it;
- "——" is never split; a break is allowed before and after it;
- grapheme clusters stay whole: combining marks, emoji ZWJ sequences, emoji
  with VS16 and flags (regional indicator pairs);
- widths are terminal cells as Rich's `cell_len` counts them, so a wide
  character that does not fit in the last cell goes to the next line.

Where this differs from ICU's line breaker (UAX #14 with its Chinese
tailoring, what browsers use), on purpose; tests/core/test_typesetting.py shows each,
and tests/core/test_typesetting_corpus.py checks on 1,169 real paragraphs that every
break ICU would not make is one of these:

- a line may break before an option or a negative number (`--freeze_vit`,
  `-100`) and before an absolute path (`/path/to`), which then start the next
  line whole; UAX #14 breaks after their first character instead;
- paths, URLs and hyphenated names (`vllm/models/x.py`, `https://…`,
  `enforce-eager`) are never broken when they fit on a line; UAX #14 breaks
  after every `/` and `-`;
- a line may break before an opening and after a closing ASCII quote
  (`转换成'system'的`); UAX #14 breaks on neither side of one;
- a line may break between a number with its sign and Chinese (`400+` / `模型`),
  which UAX #14 glues;
- a word longer than the line is cut (see above); UAX #14 lets it overflow.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable

from rich.cells import cell_len, get_character_cell_size

# Characters that must not begin a line (clreq "line-start prohibited", UAX #14 CL/CP/EX/IS/NS).
NO_START = frozenset(
    "，。、；：？！）」』”’》〉】〕〗〙〛｝］｠…‥⋯・·ー～〜％‰℃"
    ",.;:?!)]}%"
    "｡｣､"
    "ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶ々〻ゝゞヽヾ"
)
# Characters that must not end a line (UAX #14 OP, opening quotation marks).
NO_END = frozenset("（「『“‘《〈【〔〖〘〚｛［｟([{｢")
# "——" is never split, but a line may break before or after it (UAX #14 B2).
DASHES = frozenset("—―")
# Where a too-long path or identifier may be broken before it is cut (after the
# character; after `::` too, as after `/`).
SOFT_BREAK_AFTER = frozenset("/._-=,")
# Spaces as the text has them, and as they are inside a code span.
SPACES = " \u00a0"

# Character classes. Order matters: everything above ZW is part of a word ("unit").
# SL, a slash, is read as AL or CLN by what follows it (see `atoms`), and QU,
# a lone ASCII quote, as opening or closing by what stands around it (`quote_class`).
NONE, SP, NL, ZW, AL, ID, OPN, OPW, CLN, CLW, B2, GL, SL, QU = range(14)
_CLOSING = (CLN, CLW)
_OPENING = (OPN, OPW)
# Classes that allow a break on their side: wide characters and dashes.
_BREAKY = (ID, OPW, CLW, B2)


def _may_break(before: int, after: int) -> bool:
    """May a line break between two adjacent (unspaced) clusters of these classes?"""
    if after in _CLOSING or after == SL or before in _OPENING or GL in (before, after):
        return False
    if before == after == B2:
        return False
    return before in _BREAKY or after in _BREAKY


# BREAK[before][after], for the classes of two clusters with no space between them.
BREAK = [[_may_break(b, a) for a in range(14)] for b in range(14)]

# Text with any of these needs grapheme clusters built first; other text is read
# character by character (combining marks are handled there too).
COMPLEX = re.compile("[\u200d\ufe0f\U0001f1e6-\U0001f1ff]")
_RI = re.compile("[\U0001f1e6-\U0001f1ff]")

# Runs of printable ASCII are read whole: nothing breaks inside them.
TOKENS = re.compile(r"[!-~]{2,}|.", re.DOTALL)

_INFO: dict[str, tuple[int, int, int]] = {}


def cell_info(cluster: str) -> tuple[int, int, int]:
    """(cell width, class of the first character, class of the last) of a
    grapheme cluster or a run of printable ASCII, cached."""
    info = _INFO.get(cluster)
    if info is not None:
        return info
    if len(cluster) > 1 and cluster.isascii():
        # A quote that opens or closes a Latin word (`'auto'`) breaks as the word does.
        first, last = cell_info(cluster[0])[1], cell_info(cluster[-1])[2]
        info = (len(cluster), AL if first == QU else first, AL if last == QU else last)
    elif len(cluster) == 1:
        char = cluster
        if char in " \t":
            width, kind = 1, SP
        elif char == "\n":
            width, kind = 0, NL
        else:
            width = get_character_cell_size(char)
            if char == "\u00a0":
                kind = GL
            elif width == 0:
                kind = ZW
            elif char in NO_START:
                kind = CLW if width > 1 else CLN
            elif char in NO_END:
                kind = OPW if width > 1 else OPN
            elif char in DASHES:
                kind = B2
            elif char == "/":
                info = (1, SL, AL)  # after a slash, a line breaks as after a letter
                _INFO[char] = info
                return info
            elif char in "'\"":
                kind = QU
            elif width > 1 or _RI.match(char):
                kind = ID
            else:
                kind = AL
        info = (width, kind, kind)
    else:
        width = cell_len(cluster)
        kind = cell_info(cluster[0])[1]
        if kind in (ZW, QU) or kind <= NL:
            kind = AL
        if _RI.match(cluster[0]) or (kind == AL and width > 1):
            kind = ID  # emoji sequences and flags break like ideographs
        info = (width, kind, AL if kind == SL else kind)
    if len(cluster) == 1 or len(_INFO) < 20_000:  # words and clusters: a bounded number
        _INFO[cluster] = info
    return info


def quote_class(text: str, pos: int) -> int:
    """How a lone ASCII quote at text[pos] breaks: as opening punctuation (it
    stays with what follows) after a space or an opening mark, as closing (it
    stays with what precedes) before a space or a closing mark, as a letter
    next to a Latin word. Between two wide characters, the quotes of the
    paragraph before it tell: an even number before it (apostrophes in words
    not counted), and it opens."""
    before = text[pos - 1] if pos else " "
    after = text[pos + 1] if pos + 1 < len(text) else " "
    if before in " \n\u00a0" or before in NO_END:
        return OPN
    if after in " \n\u00a0" or after in NO_START:
        return CLN
    if "!" <= before <= "~" or "!" <= after <= "~":
        return AL
    quote = text[pos]
    seen = 0
    at = text.find(quote, text.rfind("\n", 0, pos) + 1, pos)
    while at >= 0:
        if not (
            text[at - 1 : at].isascii()
            and text[at - 1 : at].isalpha()
            and text[at + 1].isascii()
            and text[at + 1].isalpha()
        ):
            seen += 1
        at = text.find(quote, at + 1, pos)
    return CLN if seen % 2 else OPN


def grapheme_clusters(text: str) -> list[str]:
    """Grapheme clusters as Rich measures them: zero-width characters (combining
    marks, VS16, skin tones) join the character before (a space too, but not a
    line break), a ZWJ joins the characters on both sides, and regional
    indicators pair up into flags."""
    out: list[str] = []
    join = False  # the last cluster ends with a ZWJ
    flag = False  # the last cluster is a lone regional indicator
    for char in text:
        if out and join and char not in " \t\n":
            out[-1] += char
            join = flag = False
            continue
        if char == "\u200d" and out and out[-1][-1] != "\n":
            out[-1] += char
            join = True
            continue
        if char in " \t\n":
            out.append(char)
            flag = False
            continue
        if out and get_character_cell_size(char) == 0 and out[-1][-1] != "\n":
            out[-1] += char  # even after a space, as Rich measures it
            flag = False
            continue
        if flag and _RI.match(char):
            out[-1] += char
            flag = False
            continue
        out.append(char)
        flag = _RI.match(char) is not None
    return out


def atoms(units: Iterable[str], text: str) -> tuple[list[int], list[int], list[int]]:
    """Cut the text (given as clusters, or as characters and runs of printable
    ASCII, and whole) into atoms: words that may not be broken (kind AL), runs
    of spaces (SP) and hard breaks (NL).

    Atoms cover the text without gaps; returns their start offsets, widths and kinds.
    """
    starts: list[int] = []
    widths: list[int] = []
    kinds: list[int] = []
    last = NONE  # class of the last cluster; SP after spaces, NONE at a paragraph start
    before_space = NONE  # class of the last cluster before those spaces
    pos = 0
    info_of = _INFO.get
    may_break = BREAK
    for unit in units:
        info = info_of(unit) or cell_info(unit)
        width, kind, right = info
        if kind == SP:
            if last in (SP, OPN, OPW):
                # More spaces, or spaces after opening punctuation (no break there).
                widths[-1] += width
            else:
                starts.append(pos)
                widths.append(width)
                kinds.append(SP)
                before_space = last
                last = SP
        elif kind == NL:
            starts.append(pos)
            widths.append(0)
            kinds.append(NL)
            last = NONE
        elif kind == ZW and last > ZW:
            pass  # a combining mark stays with its base (and adds no width)
        elif kind == ZW and last == SP:
            # A mark after a space: Rich draws both in one cell, so the last
            # space and the mark become a word.
            if widths[-1] > 1:
                widths[-1] -= 1
                starts.append(pos - 1)
                widths.append(1)
                kinds.append(AL)
            else:
                kinds[-1] = AL
            last = AL
        else:
            if kind > GL:
                if kind == SL:
                    # Before a Latin word a slash starts a path or an option (`/usr`):
                    # a line may break before it. Else it separates (`CNN / RNN`,
                    # `推理/部署`) and stays with what it follows, as closing marks do.
                    kind = AL if "!" <= text[pos + 1 : pos + 2] <= "~" else CLN
                else:
                    kind = right = quote_class(text, pos)
            elif kind == ZW:
                kind = right = AL  # a mark starting a paragraph: a word of its own
            if last > ZW and not may_break[last][kind]:
                widths[-1] += width
            elif last == SP and kind in _CLOSING and before_space > ZW:
                # Closing punctuation after spaces: glue word, spaces and mark.
                starts.pop()
                kinds.pop()
                spaces = widths.pop()
                widths[-1] += spaces + width
            else:
                starts.append(pos)
                widths.append(width)
                kinds.append(AL)
            last = right
        pos += len(unit)
    return starts, widths, kinds


def glue(starts: list[int], widths: list[int], kinds: list[int], glued: Collection[int]) -> None:
    """Join each word that starts at an offset in `glued` (inside a code span) to
    the word before it, in place."""
    kept = 0
    for index, start in enumerate(starts):
        if kept and start in glued and kinds[index] == AL and kinds[kept - 1] == AL:
            widths[kept - 1] += widths[index]
            continue
        starts[kept], widths[kept], kinds[kept] = start, widths[index], kinds[index]
        kept += 1
    del starts[kept:], widths[kept:], kinds[kept:]
