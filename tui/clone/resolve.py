"""A review's refs, found in the user's clone.

Paths and modules resolve to files, bare file names through the tracked files,
symbols to their definitions (`def`, `class`, an assignment; `Class.member`
inside its class). Per review: one `git ls-files`, one `git grep` for every
symbol at once, and, when the PR deleted something, one `git grep` and one
`git cat-file --batch` in the PR's parent commit.

Several candidates are settled the way a reader would: the files the PR changed
first, then the files the other refs of the same item (then of the review)
resolved to, then paths that are neither tests nor docs. What is still
ambiguous keeps its candidates for a picker.

Finding definitions in `git grep`'s output, and which of them a ref names, is
`tui.clone.definitions`; here git is run and the candidates settled.

Nothing outside the clone is ever a result: paths are taken from git's own
listing (so `../x` or `/etc/passwd` find nothing) and a tracked symlink that
leads out of the clone is refused.
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from tui.clone import git
from tui.clone.definitions import Definition, FileLines, grep_patterns, parse_grep, symbol_definitions
from tui.clone.find import Clone
from tui.clone.prs import PrCommits
from tui.core import refs as kinds
from tui.core.model import Review
from tui.core.refs import Ref, RefUse
from tui.i18n import words

FOUND, AMBIGUOUS, MISSING, NOT_A_REF, NO_CLONE = "found", "ambiguous", "missing", "not-a-ref", "no-clone"
STATUSES = (FOUND, AMBIGUOUS, MISSING, NOT_A_REF, NO_CLONE)

MAX_CANDIDATES = 50
"""More definitions than this are cut (the picker lists the first ones, in path order)."""
MAX_GREP_NAMES = 200
_DOC_SUFFIXES = (".md", ".rst", ".txt")


class Candidate(NamedTuple):
    path: str  # relative to the clone, '/'-separated
    line: int | None = None  # 1-based; None for a whole file or folder
    kind: str = "file"  # file, def, class, assign
    commit: str | None = None  # None: the work tree; else read-only from this commit

    def __str__(self) -> str:
        return f"{self.path}:{self.line}" if self.line else self.path


class Resolution(NamedTuple):
    """One use of a ref, resolved. `candidates` are listed when ambiguous."""

    use: RefUse
    status: str
    target: Candidate | None = None
    candidates: tuple[Candidate, ...] = ()

    @property
    def ref(self) -> Ref:
        return self.use.ref

    @property
    def path(self) -> str | None:
        return self.target.path if self.target else None

    @property
    def line(self) -> int | None:
        return self.target.line if self.target else None

    @property
    def commit(self) -> str | None:
        """None when the target is in the work tree; else the commit to read it from."""
        return self.target.commit if self.target else None


@dataclass
class ReviewRefs:
    """Every ref of one review, resolved (or why not: `note`)."""

    review_key: str
    pr: int | None
    resolutions: list[Resolution] = field(default_factory=list)
    clone: Clone | None = None
    pr_commit: str | None = None
    note: str | None = None  # "PR #N is not in your clone: git fetch?", "No clone of ..."

    def of_item(self, place: str, index: int | None) -> list[Resolution]:
        """The refs of one item (or field), in the order written."""
        return [r for r in self.resolutions if r.use.group == (place, index)]

    def unique(self) -> list[Resolution]:
        """The first use of each ref text: what `prdigest-tui refs` lists."""
        seen: dict[str, Resolution] = {}
        for resolution in self.resolutions:
            seen.setdefault(resolution.ref.text, resolution)
        return list(seen.values())


def unresolved(review: Review, note: str | None) -> ReviewRefs:
    """A review's refs when there is no clone to look in."""
    result = ReviewRefs(review.key, review.pr, note=note)
    for use in kinds.review_refs(review):
        result.resolutions.append(Resolution(use, NO_CLONE if use.ref.is_ref else NOT_A_REF))
    return result


# -- the resolver ------------------------------------------------------------


