"""The sidebar's rows with their counts: All, Unread, the saved views, the tags,
and a Repos section when the digest has several repos. No Textual here.

Muted reviews (a tag in `mute`) count nowhere but under a muted tag's own row,
which is dimmed. What each view, tag and repo holds depends only on the library,
the mutes and the search index, so it is worked out once per library and kept;
how many of each are read is counted once too, then followed mark by mark
(`_Tally`): a mark costs what its review's marks cost.
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


class _Tally:
    """The read reviews counted per row, for one `_Groups` and one state:
    counted whole once, then kept up to date key by key from the state's log
    of changed keys (`Marks.changed_since`), so a mark costs what its review's
    marks cost, not a pass over every read key."""

    def __init__(self, groups: _Groups, library: Library, state: Marks) -> None:
        self.groups, self.state = groups, state
        self.epoch, self.position = state.epoch, state.log_position
        self.read: set[str] = set()  # keys counted as read: the library's
        self.all = 0
        self.per_tag: dict[str, int] = {}
        self.per_repo: dict[str, int] = {}
        self.per_view = dict.fromkeys(groups.view_keys, 0)  # read members
        self.per_checklist = dict.fromkeys(groups.with_checklist, 0)  # read members with a checklist
        self.done: dict[str, set[str]] = {name: set() for name in groups.with_checklist}  # all checked
        by_key = library.by_key
        for key in state.read_set:
            if key in by_key:
                self._read(key, by_key[key], 1)
        marked = state.marked_set
        for name, keys in groups.with_checklist.items():
            for key in marked & keys if len(marked) < len(keys) else keys & marked:
                self._check(name, key, library, state)

    def _read(self, key: str, review: Review, step: int) -> None:
        """`key` counted as read (`step` 1) or not any more (-1)."""
        groups, mute = self.groups, self.groups.mute
        if step > 0:
            self.read.add(key)
        else:
            self.read.discard(key)
        muted = is_muted(review, mute)
        if not muted:
            self.all += step
            self.per_repo[review.repo] = self.per_repo.get(review.repo, 0) + step
        for tag in review.tags:
            if not muted or tag in mute:
                self.per_tag[tag] = self.per_tag.get(tag, 0) + step
        for name, keys in groups.view_keys.items():
            if key in keys:
                self.per_view[name] += step
        for name, checklists in groups.with_checklist.items():
            if key in checklists:
                self.per_checklist[name] += step

    def _check(self, name: str, key: str, library: Library, state: Marks) -> None:
        """Whether every item of `key` (an unchecked view's member with a checklist) is checked."""
        review = library.by_key[key]
        if not has_unchecked(review, checked_items(state, review)):
            self.done[name].add(key)
        else:
            self.done[name].discard(key)

    def follow(self, library: Library, state: Marks) -> bool:
        """Take in the keys changed since; False if they are not known (count again)."""
        changed = state.changed_since(self.epoch, self.position)
        if changed is None or state is not self.state:
            return False
        by_key = library.by_key
        for key in set(changed):
            review = by_key.get(key)
            if review is None:
                continue
            now = state.is_read(key)
            if now != (key in self.read):
                self._read(key, review, 1 if now else -1)
            for name, keys in self.groups.with_checklist.items():
                if key in keys:
                    self._check(name, key, library, state)
        self.epoch, self.position = state.epoch, state.log_position
        return True


class SidebarCounts:
    """The sidebar's rows; `rows` is asked after every mark and every change."""

    def __init__(self) -> None:
        self._groups: _Groups | None = None
        self._tally: _Tally | None = None
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

    def tally(
        self,
        library: Library,
        state: Marks,
        views: Mapping[str, View],
        mute: frozenset[str],
        index: SearchIndex,
    ) -> _Tally:
        """The read counts now: followed from the last, or counted anew."""
        groups = self._groups_for(library, views, mute, index)
        tally = self._tally
        if tally is None or tally.groups is not groups or not tally.follow(library, state):
            tally = self._tally = _Tally(groups, library, state)
        return tally

    def rows(
        self,
        library: Library,
        state: Marks,
        views: Mapping[str, View],
        mute: frozenset[str],
        index: SearchIndex,
    ) -> list[TagCount]:
        tally = self.tally(library, state, views, mute, index)
        groups = tally.groups
        total = groups.unmuted
        self.all = TagCount(ALL_TAG, total - tally.all, total)
        out = [self.all, TagCount(UNREAD_TAG, total - tally.all, total)]
        for name, view in views.items():
            keys = groups.view_keys.get(name, set())
            if view.unchecked and name in groups.with_checklist:
                done = tally.done[name]
                count = len(groups.with_checklist[name]) - len(done)
                read_there = tally.per_checklist[name] - len(tally.read & done)
                out.append(TagCount(view_key(name), count - read_there, count))
            else:
                read_there = tally.per_view.get(name, 0)
                out.append(TagCount(view_key(name), len(keys) - read_there, len(keys)))
        for tag, tag_total in groups.tag_totals.items():
            out.append(TagCount(tag, tag_total - tally.per_tag.get(tag, 0), tag_total, dim=tag in mute))
        for n, (repo, repo_total) in enumerate(sorted(groups.repo_totals.items())):
            heading = words().repos_heading if n == 0 else ""
            out.append(
                TagCount(
                    repo_key(repo), repo_total - tally.per_repo.get(repo, 0), repo_total, heading=heading
                )
            )
        return out
