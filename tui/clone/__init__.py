"""The user's own clone of a reviewed repository: finding it, and reading it with git.

No Textual here: `prdigest-tui refs` and `check --repo-dir` use it as the
reader does (off its event loop). Every git call goes through `git.run`.
"""
