"""`prdigest-tui schema` as a real subprocess: what an editor's setup or a
generator's build runs."""

from __future__ import annotations

import json
from pathlib import Path

from jsonschema import Draft202012Validator

from tests.cli_helpers import ROOT
from tests.cli_helpers import run_tui as run


def test_schema_prints_the_json_schema(tmp_path: Path) -> None:
    result = run("schema", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    schema = json.loads(result.stdout)
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert "verdict" in schema["$defs"]["reviewFields"]["properties"]


def test_schema_path_prints_the_installed_file(tmp_path: Path) -> None:
    result = run("schema", "--path", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    path = Path(result.stdout.removesuffix("\n"))
    assert path.is_absolute() and path.name == "entry.schema.json"
    assert path.read_text(encoding="utf-8") == run("schema").stdout


def test_the_printed_schema_validates_the_bundled_digest() -> None:
    """What an editor would do with it: read it, and check an entry file."""
    import yaml

    schema = json.loads(run("schema").stdout)
    digest = yaml.safe_load((ROOT / "entries" / "vllm-tag-view.yaml").read_text(encoding="utf-8"))
    assert list(Draft202012Validator(schema).iter_errors(digest)) == []
    digest["entries"][0]["verdict"] = "someday"
    assert [e.validator for e in Draft202012Validator(schema).iter_errors(digest)] == ["anyOf"]


def test_schema_takes_no_paths() -> None:
    result = run("schema", "entries/")
    assert result.returncode == 2
    assert "unrecognized arguments" in result.stderr
