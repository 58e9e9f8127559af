"""The search as a plain scan, what every faster path of it must answer."""

from __future__ import annotations

from collections.abc import Iterable

from tui.core.model import Review
from tui.core.search import review_fields, terms


def plain_search(reviews: Iterable[Review], query: str) -> list[Review]:
    """The reviews with every term of `query` in their lowered text as shown, in order."""
    wanted = terms(query)
    return [r for r in reviews if all(term in "\n".join(review_fields(r)).lower() for term in wanted)]
