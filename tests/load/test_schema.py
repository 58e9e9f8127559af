"""The entry format's JSON Schema (tui/schema/entry.schema.json): it says what
the parser's constants say, and it agrees with `check` on real files: the
hostile fixtures, the bundled digest, files at the limits, and generated ones.

How a file is compared is in tests/schema_agreement.py.
"""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from tests.fuzz_loader import HOSTILE_FILES, hostile_review, yaml_text
from tests.schema_agreement import SCHEMA, compare
from tui import schema
from tui.core.model import SECTIONS, VERDICTS
from tui.i18n import ZH
from tui.load import parse

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "entries"
DEFS = SCHEMA["$defs"]
FIELDS = DEFS["reviewFields"]["properties"]


def test_the_schema_is_a_valid_draft_2020_12_schema() -> None:
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(SCHEMA)
    assert schema.path().name == "entry.schema.json"
    assert schema.path().is_file()


# -- the schema says what the parser says ------------------------------------------------


def test_fields_and_required_fields_are_the_parsers() -> None:
    assert tuple(FIELDS) == parse.REVIEW_FIELDS
    assert tuple(DEFS["page"]["properties"]) == parse.PAGE_FIELDS
    assert tuple(DEFS["itemMapping"]["properties"]) == parse.ITEM_FIELDS
    assert DEFS["itemMapping"]["required"] == ["text"]
    assert tuple(DEFS["review"]["required"]) == parse._REQUIRED
    assert tuple(DEFS["pageReview"]["required"]) == tuple(f for f in parse._REQUIRED if f != "repo")
    for definition in ("page", "reviewFields", "itemMapping"):
        assert DEFS[definition]["additionalProperties"] is False
    for section in SECTIONS:
        assert FIELDS[section]["$ref"] == "#/$defs/items"


def test_limits_are_the_parsers_constants() -> None:
    assert DEFS["page"]["properties"]["entries"]["maxItems"] == parse.MAX_REVIEWS
    assert DEFS["items"]["maxItems"] == parse.MAX_ITEMS
    assert FIELDS["tags"]["maxItems"] == parse.MAX_TAGS
    assert FIELDS["tags"]["minItems"] == 1
    assert DEFS["itemMapping"]["properties"]["refs"]["maxItems"] == parse.MAX_REFS
    assert FIELDS["pr"] | {"description": ""} == {"description": "", "type": "integer", "minimum": 1}
    # No one text can be longer than the whole review may be.
    for where in (DEFS["text"], DEFS["optionalText"], FIELDS["url"]):
        assert where["maxLength"] == parse.MAX_REVIEW_CHARS
    # What the schema cannot check, its description names, with the parser's numbers.
    description = SCHEMA["description"]
    for number in (parse.MAX_FILE_BYTES, parse.MAX_NODES, parse.MAX_TEXT_CHARS, parse.MAX_REVIEW_CHARS):
        assert f"{number:,}" in description
    assert f"{parse.MAX_DEPTH} levels" in description
    for words_said in (
        "YAML-level",
        "a key written twice",
        "across files",
        "same `id`",
        "control characters",
    ):
        assert words_said in description
    for limit, where in (
        (parse.MAX_REVIEWS, DEFS["page"]["properties"]["entries"]),
        (parse.MAX_ITEMS, DEFS["items"]),
        (parse.MAX_TAGS, FIELDS["tags"]),
        (parse.MAX_REFS, DEFS["itemMapping"]["properties"]["refs"]),
    ):
        assert f"{limit:,}" in where["description"]


def test_verdicts_repo_and_url_are_the_parsers() -> None:
    enum, spelled = FIELDS["verdict"]["anyOf"]
    assert tuple(enum["enum"]) == VERDICTS
    assert spelled["pattern"] == r"^\n*(?:" + "|".join(VERDICTS) + r")\n*$"
    repo = DEFS["repo"]["pattern"]
    assert repo == r"^\s*" + parse._REPO.pattern.removeprefix("^").removesuffix("$") + r"\s*$"
    assert FIELDS["url"]["pattern"] == r"^\n*https?://"
    for verdict in VERDICTS:
        assert re.search(spelled["pattern"], f"\n{verdict}\n")


def test_descriptions_carry_the_chinese_labels_the_reader_shows() -> None:
    zh_labels = {**ZH.field_names, **ZH.section_headings}
    for name, label in zh_labels.items():
        assert f"{name} ({label})" in FIELDS[name]["description"], name
    verdict = FIELDS["verdict"]["description"]
    for value, label in ZH.verdict_words.items():
        assert f"{value} ({label})" in verdict
    for name in parse.REVIEW_FIELDS:
        assert FIELDS[name]["description"].startswith(name)


def test_the_file_is_static_and_formatted() -> None:
    """The shipped file is what `json.dumps(indent=2)` makes of it: edits by hand
    stay reviewable diffs, and nothing is generated when it is read."""
    raw = schema.path().read_text(encoding="utf-8")
    assert raw == json.dumps(json.loads(raw), ensure_ascii=False, indent=2) + "\n"
    assert schema.text() == raw


