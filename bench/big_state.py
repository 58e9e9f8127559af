"""A state file as a long-time reader of a big library has it, for the key and
start-up benches: N review keys in the real format (`tui.store.state`),
written by the reader's own code (`tui.core.marking`'s calls on real reviews).

    python bench/big_state.py CORPUS OUT --keys 100000 [--read 0.33] [--checked 0.03] [--seed 0]

Of the keys, a `read` share is read (a read mark and the `seen` record of the
version read, as `r` writes them), a `checked` share has one to three items
checked (their `seen` too), and the rest were read and made unread again (a
read mark `false`, as `R` then `z` leave them). Keys are the corpus's own
reviews in a shuffled order; past the corpus's size, keys of reviews that are
gone (other repos, removed files), with made-up fingerprints. The library is
read with the parse cache of XDG_CACHE_HOME (warm after a first start, else
every file is parsed here). Not a test.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _fake_fingerprint(rng: random.Random) -> dict[str, object]:
    fields = ("title", "verdict", "verdict_note", "summary", "tags", "url", "date")
    items: dict[str, list[list[str]]] = {}
    for section, count in (("focus", 4), ("read_order", 2), ("actions", 2), ("caveats", 1)):
        digests = [f"{rng.getrandbits(64):016x}" for _ in range(count)]
        items[section] = [[f"{section}:{d}", d] for d in digests]
    return {"fields": {name: f"{rng.getrandbits(64):016x}" for name in fields}, "items": items}


def write_state(corpus: Path, out: Path, keys: int, read: float, checked: float, seed: int) -> dict:
    """Write the state file `out`; what it holds, counted."""
    from tui import __version__
    from tui.core.changes import fingerprint
    from tui.core.model import SECTIONS
    from tui.load.cache import ParseCache
    from tui.load.library import load_library
    from tui.store import locations
    from tui.store.state import ReadState

    library = load_library([corpus], ParseCache(locations.cache_file(), version_key=__version__))
    rng = random.Random(seed)
    reviews = list(library.reviews)
    rng.shuffle(reviews)
    out.unlink(missing_ok=True)
    state = ReadState(out)
    counts = {"keys": 0, "read": 0, "checked": 0, "unread": 0, "gone": 0}
    for n in range(keys):
        pick = rng.random()
        if n < len(reviews):
            review = reviews[n]
            key = review.key
            seen = fingerprint(review)
            items = [item for section in SECTIONS for item in review.items(section)]
        else:
            review = None
            key = f"gone-org/gone-repo#{n}"
            seen = _fake_fingerprint(rng)
            items = []
            counts["gone"] += 1
        counts["keys"] += 1
        if pick < read:
            state.set_read(key, True)
            state.set_seen(key, seen)
            counts["read"] += 1
        elif pick < read + checked and items:
            for item in rng.sample(items, min(len(items), rng.randint(1, 3))):
                state.set_checked(key, item.key, True, item.digest)
            state.set_seen(key, seen)
            counts["checked"] += 1
        else:
            state.set_read(key, False)
            counts["unread"] += 1
    state.save()
    counts["bytes"] = out.stat().st_size
    return counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--keys", type=int, default=100000)
    parser.add_argument("--read", type=float, default=0.33)
    parser.add_argument("--checked", type=float, default=0.03)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    started = time.perf_counter()
    counts = write_state(args.corpus, args.out, args.keys, args.read, args.checked, args.seed)
    print(f"{counts} in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
