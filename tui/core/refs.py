"""What a review's refs name: a path, a file, a module, a symbol, or nothing in code.

Every `refs:` entry and every backticked span of a review is classified here,
from its text alone (no disk, no git): `vllm/v1/utils.py` is a path,
`scheduler.py` a file, `vllm.models.glm5next.sparse_indexer` a module,
`CpuGpuBuffer.copy_to_gpu` or `_get_constraint_start()` a symbol, and
`len + 1`, `None`, `>=`, `custom_ops=["all"]`, `<think>` are text. Resolving
them in a clone is `tui.clone`'s job; this module says what to look for.

Refs are untrusted: the classification only lets through characters that can be
part of a path or an identifier, so what reaches git is never an option, a glob
or a pathspec magic word by construction, and `tui.clone` still passes each as
data (`--`, literal pathspecs, patterns built from identifiers only).
"""

from __future__ import annotations

import builtins
import keyword
import re
from collections.abc import Iterable
from typing import NamedTuple

from tui.core.model import SECTIONS, Item, Review
from tui.core.text import code_refs

PATH, FILE, MODULE, SYMBOL, TEXT = "path", "file", "module", "symbol", "text"
KINDS = (PATH, FILE, MODULE, SYMBOL, TEXT)

FILE_SUFFIXES = frozenset(
    [
        "py",
        "pyi",
        "pyx",
        "pxd",
        "cu",
        "cuh",
        "c",
        "cc",
        "cpp",
        "cxx",
        "h",
        "hh",
        "hpp",
        "hxx",
        "inl",
        "cmake",
        "txt",
        "md",
        "rst",
        "yaml",
        "yml",
        "json",
        "toml",
        "cfg",
        "ini",
        "sh",
        "bash",
        "proto",
        "rs",
        "go",
        "js",
        "ts",
        "tsx",
        "jsx",
        "html",
        "css",
        "jinja",
        "j2",
        "in",
        "lock",
        "mk",
    ]
)
"""Suffixes that make `name.suffix` a file rather than `object.member`."""

FILE_NAMES = frozenset({"Dockerfile", "Makefile", "CMakeLists.txt", "Containerfile", "Justfile"})

_SEGMENT = r"[A-Za-z0-9_.\-]+"
_PATH = re.compile(rf"^(/?(?:{_SEGMENT}/)+{_SEGMENT}/?|(?:{_SEGMENT}/)+)(?::([0-9]{{1,7}}))?$")
_FILE = re.compile(r"^([A-Za-z0-9_.\-]+\.([A-Za-z0-9]+))(?::([0-9]{1,7}))?$")
_IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
_DOTTED = re.compile(rf"^({_IDENT}(?:\.{_IDENT})*)(\(\))?$")

NOT_NAMES = frozenset(keyword.kwlist) | frozenset(keyword.softkwlist) | frozenset(dir(builtins))
"""Keywords, `None`/`True`/`False` and builtins (`len`, `int`, ...): Python's
own words, never defined in a clone."""

_OWNERS_TO_DROP = frozenset({"self", "cls"})


class Ref(NamedTuple):
    """One ref, classified, with what to look for.

    - path: `path` is the path as written (without `./` and `:LINE`).
    - file: `path` is the file name.
    - module: `modules` are the files that would hold it; `name` is its last
      part and `parents` the files of the module above, for `pkg.mod.func`.
    - symbol: `name` is the name defined, `owner` the class it is a member of
      (`Class.member`), `modules` the files of a module written before it
      (`pkg.mod.Class`).
    `line` is a `:LINE` written after a path or file.
    """

    text: str
    kind: str
    path: str | None = None
    line: int | None = None
    name: str | None = None
    owner: str | None = None
    modules: tuple[str, ...] = ()
    parents: tuple[str, ...] = ()

    @property
    def is_ref(self) -> bool:
        return self.kind != TEXT


def _module_files(parts: list[str]) -> tuple[str, ...]:
    base = "/".join(parts)
    return (f"{base}.py", f"{base}/__init__.py", f"{base}.pyi")


