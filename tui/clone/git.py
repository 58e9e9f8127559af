"""Running git on the user's clone: the one place a git process is started.

Refs are untrusted text, so every call is an argument list (never a shell),
paths come after `--`, pathspecs are literal (`GIT_LITERAL_PATHSPECS`: no glob,
no `:(magic)`), no pager, no prompt, no colour, no external diff or textconv
program, and a call that hangs is ended after `TIMEOUT_S`.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

TIMEOUT_S = 30.0
MAX_OUTPUT_BYTES = 256 * 1024 * 1024

_CONFIG = (
    "-c", "core.quotepath=off",
    "-c", "color.ui=false",
    "-c", "log.showSignature=false",
    "-c", "core.fsmonitor=false",
)  # fmt: skip


class GitError(Exception):
    """git is missing, failed, or took too long; the message says which."""


def _environment() -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith("GIT_") or key in ("GIT_CONFIG_NOSYSTEM",)
    }  # GIT_DIR, GIT_WORK_TREE... of the caller's shell would point git elsewhere
    env.update(
        GIT_LITERAL_PATHSPECS="1",
        GIT_PAGER="cat",
        PAGER="cat",
        GIT_TERMINAL_PROMPT="0",
        GIT_OPTIONAL_LOCKS="0",  # reading never takes the index lock of the user's clone
        LC_ALL="C",
    )
    return env


def executable() -> str:
    git = shutil.which("git")
    if git is None:
        raise GitError("git is not installed (not found on PATH)")
    return git


def run(
    cwd: Path,
    args: Sequence[str],
    *,
    input: bytes | None = None,
    ok: Sequence[int] = (0,),
    timeout: float = TIMEOUT_S,
) -> bytes:
    """git's stdout for `args` run in `cwd`. An exit status outside `ok` raises
    GitError with git's first line of stderr."""
    command = [executable(), *_CONFIG, *args]
    try:
        result = subprocess.run(
            command,
            cwd=cwd,
            env=_environment(),
            input=input,
            stdin=None if input is not None else subprocess.DEVNULL,
            capture_output=True,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired as exc:
        raise GitError(f"git {args[0]} took longer than {timeout:.0f} s") from exc
    except OSError as exc:
        raise GitError(f"cannot run git: {exc.strerror or exc}") from exc
    if result.returncode not in ok:
        message = result.stderr.decode("utf-8", "replace").strip().splitlines()
        raise GitError(f"git {args[0]}: {message[0] if message else f'exit status {result.returncode}'}")
    if len(result.stdout) > MAX_OUTPUT_BYTES:
        raise GitError(f"git {args[0]}: more than {MAX_OUTPUT_BYTES // 2**20} MB of output")
    return result.stdout


def text(output: bytes) -> str:
    return output.decode("utf-8", "replace")
