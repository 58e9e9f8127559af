"""Fidelity of the bundled digest ``entries/vllm-tag-view.yaml`` to its seed.

The bundled digest is a transcription of the seed page
``shared/seeds/000_9210c928e369b89f.txt`` (8 reviews of vllm-project/vllm
pull requests, in Chinese).  These tests check that the transcription keeps the
whole seed in its own words: same titles in the same order, every clause of
every paragraph, every backticked reference, and nothing added.

The YAML is read with ``yaml.safe_load`` on purpose: this module tests the data
file, not the ``tui`` loader.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from pathlib import Path

import pytest
import yaml

REPO_ROOT = Path(__file__).resolve().parents[2]
ENTRY_FILE = REPO_ROOT / "entries" / "vllm-tag-view.yaml"
# The repo sits at <root>/main and the shared material at <root>/shared; in CI
# the clone has a copy of shared/ beside it.
SEED_FILE = Path(__file__).resolve().parents[3] / "shared" / "seeds" / "000_9210c928e369b89f.txt"

EXPECTED_REVIEWS = 8
LIST_FIELDS = ("focus", "read_order", "actions", "caveats")
VERDICTS = {"deep", "quick", "skim", "skip"}
PAGE_KEYS = {"repo", "entries"}
REVIEW_KEYS = {
    "title",
    "repo",
    "pr",
    "url",
    "date",
    "tags",
    "verdict",
    "verdict_note",
    "summary",
    *LIST_FIELDS,
}
ITEM_KEYS = {"text", "refs", "id"}

TAG_RE = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
REPO_RE = re.compile(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+")
BACKTICK_RE = re.compile(r"`[^`]+`")
CLAUSE_SPLIT_RE = re.compile(r"[。；！？：]")
CJK_RE = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


# --------------------------------------------------------------------------- helpers


def _load_page() -> dict:
    page = yaml.safe_load(ENTRY_FILE.read_text(encoding="utf-8"))
    assert isinstance(page, dict), f"{ENTRY_FILE.name}: top level must be a mapping"
    assert isinstance(page.get("entries"), list), f"{ENTRY_FILE.name}: 'entries' must be a list"
    return page


def _reviews() -> list[dict]:
    reviews = _load_page()["entries"]
    for i, review in enumerate(reviews, 1):
        assert isinstance(review, dict), f"review {i} is not a mapping"
    return reviews


def _seed() -> tuple[str, list[tuple[str, str]]]:
    """Return (header line, [(title, paragraph), ...]) from the seed page.

    The page is a header line, then for each review a title line and one
    paragraph, all separated by blank lines.
    """
    if not SEED_FILE.is_file():
        pytest.skip(f"seed digest not available at {SEED_FILE} (needs shared/ beside the repo)")
    text = SEED_FILE.read_text(encoding="utf-8")
    blocks = [b.strip() for b in re.split(r"\n[ \t]*\n", text.strip()) if b.strip()]
    header, rest = blocks[0], blocks[1:]
    assert len(rest) % 2 == 0, "seed is not header + (title, paragraph) pairs"
    pairs = list(zip(rest[0::2], rest[1::2], strict=False))
    for title, paragraph in pairs:
        assert "\n" not in title and "\n" not in paragraph, f"unexpected seed layout near {title!r}"
    return header, pairs


def _items(review: dict):
    """Yield (field, index, text, refs-or-None) for every list item of a review."""
    for field in LIST_FIELDS:
        for index, item in enumerate(review.get(field) or []):
            if isinstance(item, dict):
                yield field, index, item.get("text"), item.get("refs")
            else:
                yield field, index, item, None


def _texts(review: dict) -> list[str]:
    """The review's text fields in a fixed reading order: verdict_note, summary, then items."""
    texts = [review[key] for key in ("verdict_note", "summary") if key in review]
    texts.extend(text for _, _, text, _ in _items(review))
    return texts


def _joined(review: dict) -> str:
    # Joined without a separator: a seed clause may be spread over adjacent
    # items (e.g. an "A、B、以及 C" enumeration split into three focus items),
    # but only if not a single character between them was lost.
    return "".join(_texts(review))


def _strip_punct(piece: str) -> str:
    start, end = 0, len(piece)
    while start < end and (piece[start].isspace() or unicodedata.category(piece[start]).startswith("P")):
        start += 1
    while end > start and (piece[end - 1].isspace() or unicodedata.category(piece[end - 1]).startswith("P")):
        end -= 1
    return piece[start:end]


def _clauses(paragraph: str) -> list[str]:
    return [c for c in (_strip_punct(p) for p in CLAUSE_SPLIT_RE.split(paragraph)) if c]


def _cjk_count(text: str) -> int:
    return len(CJK_RE.findall(text))


# --------------------------------------------------------------------------- tests


def test_eight_reviews_with_the_seed_titles_in_order():
    _header, pairs = _seed()
    reviews = _reviews()
    assert len(pairs) == EXPECTED_REVIEWS, f"seed has {len(pairs)} reviews"
    assert len(reviews) == EXPECTED_REVIEWS
    assert [r.get("title") for r in reviews] == [title for title, _ in pairs]


def test_repo_comes_from_the_seed_header():
    header, _ = _seed()
    page = _load_page()
    seed_repo = header.split()[0]
    for i, review in enumerate(page["entries"], 1):
        repo = review.get("repo", page.get("repo"))
        assert isinstance(repo, str) and REPO_RE.fullmatch(repo), f"review {i}: bad repo {repo!r}"
        assert repo == seed_repo, f"review {i}: repo {repo!r} is not the seed's {seed_repo!r}"


