"""The command line as a user (or a status bar) runs it: `python -m tui ...`
and `python -c PROBE` in a real subprocess, from the project's folder, with
the isolated XDG folders and HOME that tests/conftest.py puts in os.environ."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parents[1]


def run_tui(
    *args: str, cwd: Path = ROOT, stdout: int | IO[str] | None = None, **env: str
) -> subprocess.CompletedProcess[str]:
    """`python -m tui ARGS...`; `env` is added to os.environ. Its output is
    caught, or written to `stdout` (a file or a descriptor) if given."""
    return subprocess.run(
        [sys.executable, "-m", "tui", *args],
        cwd=cwd,
        env={**os.environ, **env},
        stdout=subprocess.PIPE if stdout is None else stdout,
        stderr=subprocess.PIPE,
        text=True,
        timeout=60,
    )


def run_probe(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    """`python -c CODE ARGS...`: a probe of what a command imports or does."""
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=ROOT,
        env=os.environ.copy(),
        capture_output=True,
        text=True,
        timeout=60,
    )
