"""Which machine this is, for a shared state folder.

The machine id names this machine's file in the folder and breaks ties between
marks made at the same instant on two machines: `PRDIGEST_MACHINE` when set,
else an id made once at random and kept in the local state folder. Next to it
is kept a second random word, the install token, that is never configured: two
machines given the same id still have different tokens, which is how the
reader tells that they share one (two readers on one machine share both).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import NamedTuple

from tui.store.atomic import write_atomic
from tui.store.safe_read import read_regular

ENV = "PRDIGEST_MACHINE"
VALID_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
"""A machine id is a file name on every system and in every sync tool: no dots
(conflict copies and temp files are told apart by them), no spaces, no slashes."""


class Machine(NamedTuple):
    id: str
    token: str
    warning: str | None = None  # PRDIGEST_MACHINE could not be used


def _stored(path: Path) -> tuple[str, str] | None:
    try:
        doc = json.loads(read_regular(path, 4096).decode("utf-8"))
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    if not isinstance(doc, dict):
        return None
    machine, token = doc.get("machine"), doc.get("token")
    if isinstance(machine, str) and VALID_ID.fullmatch(machine) and isinstance(token, str) and token:
        return machine, token
    return None


def _make(path: Path) -> tuple[str, str]:
    """A new id and token, kept at `path` unless another reader starting at the
    same moment kept its own first (then that one is this machine's)."""
    made = (f"m-{os.urandom(4).hex()}", os.urandom(8).hex())
    doc = json.dumps({"machine": made[0], "token": made[1]}).encode("utf-8") + b"\n"
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(tmp, doc)
        try:
            os.link(tmp, path)  # never replaces: the first reader's id stays
        finally:
            os.unlink(tmp)
    except FileExistsError:
        return _stored(path) or made
    except OSError:
        pass  # kept for this run; the shared folder says so if it cannot be written either
    return made


def this_machine(path: Path, env: dict[str, str] | None = None) -> Machine:
    """The machine id and install token kept at `path` (made there on first use;
    kept in memory only if it cannot be written), the id overridden by
    `PRDIGEST_MACHINE` when that is a valid id."""
    env = dict(os.environ) if env is None else env
    stored = _stored(path) or _make(path)
    named = env.get(ENV)
    if named is None or named == "":
        return Machine(*stored)
    if VALID_ID.fullmatch(named):
        return Machine(named, stored[1])
    return Machine(
        stored[0],
        stored[1],
        f"{ENV}={named!r} is not a machine id (letters, digits, '-' and '_', up to 64); using {stored[0]}.",
    )
