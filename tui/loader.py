"""Read entry files into reviews, or into problems located at file:line:column.

YAML is composed into nodes (libyaml when available) and the nodes are read
here, not by PyYAML's constructor: that keeps every value's position for error
messages, takes text exactly as written (YAML 1.1 would turn `no` into False and
`2026-01-01` into a date), and never constructs objects from tags. A file that
fails does not stop the others; a review that fails does not stop the rest of
its file.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from .model import SECTIONS, VERDICTS, FileUpdate, Item, Location, Problem, Review
from .text import clean

try:
    _Loader: type = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - libyaml missing
    _Loader = yaml.SafeLoader

SUFFIXES = (".yaml", ".yml")
MAX_FILE_BYTES = 8 * 1024 * 1024
MAX_NODES = 200_000
"""Nodes visited per file; bounds alias expansion ("billion laughs")."""
MAX_DEPTH = 64

REVIEW_FIELDS = (
    "title",
    "repo",
    "pr",
    "url",
    "date",
    "tags",
    "verdict",
    "verdict_note",
    "summary",
    *SECTIONS,
)
PAGE_FIELDS = ("repo", "entries")
ITEM_FIELDS = ("text", "refs", "id")
_REPO = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")
_STR_TAGS = frozenset("tag:yaml.org,2002:" + t for t in ("str", "bool", "int", "float", "timestamp", "null"))


@dataclass
class FileResult:
    path: Path
    reviews: list[Review] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


class _Invalid(Exception):
    def __init__(self, node: yaml.Node | None, message: str) -> None:
        super().__init__(message)
        self.node = node
        self.message = message


def is_entry_file(path: Path) -> bool:
    """Entry files by name, leaving out hidden files and editors' temporary files."""
    name = path.name
    if not name.endswith(SUFFIXES) or name.startswith((".", "#", "~")):
        return False
    return not name.endswith("~")


def discover(paths: Iterable[Path]) -> tuple[list[Path], list[Problem]]:
    """Entry files under the given paths, sorted, plus problems for missing paths."""
    found: dict[Path, None] = {}
    problems: list[Problem] = []
    for root in paths:
        if root.is_dir():
            for dirpath, dirnames, filenames in os.walk(root):
                dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
                for name in sorted(filenames):
                    path = Path(dirpath, name)
                    if is_entry_file(path):
                        found[path] = None
        elif root.exists() or root.is_symlink():
            found[root] = None
        else:
            problems.append(Problem(Location(root, 1, 1), "no such file or folder"))
    return sorted(found), problems


def load_file(path: Path) -> FileResult:
    result = FileResult(path)
    try:
        text = _read_text(path)
    except _Invalid as exc:
        result.problems.append(Problem(Location(path, 1, 1), exc.message))
        return result
    except _DecodeError as exc:
        result.problems.append(Problem(Location(path, exc.line, exc.column), exc.message))
        return result
    try:
        root = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        message = " ".join(str(part) for part in (exc.context, exc.problem) if part)
        result.problems.append(Problem(Location(path, line, column), f"invalid YAML: {message}"))
        return result
    except yaml.reader.ReaderError as exc:
        line, column = _position(text, exc.position)
        code = exc.character if isinstance(exc.character, int) else ord(exc.character or "\0")
        message = f"invalid YAML: {exc.reason} (character U+{code:04X})"
        result.problems.append(Problem(Location(path, line, column), message))
        return result
    except (yaml.YAMLError, RecursionError) as exc:
        result.problems.append(Problem(Location(path, 1, 1), f"invalid YAML: {exc}"))
        return result
    if root is None:
        result.problems.append(
            Problem(Location(path, 1, 1), "empty file: expected a review or a list under `entries:`")
        )
        return result
    _Reader(path, result).read_root(root)
    return result


