"""Run an entry file through `check` and through the JSON Schema, and compare.

The schema sees a file as an editor does: yaml-language-server reads YAML 1.2
(core schema), so `pr: 12` is a number, `title: no` a string, `title: 010` a
number. `instance` builds that value from the very nodes `check` reads (the
parser's own composer), remembering each value's node, so every schema error
is located at a line and column and compared with `check`'s problems there.

`compare` returns what disagrees, in words: an empty list is agreement.
Disagreements the schema's description owns up to are excused, and only
those: problems of YAML itself, of a whole file, across reviews, and text
the reader cleans of control characters before it checks it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import yaml
from jsonschema import Draft202012Validator, ValidationError

from tui import schema
from tui.core.model import Library
from tui.core.text import needs_cleaning
from tui.load.limits import MAX_DEPTH, MAX_NODES, MAX_TEXT_CHARS
from tui.load.parse import load_paths
from tui.load.yaml_nodes import Composer, Lines, read_text

SCHEMA = json.loads(schema.text())
VALIDATOR = Draft202012Validator(SCHEMA)

FILE_LEVEL = (
    "invalid YAML",
    "not valid UTF-8",
    "invalid UTF-16",
    "cannot read",
    "not a regular file",
    "file is larger than",
    "too many YAML nodes",
    "nested deeper than",
    f"more than {MAX_TEXT_CHARS:,} characters of text",
)
"""Problems of a whole file: there is no document to give the schema."""
NOT_EXPRESSIBLE = re.compile(
    r"keys must be plain names|duplicate key|duplicate `id`|duplicate review|review holds|: YAML tag "
)
"""Problems of YAML itself, or across fields or reviews: no schema can say them."""
WHOLE = re.compile(r"keys must be plain names|duplicate key|review holds")
"""Problems that stop check reading a whole mapping, or refuse a whole review."""

# YAML 1.2 core schema, plain scalars (https://yaml.org/spec/1.2.2/#1032-tag-resolution).
_NULL = re.compile(r"~|null|Null|NULL|")
_BOOL = re.compile(r"true|True|TRUE|false|False|FALSE")
_INT = re.compile(r"[-+]?[0-9]+")
_OCT = re.compile(r"0o[0-7]+")
_HEX = re.compile(r"0x[0-9a-fA-F]+")
_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?")
_INF = re.compile(r"[-+]?\.(inf|Inf|INF)")
_NAN = re.compile(r"\.(nan|NaN|NAN)")


def core_value(node: yaml.ScalarNode) -> object:
    """A scalar as YAML 1.2's core schema reads it."""
    value = node.value
    if node.style:  # quoted or block: text
        return value
    if _NULL.fullmatch(value):
        return None
    if _BOOL.fullmatch(value):
        return value in ("true", "True", "TRUE")
    if _INT.fullmatch(value):
        return int(value, 10)
    if _OCT.fullmatch(value):
        return int(value[2:], 8)
    if _HEX.fullmatch(value):
        return int(value[2:], 16)
    if _FLOAT.fullmatch(value):
        return float(value)
    if _INF.fullmatch(value):
        return float(value[0] + "inf" if value[0] in "+-" else "inf")
    if _NAN.fullmatch(value):
        return float("nan")
    return value


class _TooBig(Exception):
    pass


@dataclass
class Instance:
    """A document's value, and the node of each value and key by path."""

    value: object
    nodes: dict[tuple, yaml.Node] = field(default_factory=dict)
    keys: dict[tuple, yaml.Node] = field(default_factory=dict)


def instance(root: yaml.Node | None) -> Instance:
    found = Instance(None)
    count = 0

    def build(node: yaml.Node, path: tuple) -> object:
        nonlocal count
        count += 1
        if count > MAX_NODES or len(path) > MAX_DEPTH + 1:
            raise _TooBig
        found.nodes[path] = node
        if isinstance(node, yaml.ScalarNode):
            return core_value(node)
        if isinstance(node, yaml.SequenceNode):
            return [build(child, (*path, i)) for i, child in enumerate(node.value)]
        out: dict[str, object] = {}
        for key_node, value in node.value:
            if isinstance(key_node, yaml.ScalarNode):  # other keys: a problem check reports
                key = key_node.value
                found.keys[(*path, key)] = key_node
                out[key] = build(value, (*path, key))
        return out

    if root is not None:
        found.value = build(root, ())
    return found


@dataclass
class Comparison:
    path: Path
    problems: list[tuple[tuple[int, int], str]]
    schema_errors: list[ValidationError]
    disagreements: list[str]
    validated: bool


