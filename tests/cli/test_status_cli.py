"""`prdigest-tui status` as a real subprocess, against marks made in the real reader."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.app_helpers import make_app, write_review
from tests.cli_helpers import run_probe, run_tui


def status(*args: str) -> subprocess.CompletedProcess[str]:
    return run_tui("status", "--lang", "en", *args)


def digest(tmp_path: Path) -> Path:
    folder = tmp_path / "entries"
    folder.mkdir()
    write_review(folder / "a.yaml", "Alpha", tags="[rocm]", extra="pr: 1\nfocus: [one]\n")
    write_review(folder / "b.yaml", "Beta", tags="[rocm, ci]", verdict="skim", extra="pr: 2\n")
    write_review(folder / "c.yaml", "Gamma", tags="[docs]", extra="pr: 3\n")
    write_review(folder / "d.yaml", "Delta", tags="[docs]", verdict="quick", extra="pr: 4\n")
    return folder


async def test_status_counts_what_the_reader_marked(tmp_path: Path, isolated_dirs: dict[str, Path]) -> None:
    folder = digest(tmp_path)
    state = tmp_path / "state.json"
    app = make_app(tmp_path, [folder], state)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("r")  # the first review in reading order: a deep read
        await pilot.pause()
        first = app.query_one("ReviewList").reviews[0]
    assert first.verdict == "deep"
    line = status(str(folder), "--state", str(state))
    assert line.returncode == 0, line.stderr
    assert line.stdout == "3 unread · 0 updated\n"
    fields = status(str(folder), "--state", str(state), "--format", "{unread}/{total} {deep} deep {{x}}")
    assert fields.stdout == "3/4 1 deep {x}\n"

    # The reader's read review is edited: it counts as updated.
    path = first.location.path
    path.write_text(path.read_text(encoding="utf-8").replace("summary: s", "summary: s, now longer"))
    assert status(str(folder), "--state", str(state)).stdout == "3 unread · 1 updated\n"


def test_views_and_mutes_from_the_config(tmp_path: Path, isolated_dirs: dict[str, Path]) -> None:
    folder = digest(tmp_path)
    config = isolated_dirs["XDG_CONFIG_HOME"] / "prdigest-tui" / "config.yaml"
    config.parent.mkdir(parents=True)
    config.write_text("views:\n  rocm: {tags: [rocm]}\n  deep: {verdict: deep}\nmute: [ci]\n")
    out = status(str(folder), "--format", "{unread} {total} {view:rocm} {view:deep}")
    assert out.returncode == 0, out.stderr
    assert out.stdout == "3 3 1 2\n"  # Beta (ci) is muted everywhere


def test_a_bad_format_or_an_unknown_view_is_one_line_and_exit_2(tmp_path: Path) -> None:
    folder = digest(tmp_path)
    for fmt, expected in (
        ("{unread} {nope}", "unknown field {nope}"),
        ("{unread.__class__}", "unknown field {unread.__class__}"),
        ("{view:missing}", "no view named missing"),
        ("{unread", "a lone '{'"),
    ):
        out = status(str(folder), "--format", fmt)
        assert out.returncode == 2, (fmt, out)
        assert out.stdout == ""
        assert expected in out.stderr and "Traceback" not in out.stderr
        assert len(out.stderr.strip().splitlines()) == 1


def test_a_warm_status_reads_no_yaml(tmp_path: Path) -> None:
    folder = digest(tmp_path)
    assert status(str(folder)).returncode == 0  # the first call fills the parse cache
    probe = (
        "import sys\n"
        "from tui.cli import main\n"
        f"code = main(['status', {str(folder)!r}])\n"
        "print(sorted(m for m in sys.modules if m == 'yaml' or m.startswith(('yaml.', 'textual', 'tui.load.parse'))))\n"
    )
    out = run_probe(probe)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[-1] == "[]"


def test_a_warm_status_reads_only_the_cache_index(tmp_path: Path) -> None:
    """No asyncio, no first-frame loader, no Review built for a count: the lean path."""
    folder = digest(tmp_path)
    assert status(str(folder)).returncode == 0  # fills the parse cache
    probe = (
        "import sys\n"
        "from tui.cli import main\n"
        f"code = main(['status', {str(folder)!r}])\n"
        "print(sorted(m for m in sys.modules if m in ('asyncio', 'tui.load.first_frame', 'tui.load.library')))\n"
    )
    out = run_probe(probe)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == ["4 unread · 0 updated", "[]"]
