"""`prdigest-tui refs` and the ref warnings of `check --repo-dir`, without Textual.

Every review's refs, resolved in the clone of its repo (one resolver per clone,
shared by its reviews), as JSON objects, tab-separated rows, or warnings located
where each ref is written.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path

from tui.clone.find import find_clone
from tui.clone.prs import PrCommits
from tui.clone.resolve import AMBIGUOUS, MISSING, Resolution, Resolver, ReviewRefs, unresolved
from tui.core.model import Library, Location, Problem, Review
from tui.core.text import one_line
from tui.i18n import words
from tui.load.ref_places import FileText, ref_locations, review_ends

MAX_LISTED = 5
"""Candidates named in an ambiguity warning; the rest are counted."""


def resolve_all(
    reviews: Iterable[Review],
    *,
    repo_dir: Path | None,
    configured: Mapping[str, Path],
    cwd: Path,
    config_path: Path | None,
    cache_dir: Path | None,
) -> tuple[list[ReviewRefs], list[str]]:
    """Each review's refs, and the notes to tell once (no clone of a repo, a PR
    not in the clone)."""
    resolvers: dict[str, Resolver | None] = {}
    missing: dict[str, str | None] = {}  # repo -> why there is no clone
    notes: dict[str, None] = {}
    out: list[ReviewRefs] = []
    by_root: dict[Path, Resolver] = {}
    for review in reviews:
        if review.repo not in resolvers:
            found = find_clone(
                review.repo, repo_dir=repo_dir, configured=configured, cwd=cwd, config_path=config_path
            )
            if found.clone is None:
                resolvers[review.repo] = None
                missing[review.repo] = found.note
            else:
                root = found.clone.root
                if root not in by_root:
                    by_root[root] = Resolver(found.clone, PrCommits(found.clone, cache_dir))
                resolvers[review.repo] = by_root[root]
        resolver = resolvers[review.repo]
        result = resolver.resolve(review) if resolver else unresolved(review, missing.get(review.repo))
        if result.note:
            notes.setdefault(result.note, None)
        out.append(result)
    return out, [note for note in notes if note]


def candidate_texts(resolution: Resolution) -> list[str]:
    return [str(candidate) for candidate in resolution.candidates]


def to_objects(results: Iterable[ReviewRefs]) -> list[dict[str, object]]:
    """The objects `refs --format json` lists: one per ref of each review."""
    return [
        {
            "review": result.review_key,
            "pr": result.pr,
            "ref": resolution.ref.text,
            "kind": resolution.ref.kind,
            "status": resolution.status,
            "path": resolution.path,
            "line": resolution.line,
            "candidates": candidate_texts(resolution),
        }
        for result in results
        for resolution in result.unique()
    ]


def to_json(results: Iterable[ReviewRefs]) -> str:
    return json.dumps(to_objects(results), ensure_ascii=False, indent=2) + "\n"


TSV_COLUMNS = ("review", "pr", "ref", "kind", "status", "path", "line", "candidates")


def _cell(value: object) -> str:
    if value is None:
        return ""
    return one_line(str(value)).replace("\t", " ")


def to_tsv(results: Iterable[ReviewRefs]) -> str:
    """One row per ref, tab-separated, in `TSV_COLUMNS` order; candidates
    space-separated; nothing written as empty."""
    rows = []
    for obj in to_objects(results):
        obj = {**obj, "candidates": " ".join(obj["candidates"])}  # type: ignore[arg-type]
        rows.append("\t".join(_cell(obj[column]) for column in TSV_COLUMNS))
    return "".join(row + "\n" for row in rows)


def warnings(library: Library, results: Iterable[ReviewRefs]) -> list[Problem]:
    """A warning for each ref that does not resolve or is ambiguous, at the
    place it is written, and for a PR the clone lacks, at its review."""
    by_key = {result.review_key: result for result in results}
    out: list[Problem] = []
    for path, reviews in library.files.items():
        reviews = [r for r in reviews if library.by_key.get(r.key) is r and r.key in by_key]
        if not reviews:
            continue
        file = FileText.read(path)
        ends = review_ends(file, reviews)
        for review in reviews:
            result = by_key[review.key]
            if result.pr_commit is None and result.note and result.clone is not None:
                out.append(Problem(review.location, one_line(result.note), "warning"))
            bad = [r for r in result.unique() if r.status in (MISSING, AMBIGUOUS)]
            places = ref_locations(file, review, ends[id(review)], [r.ref.text for r in bad])
            for resolution in bad:
                out.append(Problem(places[resolution.ref.text], _message(resolution), "warning"))
    return out


def _message(resolution: Resolution) -> str:
    ref = one_line(resolution.ref.text)
    if resolution.status == MISSING:
        return words().ref_missing.format(ref=ref)
    listed = candidate_texts(resolution)
    shown = ", ".join(listed[:MAX_LISTED])
    if len(listed) > MAX_LISTED:
        shown += f" (+{len(listed) - MAX_LISTED})"
    return words().ref_ambiguous.format(ref=ref, candidates=shown)


def location_key(problem: Problem) -> tuple[Path, int, int]:
    location: Location = problem.location
    return (location.path, location.line, location.column)