# -- the schema and check agree on files -------------------------------------------------


def _assert_agree(path: Path) -> None:
    comparison = compare(path)
    assert not comparison.disagreements, "\n".join(
        [f"{path}:", *comparison.disagreements, "check:", *map(str, comparison.problems)]
    )


FIXTURE_FILES = sorted(FIXTURES.glob("*.yaml"))


@pytest.mark.parametrize("path", FIXTURE_FILES, ids=[p.name for p in FIXTURE_FILES])
def test_fixtures_agree(path: Path) -> None:
    comparison = compare(path)
    # The fixtures mean what their names say.
    assert bool(comparison.problems) == path.name.startswith("bad-"), comparison.problems
    if path.name.startswith("ok-"):
        assert comparison.validated and not comparison.schema_errors
    _assert_agree(path)


def test_fixtures_disagree_only_where_the_schema_says_they_do() -> None:
    """The excused disagreements are real, and only those: text the reader cleans,
    `pr` as YAML numbers, and YAML-level problems."""
    cleaned = compare(FIXTURES / "bad-cleaned.yaml")
    assert len(cleaned.problems) == 3 and len(cleaned.schema_errors) == 5
    pr_forms = compare(FIXTURES / "bad-pr-forms.yaml")
    assert len(pr_forms.problems) == 8 and len(pr_forms.schema_errors) == 3
    # Everything else check reports is a schema error at the same line and column.
    for name in ("bad-fields", "bad-types", "bad-items", "bad-item-values", "bad-missing"):
        comparison = compare(FIXTURES / f"{name}.yaml")
        assert len(comparison.schema_errors) == len(comparison.problems), name
    assert not compare(FIXTURES / "bad-invalid-yaml.yaml").validated


def test_the_bundled_digest_validates() -> None:
    comparison = compare(ROOT / "entries" / "vllm-tag-view.yaml")
    assert comparison.validated and not comparison.problems and not comparison.schema_errors