def test_every_clause_of_every_seed_paragraph_is_kept():
    _, pairs = _seed()
    reviews = _reviews()
    assert len(reviews) == len(pairs)
    missing = []
    for (title, paragraph), review in zip(pairs, reviews, strict=False):
        joined = _joined(review)
        for clause in _clauses(paragraph):
            if clause not in joined:
                missing.append(f"{title}: {clause}")
    assert not missing, "seed clauses missing from the digest:\n" + "\n".join(missing)


def test_every_backticked_span_of_the_seed_is_kept_verbatim():
    _, pairs = _seed()
    reviews = _reviews()
    assert len(reviews) == len(pairs)
    missing = []
    for (title, paragraph), review in zip(pairs, reviews, strict=False):
        joined = _joined(review)
        for span in BACKTICK_RE.findall(paragraph):
            if span not in joined:
                missing.append(f"{title}: {span}")
    assert not missing, "backticked spans missing from the digest:\n" + "\n".join(missing)


def test_item_refs_are_exactly_the_items_backticked_spans():
    problems = []
    for review in _reviews():
        for field, index, text, refs in _items(review):
            where = f"{review.get('title')} / {field}[{index}]"
            spans = [s[1:-1] for s in BACKTICK_RE.findall(text or "")]
            refs = refs or []
            if not isinstance(refs, list):
                problems.append(f"{where}: refs is not a list")
                continue
            uncovered = [s for s in spans if s not in refs]
            invented = [r for r in refs if r not in spans]
            if uncovered:
                problems.append(f"{where}: refs miss {uncovered}")
            if invented:
                problems.append(f"{where}: refs not backticked in the text {invented}")
    assert not problems, "\n".join(problems)


def test_tags_are_few_kebab_case_and_shared():
    reviews = _reviews()
    holders = Counter()
    for review in reviews:
        tags = review.get("tags")
        assert isinstance(tags, list), f"{review.get('title')}: tags must be a list"
        assert 2 <= len(tags) <= 4, f"{review.get('title')}: {len(tags)} tags"
        assert len(set(tags)) == len(tags), f"{review.get('title')}: duplicate tags {tags}"
        for tag in tags:
            assert isinstance(tag, str) and TAG_RE.fullmatch(tag), f"{review.get('title')}: bad tag {tag!r}"
        holders.update(tags)
    singletons = sorted(tag for tag, n in holders.items() if n == 1)
    assert len(singletons) <= 2, f"too many tags held by a single review: {singletons}"


def test_verdicts_are_known():
    for review in _reviews():
        assert review.get("verdict") in VERDICTS, f"{review.get('title')}: verdict {review.get('verdict')!r}"


PR_NUMBERS_FILE = SEED_FILE.with_name("pr-numbers.md")


def test_nothing_the_seed_does_not_give():
    # The seed gives no links or dates: none may be invented. PR numbers come
    # from shared/seeds/pr-numbers.md (see the next test).
    for review in _reviews():
        for key in ("url", "date"):
            assert key not in review, f"{review.get('title')}: has {key!r}, which the seed does not give"
        assert isinstance(review.get("pr"), int), f"{review.get('title')}: no pr"


def test_pr_numbers_are_those_found_for_the_seed():
    if not PR_NUMBERS_FILE.is_file():
        pytest.skip(f"PR numbers not available at {PR_NUMBERS_FILE}")
    table = {}
    for line in PR_NUMBERS_FILE.read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[1].isdigit():
            table[cells[0]] = int(cells[1])  # the likely one where it names an alternative
    assert len(table) == EXPECTED_REVIEWS
    assert {review["title"]: review["pr"] for review in _reviews()} == table


def test_only_known_keys():
    page = _load_page()
    assert set(page) <= PAGE_KEYS, f"unknown page keys {set(page) - PAGE_KEYS}"
    for review in page["entries"]:
        assert set(review) <= REVIEW_KEYS, f"{review.get('title')}: unknown keys {set(review) - REVIEW_KEYS}"
        for field in LIST_FIELDS:
            value = review.get(field, [])
            assert isinstance(value, list), f"{review.get('title')}: {field} must be a list"
            for item in value:
                if isinstance(item, dict):
                    assert set(item) <= ITEM_KEYS, (
                        f"{review.get('title')}: unknown item keys {set(item) - ITEM_KEYS}"
                    )


def test_every_text_is_a_non_empty_string():
    # Guards against YAML 1.1 coercion (no -> False, 2026-01-01 -> date, 010 -> 8).
    for i, review in enumerate(_reviews(), 1):
        for key in ("title", "repo", "verdict", "verdict_note", "summary"):
            if key in review:
                value = review[key]
                assert isinstance(value, str) and value.strip(), f"review {i}: {key} is {value!r}"
        assert "summary" in review, f"review {i}: summary is required"
        for tag in review.get("tags") or []:
            assert isinstance(tag, str), f"review {i}: tag {tag!r} is not a string"
        for field, index, text, refs in _items(review):
            assert isinstance(text, str) and text.strip(), f"review {i}: {field}[{index}] text is {text!r}"
            for ref in refs or []:
                assert isinstance(ref, str) and ref, f"review {i}: {field}[{index}] ref {ref!r}"


def test_no_text_added_or_duplicated():
    _, pairs = _seed()
    reviews = _reviews()
    seed_cjk = sum(_cjk_count(paragraph) for _, paragraph in pairs)
    digest_cjk = sum(_cjk_count(text) for review in reviews for text in _texts(review))
    assert seed_cjk > 0
    assert abs(digest_cjk - seed_cjk) <= 0.03 * seed_cjk, (
        f"digest holds {digest_cjk} CJK characters, seed paragraphs {seed_cjk}"
    )
