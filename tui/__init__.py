"""prdigest-tui: a terminal reader for PR review digests."""

__version__ = "0.1.0"
