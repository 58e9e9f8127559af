"""The modules the reader imports on the way to its first frame define no
dataclass: `@dataclass` generates and compiles each class's methods as it is
defined, ~0.4 ms for a message and ~1 ms for a frozen record here, in every
start, cold or warm (nine of them were ~4 ms of the reader's ~0.25 s to its
first paint, bench/README.md). Messages there are `Message` subclasses with an
`__init__`; records, named tuples."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

FIND = """
import dataclasses, sys
import tui.cli, tui.ui.app  # what `tui.cli.main` imports before the app runs

def defined(namespace, module):
    for value in list(namespace.values()):
        if isinstance(value, type) and value.__module__ == module:
            yield value
            yield from defined(vars(value), module)  # a widget's messages

found = set()
for name, module in list(sys.modules.items()):
    if name.startswith("tui."):
        for cls in defined(vars(module), name):
            if dataclasses.is_dataclass(cls):
                found.add(f"{name}.{cls.__qualname__}")
print("\\n".join(sorted(found)))
"""


def test_the_modules_of_the_first_frame_define_no_dataclass(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
    }
    out = subprocess.run([sys.executable, "-c", FIND], capture_output=True, text=True, check=True, env=env)
    assert out.stdout.split() == []
