"""Entry files to reviews: discover, parse, cache, worker processes, first frame, reload, watch."""
