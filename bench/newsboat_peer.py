"""A peer: newsboat given the same reviews as a local Atom feed.

    python bench/newsboat_peer.py --reviews N [--seed S] [--runs R]

The feed holds what the corpus of `make_corpus.py` holds with the same seed
(the generator is run again, review for review: title, PR link, summary, the
items as a list), one `<entry>` a review, in one file given to newsboat as a
`file://` URL. Two figures, from a fresh temporary folder (config, urls and
cache there, never ~/.newsboat):

- *parse*: `newsboat -x reload`, headless: the feed read and every item
  stored in newsboat's cache (its "no parse cache" start);
- *first list* and *all items listed*, in a pseudo-terminal (120×40) with the
  cache filled: the feed list drawn (`(N/N)` unread/total for the feed, the
  whole count, so the two moments are one), the same markers as
  `startup.py`'s prdigest-tui rows; then `q`.

Skipped (None) when newsboat is not installed (`apt-get install newsboat`).
"""

from __future__ import annotations

import argparse
import html
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from make_corpus import REPOS, Generator  # noqa: E402


def write_feed(out: Path, reviews: int, seed: int = 0, per_file: int = 10) -> int:
    """The corpus `generate(…, reviews, seed, per_file)` writes, as one Atom feed."""
    gen = Generator(seed)
    prs = gen.rng.sample(range(1000, 1000 + reviews * 20), reviews)
    esc = html.escape
    with out.open("w", encoding="utf-8") as feed:
        feed.write(
            '<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">\n'
            "<title>prdigest</title><id>urn:prdigest</id><updated>2026-01-01T00:00:00Z</updated>\n"
        )
        for index, start in enumerate(range(0, reviews, per_file)):
            repo = REPOS[index % len(REPOS)]
            for pr in prs[start : start + per_file]:
                review = gen.review(pr)
                items = [
                    item if isinstance(item, str) else str(item["text"])
                    for section in ("focus", "read_order", "actions", "caveats")
                    for item in review.get(section, [])  # type: ignore[attr-defined]
                ]
                link = f"https://github.com/{repo}/pull/{review['pr']}"
                body = f"<p>{esc(str(review['summary']))}</p><ul>{''.join(f'<li>{esc(i)}</li>' for i in items)}</ul>"
                feed.write(
                    f"<entry><title>{esc(str(review['title']))}</title><id>{link}</id>"
                    f'<link href="{link}"/><updated>2026-01-01T00:00:00Z</updated>'
                    f'<content type="html">{esc(body)}</content></entry>\n'
                )
        feed.write("</feed>\n")
    return reviews


def available() -> str | None:
    return shutil.which("newsboat")


def measure(reviews: int, seed: int, runs: int, env: dict[str, str], tmp: Path) -> dict[str, object] | None:
    """newsboat's figures for `reviews` reviews (see the module docstring), or None without newsboat."""
    exe = available()
    if exe is None:
        return None
    import startup

    work = tmp / f"newsboat-{reviews}"
    work.mkdir(parents=True, exist_ok=True)
    feed = work / "feed.xml"
    write_feed(feed, reviews, seed)
    (work / "urls").write_text(f"file://{feed}\n", encoding="utf-8")
    (work / "config").write_text("show-read-feeds yes\nreload-threads 1\n", encoding="utf-8")
    args = [exe, "-u", str(work / "urls"), "-C", str(work / "config"), "-c", str(work / "cache.db")]
    parse = []
    for _ in range(runs):
        (work / "cache.db").unlink(missing_ok=True)
        started = time.perf_counter()
        subprocess.run([*args, "-x", "reload"], check=True, env=env, capture_output=True, timeout=600)
        parse.append(time.perf_counter() - started)
    # The item counts of the feed list, every item unread: newsboat cuts the
    # column at its width, so only the start of "(N/N)" is looked for.
    marker = re.compile(rf"\({reviews}/\d")
    shown = [
        startup.run_in_pty(args, work, env, {"paint": (marker,), "loaded": (marker,)}, b"q")
        for _ in range(runs)
    ]
    return {"parse": parse, "runs": shown, "feed_mb": feed.stat().st_size / 1e6}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reviews", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    import startup

    tmp = Path(tempfile.mkdtemp(prefix="newsboat-peer-"))
    try:
        result = measure(args.reviews, args.seed, args.runs, startup.child_env(tmp), tmp)
        if result is None:
            print("newsboat is not installed", file=sys.stderr)
            return 1
        paint = [r.times["paint"] for r in result["runs"]]  # type: ignore[attr-defined]
        print(
            f"newsboat, {args.reviews:,} reviews ({result['feed_mb']:.1f} MB feed): reload "
            f"{startup.median(result['parse']):.3f} s, first list {startup.median(paint):.3f} s, "  # type: ignore[arg-type]
            f"RSS {startup.median([r.hwm_kb for r in result['runs']]) / 1024:.0f} MB"  # type: ignore[attr-defined]
        )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