class Resolver:
    """Resolves reviews' refs in one clone. Holds the PR map (cached on disk
    per HEAD) and the tracked files, listed again when the index changes.

    Thread-safe enough for one worker at a time: the reader resolves in a
    thread, never on its event loop.
    """

    def __init__(self, clone: Clone, prs: PrCommits | None = None) -> None:
        self.clone = clone
        self.prs = prs if prs is not None else PrCommits(clone, None)
        self._files: tuple[str, ...] = ()
        self._file_set: frozenset[str] = frozenset()
        self._by_name: dict[str, list[str]] = {}
        self._files_stamp: object = None
        self._index_path: str | None = None
        self._perl = True

    # -- listings ---------------------------------------------------------------

    def files(self) -> tuple[str, ...]:
        """The work tree's tracked files (one `git ls-files` per index change)."""
        stamp = self._index_stamp()
        if stamp is None or stamp != self._files_stamp:
            out = git.run(self.clone.root, ["ls-files", "-z", "--full-name", "--"])
            files = tuple(sorted(git.text(out).split("\0")[:-1]))
            self._set_files(files)
            self._files_stamp = stamp
        return self._files

    def _set_files(self, files: tuple[str, ...]) -> None:
        self._files = files
        self._file_set = frozenset(files)
        by_name: dict[str, list[str]] = {}
        for path in files:
            by_name.setdefault(posixpath.basename(path), []).append(path)
        self._by_name = by_name

    def _index_stamp(self) -> object:
        try:
            if self._index_path is None:
                out = git.text(git.run(self.clone.root, ["rev-parse", "--git-path", "index"])).strip()
                self._index_path = os.path.join(self.clone.root, out)
            info = os.stat(self._index_path)
        except (git.GitError, OSError):
            return None
        return (info.st_mtime_ns, info.st_size, info.st_ino)

    # -- one review -------------------------------------------------------------

    def resolve(self, review: Review) -> ReviewRefs:
        """Every ref of `review`, resolved. git failing makes the refs missing,
        with git's message as the note; it never raises."""
        result = ReviewRefs(review.key, review.pr, clone=self.clone)
        uses = kinds.review_refs(review)
        try:
            self._resolve(review, uses, result)
        except git.GitError as exc:
            result.note = str(exc)
            result.resolutions = [Resolution(use, MISSING if use.ref.is_ref else NOT_A_REF) for use in uses]
        return result

    def _resolve(self, review: Review, uses: list[RefUse], result: ReviewRefs) -> None:
        files = self.files()
        changed: set[str] = set()  # every path the PR touched, before and after
        before: set[str] = set()  # the paths it touched that its parent has
        commit: str | None = None
        if review.pr is not None:
            commit = self.prs.commit(review.pr)
            result.pr_commit = commit
            if commit is None:
                result.note = words().pr_not_in_clone.format(pr=review.pr)
            else:
                for change in self.prs.changed(commit):
                    changed.add(change.path)
                    if change.status != "A":
                        before.add(change.old_path or change.path)
                    if change.old_path:
                        changed.add(change.old_path)
        refs = {use.ref.text: use.ref for use in uses if use.ref.is_ref}
        definitions = self._definitions(refs.values(), None, ())
        lines = FileLines(self.clone)
        raw: dict[str, list[Candidate]] = {}
        for text, ref in refs.items():
            raw[text] = self._candidates(ref, files, definitions, None, lines)[:MAX_CANDIDATES]
        missing = [refs[text] for text, found in raw.items() if not found]
        parent = self.prs.parent(commit) if commit and missing and before else None
        if parent is not None:
            # What the PR deleted: in its parent, among the files it touched.
            # A file gone from the work tree, or a name gone from a file that stayed.
            gone = {path for path in before if path not in self._file_set}
            old_definitions = self._definitions(missing, parent, sorted(before))
            owned = [r for r in missing if r.owner]
            lines.prefetch(
                parent,
                sorted(
                    {d.path for r in owned for d in old_definitions.get(r.name or "", [])}
                    & {d.path for r in owned for d in old_definitions.get(r.owner or "", [])}
                ),
            )
            for ref in missing:
                found = self._candidates(ref, gone, old_definitions, parent, lines)
                raw[ref.text] = found[:MAX_CANDIDATES]
        result.resolutions = _settle(uses, raw, changed, self._inside)

    def _inside(self, candidate: Candidate) -> bool:
        if candidate.commit is not None:
            return True  # read from git's objects, never from the disk
        return self.clone.contains(self.clone.root / candidate.path)

    # -- candidates --------------------------------------------------------------

    def _definitions(
        self, refs: Iterable[Ref], commit: str | None, paths: Sequence[str]
    ) -> dict[str, list[Definition]]:
        """Definitions of every symbol name of `refs`, in one `git grep`:
        of the work tree, or of `commit` limited to `paths`."""
        names = kinds.search_names(refs)[:MAX_GREP_NAMES]
        if not names or (commit is not None and not paths):
            return {}
        where = [commit, "--", *paths] if commit is not None else ["--"]
        out = None
        if self._perl:
            args = ["grep", "-n", "-I", "--null", "-P", "--full-name", "--no-color"]
            for pattern in grep_patterns(names, perl=True):
                args += ["-e", pattern]
            try:
                out = git.run(self.clone.root, [*args, *where], ok=(0, 1))
            except git.GitError:
                self._perl = False  # no PCRE in this git: whole words from now on
        if out is None:
            args = ["grep", "-n", "-I", "--null", "-F", "-w", "--full-name", "--no-color"]
            for pattern in grep_patterns(names, perl=False):
                args += ["-e", pattern]
            out = git.run(self.clone.root, [*args, *where], ok=(0, 1))
        return parse_grep(out, set(names), strip_prefix=f"{commit}:" if commit else "")

    def _candidates(
        self,
        ref: Ref,
        files: Iterable[str],
        definitions: dict[str, list[Definition]],
        commit: str | None,
        lines_of: FileLines,
    ) -> list[Candidate]:
        file_set = files if isinstance(files, set | frozenset) else set(files)
        if commit is None:
            file_set = self._file_set

        def file(path: str, line: int | None = None) -> Candidate:
            return Candidate(path, line, "file", commit)

        if ref.kind == kinds.PATH:
            assert ref.path is not None
            path = posixpath.normpath(ref.path)
            if path.startswith(("/", "..")) or path == ".":
                return []  # outside the clone, whatever git would make of it
            if path in file_set:
                return [file(path, ref.line)]
            folder = path.rstrip("/") + "/"
            if any(f.startswith(folder) for f in file_set):
                return [file(path.rstrip("/"))]
            tail = "/" + path
            return [file(f, ref.line) for f in sorted(file_set) if f.endswith(tail)]
        if ref.kind == kinds.FILE:
            assert ref.path is not None
            if commit is None:
                paths = self._by_name.get(ref.path, [])
            else:
                paths = sorted(f for f in file_set if posixpath.basename(f) == ref.path)
            return [file(p, ref.line) for p in paths]
        if ref.kind == kinds.MODULE:
            modules = [m for m in ref.modules if m in file_set]
            if modules:
                return [file(modules[0])]
            # `pkg.mod.func`: a definition in the module above
            parents = set(ref.parents) & set(file_set)
            return [d for d in self._symbol(ref, definitions, commit, lines_of) if d.path in parents]
        if ref.kind == kinds.SYMBOL:
            found = self._symbol(ref, definitions, commit, lines_of)
            if ref.modules:
                in_module = [c for c in found if c.path in ref.modules]
                found = in_module or found
            if not found and ref.owner is None and not ref.modules and ref.name:
                # a bare lowercase name is often a module: `lora_model_runner_mixin`
                name = f"{ref.name}.py"
                if commit is None:
                    return [file(p) for p in self._by_name.get(name, [])]
                return [file(p) for p in sorted(file_set) if posixpath.basename(p) == name]
            return found
        return []

    def _symbol(
        self,
        ref: Ref,
        definitions: dict[str, list[Definition]],
        commit: str | None,
        lines_of: FileLines,
    ) -> list[Candidate]:
        return [
            Candidate(d.path, d.line, d.kind, commit)
            for d in symbol_definitions(ref, definitions, commit, lines_of)
        ]


