"""The sidebar's rows with their counts: All, Unread, the saved views, the tags,
and a Repos section when the digest has several repos. No Textual here.

Muted reviews (a tag in `mute`) count nowhere but under a muted tag's own row,
which is dimmed. What each view, tag and repo holds depends only on the library,
the mutes and the search index, so it is worked out once per library and kept;
a mark then costs a pass over the read keys, as the tag counts always did.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from operator import attrgetter

from tui.core.filters import has_unchecked, repo_key, view_key
from tui.core.marks import Marks, checked_items
from tui.core.model import ALL_TAG, UNREAD_TAG, Library, Review
from tui.core.search import SearchIndex
from tui.core.views import View, in_view, is_muted
from tui.core.views import unmuted as unmuted_reviews
from tui.i18n import words
from tui.ui.presenting import TagCount

_repo = attrgetter("repo")


class _Groups:
    """What each row holds, for one library and one set of mutes."""

    def __init__(
        self, library: Library, views: Mapping[str, View], mute: frozenset[str], index: SearchIndex
    ) -> None:
        self.reviews = library.reviews  # a new list each time the library changes
        self.mute = mute
        # Nothing muted (the usual case): each count is a length, or a count in C.
        unmuted = unmuted_reviews(library.reviews, mute)
        self.unmuted = len(unmuted)
        self.tag_totals = {
            tag: len(reviews) if not mute or tag in mute else sum(1 for r in reviews if not is_muted(r, mute))
            for tag, reviews in library.tags.items()
        }
        self.repo_totals: dict[str, int] = {}
        if len(library.repos) > 1:
            self.repo_totals = dict(Counter(map(_repo, unmuted)))
        # A view's members ignore its `unread` (its count says how many of them are
        # unread) and its `unchecked`, which marks change: that part is counted each time.
        self.views: dict[str, list[Review]] = {
            name: in_view(
                library.reviews,
                view._replace(unread=False, unchecked=False),
                mute=mute,
                is_read=lambda key: False,
                has_unchecked=lambda review: True,
                index=index,
            )
            for name, view in views.items()
        }
        self.view_keys = {name: {review.key for review in members} for name, members in self.views.items()}
        # An unchecked view's members with a checklist: after a mark, only those
        # of them with an item mark are looked at, not every member.
        self.with_checklist = {
            name: frozenset(review.key for review in self.views[name] if review.checks)
            for name, view in views.items()
            if view.unchecked
        }


class SidebarCounts:
    """The sidebar's rows; `rows` is asked after every mark and every change."""

    def __init__(self) -> None:
        self._groups: _Groups | None = None
        self.all = TagCount(ALL_TAG, 0, 0)  # the last All row: the status bar's counts

    def forget(self) -> None:
        """The views or what they search changed: work the groups out again."""
        self._groups = None

    def _groups_for(
        self, library: Library, views: Mapping[str, View], mute: frozenset[str], index: SearchIndex
    ) -> _Groups:
        groups = self._groups
        if groups is None or groups.reviews is not library.reviews or groups.mute != mute:
            groups = self._groups = _Groups(library, views, mute, index)
        return groups

    def members(
        self, name: str, library: Library, views: Mapping[str, View], mute: frozenset[str], index: SearchIndex
    ) -> list[Review] | None:
        """The reviews a view holds before its `unread` and `unchecked`, muted
        ones left out, in reading order (the same list until the library or the
        mutes change); None for a view the config does not name."""
        return self._groups_for(library, views, mute, index).views.get(name)

    def rows(
        self,
        library: Library,
        state: Marks,
        views: Mapping[str, View],
        mute: frozenset[str],
        index: SearchIndex,
    ) -> list[TagCount]:
        groups = self._groups_for(library, views, mute, index)
        read = set()
        read_all = 0
        read_per_tag: dict[str, int] = {}
        read_per_repo: dict[str, int] = {}
        for key in state.read_keys():
            review = library.by_key.get(key)
            if review is None:
                continue
            read.add(key)
            muted = is_muted(review, mute)
            if not muted:
                read_all += 1
                read_per_repo[review.repo] = read_per_repo.get(review.repo, 0) + 1
            for tag in review.tags:
                if not muted or tag in mute:
                    read_per_tag[tag] = read_per_tag.get(tag, 0) + 1
        total = groups.unmuted
        marked = state.marked_keys() if any(view.unchecked for view in views.values()) else set()
        self.all = TagCount(ALL_TAG, total - read_all, total)
        out = [self.all, TagCount(UNREAD_TAG, total - read_all, total)]
        for name, view in views.items():
            keys = groups.view_keys.get(name, set())
            if view.unchecked:
                with_checklist = groups.with_checklist.get(name, frozenset())
                done = _all_checked(library, state, marked & with_checklist)
                count = len(with_checklist) - len(done)
                read_there = len(read & with_checklist) - len(read & done)
                out.append(TagCount(view_key(name), count - read_there, count))
            else:
                out.append(TagCount(view_key(name), len(keys) - len(keys & read), len(keys)))
        for tag, tag_total in groups.tag_totals.items():
            out.append(TagCount(tag, tag_total - read_per_tag.get(tag, 0), tag_total, dim=tag in mute))
        for n, (repo, repo_total) in enumerate(sorted(groups.repo_totals.items())):
            heading = words().repos_heading if n == 0 else ""
            out.append(
                TagCount(repo_key(repo), repo_total - read_per_repo.get(repo, 0), repo_total, heading=heading)
            )
        return out


def _all_checked(library: Library, state: Marks, keys: set[str]) -> set[str]:
    """Those of `keys` whose checklist is all checked."""
    reviews = library.by_key
    return {key for key in keys if not has_unchecked(reviews[key], checked_items(state, reviews[key]))}
