"""The Textual-free parts of triage: search, filters, undo, URLs, editor command, words."""

from __future__ import annotations

from pathlib import Path

from tui import i18n
from tui.core.external import editor_command, openable, refs
from tui.core.filters import Filters, labels, select
from tui.core.model import ALL_TAG, UNREAD_TAG, Item, Library, Location, Review
from tui.core.search import SearchIndex, snippet, spans, split_runs, terms
from tui.core.undo import ReadUndo
from tui.i18n import words
from tui.load.parse import load_paths
from tui.store.locations import bundled_entries
from tui.store.state import ReadState


def review(title: str, *, key: int = 1, verdict: str = "deep", summary: str = "s", **kw: object) -> Review:
    return Review(
        title=title,
        repo="o/r",
        verdict=verdict,
        summary=summary,
        tags=("a",),
        location=Location(Path("x.yaml"), 1, 1),
        pr=key,
        **kw,  # type: ignore[arg-type]
    )


def bundled() -> Library:
    result = load_paths([bundled_entries()])
    return Library.build(result.files, result.problems)


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


# -- undo ---------------------------------------------------------------------


def test_undo_restores_read_marks_and_what_was_seen(tmp_path: Path) -> None:
    state = ReadState(tmp_path / "state.json")
    state.set_read("a", True)
    state.set_seen("a", {"fields": {"title": "old"}, "items": {}})
    undo = ReadUndo()
    undo.record(state, ["a", "b"])
    state.set_read("a", True)
    state.set_seen("a", {"fields": {"title": "new"}, "items": {}})
    state.set_read("b", True)
    assert len(undo) == 1
    assert sorted(undo.undo(state)) == ["a", "b"]
    assert state.is_read("a") and not state.is_read("b")
    assert state.seen("a") == {"fields": {"title": "old"}, "items": {}}
    assert undo.undo(state) == []
    # an undone mark is a new mark: it wins a merge with the file written before
    state.save()
    other = ReadState(tmp_path / "state.json")
    other.load()
    assert not other.is_read("b")


def test_undo_keeps_a_bounded_history(tmp_path: Path) -> None:
    state = ReadState(None)
    undo = ReadUndo(limit=3)
    for n in range(5):
        undo.record(state, [str(n)])
    assert len(undo) == 3
    undo.record(state, [])
    assert len(undo) == 3


# -- other programs -----------------------------------------------------------


def test_only_http_and_https_urls_are_opened() -> None:
    assert openable("https://github.com/o/r/pull/1")
    assert openable("http://example.com/x")
    for url in (
        None,
        "",
        "file:///etc/passwd",
        "javascript:alert(1)",
        "ftp://x/y",
        "https://",
        "https:///path",
        "https://exa mple.com",
        "https://example.com/\x1b]0;x\x07",
        "vscode://file/x",
        "//example.com",
    ):
        assert not openable(url), url


def test_editor_command_prefers_visual_then_editor_then_vi(tmp_path: Path) -> None:
    path = tmp_path / "e.yaml"
    assert editor_command({}, path, 7) == ["vi", "+7", str(path)]
    assert editor_command({"EDITOR": "nano -w"}, path, 3) == ["nano", "-w", "+3", str(path)]
    assert editor_command({"EDITOR": "nano", "VISUAL": "'my editor' --wait"}, path, 0) == [
        "my editor",
        "--wait",
        "+1",
        str(path),
    ]
    assert editor_command({"EDITOR": "ed 'unbalanced"}, path, 2)[:2] == ["ed", "'unbalanced"]


def test_refs_are_the_items_refs_then_its_code_spans() -> None:
    item = Item("focus", "see `a.b` and `c()` and `a.b`", refs=("x/y.py", "a.b"))
    assert refs(item) == ["x/y.py", "a.b", "c()"]


# -- words --------------------------------------------------------------------


def test_language_from_flag_and_locale() -> None:
    assert i18n.normalize("zh_CN.UTF-8") == "zh"
    assert i18n.normalize("zh-Hans") == "zh"
    assert i18n.normalize("en_GB") == "en"
    assert i18n.normalize("fr") is None
    assert i18n.from_environment({"LANG": "zh_CN.UTF-8"}) == "zh"
    assert i18n.from_environment({"LC_ALL": "C", "LANG": "zh_CN.UTF-8"}) == "en"  # LC_ALL wins
    assert i18n.from_environment({"LC_ALL": "", "LC_MESSAGES": "zh_TW", "LANG": "en_US"}) == "zh"
    assert i18n.from_environment({}) == "en"


def test_every_word_exists_in_both_languages() -> None:
    assert set(i18n.EN.bindings) == set(i18n.ZH.bindings)
    for name in i18n.Words._fields:
        english, chinese = getattr(i18n.EN, name), getattr(i18n.ZH, name)
        assert type(chinese) is type(english), name
        if isinstance(english, dict) and english:
            assert set(chinese) >= set(english), name
        if isinstance(english, str) and name != "language":
            assert chinese, name
    i18n.choose("zh")
    assert words().all == "全部" and words().verdict_words["deep"] == "值得精读"
    assert words().binding_text("search", "Search", "x") == ("搜索", "搜索标题、正文和代码引用")
    i18n.choose("en")
    assert words().all == "All"
    assert words().binding_text(None, "d", "t") == ("d", "t")


def test_every_app_binding_has_an_id_a_tooltip_and_words() -> None:
    from textual.binding import Binding

    from tui.ui.app import PrDigestApp
    from tui.ui.screens.problems import ProblemsScreen
    from tui.ui.screens.todo import TodoScreen
    from tui.ui.widgets.review_list import ReviewList
    from tui.ui.widgets.review_view import ReviewView
    from tui.ui.widgets.search_bar import SearchBar
    from tui.ui.widgets.tag_list import TagList
    from tui.ui.widgets.todo_list import TodoList

    owners = (PrDigestApp, ReviewList, ReviewView, TagList, SearchBar, ProblemsScreen, TodoScreen, TodoList)
    for owner in owners:
        for binding in owner.BINDINGS:
            assert isinstance(binding, Binding)
            assert binding.id and binding.tooltip, (owner.__name__, binding.key)
            assert binding.id in i18n.EN.bindings, binding.id
    assert PrDigestApp.binding_ids() <= set(i18n.EN.bindings)


def test_the_readme_lists_every_binding_id() -> None:
    import re

    from tui.ui.app import PrDigestApp

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Configuration", 1)[1].split("\n## ", 1)[0]
    listed = set(re.findall(r"`([a-z][a-z.-]*)`", section.split("The ids:", 1)[1].split("The key panel")[0]))
    assert listed == PrDigestApp.binding_ids()
