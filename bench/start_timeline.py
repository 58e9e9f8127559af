"""Where a start's time goes: the reader and the bare app, each started under the
same pty as `startup.py`, with marks at the points a start passes.

    python bench/start_timeline.py --corpus /tmp/c100k [--rounds 12] [--root CHECKOUT] [--no-cache]

Each start runs this file as its program (`--child`), which sets up the marks
and then runs the bare app (`bare_app.py`) or the reader's command line
(`tui.cli.run`, `--lang en CORPUS`). Marks: when Textual's `textual.app` and the
reader's `tui.ui.app` begin and end importing, `App.run`, the App's `__init__`,
and the first frame handed to the driver (`App._display`); the wall clock (from
the fork) and the main thread's CPU time at each. Rounds alternate the bare app,
the reader and, with `--root`, the reader of another checkout (its `tui` first on
`sys.path`, this venv's packages), so all see the same state of the machine.

Each side keeps its own cache folder: the stylesheet's kept rules
(`tui.ui.styles`) are keyed by where the sources were read from, so two
checkouts sharing one would each find the other's and parse again. Warm (the
default): each side's parse cache and kept rules are filled by an untimed first
start. `--no-cache`: every start finds an empty cache folder, as a first start
does. Prints medians (ms), and the reader's stretches less the bare app's.
Timings are never pass/fail.
"""

from __future__ import annotations

import os
import sys
import time

# Only these three before the child's first mark: what this file imports is in
# every start it measures, and the rest would be imported ahead of the program's.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

MARKS_ENV = "PRDIGEST_TIMELINE_MARKS"
WATCHED = ("textual.app", "tui.ui.app")


def _child(which: str, corpus: str) -> None:
    """This process, started under the pty: mark, then run the program."""
    import atexit
    import importlib.abc
    import importlib.util

    marks: list[tuple[str, float, float]] = []

    def mark(name: str) -> None:
        marks.append((name, time.time(), time.thread_time()))

    mark("start")

    def dump() -> None:
        with open(os.environ[MARKS_ENV], "a") as out:
            out.write(repr(marks) + "\n")

    atexit.register(dump)

    class Finder(importlib.abc.MetaPathFinder):
        """Marks a watched module's first and last line run (its imports inside)."""

        def find_spec(self, name, path, target=None):
            if name not in WATCHED:
                return None
            sys.meta_path.remove(self)
            try:
                spec = importlib.util.find_spec(name)
            finally:
                sys.meta_path.insert(0, self)
            run = spec.loader.exec_module

            def exec_module(module, run=run, name=name):
                mark(f"<{name}")
                run(module)
                mark(f">{name}")
                if name == "textual.app":
                    _wrap_app(module.App)
                elif name == "tui.ui.app":
                    _wrap_init(module.PrDigestApp)

            spec.loader.exec_module = exec_module
            return spec

    def _wrap_app(app) -> None:
        run, display = app.run, app._display

        def timed_run(self, *args, **kwargs):
            mark("App.run")
            return run(self, *args, **kwargs)

        def timed_display(self, *args, **kwargs):
            result = display(self, *args, **kwargs)
            if not any(name == "frame" for name, _, _ in marks):
                mark("frame")
            return result

        app.run, app._display = timed_run, timed_display

    def _wrap_init(cls) -> None:
        init = cls.__init__

        def timed_init(self, *args, **kwargs):
            mark("<init")
            init(self, *args, **kwargs)
            mark(">init")

        cls.__init__ = timed_init

    sys.meta_path.insert(0, Finder())
    if which == "bare":
        import bare_app

        bare_app.BareApp().run()
    else:
        sys.argv = ["prdigest-tui", "--lang", "en", corpus]
        import tui.cli

        tui.cli.run()


STRETCHES = (
    ("Python up (fork to this file)", "fork", "start"),
    ("to textual.app imported", "start", ">textual.app"),
    ("then to App.run", ">textual.app", "App.run"),
    ("  of which tui.ui.app imported", ">textual.app", ">tui.ui.app"),
    ("  of which the App's __init__", "<init", ">init"),
    ("App.run to the first frame", "App.run", "frame"),
    ("first frame to the paint seen", "frame", "paint"),
)


