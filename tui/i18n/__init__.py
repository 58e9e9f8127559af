"""The UI's own words, in English and Chinese: one typed table per language.

Review text is never translated; only these labels are. `choose` picks the
table once, before the app starts (`tui.cli` does, from `--lang` or the
locale); everything that draws reads `words()` then, by attribute
(`words().all_tag`, `words().verdict_words[...]`). Binding descriptions are
looked up by binding id (`binding_text`), so the key bar and key panel show
them in the chosen language whatever the description written in the code.

The fields are `tui.i18n.table.Words`; the tables are in `en` and `zh`. No
Textual here: `prdigest-tui export` uses these words too.
"""

from __future__ import annotations

from collections.abc import Mapping

from tui.i18n.en import EN
from tui.i18n.table import Words
from tui.i18n.zh import ZH

__all__ = ["EN", "LANGUAGES", "TABLES", "ZH", "Words", "choose", "from_environment", "normalize", "words"]

TABLES: Mapping[str, Words] = {"en": EN, "zh": ZH}
LANGUAGES = tuple(TABLES)


class _Choice:
    """The table in use: English until `choose` is called."""

    words: Words = EN


def choose(lang: str | None) -> Words:
    """Use `lang` ("en" or "zh"; "zh_CN.UTF-8" and the like are accepted; else English)."""
    _Choice.words = TABLES[normalize(lang) or "en"]
    return _Choice.words


def words() -> Words:
    """The table chosen."""
    return _Choice.words


def normalize(lang: str | None) -> str | None:
    """ "zh", "zh_CN.UTF-8", "zh-Hans" → "zh"; "en_GB" → "en"; anything else → None."""
    if not lang:
        return None
    base = lang.strip().lower().replace("-", "_").split(".")[0].split("@")[0].split("_")[0]
    return base if base in LANGUAGES else None


def from_environment(environ: Mapping[str, str]) -> str:
    """The language the locale asks for, as POSIX reads it: the first set of
    LC_ALL, LC_MESSAGES, LANG decides; Chinese for zh*, else English."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name)
        if value:
            return "zh" if value.strip().lower().startswith("zh") else "en"
    return "en"
