"""Cove over HTTP: the Otari code-execution contract v1, served by Litestar.

    app = cove_server.create_app()          # settings from the environment
    uvicorn.run(app, host="127.0.0.1", port=8080)

or, from a shell, `cove serve`.
"""

import importlib.util

if importlib.util.find_spec("litestar") is None:  # depends on how Cove was installed
    raise ImportError("cove_server needs the `server` extra: pip install 'cove[server]'")

from ._app import create_app
from ._settings import ServerSettings

__all__ = ["ServerSettings", "create_app"]
