"""The user's config file, read and checked; never written, never fatal.

```yaml
keymap:              # binding id: keys (comma-separated), as Textual's set_keymap takes them
  search: ctrl+f
  review.toggle: space,x
views:               # named filters: the sidebar lists them, 1-9 jump to them
  rocm-deep: {tags: [rocm, kernels], verdict: [deep], unread: true}
mute: [ci]           # tags whose reviews leave All, Unread, views and counts
read_on_open: [skip] # verdicts marked read when a review is opened
notify: [notify-send, "prdigest: {count} new"]   # run on new or updated reviews
repos:               # a reviewed repo -> your local clone of it, where refs open
  vllm-project/vllm: ~/src/vllm
state: ~/Sync/prdigest/  # marks: a file, or a folder shared between machines (ends in / or exists)
```

Everything wrong in it (unreadable, invalid YAML, an unknown key, an unknown
binding id, a key name Textual does not know) becomes a warning that names the
problem; the rest of the file still applies.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable, Collection
from pathlib import Path

from tui.core.model import VERDICTS
from tui.core.text import one_line
from tui.core.views import View
from tui.i18n import words
from tui.store.safe_read import read_regular

KNOWN_KEYS = ("keymap", "repos", "views", "mute", "read_on_open", "notify", "state")
VIEW_KEYS = ("tags", "verdict", "repos", "unread", "unchecked", "search")
MAX_CONFIG_BYTES = 1024 * 1024


class Config:
    """What config.yaml says. (A plain class, not a dataclass: `status` reads
    the config on every call, and importing `dataclasses` costs it a few ms.)"""

    def __init__(self) -> None:
        self.keymap: dict[str, str] = {}
        self.repos: dict[str, Path] = {}  # owner/name -> clone, `~` expanded
        self.views: dict[str, View] = {}
        self.mute: frozenset[str] = frozenset()
        self.read_on_open: frozenset[str] = frozenset()
        self.notify: tuple[str, ...] = ()
        """The program and its arguments; the program as found (an absolute path)."""
        self.state: str | None = None
        """Where marks are kept, as written (`~` expanded, relative to the config's
        folder); `locations.state_place` tells a file from a shared folder."""
        self.warnings: list[str] = []
        self.unchecked_keymap: object = None
        """Read with `keys=False`: the keymap as written, for `check_keymap`."""
        self._unchecked_at = (0, "")  # where its warnings go in `warnings`, and the file's name in them

    def __repr__(self) -> str:
        return f"Config({', '.join(f'{k}={v!r}' for k, v in vars(self).items())})"


def _kind(value: object) -> str:
    if value is None:
        return "nothing"
    return {list: "a list", str: "a string", bool: "a boolean", int: "a number", float: "a number"}.get(
        type(value), type(value).__name__
    )


def _read(path: Path) -> str:
    return read_regular(path, MAX_CONFIG_BYTES).decode("utf-8")


def load(
    path: Path,
    binding_ids: Collection[str] | None = None,
    valid_key: Callable[[str], bool] = lambda key: True,
    keys: bool = True,
) -> Config:
    """Read the config at `path` (a missing file is an empty config).

    With `binding_ids`, keymap entries for other ids are reported and dropped;
    keys `valid_key` refuses too (it knows Textual's key names:
    `tui.ui.keymap.valid_key`). `keys=False` leaves the keymap unchecked, for the
    commands that read only other settings, and for the reader's command line,
    which reads the file before the App knows its bindings (`check_keymap`).
    """
    config = Config()
    where = str(path)
    try:
        text = _read(path)
    except FileNotFoundError:
        return config
    except (OSError, UnicodeDecodeError) as exc:
        error = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        config.warnings.append(words().config_unreadable.format(path=where, error=one_line(error)))
        return config
    import yaml  # only once there is a file to parse

    try:
        loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
        doc = yaml.load(text, Loader=loader)  # what yaml.safe_load does, with libyaml when present
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or str(exc)
        config.warnings.append(
            words().config_invalid_yaml.format(
                path=where,
                line=mark.line + 1 if mark else 1,
                column=mark.column + 1 if mark else 1,
                error=one_line(str(problem)),
            )
        )
        return config
    except RecursionError:
        config.warnings.append(
            words().config_invalid_yaml.format(path=where, line=1, column=1, error="nested too deeply")
        )
        return config
    if doc is None:
        return config
    if not isinstance(doc, dict):
        config.warnings.append(words().config_not_mapping.format(path=where, kind=_kind(doc)))
        return config
    unknown = [key for key in doc if key not in KNOWN_KEYS]
    known = ", ".join(KNOWN_KEYS)
    if len(unknown) == 1:
        config.warnings.append(
            words().config_unknown_key.format(path=where, key=_name(unknown[0]), known=known)
        )
    elif unknown:
        config.warnings.append(
            words().config_unknown_keys.format(
                path=where, n=f"{len(unknown):,}", keys=_listed(unknown), known=known
            )
        )
    _read_repos(doc.get("repos"), config, where)
    checker = _Checker(where, config)
    if keys:
        checker.keymap(doc.get("keymap"), binding_ids, valid_key)
    else:
        config.unchecked_keymap = doc.get("keymap")
        config._unchecked_at = (len(config.warnings), where)
    checker.views(doc.get("views"))
    config.mute = frozenset(checker.names("mute", doc.get("mute")))
    config.read_on_open = frozenset(checker.verdicts("read_on_open", doc.get("read_on_open")))
    config.notify = checker.command("notify", doc.get("notify"))
    config.state = checker.place("state", doc.get("state"), path.parent)
    return config


def check_keymap(
    config: Config, binding_ids: Collection[str], valid_key: Callable[[str], bool] = lambda key: True
) -> Config:
    """The keymap of a config read with `keys=False`, checked as `load` checks
    it: the same warnings, in the place among the others that `load` gives them."""
    if config.unchecked_keymap is None:
        return config
    at, where = config._unchecked_at
    after = config.warnings[at:]
    del config.warnings[at:]
    _Checker(where, config).keymap(config.unchecked_keymap, binding_ids, valid_key)
    config.warnings.extend(after)
    config.unchecked_keymap = None
    return config


class _Checker:
    """Each setting of one config file, checked; what is wrong becomes a warning
    naming the file and the setting, and is left out."""

    def __init__(self, where: str, config: Config) -> None:
        self.where, self.config = where, config

    def warn(self, template: str, **fields: object) -> None:
        self.config.warnings.append(template.format(path=self.where, **fields))

    def expected(self, key: str, expected: str, value: object) -> None:
        self.warn(
            words().config_expected,
            key=key,
            expected=words().config_expected_words.get(expected, expected),
            kind=_kind(value),
        )

    def keymap(
        self, keymap: object, binding_ids: Collection[str] | None, valid_key: Callable[[str], bool]
    ) -> None:
        if keymap is None:
            return
        if not isinstance(keymap, dict):
            self.warn(words().config_keymap_not_mapping, kind=_kind(keymap))
            return
        unknown_ids = []
        for binding_id, keys in keymap.items():
            name = _name(binding_id)
            if binding_ids is not None and binding_id not in binding_ids:
                unknown_ids.append(binding_id)
                continue
            if isinstance(keys, list) and all(isinstance(k, str) for k in keys):
                keys = ",".join(keys)
            if not isinstance(keys, str) or not keys.strip():
                self.warn(words().config_bad_keys, id=name, keys=_kind(keys))
                continue
            bad = [key.strip() for key in keys.split(",") if not valid_key(key.strip())]
            if bad:
                shown = ", ".join(repr(one_line(key)[:40]) for key in bad)
                self.warn(words().config_bad_keys, id=name, keys=shown)
                continue
            self.config.keymap[str(binding_id)] = ",".join(key.strip() for key in keys.split(","))
        # One warning for all the unknown ids, however many: each is a notification,
        # and a thousand of them would hold the first frame back for seconds.
        if len(unknown_ids) == 1:
            self.warn(words().config_unknown_binding, id=_name(unknown_ids[0]))
        elif unknown_ids:
            self.warn(words().config_unknown_bindings, n=f"{len(unknown_ids):,}", ids=_listed(unknown_ids))

    def names(self, key: str, value: object) -> list[str]:
        """A list of names (a lone string counts as a list of one)."""
        if value is None:
            return []
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
            self.expected(key, "names", value)
            return []
        return [one_line(v.strip()) for v in value]

    def verdicts(self, key: str, value: object) -> list[str]:
        out = []
        for verdict in self.names(key, value):
            if verdict in VERDICTS:
                out.append(verdict)
            else:
                self.warn(words().config_unknown_verdict, key=key, verdict=verdict[:40])
        return out

    def flag(self, key: str, value: object) -> bool:
        if value is None:
            return False
        if not isinstance(value, bool):
            self.expected(key, "bool", value)
            return False
        return value

    def place(self, key: str, value: object, base: Path) -> str | None:
        """A path, `~` expanded, relative to `base`; a trailing `/` kept (it says "a folder")."""
        if value is None:
            return None
        if not isinstance(value, str) or not value.strip() or "\0" in value:
            self.expected(key, "path", value)
            return None
        expanded = os.path.expanduser(value.strip())
        return expanded if os.path.isabs(expanded) else os.path.join(base, expanded)

    def views(self, value: object) -> None:
        if value is None:
            return
        if not isinstance(value, dict):
            self.expected("views", "views", value)
            return
        for raw_name, spec in value.items():
            name = one_line(str(raw_name)).strip()[:60]
            key = f"views.{name}"
            if not name or not isinstance(raw_name, str | int):
                self.expected("views", "views", raw_name)
                continue
            if not isinstance(spec, dict):
                self.expected(key, "view", spec)
                continue
            for field_name in spec:
                if field_name not in VIEW_KEYS:
                    self.warn(
                        words().config_unknown_key,
                        key=f"{key}.{one_line(str(field_name))[:40]}",
                        known=", ".join(VIEW_KEYS),
                    )
            search = spec.get("search")
            if search is not None and not isinstance(search, str):
                self.expected(f"{key}.search", "text", search)
                search = None
            self.config.views[name] = View(
                name=name,
                tags=frozenset(tag.removeprefix("#") for tag in self.names(f"{key}.tags", spec.get("tags"))),
                verdicts=frozenset(self.verdicts(f"{key}.verdict", spec.get("verdict"))),
                repos=frozenset(self.names(f"{key}.repos", spec.get("repos"))),
                unread=self.flag(f"{key}.unread", spec.get("unread")),
                unchecked=self.flag(f"{key}.unchecked", spec.get("unchecked")),
                search=one_line(search or "").strip(),
            )

    def command(self, key: str, value: object) -> tuple[str, ...]:
        """A program and its arguments, never a shell string: the program must be
        an executable regular file (a FIFO or a folder in its place is refused)."""
        if value is None:
            return ()
        if (
            not isinstance(value, list)
            or not value
            or not all(isinstance(v, str) for v in value)
            or not value[0].strip()
        ):
            self.expected(key, "command", value)
            return ()
        program = _find_program(value[0])
        problem = _program_problem(program)
        if problem:
            self.warn(
                words().config_notify_program,
                program=one_line(value[0])[:80],
                problem=words().config_program_problems.get(problem, problem),
            )
            return ()
        return (str(program), *value[1:])


def _find_program(name: str) -> Path | None:
    """A name with a slash is a path (`~` expanded); a bare name is looked up on PATH."""
    if "/" in name:
        return Path(name).expanduser().absolute()
    import shutil  # only for a `notify:` program: `status` reads this file on every call

    found = shutil.which(name)
    return Path(found).absolute() if found else None


def _program_problem(program: Path | None) -> str | None:
    if program is None:
        return "missing"
    try:
        info = program.stat()
    except OSError:
        return "missing"
    if not stat.S_ISREG(info.st_mode):
        return "not_file"
    if not os.access(program, os.X_OK):
        return "not_executable"
    return None


LISTED = 5
"""Names a warning about many of them lists; the count says how many more."""


def _name(value: object) -> str:
    """A name from the config, as a message quotes it: one line, at most 80 characters."""
    return one_line(str(value))[:80]


def _listed(names: list[object]) -> str:
    """The first few names, backticked, and "…" when there are more."""
    shown = ", ".join(f"`{_name(name)}`" for name in names[:LISTED])
    return shown + (", …" if len(names) > LISTED else "")


_REPO = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")


def _read_repos(repos: object, config: Config, where: str) -> None:
    """`repos:` maps `owner/name` to a folder; each bad entry is a warning."""
    if repos is None:
        return
    if not isinstance(repos, dict):
        config.warnings.append(words().config_repos_not_mapping.format(path=where, kind=_kind(repos)))
        return
    for repo, folder in repos.items():
        name = one_line(str(repo))[:80]
        if not isinstance(repo, str) or not _REPO.match(repo):
            config.warnings.append(words().config_bad_repo.format(path=where, repo=name))
            continue
        if not isinstance(folder, str) or not folder.strip() or "\0" in folder:
            config.warnings.append(
                words().config_bad_repo_dir.format(path=where, repo=name, kind=_kind(folder))
            )
            continue
        config.repos[repo] = Path(folder.strip()).expanduser()