@pytest.mark.parametrize("name", sorted(HOSTILE_FILES))
def test_hostile_files_agree(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_bytes(HOSTILE_FILES[name])
    _assert_agree(path)


HEAD = "title: t\nrepo: o/r\nverdict: deep\nsummary: s\n"


def _flow(values: list[str]) -> str:
    return "[" + ", ".join(values) + "]"


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("tags-at.yaml", HEAD + f"tags: {_flow([f't{i}' for i in range(parse.MAX_TAGS)])}\n"),
        ("tags-over.yaml", HEAD + f"tags: {_flow([f't{i}' for i in range(parse.MAX_TAGS + 1)])}\n"),
        ("refs-at.yaml", HEAD + f"tags: [a]\nfocus:\n  - text: x\n    refs: {_flow(['r'] * parse.MAX_REFS)}\n"),
        ("refs-over.yaml", HEAD + f"tags: [a]\nfocus:\n  - text: x\n    refs: {_flow(['r'] * (parse.MAX_REFS + 1))}\n"),
        ("items-at.yaml", HEAD + "tags: [a]\ncaveats:\n" + "  - c\n" * parse.MAX_ITEMS),
        ("items-over.yaml", HEAD + "tags: [a]\ncaveats:\n" + "  - c\n" * (parse.MAX_ITEMS + 1)),
        ("text-over.yaml", HEAD + "tags: [a]\nverdict_note: " + "x" * (parse.MAX_REVIEW_CHARS + 1) + "\n"),
        ("review-over.yaml", HEAD + "tags: [a]\nverdict_note: " + "x" * (parse.MAX_REVIEW_CHARS // 2)
            + "\ndate: " + "y" * (parse.MAX_REVIEW_CHARS // 2) + "\n"),
    ],
)  # fmt: skip
def test_files_at_and_past_the_limits_agree(tmp_path: Path, name: str, content: str) -> None:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    comparison = compare(path)
    assert comparison.validated
    assert bool(comparison.problems) == ("-over" in name), comparison.problems
    _assert_agree(path)


def test_a_page_past_the_review_limit_agrees(tmp_path: Path) -> None:
    path = tmp_path / "reviews-over.yaml"
    reviews = "".join(
        f"  - {{title: t{i}, tags: [a], verdict: skip, summary: s}}\n" for i in range(parse.MAX_REVIEWS + 1)
    )
    path.write_text("repo: o/r\nentries:\n" + reviews)
    comparison = compare(path)
    assert [message for _, message in comparison.problems] == [
        "more than 10,000 reviews in one file; the rest are skipped"
    ]
    assert [e.validator for e in comparison.schema_errors] == ["maxItems"]
    _assert_agree(path)


# -- generated documents -----------------------------------------------------------------

_SCALARS = (
    "x", "中文 标题", "no", "yes", "010", "12", "0", "-3", "+12", "0x0c", "0o14", "1.5", "12.0", "1e3", ".inf",
    ".nan", "~", "null", "true", "2026-01-01", "12:30:00", "deep", "quick", "skim", "skip", "someday",
    "o/r", "a.b/c-d", "bad repo", "https://x.example/1", "http://y.example", "ftp://z.example", '""',
    "' '", '"\\e[31m"', '"de\\x00ep"', '"deep\\n"', '"\\u202e"', '"  o/r  "', '"\\nhttps://x.example"',
    "'null'", "'~'", "a b  c",
)  # fmt: skip
_KEYS = (*parse.REVIEW_FIELDS, *parse.ITEM_FIELDS, "entries", "bogus", "Title")
_ANY = st.recursive(
    st.sampled_from(_SCALARS),
    lambda children: st.one_of(
        st.lists(children, max_size=3).map(lambda xs: "[" + ", ".join(xs) + "]"),
        st.dictionaries(st.sampled_from(_KEYS), children, max_size=3).map(
            lambda d: "{" + ", ".join(f"{k}: {v}" for k, v in d.items()) + "}"
        ),
    ),
    max_leaves=6,
)
_ITEMS = ("[]", "[x, y]", "[x, x]", "[{text: x, refs: [a, b], id: i}]", "[{text: x}, y, {text: z, id: 7}]")
_GOOD = {
    "title": ("x", "中文 标题", "no", "010"),
    "repo": ("o/r", "a.b/c-d", '"  o/r "'),
    "pr": ("1", "12345", "010"),
    "url": ("https://x.example/1", "http://y.example"),
    "date": ("2026-01-01", "~", '""'),
    "tags": ("[a]", "[a, b, a]", "[1, yes]"),
    "verdict": VERDICTS,
    "verdict_note": ("note", "~", "' '"),
    "summary": ("s", "中文", "12:30:00"),
    **dict.fromkeys(SECTIONS, _ITEMS),
}


@st.composite
def _review(draw: st.DrawFn) -> str:
    """A review in YAML flow style, mostly right, sometimes wrong in one way or several."""
    fields: dict[str, str] = {}
    for name in parse.REVIEW_FIELDS:
        if draw(st.integers(0, 19)) < (19 if name in parse._REQUIRED else 8):
            good = draw(st.integers(0, 14)) > 0
            fields[name] = draw(st.sampled_from(_GOOD[name]) if good else _ANY)
    if draw(st.integers(0, 14)) == 0:
        fields[draw(st.sampled_from(("bogus", "entries", "Title")))] = draw(_ANY)
    order = draw(st.permutations(list(fields)))
    return "{" + ", ".join(f"{key}: {fields[key]}" for key in order) + "}"


@st.composite
def _document(draw: st.DrawFn) -> str:
    kind = draw(st.sampled_from(("review", "page", "page", "any")))
    if kind == "review":
        return draw(_review()) + "\n"
    if kind == "any":
        return draw(_ANY) + "\n"
    head = "" if draw(st.booleans()) else f"repo: {draw(st.sampled_from(('o/r', 'bad repo', '[o/r]')))}\n"
    reviews = draw(st.lists(_review() | _ANY, max_size=4))
    return head + "entries:\n" + "".join(f"  - {review}\n" for review in reviews)


_HOSTILE = st.one_of(
    hostile_review().map(yaml_text),
    st.lists(hostile_review(valid_shape=True), min_size=1, max_size=3).map(
        lambda reviews: yaml_text({"repo": "o/r", "entries": reviews})
    ),
)
SCHEMA_SETTINGS = settings(
    max_examples=300, deadline=None, database=None, print_blob=True, suppress_health_check=list(HealthCheck)
)


@SCHEMA_SETTINGS
@given(text=_document())
def test_generated_documents_agree(text: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "generated.yaml"
        path.write_text(text, encoding="utf-8")
        _assert_agree(path)


@SCHEMA_SETTINGS
@given(text=_HOSTILE)
def test_hostile_reviews_agree(text: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "hostile.yaml"
        path.write_text(text, encoding="utf-8")
        _assert_agree(path)


DOC_BLOCKS = re.findall(
    r"```yaml\n(.*?)```", (ROOT / "docs" / "entry-format.md").read_text(encoding="utf-8"), re.DOTALL
)


@pytest.mark.parametrize("number", range(len(DOC_BLOCKS)))
def test_the_docs_examples_agree(tmp_path: Path, number: int) -> None:
    """Every YAML block in docs/entry-format.md, read as an entry file: the whole
    examples pass both, the fragments fail both."""
    path = tmp_path / f"block-{number}.yaml"
    path.write_text(DOC_BLOCKS[number], encoding="utf-8")
    _assert_agree(path)
    if DOC_BLOCKS[number].startswith(("title:", "repo:", "# entries/")):
        comparison = compare(path)
        assert comparison.validated and not comparison.problems and not comparison.schema_errors
