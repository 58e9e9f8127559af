"""How long our line breaker (`tui.core.wrap.wrap`) takes on the bundled digest, next
to uniseg, and on 1,169 paragraphs of real Chinese docs, next to ICU.

    python bench/wrap_bench.py            # 300 passes of ours, 10 of uniseg's, 20 of the corpus
    python bench/wrap_bench.py --runs 1000 --uniseg-runs 20 --corpus-runs 50

The corpus is `../shared/corpora/wrap_corpus_zh.txt` beside the repository (or
in PRDIGEST_CORPORA); its part is left out when it is absent. A pass wraps all
of it at one width (40, 60, 80), code spans styled as the review pane styles
them. With PyICU installed (the `oracle` extra) ICU's line break opportunities
for the same text are timed too, for scale: they do not lay out lines.

Every text field of the bundled digest (titles, repo, tags, verdict notes,
summaries, item texts and refs: 132 texts, 4,158 characters, code spans
styled as the review pane styles them) is wrapped at 40, 80 and 120 columns; a
pass wraps them all. We report the minimum and median of many passes, the
time per call, and the share of a 16.7 ms frame (60 Hz). The review pane only
lays out the one review it shows, and only when the review or the width changes.

uniseg (an implementation of UAX #14) is timed if installed: its line break
opportunities alone (`line_break_boundaries`) and `uniseg_wrap` below, a greedy
line filler on those opportunities with widths from Rich's `cell_len`.

Verdict on uniseg 0.10.1 (the latest on PyPI; Unicode 16, pure Python), on
this machine (2 shared cores, load ~1.5), all 132 texts:

| what | width | min ms | median ms | median / 16.7 ms frame |
| --- | --- | --- | --- | --- |
| tui.core.wrap.wrap, first pass (cold caches) | 80 | 3.37 | 3.37 | 20% |
| tui.core.wrap.wrap | 40 | 1.12 | 1.15 | 6.9% |
| tui.core.wrap.wrap | 80 | 0.84 | 0.86 | 5.2% |
| tui.core.wrap.wrap | 120 | 0.60 | 0.61 | 3.7% |
| tui.core.wrap.wrap before this rewrite (git 8555ac1) | 80 | 2.94 | 2.99 | 18% |
| uniseg break opportunities only | - | 308 | 328 | 1970% |
| uniseg_wrap (greedy on uniseg) | 80 | 308 | 311 | 1865% |

- speed: uniseg's break opportunities alone cost ~370 times our whole `wrap`,
  about 20 frames for the digest; a resize of one review would stall visibly.
- correctness, against tests/core/test_typesetting.py (run it with
  `TYPESETTING_WRAP=bench/wrap_bench.py:uniseg_wrap`): 88 of the 485 wrap
  tests fail (the truncate and line_width tests left out). It gets grapheme
  clusters, emoji, flags, "——" and most Chinese punctuation right, but ~70
  failures are UAX #14 rules that clreq and the issue override: a closing
  mark after a space may start a line (LB18: ％ ’ ” … ： ； in 48 tests), an
  opening quote before a space may end one (“ ‘, 16 tests), paths break after
  every `/` and words after `-` or `|` even when they fit
  (`vllm/models/glm5next/`, `enforce-|eager`), and LB19a glues “ to the
  ideograph before it. ~15 come from cutting words longer than the line,
  which UAX #14 does not cover: our fold (soft cuts after `/ . _`,
  punctuation moved back) would be needed on top anyway; 3 (random mixes)
  from a break between a space and a combining mark on it (LB10), which Rich
  draws as one cell.
- not adopted: every Chinese rule and tailoring would sit on top of it, it
  adds a dependency, and it is two orders of magnitude too slow. The breaker
  stays in tui/wrap.py, checked by the same table.

Timings are measurements, never pass/fail tests.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable, Collection, Hashable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rich.cells import cell_len

from tui.core.model import SECTIONS
from tui.core.text import code_spans
from tui.core.wrap import Line, Run, wrap
from tui.load.parse import load_file
from tui.store.locations import bundled_entries

FRAME_MS = 1000 / 60
WIDTHS = (40, 80, 120)
CORPUS_WIDTHS = (40, 60, 80)
REPO = Path(__file__).resolve().parents[1]
CORPUS = Path(os.environ.get("PRDIGEST_CORPORA") or REPO.parent / "shared" / "corpora") / "wrap_corpus_zh.txt"


def digest_runs() -> list[list[Run]]:
    """Every text field of the bundled digest as (text, style) runs, code spans styled."""
    texts: list[str] = []
    for review in load_file(bundled_entries() / "vllm-tag-view.yaml").reviews:
        texts += [review.title, review.repo, *review.tags, review.summary, review.verdict_note or ""]
        for section in SECTIONS:
            for item in review.items(section):
                texts += [item.text, *item.refs]
    return [
        [(part, "code" if is_code else None) for part, is_code in code_spans(text)] for text in texts if text
    ]


def corpus_runs() -> list[list[Run]] | None:
    """The corpus's paragraphs as (text, style) runs, code spans styled; None if absent."""
    if not CORPUS.is_file():
        return None
    paragraphs = [line for line in CORPUS.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [
        [(part, "code" if is_code else None) for part, is_code in code_spans(text)] for text in paragraphs
    ]


def icu_break_opportunities(texts: list[str]) -> None:
    import icu

    breaker = icu.BreakIterator.createLineInstance(icu.Locale("zh_CN"))
    for text in texts:
        breaker.setText(text)
        list(breaker)


def bench_corpus(runs: int) -> None:
    texts = corpus_runs()
    if texts is None:
        print(f"\nthe corpus is not at {CORPUS}: its part is left out.")
        return
    chars = sum(len(part) for runs in texts for part, _ in runs)
    print(f"\ncorpus: {len(texts)} paragraphs, {chars} characters\n")
    print("| what | width | passes | min ms | median ms | µs per call | median / frame |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for width in CORPUS_WIDTHS:
        times = passes(lambda width=width: [wrap(runs, width, keep_whole=("code",)) for runs in texts], runs)
        print(row("tui.core.wrap.wrap, whole corpus", width, len(texts), times))
    try:
        import icu
    except ImportError:
        print("\nPyICU is not installed: `pip install -e '.[oracle]'` to compare.")
        return
    plain = ["".join(part for part, _ in runs) for runs in texts]
    times = passes(lambda: icu_break_opportunities(plain), runs)
    print(row(f"ICU {icu.ICU_VERSION} break opportunities", "-", len(texts), times))


def uniseg_wrap(runs: Sequence[Run], width: int, *, keep_whole: Collection[Hashable] = ()) -> list[Line]:
    """A greedy line filler on uniseg's UAX #14 break opportunities, same interface as `wrap`.

    Units longer than the line are cut between grapheme clusters; spaces at a
    break are dropped; code-span spaces are made non-breaking (U+00A0) first,
    as our breaker does.
    """
    from uniseg.graphemecluster import grapheme_clusters
    from uniseg.linebreak import line_break_units

    width = max(1, width)
    text = "".join(part for part, _ in runs)
    work = "".join(_glue(part) if style in keep_whole else part for part, style in runs)
    spans: list[tuple[int, int]] = []
    for paragraph_start, paragraph in _paragraphs(work):
        line_start, content_end, used = paragraph_start, -1, 0
        pos = paragraph_start
        for unit in line_break_units(paragraph) if paragraph else []:
            body = unit.rstrip(" ")
            body_width, space_width = cell_len(body), len(unit) - len(body)
            if not body:  # spaces: indentation at a paragraph start, dropped at a break
                if content_end < 0 and line_start != paragraph_start:
                    line_start = pos + space_width
                else:
                    used += space_width
                pos += space_width
                continue
            if used + body_width > width:
                if content_end >= 0:
                    spans.append((line_start, content_end))
                line_start, used, content_end = pos, 0, -1
            for cluster in grapheme_clusters(body) if body_width > width else [body]:
                size = cell_len(cluster)
                if used + size > width and content_end >= 0:
                    spans.append((line_start, content_end))
                    line_start, used = pos, 0
                pos += len(cluster)
                used += size
                content_end = pos
            pos += space_width
            used += space_width
        spans.append((line_start, content_end) if content_end >= 0 else (0, 0))
    out: list[Line] = []
    styles = [style for part, style in runs for _ in part]
    for start, end in spans:
        line: Line = []
        for index in range(start, end):
            if line and line[-1][1] == styles[index]:
                line[-1] = (line[-1][0] + text[index], styles[index])
            else:
                line.append((text[index], styles[index]))
        out.append(line)
    return out


def _glue(part: str) -> str:
    """Inner spaces made non-breaking."""
    inner = part.strip(" ")
    lead = len(part) - len(part.lstrip(" "))
    return part[:lead] + inner.replace(" ", "\u00a0") + part[lead + len(inner) :]


def _paragraphs(text: str) -> list[tuple[int, str]]:
    out = []
    pos = 0
    for paragraph in text.split("\n"):
        out.append((pos, paragraph))
        pos += len(paragraph) + 1
    return out


def passes(work: Callable[[], object], runs: int) -> list[float]:
    """Seconds per pass, `runs` times, after one warm-up pass."""
    work()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return times


def row(name: str, width: int | str, calls: int, times: list[float]) -> str:
    low, mid = min(times) * 1000, statistics.median(times) * 1000
    return (
        f"| {name} | {width} | {len(times)} | {low:.3f} | {mid:.3f} | {mid / calls * 1000:.1f} "
        f"| {mid / FRAME_MS:.1%} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--runs", type=int, default=300, help="passes of our wrap per width")
    parser.add_argument("--uniseg-runs", type=int, default=10, help="passes of uniseg (slow)")
    parser.add_argument("--corpus-runs", type=int, default=20, help="passes over the corpus per width")
    parser.add_argument("--corpus-only", action="store_true", help="time the corpus only")
    args = parser.parse_args()
    if args.corpus_only:
        bench_corpus(args.corpus_runs)
        return

    texts = digest_runs()
    chars = sum(len(part) for runs in texts for part, _ in runs)
    print(f"bundled digest: {len(texts)} texts, {chars} characters; frame = {FRAME_MS:.1f} ms\n")
    print("| what | width | passes | min ms | median ms | µs per call | median / frame |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    start = time.perf_counter()  # before anything has filled the width caches
    [wrap(runs, 80, keep_whole=("code",)) for runs in texts]
    print(row("tui.core.wrap.wrap, first pass (cold caches)", 80, len(texts), [time.perf_counter() - start]))
    for width in WIDTHS:
        times = passes(
            lambda width=width: [wrap(runs, width, keep_whole=("code",)) for runs in texts], args.runs
        )
        print(row("tui.core.wrap.wrap", width, len(texts), times))
    try:
        import uniseg
        from uniseg.linebreak import line_break_boundaries
    except ImportError:
        print("\nuniseg is not installed: `pip install uniseg` to compare.")
        bench_corpus(args.corpus_runs)
        return
    plain = ["".join(part for part, _ in runs) for runs in texts]
    times = passes(lambda: [list(line_break_boundaries(text)) for text in plain], args.uniseg_runs)
    print(row(f"uniseg {uniseg.__version__} break opportunities", "-", len(texts), times))
    times = passes(lambda: [uniseg_wrap(runs, 80, keep_whole=("code",)) for runs in texts], args.uniseg_runs)
    print(row("uniseg_wrap (greedy on uniseg)", 80, len(texts), times))
    bench_corpus(args.corpus_runs)


if __name__ == "__main__":
    main()
