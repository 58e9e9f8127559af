"""`prdigest-tui export`: the reading list as Markdown or JSON, without Textual.

Reads the same entry files and state file as the reader, so what is read and
what is checked is what the reader shows.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from tui.core.marks import Marks, checked_items
from tui.core.model import ALL_TAG, CHECKABLE, NOTES, Library, Review
from tui.core.text import one_line
from tui.i18n import words


def entry(review: Review, state: Marks) -> dict[str, object]:
    checked = checked_items(state, review)
    checklist = review.checklist

    def items(sections: Iterable[str]) -> list[dict[str, object]]:
        return [
            {"section": item.section, "text": item.text, "refs": list(item.refs)}
            for section in sections
            for item in review.items(section)
            if item.key not in checked
        ]

    return {
        "title": review.title,
        "repo": review.repo,
        "pr": review.pr,
        "url": review.link,
        "verdict": review.verdict,
        "tags": list(review.tags),
        "read": state.is_read(review.key),
        "checked": sum(1 for item in checklist if item.key in checked),
        "total": len(checklist),
        "unchecked": items(CHECKABLE),
        "open": items(NOTES),
        "file": str(review.location),
    }


def reading_list(
    library: Library, state: Marks, *, unread_only: bool = False, tag: str | None = None
) -> list[dict[str, object]]:
    """The reviews in reading order (deep reads first), under `tag` if given."""
    reviews = library.under(tag if tag is not None else ALL_TAG)
    return [entry(r, state) for r in reviews if not (unread_only and state.is_read(r.key))]


def to_json(entries: list[dict[str, object]]) -> str:
    return json.dumps(entries, ensure_ascii=False, indent=2) + "\n"


def _bullet(text: str, box: str) -> str:
    lines = one_line_breaks(text)
    return f"- [{box}] " + "\n      ".join(lines)


def one_line_breaks(text: str) -> list[str]:
    """The text's lines, each cleaned; blank lines dropped (Markdown would end the item)."""
    return [one_line(line) for line in text.split("\n") if line.strip()] or [""]


def to_markdown(entries: list[dict[str, object]], *, heading: str = "") -> str:
    unread = sum(1 for e in entries if not e["read"])
    title = words().export_title + (f" — {heading}" if heading else "")
    out = [f"# {title}", "", words().export_counts.format(shown=f"{len(entries):,}", unread=f"{unread:,}")]
    for e in entries:
        out += ["", f"## {'✓ ' if e['read'] else ''}{one_line(str(e['title']))}", ""]
        verdict = str(e["verdict"])
        meta = [words().verdict_words.get(verdict, verdict)]
        tags = e["tags"]
        assert isinstance(tags, list)
        if tags:
            meta.append(" ".join(f"#{one_line(str(t))}" for t in tags))
        meta.append(words().read if e["read"] else words().not_read)
        if e["total"]:
            meta.append(words().checked_count.format(done=e["checked"], total=e["total"]))
        out.append(" · ".join(meta))
        if e["url"]:
            out += ["", f"<{e['url']}>"]
        for key, label in (("unchecked", words().export_unchecked), ("open", words().export_open)):
            items = e[key]
            assert isinstance(items, list)
            if items:
                out += ["", f"{label}:", ""]
                out += [_bullet(str(item["text"]), " ") for item in items]
    return "\n".join(out) + "\n"
