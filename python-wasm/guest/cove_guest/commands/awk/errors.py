"""awk's error and the exceptions that carry its control flow (next, exit,
break, continue, return)."""


class AwkError(Exception):
    """A syntax or runtime error, worded as awk words it."""


class NextRecord(Exception):
    """`next`: on to the next record."""


class AwkExit(Exception):
    """`exit N`."""

    def __init__(self, code: int) -> None:
        self.code = code


class LoopBreak(Exception):
    """`break`."""


class LoopContinue(Exception):
    """`continue`."""


class FunctionReturn(Exception):
    """`return value` from a user function."""

    def __init__(self, value: object) -> None:
        self.value = value