def classify(text: str) -> Ref:
    """The kind of `text` and the terms it names. Never raises."""
    text = text.strip()
    if not text or len(text) > 300 or text.startswith("-"):
        return Ref(text, TEXT)
    if match := _PATH.match(text):
        path = match.group(1).removeprefix("./")
        line = int(match.group(2)) if match.group(2) else None
        return Ref(text, PATH, path=path, line=line)
    if (match := _FILE.match(text)) and (
        match.group(2).lower() in FILE_SUFFIXES or match.group(1) in FILE_NAMES
    ):
        line = int(match.group(3)) if match.group(3) else None
        return Ref(text, FILE, path=match.group(1), line=line)
    if text in FILE_NAMES:
        return Ref(text, FILE, path=text)
    match = _DOTTED.match(text)
    if not match:
        return Ref(text, TEXT)
    parts = match.group(1).split(".")
    called = match.group(2) is not None
    if parts[0] in _OWNERS_TO_DROP and len(parts) > 1:
        parts = parts[1:]
    if any(part in keyword.kwlist for part in parts):
        return Ref(text, TEXT)
    name = parts[-1]
    if len(parts) == 1:
        if name in NOT_NAMES or len(name) < 2 or name.strip("_") == "":
            return Ref(text, TEXT)
        return Ref(text, SYMBOL, name=name)
    # Dotted: the first capitalised part starts the symbol; what is before it is a module.
    first_class = next((i for i, part in enumerate(parts) if part[:1].isupper()), None)
    if first_class is None:
        if called:  # `pkg.mod.func()`: a function of a module
            return Ref(text, SYMBOL, name=name, modules=_module_files(parts[:-1]))
        return Ref(
            text,
            MODULE,
            name=name,
            modules=_module_files(parts),
            parents=_module_files(parts[:-1]),
        )
    module = parts[:first_class]
    symbol = parts[first_class:]
    owner = symbol[-2] if len(symbol) > 1 else None
    return Ref(
        text,
        SYMBOL,
        name=name,
        owner=owner,
        modules=_module_files(module) if module else (),
    )


class RefUse(NamedTuple):
    """Where in a review a ref is written: `place` is `title`, `verdict_note`,
    `summary`, or a section with `index` its item's position in it."""

    ref: Ref
    place: str
    index: int | None = None  # type: ignore[assignment]  # a field named as tuple.index is

    @property
    def group(self) -> tuple[str, int | None]:
        """The item (or field) the ref belongs to: refs of one group settle each other."""
        return (self.place, self.index)


def item_refs(item: Item) -> list[str]:
    """An item's refs as written: its `refs`, then its backticked spans, once each."""
    return list(dict.fromkeys([*item.refs, *code_refs(item.text)]))


def review_refs(review: Review) -> list[RefUse]:
    """Every ref of `review`, in reading order: title, verdict note, summary,
    then each section's items; once per item or field."""
    uses: list[RefUse] = []
    for place in ("title", "verdict_note", "summary"):
        text = getattr(review, place) or ""
        uses.extend(RefUse(classify(span), place) for span in code_refs(text))
    for section in SECTIONS:
        for index, item in enumerate(review.items(section)):
            uses.extend(RefUse(classify(text), section, index) for text in item_refs(item))
    return uses


def unique(uses: Iterable[RefUse]) -> list[RefUse]:
    """The first use of each ref text."""
    seen: dict[str, RefUse] = {}
    for use in uses:
        seen.setdefault(use.ref.text, use)
    return list(seen.values())


def search_names(refs: Iterable[Ref]) -> list[str]:
    """The identifiers to search definitions of: symbols' names and owners,
    modules' last parts (for `pkg.mod.func`), once each, sorted."""
    names: set[str] = set()
    for ref in refs:
        if ref.kind in (SYMBOL, MODULE) and ref.name:
            names.add(ref.name)
            if ref.owner:
                names.add(ref.owner)
    return sorted(names)


def is_test_path(path: str) -> bool:
    """A path under a tests folder, or a file named like a test."""
    parts = path.split("/")
    name = parts[-1]
    return (
        any(part in ("tests", "test", "testing") for part in parts[:-1])
        or name.startswith("test_")
        or name.endswith("_test.py")
        or name == "conftest.py"
    )
