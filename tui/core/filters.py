"""Filters that combine: tag, verdict, unread only, has unchecked items, search,
and what a saved view or a repo in the sidebar sets (tags any of, verdicts, repos).

No Textual here. The app keeps the choices; `select` is one pass over the
reviews under the tag, and `labels` says in words what is filtered, for the
filter bar. The sidebar's entries are keys: a real tag, All, Unread, or a view
or a repo (`view_key`, `repo_key`), which list every review and narrow by the
sets they put in the filters.
"""

from __future__ import annotations

import bisect
import operator
from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import compress
from typing import NamedTuple

from tui.core.model import ALL_TAG, UNREAD_TAG, VERDICTS, Review, verdict_rank
from tui.core.order import Ranks, position, without_ranked
from tui.core.search import SearchIndex, terms
from tui.core.views import View
from tui.i18n import words

VIEW_PREFIX = "\x00view:"
REPO_PREFIX = "\x00repo:"
"""Sidebar keys of views and repos; the NUL keeps them apart from any real tag."""


def view_key(name: str) -> str:
    return VIEW_PREFIX + name


def repo_key(repo: str) -> str:
    return REPO_PREFIX + repo


def is_real_tag(key: str) -> bool:
    """A tag of the reviews (not All, Unread, a view or a repo): muted reviews stay listed under it."""
    return not key.startswith("\x00")


VERDICT_CYCLE: tuple[str | None, ...] = (None, *VERDICTS)
"""What `v` steps through: all verdicts, then each in reading-priority order."""


class Filters(NamedTuple):
    tag: str = ALL_TAG  # the sidebar's key: a tag, All, Unread, a view or a repo
    verdict: str | None = None
    unread: bool = False
    unchecked: bool = False
    query: str = ""
    tags: frozenset[str] = frozenset()  # any of; set by a view
    verdicts: frozenset[str] = frozenset()  # set by a view
    repos: frozenset[str] = frozenset()  # set by a view or a repo

    @classmethod
    def of_view(cls, view: View) -> Filters:
        """What choosing a view sets: every filter it names, nothing else."""
        return cls(
            tag=view_key(view.name),
            unread=view.unread,
            unchecked=view.unchecked,
            query=view.search,
            tags=view.tags,
            verdicts=view.verdicts,
            repos=view.repos,
        )

    def choose(self, key: str, views: Mapping[str, View]) -> Filters:
        """The filters after the sidebar's `key` is chosen. A view sets what it
        names; a repo narrows to itself; leaving a view for another entry drops
        what the view set (a view is where reading starts, not a layer that stays)."""
        if key.startswith(VIEW_PREFIX):
            view = views.get(key.removeprefix(VIEW_PREFIX))
            return Filters.of_view(view) if view is not None else self
        base = Filters() if self.tag.startswith(VIEW_PREFIX) else self._replace(repos=frozenset())
        if key.startswith(REPO_PREFIX):
            return base._replace(tag=key, repos=frozenset({key.removeprefix(REPO_PREFIX)}))
        return base._replace(tag=key)

    @property
    def terms(self) -> tuple[str, ...]:
        return terms(self.query)

    @property
    def active(self) -> bool:
        """Anything narrower than every review?"""
        return self.tag != ALL_TAG or self.narrowing

    @property
    def narrowing(self) -> bool:
        """Anything besides the tag narrowing the list?"""
        return bool(self.verdict or self.unread or self.unchecked or self.terms or self.sets)

    @property
    def sets(self) -> bool:
        """Does a view's or a repo's tags, verdicts or repos narrow the list?"""
        return bool(self.tags or self.verdicts or self.repos)

    def next_verdict(self) -> Filters:
        index = VERDICT_CYCLE.index(self.verdict) if self.verdict in VERDICT_CYCLE else 0
        return self._replace(verdict=VERDICT_CYCLE[(index + 1) % len(VERDICT_CYCLE)])


def has_unchecked(review: Review, checked: frozenset[str]) -> bool:
    """True if any checklist item (focus, read order) is not checked. Without
    checks, the checklist's size says (a packed body stays packed)."""
    if not checked:
        return review.checks > 0
    return any(item.key not in checked for item in review.checklist)


