"""A brief run of the loader's fuzz target (tests/fuzz_loader.py) on every test run.

The same target runs for as long as you like with
`python tests/fuzz_loader.py --examples N`.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from fuzz_loader import check_load, yaml_bytes
from hypothesis import HealthCheck, given, settings

FUZZ_EXAMPLES = 400
"""About three seconds on two cores."""


@settings(
    max_examples=FUZZ_EXAMPLES,
    deadline=None,
    database=None,
    print_blob=True,
    suppress_health_check=list(HealthCheck),
)
@given(data=yaml_bytes)
def test_fuzz_the_loader_briefly(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        check_load(data, Path(folder))
