"""jq's error: a compile or runtime error, worded as jq 1.6 words it."""


class JqError(Exception):
    """The message jq prints, after `jq: error: `."""