def _position(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of a reader error's offset.

    libyaml counts the offset in bytes of the UTF-8 encoding, PyYAML in characters.
    """
    if _Loader is not yaml.SafeLoader:
        before = text.encode("utf-8")[:offset].decode("utf-8", "ignore")
    else:  # pragma: no cover - libyaml missing
        before = text[:offset]
    return before.count("\n") + 1, len(before) - (before.rfind("\n") + 1) + 1


class _DecodeError(Exception):
    def __init__(self, line: int, column: int, message: str) -> None:
        super().__init__(message)
        self.line, self.column, self.message = line, column, message


def _read_text(path: Path) -> str:
    try:
        info = path.stat()
    except OSError as exc:
        raise _Invalid(None, f"cannot read: {exc.strerror or exc}") from exc
    if not stat.S_ISREG(info.st_mode):
        raise _Invalid(None, "not a regular file; skipped")
    if info.st_size > MAX_FILE_BYTES:
        raise _Invalid(None, f"file is larger than {MAX_FILE_BYTES // (1024 * 1024)} MB; skipped")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise _Invalid(None, f"cannot read: {exc.strerror or exc}") from exc
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise _Invalid(None, f"invalid UTF-16: {exc.reason}") from exc
    data = data.removeprefix(b"\xef\xbb\xbf")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = data[: exc.start]
        line = before.count(b"\n") + 1
        # Columns count characters, as YAML's own error marks do.
        column = len(before[before.rfind(b"\n") + 1 :].decode("utf-8")) + 1
        raise _DecodeError(line, column, f"not valid UTF-8 (byte 0x{data[exc.start]:02x})") from exc


class _Reader:
    """Walks one file's node tree, collecting reviews and problems."""

    def __init__(self, path: Path, result: FileResult) -> None:
        self.path = path
        self.result = result
        self.visited = 0

    def where(self, node: yaml.Node | None) -> Location:
        if node is None:
            return Location(self.path, 1, 1)
        mark = node.start_mark
        return Location(self.path, mark.line + 1, mark.column + 1)

    def problem(self, node: yaml.Node | None, message: str) -> None:
        self.result.problems.append(Problem(self.where(node), message))

    def read_root(self, root: yaml.Node) -> None:
        try:
            self._count(root, 0)
            pairs = self.mapping(root, "a review or a page with `entries:`")
        except _Invalid as exc:
            self.problem(exc.node, exc.message)
            return
        keys = {k for k, _, _ in pairs}
        if "entries" in keys:
            self.read_page(root, pairs)
        else:
            self.read_review(root, pairs, default_repo=None)

    def _count(self, node: yaml.Node, depth: int) -> None:
        """Refuse alias bombs and absurd nesting before reading anything."""
        self.visited += 1
        if self.visited > MAX_NODES:
            raise _Invalid(node, f"too many YAML nodes (over {MAX_NODES}, aliases included)")
        if depth > MAX_DEPTH:
            raise _Invalid(node, f"nested deeper than {MAX_DEPTH} levels")
        if isinstance(node, yaml.SequenceNode):
            for child in node.value:
                self._count(child, depth + 1)
        elif isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                self._count(key, depth + 1)
                self._count(value, depth + 1)

    def read_page(self, root: yaml.Node, pairs: list[tuple[str, yaml.Node, yaml.Node]]) -> None:
        repo: str | None = None
        entries: yaml.Node | None = None
        for key, key_node, value in pairs:
            try:
                if key == "repo":
                    repo = self.repo(value)
                elif key == "entries":
                    entries = value
                else:
                    raise _Invalid(key_node, self.unknown(key, PAGE_FIELDS + REVIEW_FIELDS))
            except _Invalid as exc:
                self.problem(exc.node, exc.message)
        if entries is None:
            return
        if not isinstance(entries, yaml.SequenceNode):
            self.problem(entries, "`entries` must be a list of reviews")
            return
        for node in entries.value:
            try:
                pairs = self.mapping(node, "a review")
            except _Invalid as exc:
                self.problem(exc.node, exc.message)
                continue
            self.read_review(node, pairs, default_repo=repo)

    def read_review(
        self,
        node: yaml.Node,
        pairs: list[tuple[str, yaml.Node, yaml.Node]],
        default_repo: str | None,
    ) -> None:
        values: dict[str, object] = {}
        failed = False
        for key, key_node, value in pairs:
            try:
                if key not in REVIEW_FIELDS:
                    if key in PAGE_FIELDS:
                        raise _Invalid(key_node, "`entries` belongs at the top of a page, not in a review")
                    raise _Invalid(key_node, self.unknown(key, REVIEW_FIELDS))
                values[key] = self.field(key, value)
            except _Invalid as exc:
                self.problem(exc.node, exc.message)
                failed = True
        if "repo" not in values and default_repo is not None:
            values["repo"] = default_repo
        present = {key for key, _, _ in pairs} | set(values)
        for required in ("title", "repo", "tags", "verdict", "summary"):
            if required not in present:
                self.problem(node, f"missing required field `{required}`")
                failed = True
        if failed:
            return
        self.result.reviews.append(Review(location=self.where(node), **values))  # type: ignore[arg-type]

    def field(self, key: str, node: yaml.Node) -> object:
        if key in ("title", "summary"):
            return self.text(node, key)
        if key in ("verdict_note", "date"):
            return self.text(node, key, allow_empty=True) or None
        if key == "repo":
            return self.repo(node)
        if key == "pr":
            return self.pr(node)
        if key == "url":
            url = self.text(node, key)
            if not url.startswith(("https://", "http://")):
                raise _Invalid(node, "`url` must start with https:// or http://")
            return url
        if key == "tags":
            return self.tags(node)
        if key == "verdict":
            verdict = self.text(node, key)
            if verdict not in VERDICTS:
                raise _Invalid(node, f"`verdict` must be one of {', '.join(VERDICTS)}, not {verdict!r}")
            return verdict
        return self.items(key, node)

    # -- node readers ---------------------------------------------------------

    def mapping(self, node: yaml.Node, what: str) -> list[tuple[str, yaml.Node, yaml.Node]]:
        if not isinstance(node, yaml.MappingNode):
            raise _Invalid(node, f"expected {what} (a mapping), found {_kind(node)}")
        pairs: list[tuple[str, yaml.Node, yaml.Node]] = []
        seen: dict[str, yaml.Node] = {}
        for key_node, value in node.value:
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag not in _STR_TAGS:
                raise _Invalid(key_node, f"keys must be plain names, found {_kind(key_node)}")
            key = key_node.value
            if key in seen:
                first = self.where(seen[key])
                raise _Invalid(key_node, f"duplicate key `{clean(key)}` (first at line {first.line})")
            seen[key] = key_node
            pairs.append((key, key_node, value))
        return pairs

    def text(self, node: yaml.Node, name: str, allow_empty: bool = False) -> str:
        if not isinstance(node, yaml.ScalarNode):
            raise _Invalid(node, f"`{name}` must be text, found {_kind(node)}")
        if node.tag not in _STR_TAGS:
            raise _Invalid(node, f"`{name}`: YAML tag {node.tag} is not allowed")
        if (
            node.tag.endswith(":null")
            and not node.style  # plain: None in PyYAML, "" in libyaml
            and node.value in ("", "~", "null", "Null", "NULL")
        ):
            if allow_empty:
                return ""
            raise _Invalid(node, f"`{name}` is empty")
        value = clean(node.value).strip("\n")
        if not value.strip() and not allow_empty:
            raise _Invalid(node, f"`{name}` is empty")
        return value

    def repo(self, node: yaml.Node) -> str:
        repo = self.text(node, "repo").strip()
        if not _REPO.match(repo):
            raise _Invalid(node, f"`repo` must be owner/name, not {repo!r}")
        return repo

    def pr(self, node: yaml.Node) -> int:
        if (
            isinstance(node, yaml.ScalarNode)
            and not node.style  # plain: None in PyYAML, "" in libyaml
            and node.value.isascii()
            and node.value.isdigit()
        ):
            number = int(node.value, 10)
            if number > 0:
                return number
        raise _Invalid(node, "`pr` must be a positive whole number")

    def tags(self, node: yaml.Node) -> tuple[str, ...]:
        if isinstance(node, yaml.ScalarNode) and node.tag in _STR_TAGS:
            raise _Invalid(node, "`tags` must be a list, e.g. [rocm, kernels]")
        if not isinstance(node, yaml.SequenceNode):
            raise _Invalid(node, f"`tags` must be a list, found {_kind(node)}")
        tags: dict[str, None] = {}
        for child in node.value:
            tag = " ".join(self.text(child, "tags").split())
            tags.setdefault(tag, None)
        if not tags:
            raise _Invalid(node, "`tags` must name at least one tag")
        return tuple(tags)

    def items(self, section: str, node: yaml.Node) -> tuple[Item, ...]:
        if not isinstance(node, yaml.SequenceNode):
            raise _Invalid(node, f"`{section}` must be a list, found {_kind(node)}")
        items: list[Item] = []
        ids: dict[str, yaml.Node] = {}
        for child in node.value:
            if isinstance(child, yaml.ScalarNode):
                items.append(Item(section, self.text(child, section)))
                continue
            pairs = self.mapping(child, f"a {section} item: text, or a mapping with `text`")
            text: str | None = None
            refs: tuple[str, ...] = ()
            item_id: str | None = None
            for key, key_node, value in pairs:
                if key == "text":
                    text = self.text(value, "text")
                elif key == "refs":
                    refs = self.refs(value)
                elif key == "id":
                    item_id = self.text(value, "id").strip()
                    if item_id in ids:
                        first = self.where(ids[item_id]).line
                        raise _Invalid(
                            value, f"duplicate `id` {item_id!r} in `{section}` (first at line {first})"
                        )
                    ids[item_id] = value
                else:
                    raise _Invalid(key_node, self.unknown(key, ITEM_FIELDS))
            if text is None:
                raise _Invalid(child, f"a {section} item needs `text`")
            items.append(Item(section, text, refs, item_id))
        return tuple(items)

    def refs(self, node: yaml.Node) -> tuple[str, ...]:
        if not isinstance(node, yaml.SequenceNode):
            raise _Invalid(node, f"`refs` must be a list, found {_kind(node)}")
        return tuple(self.text(child, "refs").strip() for child in node.value)

    @staticmethod
    def unknown(key: str, allowed: Iterable[str]) -> str:
        return f"unknown key `{clean(key)}` (expected one of: {', '.join(allowed)})"


def _kind(node: yaml.Node) -> str:
    if isinstance(node, yaml.MappingNode):
        return "a mapping"
    if isinstance(node, yaml.SequenceNode):
        return "a list"
    return f"{node.value!r}" if len(node.value) < 40 else "text"


@dataclass
class LoadResult:
    files: dict[Path, list[Review]]
    problems: dict[Path, list[Problem]]

    @property
    def reviews(self) -> list[Review]:
        return [r for path in sorted(self.files) for r in self.files[path]]

    def all_problems(self) -> list[Problem]:
        return [p for path in sorted(self.problems) for p in self.problems[path]]


def load_paths(paths: Iterable[Path]) -> LoadResult:
    files, missing = discover(paths)
    result = LoadResult({}, {})
    for problem in missing:
        result.problems.setdefault(problem.location.path, []).append(problem)
    for path, file_result in zip(files, map(load_file, files), strict=True):
        result.files[path] = file_result.reviews
        if file_result.problems:
            result.problems[path] = file_result.problems
    return result


def split_roots(paths: Iterable[Path]) -> tuple[list[Path], list[Path]]:
    """Folders and single files among the paths given on the command line.

    Decided once at start, so a folder that is deleted and re-created is still
    known to be a folder. A missing path counts as a file if it has an entry
    file's name.
    """
    folders, files = [], []
    for path in paths:
        if path.is_dir() or (not path.exists() and not path.name.endswith(SUFFIXES)):
            folders.append(path)
        else:
            files.append(path)
    return folders, files


def plan_reload(
    changed: Iterable[Path], folders: list[Path], files: list[Path], known: Iterable[Path]
) -> tuple[list[Path], list[Path]]:
    """Which files to (re)load and which to drop, after the watcher saw `changed`.

    Only entry files under the watched folders, or the single files given,
    count: editors' temporary files, probes like vim's `4913` and other files
    are ignored. A folder that appeared is searched (its files may arrive
    without events of their own); a path that vanished drops every known file
    at or under it.
    """
    known = set(known)
    single = set(files)
    load: dict[Path, None] = {}
    drop: dict[Path, None] = {}

    def under_folder(path: Path) -> bool:
        return any(path == folder or path.is_relative_to(folder) for folder in folders)

    for path in changed:
        if path.is_dir():
            if under_folder(path):
                found, _ = discover([path])
                load.update(dict.fromkeys(found))
                drop.update(dict.fromkeys(k for k in known if k.is_relative_to(path) and not k.exists()))
            continue
        if os.path.lexists(path):
            if path in single or (is_entry_file(path) and under_folder(path)):
                load[path] = None
            continue
        drop.update(dict.fromkeys(k for k in known if k == path or k.is_relative_to(path)))
    return sorted(load), sorted(p for p in drop if p not in load)


def load_updates(load: Iterable[Path], drop: Iterable[Path] = ()) -> dict[Path, FileUpdate | None]:
    """Fresh loads of `load` and removals of `drop`, ready for `Library.apply`."""
    updates: dict[Path, FileUpdate | None] = dict.fromkeys(drop)
    for path in load:
        result = load_file(path)
        updates[path] = FileUpdate(result.reviews, result.problems)
    return updates
