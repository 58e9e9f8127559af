"""Library.build (order, tag index, duplicates) and the keys read state is stored under."""

from __future__ import annotations

from pathlib import Path

from tui.core.model import ALL_TAG, UNREAD_TAG, FileUpdate, Item, Library, Location, Review, verdict_rank
from tui.load.parse import load_file, load_paths


def entry(title: str, verdict: str, tags: str, extra: str = "") -> str:
    return f"  - title: {title}\n    verdict: {verdict}\n    tags: {tags}\n    summary: s\n" + "".join(
        f"    {line}\n" for line in extra.splitlines()
    )


def page(folder: Path, name: str, *entries: str, repo: str = "o/r") -> Path:
    path = folder / name
    path.write_text(f"repo: {repo}\nentries:\n" + "".join(entries), encoding="utf-8")
    return path


def library(folder: Path) -> Library:
    result = load_paths([folder])
    assert result.all_problems() == []
    return Library.build(result.files, result.problems)


def make_review(title: str = "t", **fields: object) -> Review:
    values: dict = {
        "title": title,
        "repo": "o/r",
        "verdict": "deep",
        "summary": "s",
        "tags": ("a",),
        "location": Location(Path("x.yaml"), 1, 1),
    }
    values.update(fields)
    return Review(**values)


# -- order and tags ---------------------------------------------------------------------


def test_reading_order_is_verdict_then_file_order(tmp_path: Path) -> None:
    page(
        tmp_path,
        "a.yaml",
        entry("a-skip", "skip", "[x]"),
        entry("deep-zeta", "deep", "[x]"),
        entry("a-skim", "skim", "[y]"),
        entry("a-quick", "quick", "[x, y]"),
        entry("deep-alpha", "deep", "[y]"),
    )
    page(
        tmp_path,
        "b.yaml",
        entry("b-deep", "deep", "[z]"),
        entry("b-skip", "skip", "[x]"),
        entry("b-quick", "quick", "[x]"),
    )
    lib = library(tmp_path)
    assert [r.title for r in lib.reviews] == [
        "deep-zeta",
        "deep-alpha",
        "b-deep",
        "a-quick",
        "b-quick",
        "a-skim",
        "a-skip",
        "b-skip",
    ]
    assert lib.under(ALL_TAG) == lib.reviews
    assert lib.under(UNREAD_TAG) == lib.reviews


def test_file_order_follows_sorted_paths_not_insertion(tmp_path: Path) -> None:
    # Files are visited in path order whatever order the mapping was built in.
    b = page(tmp_path, "b.yaml", entry("from-b", "deep", "[x]"))
    a = page(tmp_path, "a.yaml", entry("from-a", "deep", "[x]"))
    files = {b: load_file(b).reviews, a: load_file(a).reviews}
    assert [r.title for r in Library.build(files).reviews] == ["from-a", "from-b"]


def test_tag_index(tmp_path: Path) -> None:
    page(
        tmp_path,
        "a.yaml",
        entry("one", "skip", "[rare, common]"),
        entry("two", "deep", "[common, mid]"),
        entry("three", "quick", "[mid, common]"),
        entry("four", "skim", "[also-rare]"),
    )
    lib = library(tmp_path)
    # Most used first, then by name.
    assert list(lib.tags) == ["common", "mid", "also-rare", "rare"]
    assert [r.title for r in lib.under("common")] == ["two", "three", "one"]
    assert [r.title for r in lib.under("mid")] == ["two", "three"]
    assert [r.title for r in lib.under("rare")] == ["one"]
    assert lib.under("no-such-tag") == []
    assert lib.repos == ["o/r"]


def test_bundled_digest_library(tmp_path: Path) -> None:
    from tui.store.locations import bundled_entries

    result = load_paths([bundled_entries()])
    lib = Library.build(result.files, result.problems)
    assert len(lib.reviews) == 8
    assert lib.all_problems() == []
    ranks = [verdict_rank(r.verdict) for r in lib.reviews]
    assert ranks == sorted(ranks)
    assert [r.verdict for r in lib.reviews].count("deep") == 5
    assert sum(len(v) for v in lib.tags.values()) == sum(len(r.tags) for r in lib.reviews)
    assert set(lib.by_key) == {r.key for r in lib.reviews}


def test_unknown_verdict_ranks_last() -> None:
    assert [verdict_rank(v) for v in ("deep", "quick", "skim", "skip", "other")] == [0, 1, 2, 3, 4]


# -- duplicates ---------------------------------------------------------------------------


def test_duplicate_review_keys_keep_the_first(tmp_path: Path) -> None:
    page(tmp_path, "a.yaml", entry("first", "skip", "[x]", "pr: 7"), entry("same title", "deep", "[x]"))
    b = page(
        tmp_path,
        "b.yaml",
        entry("second", "deep", "[y]", "pr: 7"),
        entry("same title", "quick", "[y]"),
    )
    result = load_paths([tmp_path])
    lib = Library.build(result.files, result.problems)
    assert [(r.title, r.verdict) for r in lib.reviews] == [("same title", "deep"), ("first", "skip")]
    assert lib.by_key["o/r#7"].title == "first"
    assert list(lib.tags) == ["x"]
    assert [str(p) for p in lib.all_problems()] == [
        f"{b}:3:5: duplicate review (first at {tmp_path / 'a.yaml'}:3:5); skipped",
        f"{b}:8:5: duplicate review (first at {tmp_path / 'a.yaml'}:8:5); skipped",
    ]


