"""A review from the parse cache knows its checklist's size (`Review.checks`,
what the `unchecked` filter and the list's counts read) without its body being
read: from the parse workers' answer (its bodies in their journal, or in the
answer without a cache file) and from the cache file at the next start; as
the entry file says it, and as the unpacked checklist has it."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tui.load.cache import ParseCache
from tui.load.first_frame import first_part, from_cache, parse_in_background

# title -> (focus items, read-order steps, notes): the notes are not checklist items.
SIZES = {
    "nothing to check": (0, 0, 0),
    "focus only": (3, 0, 1),
    "read order only": (0, 4, 0),
    "both": (2, 5, 3),
    "a long list": (120, 80, 2),
}


def _entry(title: str, focus: int, steps: int, notes: int) -> list[str]:
    lines = [f"title: {title}", "repo: o/r", "tags: [a]", "verdict: deep", "summary: s"]
    for section, count in (("focus", focus), ("read_order", steps), ("actions", notes)):
        if count:
            lines.append(f"{section}:")
            lines.extend(f"  - {section} {k}" for k in range(count))
    return lines


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "entries"
    folder.mkdir()
    for n, (title, sizes) in enumerate(SIZES.items()):
        (folder / f"r{n}.yaml").write_text("\n".join(_entry(title, *sizes)) + "\n", encoding="utf-8")
    many = ["entries:"]  # several reviews in one file: each has its own size
    for k in range(6):
        first, *rest = _entry(f"many {k}", k, k % 3, 1)
        many += [f"  - {first}", *(f"    {line}" for line in rest)]
    (folder / "many.yaml").write_text("\n".join(many) + "\n", encoding="utf-8")
    return folder


def _expected() -> dict[str, int]:
    out = {title: focus + steps for title, (focus, steps, _) in SIZES.items()}
    out.update({f"many {k}": k + k % 3 for k in range(6)})
    return out


def _parsed(folder: Path, cache: ParseCache) -> dict:
    """Every file parsed as at a cold start past the first frame: packed by the
    parse workers, decoded, and stored in `cache`."""
    updates: dict = {}
    asyncio.run(parse_in_background(sorted(folder.iterdir()), cache, updates.update))
    return updates


def _warm(folder: Path, cache: ParseCache) -> dict:
    """Every file as a warm start has it: answered by the cache file."""
    shown, rest, missing = first_part([folder], cache)
    cached, misses = from_cache(rest, cache)
    assert not missing and not misses
    return {**shown, **cached}


def test_a_review_from_the_parse_cache_reports_its_checklist_size(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    cache_file = tmp_path / "cache.bin"
    cold = ParseCache(cache_file)
    parsed = _parsed(folder, cold)  # the bodies in the workers' journal
    cold.save()
    warm = ParseCache(cache_file)
    assert warm.load()
    from_file = _warm(folder, warm)
    no_cache = _parsed(folder, ParseCache(None))  # `--no-cache`: the bodies in the workers' answer
    assert from_file.keys() == parsed.keys() == no_cache.keys()
    expected = _expected()
    for updates in (parsed, from_file, no_cache):
        reviews = [review for update in updates.values() for review in update.reviews]
        assert sorted(r.title for r in reviews) == sorted(expected)
        sizes = {}
        for review in reviews:
            assert review._body is None  # known before the body is unpacked
            sizes[review.title] = review.checks
        assert sizes == expected
        assert {r.title: len(r.checklist) for r in reviews} == expected  # and what unpacking gives