def select(
    reviews: Sequence[Review],
    filters: Filters,
    *,
    is_read: Callable[[str], bool],
    checked: Callable[[Review], frozenset[str]],
    index: SearchIndex,
    keep: str | None = None,
    read_keys: Iterable[str] | None = None,
    marked: Mapping[str, Review] | None = None,
    ranks: Ranks | None = None,
    kept: Narrowed | None = None,
) -> Sequence[Review]:
    """The reviews that pass every filter, in order.

    `keep` (the open review) stays listed when it would drop out only because
    it was just marked read or checked, so the list does not jump under the
    reader's cursor; the verdict and the search still apply to it.
    `read_keys`, if given, are the keys `is_read` is true of: one set lookup a
    review instead of a call (~20 ms less a key at 100,000 reviews).
    `marked`, if given, holds every review with an item mark, by key: the
    others have nothing checked, and `unchecked` passes them on their
    checklist's size.

    `ranks`, if given, rank the library's list, of which `reviews` is a part
    in its order: the few reviews read (or fully checked) are then cut out
    around, not every review tested (`tui.core.order`).
    `kept`, if given, holds recent answers of the filters no mark changes
    (verdict, a view's sets, has a checklist), by the list they narrowed:
    a filter toggled off and on again, or a view chosen again, reuses them.

    Each filter is one pass over what the one before left, the search first
    (`SearchIndex.answer` remembers recent answers and narrows them).
    What is returned may be what `kept` or the index holds, or a view of the
    list (a search's answer alone: `SearchIndex.answer`), or `reviews` itself
    (nothing filtered: clearing a search at 100,000 copied the list): not to be
    changed.
    """
    unread = filters.unread or filters.tag == UNREAD_TAG
    verdict = filters.verdict
    query_terms = filters.terms
    if not (unread or verdict or query_terms or filters.unchecked or filters.sets):
        return reviews  # the tag alone: nothing to test per review, nothing copied
    out: Sequence[Review] = reviews
    if query_terms:
        out = index.answer(out, query_terms)
        kept = None  # a fresh list each time: the search keeps its own answers
    if kept is None:
        kept = Narrowed(size=0)
    if verdict is not None:
        out = kept.get("verdict", out, verdict, lambda of: _one_verdict(of, verdict))
    if filters.sets:
        sets = (filters.tags, filters.verdicts, filters.repos)
        out = kept.get("sets", out, sets, lambda of: _in_sets(of, filters))
    if unread:
        if read_keys is not None:
            read = set(read_keys)
            read.discard(keep)
            if read:
                out = without_ranked(out, read, ranks)
        else:
            out = [review for review in out if review.key == keep or not is_read(review.key)]
    if filters.unchecked:
        out = with_unchecked(out, checked, marked, keep, ranks=ranks, kept=kept)
    return out


class Narrowed:
    """Recent answers of the filters that depend on what reviews are (not on
    marks), by filter, by the list narrowed (the same object: the library's
    lists and the answers kept here are new objects only when the library
    changes) and by the filter's value. The last `size` answers are kept."""

    def __init__(self, size: int = 8) -> None:
        self.size = size
        self._answers: dict[tuple[str, int, object], tuple[Sequence[Review], Sequence[Review]]] = {}
        self._prepared: dict[tuple[str, int, object], tuple[Sequence[Review], Sequence[Review]]] = {}
        """Answers worked out ahead (`prepare`), kept until `clear` whatever
        else is asked meanwhile."""

    def get(
        self,
        stage: str,
        reviews: Sequence[Review],
        value: object,
        narrow: Callable[[Sequence[Review]], Sequence[Review]],
    ) -> Sequence[Review]:
        key = (stage, id(reviews), value)
        prepared = self._prepared.get(key)
        if prepared is not None and prepared[0] is reviews:
            return prepared[1]
        found = _answer(self._answers.pop(key, None), reviews, narrow)
        if self.size:
            self._answers[key] = found  # the newest last
            while len(self._answers) > self.size:
                del self._answers[next(iter(self._answers))]
        return found[1]

    def prepare(
        self,
        stage: str,
        reviews: Sequence[Review],
        value: object,
        narrow: Callable[[Sequence[Review]], Sequence[Review]],
    ) -> Sequence[Review]:
        """`get`'s answer worked out now (in a quiet moment, not in a key) and
        kept until `clear`, out of the recent answers' turn."""
        key = (stage, id(reviews), value)
        found = self._prepared[key] = _answer(self._prepared.get(key), reviews, narrow)
        return found[1]

    def clear(self) -> None:
        self._answers.clear()
        self._prepared.clear()

    def __len__(self) -> int:
        return len(self._answers)

    @property
    def prepared(self) -> int:
        """How many answers `prepare` holds."""
        return len(self._prepared)


def _answer(
    kept: tuple[Sequence[Review], Sequence[Review]] | None,
    reviews: Sequence[Review],
    narrow: Callable[[Sequence[Review]], Sequence[Review]],
) -> tuple[Sequence[Review], Sequence[Review]]:
    """A kept answer if it was worked out for this very list (ids are reused
    once a list is gone), else a new one."""
    if kept is not None and kept[0] is reviews:
        return kept
    return (reviews, narrow(reviews))


