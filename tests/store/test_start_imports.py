"""What the reader's way to its first frame does not import: the state copy's
name is made without `hashlib` (which loads OpenSSL), and the process-wide
tweaks (`tui.runtime`) without `ctypes`, used only once the load is in, or
`asyncio` (~15 ms), used only once Textual runs."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path


def test_naming_the_state_copy_imports_neither_hashlib_nor_ctypes_nor_asyncio(tmp_path: Path) -> None:
    state = tmp_path / "state.json"
    code = (
        "import sys\nfrom pathlib import Path\nimport tui.runtime\nfrom tui.store import locations\n"
        f"print(locations.state_copy_file(Path({str(state)!r})).name)\n"
        "print(sorted(m for m in ('hashlib', '_hashlib', 'ctypes', 'asyncio') if m in sys.modules))"
    )
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    name, imported = out.stdout.splitlines()
    # The same name as before: a copy made by an earlier version is still found.
    assert name == hashlib.blake2b(os.fsencode(str(state)), digest_size=8).hexdigest() + ".marshal"
    assert imported == "[]"