def main() -> None:
    import argparse
    import ast
    import shutil
    import statistics
    import tempfile
    from pathlib import Path

    from startup import PAINT_VERDICT, STATUS_COUNT, child_env, compile_tui, progress, run_in_pty

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--root", type=Path, help="another checkout, measured side by side")
    parser.add_argument("--no-cache", action="store_true", help="every start with an empty cache folder")
    args = parser.parse_args()
    compile_tui()
    python = sys.executable
    sides = ["bare", "reader", *(["other"] if args.root else [])]
    with tempfile.TemporaryDirectory(prefix="prdigest-timeline-") as name:
        tmp = Path(name)
        base = child_env(tmp)
        base.pop("PYTHONPATH", None)
        marks_file = tmp / "marks.txt"
        rows: dict[str, list[dict[str, float]]] = {side: [] for side in sides}
        for round_ in range(args.rounds + (0 if args.no_cache else 1)):
            timed = args.no_cache or round_ > 0  # a warm run's first round fills the caches
            for side in sides:
                env = {**base, MARKS_ENV: str(marks_file)}
                env["XDG_CACHE_HOME"] = str(tmp / f"cache-{side}")
                if args.no_cache:
                    shutil.rmtree(env["XDG_CACHE_HOME"], ignore_errors=True)
                if side == "other":
                    env["PYTHONPATH"] = str(args.root.resolve())
                if side == "bare":
                    checkpoints, quit_key = {"paint": ("hello",)}, b"\x11"
                else:
                    checkpoints, quit_key = {"paint": (STATUS_COUNT, PAINT_VERDICT)}, b"q"
                marks_file.write_text("")
                started = time.time()
                argv = [python, __file__, "--child", "bare" if side == "bare" else "reader", str(args.corpus)]
                run = run_in_pty(argv, tmp, env, checkpoints, quit_key)
                time.sleep(0.3)  # the marks are written at exit
                text = marks_file.read_text().strip()
                if not timed or not text:
                    continue
                marks = ast.literal_eval(text.splitlines()[0])
                wall = {n: (t - started) * 1000 for n, t, _ in marks}
                cpu = {n: c * 1000 for n, _, c in marks}
                wall["paint"], wall["fork"] = run.times["paint"] * 1000, 0.0
                row = {f"wall {a}>{b}": wall[b] - wall[a] for _, a, b in STRETCHES if a in wall and b in wall}
                row |= {f"cpu {a}>{b}": cpu[b] - cpu[a] for _, a, b in STRETCHES if a in cpu and b in cpu}
                row["paint"] = wall["paint"]
                rows[side].append(row)
            progress(f"round {round_}")
    print(f"{args.corpus}, {'no cache' if args.no_cache else 'warm'}, {args.rounds} rounds; medians, ms")
    print()
    print("| stretch | " + " | ".join(f"{side} wall | cpu" for side in sides) + " | reader - bare, wall |")
    print("|---|" + "---:|---:|" * len(sides) + "---:|")

    def med(side: str, key: str) -> float | None:
        values = [row[key] for row in rows[side] if key in row]
        return statistics.median(values) if values else None

    for label, a, b in (*STRETCHES, ("first paint (from the fork)", "", "")):
        keys = (f"wall {a}>{b}", f"cpu {a}>{b}") if a else ("paint", None)
        cells = []
        for side in sides:
            for key in keys:
                value = med(side, key) if key else None
                cells.append("–" if value is None else f"{value:.1f}")
        reader, bare = med("reader", keys[0]), med("bare", keys[0])
        diff = "–" if reader is None or bare is None else f"{reader - bare:+.1f}"
        print(f"| {label} | " + " | ".join(cells) + f" | {diff} |")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        _child(sys.argv[2], sys.argv[3])
    else:
        main()
