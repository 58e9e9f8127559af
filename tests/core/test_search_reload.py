"""The search index across a reload (`Library.apply`, then `SearchIndex.retain`,
as the reader's `apply_updates` does): the texts of reviews in files that did
not change are kept, not made again; the changed file's reviews get fresh
texts; kept answers start afresh."""

from __future__ import annotations

from pathlib import Path

from tui.core.model import FileUpdate, Library, Review
from tui.core.search import SearchIndex, terms
from tui.load.parse import load_paths


def page(name: str, first_pr: int, *words: str) -> str:
    """A page of reviews, one a word (in its summary): `name first_pr`, ..."""
    return "repo: o/r\nentries:\n" + "".join(
        f"  - title: {name} {n}\n    pr: {n}\n    tags: [t]\n    verdict: deep\n    summary: {word} 摘要\n"
        for n, word in enumerate(words, start=first_pr)
    )


def load(*paths: Path) -> dict[Path, list[Review]]:
    result = load_paths(paths)
    assert not result.problems, result.problems
    return result.files


def plain(reviews: list[Review], query: str) -> list[Review]:
    index = SearchIndex()
    return [r for r in reviews if index.matches(r, terms(query))]


def test_texts_of_unchanged_files_survive_a_reload(tmp_path: Path) -> None:
    one, two, three = tmp_path / "one.yaml", tmp_path / "two.yaml", tmp_path / "three.yaml"
    one.write_text(page("one", 100, "alpha", "beta"), encoding="utf-8")
    two.write_text(page("two", 200, "gamma", "delta"), encoding="utf-8")
    three.write_text(page("three", 300, "epsilon"), encoding="utf-8")
    library = Library.build(load(one, two, three), {})
    index = SearchIndex()
    assert [r.title for r in index.select(library.reviews, terms("alpha"))] == ["one 100"]
    assert len(index) == 5  # every text made
    made = {r.key: index.parts(r) for r in library.reviews}

    two.write_text(page("two", 200, "gamma", "zeta"), encoding="utf-8")  # one review of two edited
    changes = library.apply({**{two: FileUpdate(load(two)[two], [])}, three: None})
    index.retain(library.reviews)
    assert changes.updated and changes.removed

    kept = [r for path in (one,) for r in library.files[path]]
    assert len(index) == len(kept) == 2  # two's old reviews and three's are forgotten
    for review in kept:
        assert index.parts(review) is made[review.key]  # the very text: not made again
    for review in library.files[two]:
        assert review.key in made and index.parts(review) is not made[review.key]  # a new object
    assert "zeta" in index.text(library.files[two][1]) and "delta" not in index.text(library.files[two][1])
    assert index.select(library.reviews, terms("delta")) == [] == plain(library.reviews, "delta")
    assert index.select(library.reviews, terms("zeta")) == plain(library.reviews, "zeta") != []
    assert index.select(library.reviews, terms("alpha")) == library.files[one][:1]
    assert len(index) == 4  # two's two texts made again, one's kept


def test_a_reload_forgets_answers_but_not_the_texts_it_keeps(tmp_path: Path) -> None:
    one, two = tmp_path / "one.yaml", tmp_path / "two.yaml"
    one.write_text(page("one", 100, *(f"w{n}" for n in range(40))), encoding="utf-8")
    two.write_text(page("two", 200, "x"), encoding="utf-8")
    library = Library.build(load(one, two), {})
    index = SearchIndex()
    index.select(library.reviews, terms("w"))
    assert index.work(library.reviews, terms("w")) == 0  # answered from memory
    two.write_text(page("two", 200, "y"), encoding="utf-8")
    library.apply({two: FileUpdate(load(two)[two], [])})
    index.retain(library.reviews)
    # The answer is asked again (a new list), each kept text tested once; only
    # two's one review has a text to make (weighed 100: `SearchIndex.work`).
    assert index.work(library.reviews, terms("w")) == 41 + 100
    assert index.select(library.reviews, terms("w")) == plain(library.reviews, "w")
