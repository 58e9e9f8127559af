"""Searching and filtering without Textual: terms, spans, snippets, the index; filters that combine."""

from __future__ import annotations

from tests.reviews import bundled, review
from tui import i18n
from tui.core.filters import Filters, labels, select
from tui.core.model import ALL_TAG, UNREAD_TAG, Item
from tui.core.search import SearchIndex, snippet, spans, split_runs, terms

# -- search -------------------------------------------------------------------


def test_terms_are_lowered_deduplicated_longest_first() -> None:
    assert terms("  Async  h2d ASYNC ") == ("async", "h2d")
    assert terms("") == ()


def test_search_covers_every_field_chinese_and_latin_case_insensitive() -> None:
    library = bundled()
    index = SearchIndex()

    def found(query: str) -> list[str]:
        return [r.title for r in index.select(library.reviews, terms(query))]

    assert found("KPOOL") == ["kpool 索引器迁入 glm5next 并拆分后端"]  # title, any case
    assert found("死锁规避") == ["清理 8 文件 1895 行死内核代码，覆盖 AMD 与量化算子路径"]  # a focus item
    assert "统一 h2d 异步复制工具，删除 async_copy_to_gpu" in found("CpuGpuBuffer.copy_to_gpu")  # a ref
    assert found("值得精读，但重点不在") == ["kpool 索引器迁入 glm5next 并拆分后端"]  # summary
    assert found("kpool 搬运量") == ["kpool 索引器迁入 glm5next 并拆分后端"]  # every term, any field
    assert found("kpool 不存在的词") == []


def test_search_reads_text_as_shown_without_backticks() -> None:
    r = review("t", focus=(Item("focus", "use `async_tensor_h2d` now"),))
    index = SearchIndex()
    assert index.matches(r, terms("async_tensor_h2d now"))
    assert index.matches(r, terms("h2d now"))
    assert not index.matches(r, terms("`async"))


def test_search_text_is_cached_per_review_object_and_pruned() -> None:
    index = SearchIndex()
    one, two = review("one", key=1), review("two", key=2)
    text = index.text(one)
    assert index.text(one) is text  # computed once
    index.text(two)
    index.retain([two])
    assert len(index) == 1
    assert index.text(review("one", key=1)) == "one\ns"  # a new object (a reload) gets fresh text


def test_spans_and_split_runs_highlight_without_changing_text() -> None:
    assert spans("Async h2d ASYNC", ("async",)) == [(0, 5), (10, 15)]
    assert spans("İstanbul async", ("async",)) == [(9, 14)]  # lowering changes the length
    runs, count = split_runs([("统一 h2d ", "a"), ("异步 H2D", "b")], ("h2d",))
    assert count == 2
    assert "".join(t for t, _ in runs) == "统一 h2d 异步 H2D"
    assert ("h2d", ("a", "match")) in runs and ("H2D", ("b", "match")) in runs
    runs, count = split_runs([("ab", "x"), ("cd", "y")], ("bc",))  # a match across two runs
    assert runs == [("a", "x"), ("b", ("x", "match")), ("c", ("y", "match")), ("d", "y")]
    assert split_runs([("x", None)], ()) == ([("x", None)], 0)


def test_snippet_shows_the_first_match_in_context() -> None:
    piece, start, end = snippet("line one\n前面很多很多文字之后出现 kpool 后面", ("kpool",), 12)  # type: ignore[misc]
    assert "kpool" in piece and piece[start:end] == "kpool"
    assert "\n" not in piece
    assert snippet("nothing here", ("kpool",), 10) is None


# -- filters ------------------------------------------------------------------


def test_filters_combine_in_one_pass() -> None:
    library = bundled()
    read = {library.reviews[0].key}
    checked = {library.reviews[1].key: frozenset(i.key for i in library.reviews[1].checklist)}

    def pick(filters: Filters, keep: str | None = None) -> list[str]:
        return [
            r.key
            for r in select(
                library.under(filters.tag),
                filters,
                is_read=lambda key: key in read,
                checked=lambda r: checked.get(r.key, frozenset()),
                index=SearchIndex(),
                keep=keep,
            )
        ]

    everything = [r.key for r in library.reviews]
    assert pick(Filters()) == everything
    assert pick(Filters(unread=True)) == everything[1:]
    assert pick(Filters(tag=UNREAD_TAG)) == everything[1:]
    assert pick(Filters(unchecked=True)) == [k for k in everything if k != library.reviews[1].key]
    deep = [r.key for r in library.reviews if r.verdict == "deep"]
    assert pick(Filters(verdict="deep", unread=True, unchecked=True)) == deep[2:]
    assert pick(Filters(tag="rocm", verdict="skim")) == [library.reviews[6].key]
    assert pick(Filters(query="kpool", unread=True)) == []
    # the open review stays listed when read, but never against the verdict or the search
    assert pick(Filters(unread=True), keep=everything[0]) == everything
    assert pick(Filters(verdict="skip"), keep=everything[0]) == [everything[-1]]


def test_nothing_to_filter_lists_the_tags_own_list_not_a_copy() -> None:
    """No filter (a search cleared), or filters that leave every review (unread
    with nothing read): the list itself, not a copy of 100,000 reviews."""
    library = bundled()
    source = library.under(ALL_TAG)

    def listed(filters: Filters, read: frozenset[str] = frozenset()) -> object:
        return select(
            source,
            filters,
            is_read=lambda key: key in read,
            checked=lambda r: frozenset(),
            index=SearchIndex(),
            read_keys=read,
        )

    assert listed(Filters()) is source
    assert listed(Filters(query="   ")) is source  # a query of spaces searches nothing
    assert listed(Filters(unread=True)) is source  # nothing read
    assert listed(Filters(unread=True), frozenset({source[0].key})) == source[1:]
    assert list(listed(Filters(query="kpool"))) == [r for r in source if "kpool" in r.title.lower()]


def test_filter_labels_and_verdict_cycle() -> None:
    assert not Filters().active
    assert Filters(tag="rocm").active and not Filters(tag="rocm").narrowing
    assert labels(Filters(tag="rocm", verdict="deep", unread=True, unchecked=True)) == [
        "#rocm",
        "Deep read",
        "unread",
        "unchecked",
    ]
    assert labels(Filters(tag=UNREAD_TAG, unread=True)) == ["Unread"]
    cycle = [None]
    f = Filters()
    for _ in range(5):
        f = f.next_verdict()
        cycle.append(f.verdict)
    assert cycle == [None, "deep", "quick", "skim", "skip", None]
    i18n.choose("zh")
    assert labels(Filters(tag=ALL_TAG, verdict="deep", unchecked=True)) == ["值得精读", "有未勾选"]