# -- settling ----------------------------------------------------------------


def _settle(
    uses: list[RefUse],
    raw: dict[str, list[Candidate]],
    changed: set[str],
    inside: Callable[[Candidate], bool],
) -> list[Resolution]:
    """Each use's status, narrowing several candidates as a reader would."""

    def narrow(candidates: list[Candidate], keep: Callable[[Candidate], bool]) -> list[Candidate]:
        kept = [c for c in candidates if keep(c)]
        return kept or candidates

    # 1. the files the PR changed
    first: dict[str, list[Candidate]] = {}
    for text, candidates in raw.items():
        candidates = [c for c in candidates if inside(c)]
        if len(candidates) > 1 and changed:
            candidates = narrow(candidates, lambda c: c.path in changed)
        first[text] = candidates
    # 2. the files the other refs of the same item, then of the review, settled on
    settled_in: dict[tuple[str, int | None], set[str]] = {}
    review_files: set[str] = set()
    for use in uses:
        candidates = first.get(use.ref.text, [])
        if len(candidates) == 1:
            settled_in.setdefault(use.group, set()).add(candidates[0].path)
            review_files.add(candidates[0].path)
    out: list[Resolution] = []
    for use in uses:
        if not use.ref.is_ref:
            out.append(Resolution(use, NOT_A_REF))
            continue
        candidates = first.get(use.ref.text, [])
        if len(candidates) > 1:
            near = settled_in.get(use.group, set())
            candidates = narrow(candidates, lambda c, near=near: c.path in near)  # type: ignore[misc]
        if len(candidates) > 1:
            candidates = narrow(candidates, lambda c: c.path in review_files)
        # 3. neither tests nor docs
        if len(candidates) > 1:
            candidates = narrow(candidates, lambda c: not kinds.is_test_path(c.path))
        if len(candidates) > 1:
            candidates = narrow(candidates, lambda c: not c.path.endswith(_DOC_SUFFIXES))
        if not candidates:
            out.append(Resolution(use, MISSING))
        elif len(candidates) == 1:
            out.append(Resolution(use, FOUND, candidates[0]))
        else:
            out.append(Resolution(use, AMBIGUOUS, None, tuple(candidates)))
    return out
