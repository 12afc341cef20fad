"""The OpenAPI document the server serves at `/schema/openapi.json`: the contract's own
(`contract-openapi.json`, kept as published) plus Cove's operations endpoints and extensions."""

from __future__ import annotations

import json
import pathlib
from typing import Any

import msgspec

__all__ = ["served_openapi"]

_CONTRACT = pathlib.Path(__file__).with_name("contract-openapi.json")
_OK = {"200": {"description": "OK"}}

_OPERATIONS: dict[str, Any] = {
    "/health": {
        "get": {
            "operationId": "Health",
            "summary": "Liveness",
            "responses": {
                **_OK,
                "503": {"description": "The pool is not open, or the server is draining"},
            },
        }
    },
    "/ready": {
        "get": {
            "operationId": "Ready",
            "summary": "Readiness",
            "responses": {**_OK, "503": {"description": "Not ready"}},
        }
    },
    "/metrics": {
        "get": {"operationId": "Metrics", "summary": "Prometheus metrics", "responses": _OK}
    },
    "/sessions/{session_id}/fork": {
        "post": {
            "operationId": "ForkSession",
            "summary": "Fork a session (Cove extension, not part of contract v1)",
            "description": (
                "A new session with a copy of the session's interpreter state (variables, "
                "imports, working directory, environment) and of its workspace, with its own "
                "id, random state and clocks, and the same limits. Additive: the contract's "
                "own operations are unchanged."
            ),
            "x-cove-extension": True,
            "parameters": [{"$ref": "#/components/parameters/SessionId"}],
            "responses": {
                "201": {
                    "description": "The new session",
                    "content": {
                        "application/json": {
                            "schema": {"$ref": "#/components/schemas/SessionHandle"}
                        }
                    },
                },
                "401": {"$ref": "#/components/responses/Unauthorized"},
                "404": {"description": "No such session"},
                "409": {"description": "The session's code holds files open"},
                "503": {"description": "At capacity"},
            },
        }
    },
}


def served_openapi() -> bytes:
    """The served document, encoded: the contract's, retitled, with Cove's paths added."""
    doc: dict[str, Any] = json.loads(_CONTRACT.read_text())
    doc["info"] = {**doc["info"], "title": "Cove (Otari code-execution protocol, contract v1)"}
    doc["servers"] = [{"url": "/"}]
    doc["paths"].update(_OPERATIONS)
    return msgspec.json.encode(doc)
