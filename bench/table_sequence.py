"""Which start of `bench/startup.py --big`'s warm series is the first from the
saved table: a priming run that parses (quit once the parse cache is written,
as startup.py's is), then warm runs quit once everything is loaded, each under
a pty, as startup.py runs them.

    python bench/table_sequence.py CORPUS --count N [--warm 3] [--pause 0]

After each run: whether it rewrote the parse cache's main file or the table
(a table start writes neither), and its paint / all loaded seconds. `--pause`:
seconds to wait after each quit (0: the next run starts at once). Not a test.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from startup import app_checkpoints, cache_filled, child_env, run_in_pty


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        info = path.stat()
    except OSError:
        return None
    return info.st_ino, info.st_mtime_ns


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--count", type=int, required=True, help="reviews in the corpus")
    parser.add_argument("--warm", type=int, default=3)
    parser.add_argument("--pause", type=float, default=0.0)
    args = parser.parse_args(argv)
    import time

    exe = shutil.which("prdigest-tui", path=str(Path(sys.executable).parent))
    assert exe is not None
    tmp = Path(tempfile.mkdtemp(prefix="table-seq-"))
    (tmp / "empty").mkdir()
    cache_home = tmp / "cache"
    env = child_env(tmp)
    argv_app = [exe, "--lang", "en", "--state", str(tmp / "state.json"), str(args.corpus)]
    checkpoints = app_checkpoints(args.count)
    print(
        "| run | paint (s) | all loaded (s) | loaded − paint (s) | main file rewritten | table written | table start |"
    )
    print("|---|---:|---:|---:|---|---|---|")
    for n in range(args.warm + 1):
        main_file = next(cache_home.rglob("parse-cache.marshal"), None)
        table = main_file.with_name(main_file.name + "-table") if main_file else None
        before = (_stamp(main_file) if main_file else None, _stamp(table) if table else None)
        settle = cache_filled(cache_home) if n == 0 else None
        run = run_in_pty(argv_app, tmp / "empty", env, checkpoints, b"q", None, settle)
        time.sleep(args.pause)
        main_file = next(cache_home.rglob("parse-cache.marshal"), None)
        assert main_file is not None
        table = main_file.with_name(main_file.name + "-table")
        after = (_stamp(main_file), _stamp(table))
        rewrote, wrote = after[0] != before[0], after[1] != before[1] and after[1] is not None
        table_start = n > 0 and not rewrote and not wrote and after[1] is not None
        paint, loaded = run.times["paint"], run.times["loaded"]
        name = "priming (parse)" if n == 0 else f"warm {n}"
        print(
            f"| {name} | {paint:.3f} | {loaded:.3f} | {loaded - paint:.3f} | {'yes' if rewrote else 'no'} "
            f"| {'yes' if wrote else 'no'} | {'**yes**' if table_start else 'no'} |"
        )
    shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