def compare(path: Path) -> Comparison:
    """`check`'s problems and the schema's errors for one file, and where they disagree."""
    result = load_paths([path])
    library = Library.build(result.files, result.problems)
    problems = [((p.location.line, p.location.column), p.message) for p in library.all_problems()]
    assert not any(m.startswith("internal error") for _, m in problems), problems
    if any(m.startswith(FILE_LEVEL) for _, m in problems):
        return Comparison(path, problems, [], [], validated=False)
    text = read_text(path)
    lines = Lines(text)
    try:
        doc = instance(yaml.compose(text, Loader=Composer))
    except _TooBig:  # pragma: no cover - check reports such files as file-level problems
        raise AssertionError(f"{path}: too big for the schema, yet check read it") from None

    def at(node: yaml.Node) -> tuple[int, int]:
        return lines.of(node.start_mark)

    def end(node: yaml.Node) -> tuple[int, int]:
        return lines.of(node.end_mark)

    by_position: dict[tuple[int, int], list[tuple[tuple, yaml.Node]]] = {}
    for node_path, node in doc.nodes.items():
        by_position.setdefault(at(node), []).append((node_path, node))

    def cleaned_there(position: tuple[int, int]) -> bool:
        """A scalar at `position` holds what the reader removes before it checks."""
        return any(
            isinstance(node, yaml.ScalarNode) and needs_cleaning(node.value)
            for _, node in by_position.get(position, [])
        )

    def pr_number_there(position: tuple[int, int]) -> bool:
        """A `pr` YAML reads as a positive whole number, not written as decimal digits."""
        for node_path, _ in by_position.get(position, []):
            value = _value_at(doc.value, node_path)
            if (
                node_path[-1:] == ("pr",)
                and type(value) in (int, float)
                and value >= 1
                and value == int(value)
            ):
                return True
        return False

    def candidates(error: ValidationError) -> set[tuple[int, int]]:
        """Where `check` would put this error: the value's node; for unknown keys
        the keys; for a list too long its first entry past the limit."""
        error_path = tuple(error.absolute_path)
        node = doc.nodes.get(error_path)
        out = {at(node) if node is not None else (1, 1)}
        if error.validator == "additionalProperties" and isinstance(error.instance, dict):
            allowed = error.schema.get("properties", {})
            out |= {at(doc.keys[(*error_path, k)]) for k in error.instance if k not in allowed}
        if error.validator == "maxItems":
            out.add(at(doc.nodes[(*error_path, error.validator_value)]))
        for sub in error.context or ():
            out |= candidates(sub)
        return out

    errors = sorted(VALIDATOR.iter_errors(doc.value), key=lambda e: list(map(str, e.absolute_path)))
    disagreements: list[str] = []
    where = {id(error): candidates(error) for error in errors}
    error_positions = set().union(*where.values()) if where else set()

    # Every problem check reports that a schema can say is a schema error there.
    for position, message in problems:
        if NOT_EXPRESSIBLE.search(message) or cleaned_there(position):
            continue
        if message.startswith("`pr`") and pr_number_there(position):
            continue
        if position not in error_positions:
            disagreements.append(f"check only: {position[0]}:{position[1]}: {message}")

    # Every schema error is a problem check reports: at the error's place (an
    # alias's node is where its anchor is); else in the same field of the review,
    # where check stops at the first problem; else at a mapping around it that
    # check could not read as a whole (a duplicate or non-plain key), or at a
    # review too long for check.
    positions = {position for position, _ in problems}
    whole = [position for position, message in problems if WHOLE.search(message)]
    reviews = _review_paths(doc)

    def within(node: yaml.Node, spots: Iterable[tuple[int, int]]) -> bool:
        start, stop = at(node), end(node)
        return any(start <= spot <= stop for spot in spots)

    for error in errors:
        error_path = tuple(error.absolute_path)
        node = doc.nodes.get(error_path)
        if isinstance(node, yaml.ScalarNode) and needs_cleaning(node.value):
            continue
        if where[id(error)] & positions:
            continue
        review = max((r for r in reviews if error_path[: len(r)] == r), key=len, default=None)
        field_path = error_path[: len(review) + 1] if review is not None else None
        if field_path and len(error_path) > len(review) and within(doc.nodes[field_path], positions):
            continue
        around = [
            doc.nodes[error_path[:i]] for i in range(len(error_path) + 1) if error_path[:i] in doc.nodes
        ]
        if any(within(outer, whole) for outer in around):
            continue
        disagreements.append(f"schema only: {'/'.join(map(str, error_path))}: {error.message}")
    return Comparison(path, problems, errors, disagreements, validated=True)


def _value_at(value: object, path: tuple) -> object:
    for part in path:
        value = value[part]  # type: ignore[index]
    return value


def _review_paths(doc: Instance) -> list[tuple]:
    """Paths of the document's reviews: the root, or each entry of a page."""
    root = doc.value
    if isinstance(root, dict) and "entries" in root:
        entries = root["entries"]
        return [("entries", i) for i in range(len(entries))] if isinstance(entries, list) else []
    return [()] if isinstance(root, dict) else []
