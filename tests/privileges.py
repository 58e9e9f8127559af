"""Dropping root for a test: root reads and writes files whatever their
permissions, so a permission test run as root would prove nothing."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator


@contextlib.contextmanager
def unprivileged() -> Iterator[None]:
    """Run the block as `nobody` (as is, when not root)."""
    if os.geteuid() != 0:
        yield
        return
    os.setegid(65534)
    os.seteuid(65534)
    try:
        yield
    finally:
        os.seteuid(0)
        os.setegid(0)
