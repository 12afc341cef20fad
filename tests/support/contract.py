"""The Otari code-execution contract's OpenAPI document, and validation against its schemas."""

from __future__ import annotations

import json
import pathlib
from typing import Any

import jsonschema
import referencing
import referencing.jsonschema

__all__ = ["Contract", "contract_document"]

ROOT = pathlib.Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "contract" / "code-execution-openapi.yaml"
VENDORED = ROOT / "server" / "cove_server" / "contract-openapi.json"


def contract_document() -> dict[str, Any]:
    """The contract's OpenAPI document: the shared copy when present, else the vendored one."""
    if SHARED.exists():
        import yaml

        return dict(yaml.safe_load(SHARED.read_text()))
    return dict(json.loads(VENDORED.read_text()))


class Contract:
    """The contract's schemas and declared statuses, to check responses against."""

    def __init__(self) -> None:
        self.doc = contract_document()
        resource = referencing.Resource.from_contents(
            self.doc, default_specification=referencing.jsonschema.DRAFT202012
        )
        self.registry: referencing.Registry[Any] = referencing.Registry().with_resource(
            "urn:contract", resource
        )

    def validate(self, schema_name: str, instance: object) -> None:
        schema = {"$ref": f"urn:contract#/components/schemas/{schema_name}"}
        jsonschema.Draft202012Validator(schema, registry=self.registry).validate(instance)

    def statuses(self, path: str, method: str) -> set[int]:
        return {int(code) for code in self.doc["paths"][path][method]["responses"]}
