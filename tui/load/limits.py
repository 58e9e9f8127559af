"""Limits on one entry file, in one place: the YAML reader (`tui.load.yaml_nodes`)
enforces those on the file and its node tree, the field rules (`tui.load.parse`)
those on reviews, items, tags and refs; docs/entry-format.md, the README and the
JSON Schema (tests/load/test_schema.py checks) list them with these numbers.

Each is a problem located in the file when passed. Apart from the reader so that
what documents them can read them without importing YAML.
"""

MAX_FILE_BYTES = 8 * 1024 * 1024
"""Larger files are skipped unread."""
MAX_NODES = 200_000
"""Nodes visited per file, aliases counted each time they are used ("billion laughs")."""
MAX_TEXT_CHARS = MAX_FILE_BYTES
"""Characters of text per file, aliases counted each time they are used: aliases
cannot make a file hold more text than the largest file could."""
MAX_DEPTH = 64
"""Nesting levels of lists and mappings."""
MAX_REVIEWS = 10_000
"""Reviews per file; the rest of a longer page is skipped."""
MAX_ITEMS = 1_000
"""Items per section (`focus`, `read_order`, `actions`, `caveats`) of a review."""
MAX_TAGS = 32
"""Tags per review."""
MAX_REFS = 32
"""Refs per item."""
MAX_REVIEW_CHARS = 100_000
"""Characters of text in one review, all fields and items together: the review pane
lays a review out whole, so this bounds the work done on a key press."""