def test_the_first_loads_hand_over_indexes_as_a_reload_does_but_compares_nothing(tmp_path: Path) -> None:
    """`apply(compare=False)` (the first load's later files): the same library
    as `apply`, duplicates and problems included, and no review compared."""
    a = page(tmp_path, "a.yaml", entry("first", "skip", "[x, y]", "pr: 7"), entry("t", "deep", "[y]"))
    b = page(tmp_path, "b.yaml", entry("again", "quick", "[x]", "pr: 7"), entry("u", "skim", "[z]"))
    c = page(tmp_path, "c.yaml", entry("v", "later", "[x]"))
    result = load_paths([tmp_path])
    updates = {path: FileUpdate(result.files.get(path, []), result.problems.get(path, [])) for path in (b, c)}
    told, quiet = Library.build({a: result.files[a]}), Library.build({a: result.files[a]})
    changes = told.apply(updates)
    unchanged = quiet.apply(updates, compare=False)
    assert changes.added == ["o/r:u"] and unchanged.added == [] and unchanged.updated == []
    assert unchanged.problem_files == changes.problem_files == [c]
    assert [r.key for r in quiet.reviews] == [r.key for r in told.reviews] == ["o/r:t", "o/r:u", "o/r#7"]
    assert {tag: [r.key for r in rs] for tag, rs in quiet.tags.items()} == {
        "y": ["o/r:t", "o/r#7"],
        "x": ["o/r#7"],
        "z": ["o/r:u"],
    }
    assert [str(p) for p in quiet.all_problems()] == [str(p) for p in told.all_problems()]
    assert len(quiet.all_problems()) == 2  # c's verdict, and b's second o/r#7


def test_build_does_not_change_its_inputs(tmp_path: Path) -> None:
    # A reload rebuilds the library from kept per-file results: problems must not pile up.
    page(tmp_path, "a.yaml", entry("t", "deep", "[x]", "pr: 1"))
    # b.yaml has a problem of its own and a duplicate of a.yaml's review.
    page(tmp_path, "b.yaml", entry("u", "deep", "[x]", "pr: 1"), entry("v", "later", "[x]"))
    result = load_paths([tmp_path])
    before = {path: list(problems) for path, problems in result.problems.items()}
    assert len(before[tmp_path / "b.yaml"]) == 1
    first = Library.build(result.files, result.problems)
    second = Library.build(result.files, result.problems)
    assert result.problems == before
    assert len(first.all_problems()) == len(second.all_problems()) == 2
    assert first.problem_count == 2  # a file's own problem and a duplicate, counted without sorting


# -- keys and links -------------------------------------------------------------------------


def test_review_key() -> None:
    assert make_review(pr=42).key == "o/r#42"
    assert make_review("A title").key == "o/r:A title"
    assert make_review("A title", repo="x/y").key != make_review("A title").key


def test_review_link() -> None:
    assert make_review(pr=42).link == "https://github.com/o/r/pull/42"
    assert make_review(pr=42, url="https://example.com/x").link == "https://example.com/x"
    assert make_review(url="https://example.com/y").link == "https://example.com/y"
    assert make_review().link is None


def test_review_sections_and_checklist() -> None:
    focus = (Item("focus", "f"),)
    order = (Item("read_order", "r"),)
    actions = (Item("actions", "a"),)
    review = make_review(focus=focus, read_order=order, actions=actions)
    assert review.items("actions") == actions
    assert review.checklist == focus + order


def test_item_key_is_pinned() -> None:
    # Keys are stored in users' state files: they must not change between versions or processes.
    assert Item("focus", "hello").key == "focus:a7b6eda801e5347d"
    assert Item("focus", "先看 `scheduler.py` 三个调用点").key == "focus:76eba57867009c19"
    assert Item("focus", "changed", id="step-1").key == "focus:step-1"


def test_item_keys_stable_across_loads_and_changed_by_edits(tmp_path: Path) -> None:
    path = tmp_path / "r.yaml"

    def write(first: str, second: str) -> tuple[str, str]:
        path.write_text(
            "title: t\nrepo: o/r\ntags: [a]\nverdict: deep\nsummary: s\n"
            f"focus:\n  - {first}\n  - text: {second}\n    id: second\n",
            encoding="utf-8",
        )
        [review] = load_file(path).reviews
        return review.focus[0].key, review.focus[1].key

    keys = write("check the dispatcher", "read the tests")
    assert write("check the dispatcher", "read the tests") == keys
    edited = write("check the dispatcher again", "read the tests twice")
    assert edited[0] != keys[0]  # edited text without an id: the check is gone
    assert edited[1] == keys[1] == "focus:second"  # the id keeps it
    assert Item("focus", "x").key != Item("read_order", "x").key


def test_a_reload_compares_bodies_and_leaves_packed_ones_packed(tmp_path: Path) -> None:
    """Bodies stay packed until read (Review.blob); comparing a changed file's
    reviews with their last versions must not leave them unpacked."""
    location = Location(tmp_path / "r.yaml", 1, 1)
    items = (Item("focus", "看 `a`"), Item("focus", "看 `b`"))
    unpacked = Review("t", "o/r", "deep", "s", ("x",), location, pr=1, focus=items)
    blob = unpacked.blob

    def packed(body: bytes) -> Review:
        return Review.packed("t", "o/r", "deep", ("x",), location, 1, body, len(items))

    old, same = packed(blob), packed(blob)
    edited = packed(Review("t", "o/r", "deep", "s2", ("x",), location, pr=1, focus=items).blob)
    assert old.same_content(same) and not old.same_content(edited)
    assert old.same_content(unpacked) and unpacked.same_content(old)
    assert all(review._body is None for review in (old, same, edited))  # packed still
    assert unpacked._body is not None  # it was never packed
    assert same.focus == items  # and unpacked again when read
    library = Library.build({location.path: [old]})
    changes = library.apply({location.path: FileUpdate([edited], [])})
    assert changes.updated == ["o/r#1"] and edited._body is None