def with_unchecked(
    reviews: Sequence[Review],
    checked: Callable[[Review], frozenset[str]],
    marked: Mapping[str, Review] | None,
    keep: str | None = None,
    *,
    ranks: Ranks | None = None,
    kept: Narrowed | None = None,
) -> Sequence[Review]:
    """The reviews with an unchecked item (and `keep`), in order. Given
    `marked` (every review with an item mark, by key: nothing of the others
    is checked), one pass in C keeps the reviews with a checklist and only the
    marked are looked at closely: ~30 ms less at 100,000 reviews. Given
    `ranks` (see `select`) and `kept`, that pass is kept for the next time and
    the marked that are done are cut out around."""
    if marked is None:
        return [review for review in reviews if review.key == keep or has_unchecked(review, checked(review))]
    if kept is None:
        kept = Narrowed(size=0)
    out: Sequence[Review] = kept.get("checklist", reviews, None, _with_checklist)
    if keep is not None and len(out) < len(reviews):
        if ranks is not None:
            at = ranks.find(reviews, keep)
            if at is not None and reviews[at].checks == 0:  # no checklist, yet stays listed
                out = ranks.insert(out, reviews[at])
        elif _without_checklist(reviews, keep):
            # The open review has no checklist, yet stays listed: the plain pass places it.
            return [
                review for review in reviews if review.key == keep or has_unchecked(review, checked(review))
            ]
    done = {
        key for key, review in marked.items() if review.checks and not has_unchecked(review, checked(review))
    }
    done.discard(keep)
    if done:
        out = without_ranked(out, done, ranks)
    return out


def prepare_unchecked(reviews: Sequence[Review], kept: Narrowed) -> Sequence[Review]:
    """`with_unchecked`'s one pass over every review (those with a checklist;
    ~15-20 ms at 100,000, the costliest pass a filter key made), kept in
    `kept` ahead of the key that needs it: `t`, or a view of unchecked reviews
    chosen in the tags pane."""
    return kept.prepare("checklist", reviews, None, _with_checklist)


def _with_checklist(reviews: Sequence[Review]) -> list[Review]:
    return list(compress(reviews, map(_checks, reviews)))


def _without_checklist(reviews: Sequence[Review], key: str) -> bool:
    """Is `key` listed in `reviews` with an empty checklist?"""
    at = position(reviews, key, None)
    return at is not None and reviews[at].checks == 0


def _in_sets(reviews: Sequence[Review], filters: Filters) -> list[Review]:
    """What a view or a repo sets: any of its tags, one of its verdicts, one of
    its repos. A pass in C for each (~5 ms at 100,000, a comprehension ~20)."""
    tags, verdicts, repos = filters.tags, filters.verdicts, filters.repos
    out = reviews
    if verdicts:
        out = list(compress(out, map(verdicts.__contains__, map(_verdict, out))))
    if repos:
        out = list(compress(out, map(repos.__contains__, map(_repo, out))))
    if tags:
        out = list(compress(out, map(operator.not_, map(tags.isdisjoint, map(_tags, out)))))
    return out if isinstance(out, list) and out is not reviews else list(out)


def _one_verdict(reviews: Sequence[Review], verdict: str) -> Sequence[Review]:
    """The reviews of one verdict. Lists in reading order (deep reads first, as
    the library's, and what a search leaves of them) hold each verdict in one
    run, found by bisection: ~5 ms less a key at 100,000 reviews."""
    rank = verdict_rank(verdict)
    lo = bisect.bisect_left(reviews, rank, key=_rank)
    hi = bisect.bisect_right(reviews, rank, lo=lo, key=_rank)
    if (lo > 0 and reviews[lo - 1].verdict == verdict) or (
        hi < len(reviews) and reviews[hi].verdict == verdict
    ):
        return [review for review in reviews if review.verdict == verdict]  # not in reading order
    return reviews[lo:hi]


_checks = operator.attrgetter("checks")
_verdict = operator.attrgetter("verdict")
_repo = operator.attrgetter("repo")
_tags = operator.attrgetter("tags")


def _rank(review: Review) -> int:
    return verdict_rank(review.verdict)


def marks_narrow(filters: Filters) -> bool:
    """Does what is listed depend on read marks and checks?"""
    return bool(filters.unread or filters.unchecked or filters.tag == UNREAD_TAG)


def tag_label(tag: str) -> str:
    if tag == ALL_TAG:
        return words().all
    if tag == UNREAD_TAG:
        return words().unread
    if tag.startswith(VIEW_PREFIX):
        return f"◆ {tag.removeprefix(VIEW_PREFIX)}"
    if tag.startswith(REPO_PREFIX):
        return tag.removeprefix(REPO_PREFIX)
    return f"#{tag}"


def labels(filters: Filters) -> list[str]:
    """What is filtered, in words, in the order the filter bar shows it: a view's
    name, then each filter it set, as if they had been chosen one by one."""
    out = []
    if filters.tag != ALL_TAG:
        out.append(tag_label(filters.tag))
    if filters.tags:
        out.append(" | ".join(f"#{tag}" for tag in sorted(filters.tags)))
    if filters.verdicts:
        out.append(" | ".join(words().verdict_words.get(v, v) for v in VERDICTS if v in filters.verdicts))
    if filters.repos and not filters.tag.startswith(REPO_PREFIX):
        out.append(" | ".join(sorted(filters.repos)))
    if filters.verdict:
        out.append(words().verdict_words.get(filters.verdict, filters.verdict))
    if filters.unread and filters.tag != UNREAD_TAG:
        out.append(words().filter_unread)
    if filters.unchecked:
        out.append(words().filter_unchecked)
    return out
