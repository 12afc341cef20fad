"""numpy as a recipe that requires it sees it while building: {site} and {version} are filled in."""


def get_include():
    return "{site}/numpy/_core/include"


__version__ = "{version}"
