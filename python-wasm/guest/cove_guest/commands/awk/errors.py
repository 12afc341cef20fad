"""awk's error and the exceptions that carry its control flow (next, exit,
break, continue, return)."""


class AwkError(Exception):
    pass


class NextRecord(Exception):
    pass


class AwkExit(Exception):
    def __init__(self, code):
        self.code = code


class LoopBreak(Exception):
    pass


class LoopContinue(Exception):
    pass


class FunctionReturn(Exception):
    def __init__(self, value):
        self.value = value
