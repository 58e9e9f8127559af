"""The user's config file, read and checked; never written, never fatal.

```yaml
keymap:              # binding id: keys (comma-separated), as Textual's set_keymap takes them
  search: ctrl+f
  review.toggle: space,x
```

Everything wrong in it (unreadable, invalid YAML, an unknown key, an unknown
binding id, a key name Textual does not know) becomes a warning that names the
problem; the rest of the file still applies.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from pathlib import Path

from tui.core.text import one_line
from tui.i18n import words
from tui.store.safe_read import read_regular

KNOWN_KEYS = ("keymap",)
MAX_CONFIG_BYTES = 1024 * 1024


@dataclass
class Config:
    keymap: dict[str, str] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


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
) -> Config:
    """Read the config at `path` (a missing file is an empty config).

    With `binding_ids`, keymap entries for other ids are reported and dropped;
    keys `valid_key` refuses too (it knows Textual's key names:
    `tui.ui.keymap.valid_key`).
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
    for key in doc:
        if key not in KNOWN_KEYS:
            config.warnings.append(
                words().config_unknown_key.format(
                    path=where, key=one_line(str(key))[:80], known=", ".join(KNOWN_KEYS)
                )
            )
    keymap = doc.get("keymap")
    if keymap is None:
        return config
    if not isinstance(keymap, dict):
        config.warnings.append(words().config_keymap_not_mapping.format(path=where, kind=_kind(keymap)))
        return config
    for binding_id, keys in keymap.items():
        name = one_line(str(binding_id))[:80]
        if binding_ids is not None and binding_id not in binding_ids:
            config.warnings.append(words().config_unknown_binding.format(path=where, id=name))
            continue
        if isinstance(keys, list) and all(isinstance(k, str) for k in keys):
            keys = ",".join(keys)
        if not isinstance(keys, str) or not keys.strip():
            config.warnings.append(words().config_bad_keys.format(path=where, id=name, keys=_kind(keys)))
            continue
        bad = [key.strip() for key in keys.split(",") if not valid_key(key.strip())]
        if bad:
            shown = ", ".join(repr(one_line(key)[:40]) for key in bad)
            config.warnings.append(words().config_bad_keys.format(path=where, id=name, keys=shown))
            continue
        config.keymap[str(binding_id)] = ",".join(key.strip() for key in keys.split(","))
    return config
