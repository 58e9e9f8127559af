"""The UI's own words, in one place so they can be translated as a set.

Review text is never translated; only these labels are.
"""

from __future__ import annotations

VERDICT_WORDS = {
    "deep": "Deep read",
    "quick": "Quick read",
    "skim": "Skim",
    "skip": "Skip",
}
VERDICT_SHORT = {"deep": "deep", "quick": "quick", "skim": "skim", "skip": "skip"}

SECTION_HEADINGS = {
    "summary": "Summary",
    "focus": "Focus on",
    "read_order": "Read in order",
    "actions": "What to do",
    "caveats": "Open items",
}

ALL = "All"
UNREAD = "Unread"
TAGS = "Tags"
REVIEWS = "Reviews"
READ = "read"
NOT_READ = "unread"
NO_REVIEW = "No review selected."
NO_REVIEWS = "No reviews here."
NO_REVIEWS_UNREAD = "Nothing unread here. Press u to show all."
PROBLEMS = "Problems"
NO_PROBLEMS = "No problems: every file loaded."
UPDATED = "updated"
STALE = "stale"
UPDATED_SINCE_READ = "Updated since you read it"
UPDATED_HINT = "Press r to mark it read again."
STALE_BANNER = "Its file has a problem: this is the last good version (p lists problems)."
CHANGE_BADGES = {"added": "new", "edited": "edited"}
