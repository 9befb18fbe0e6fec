"""JSON Schemas for rule files and strategy files, generated from :mod:`naipes.language.vocabulary`.

Editors that speak JSON Schema (VS Code through yaml-language-server, JetBrains
IDEs) use it to complete section and key names, show each key's meaning and
flag unknown keys and wrong types as you type. ``naipes schema`` prints it.

The schema checks structure (sections, keys, scalar types, choices); the
loader checks everything else (expressions, names, the rules of the game).

>>> schema = rule_file_schema()
>>> schema["anyOf"], "moves" in schema["properties"]
([{'required': ['game']}, {'required': ['extends']}], True)
"""
from __future__ import annotations

from typing import Any

from ..language.vocabulary import RULE_FILE, STRATEGY_FILE, Either, Entries, ListOf, Record, Shape, Value

DIALECT = "https://json-schema.org/draft/2020-12/schema"
IDENTIFIER = r"^[A-Za-z_]\w*$"
SIGNATURE = r"^\s*[A-Za-z]\w*\s*\(\s*([A-Za-z]\w*(\s*,\s*[A-Za-z]\w*)*)?\s*\)\s*$"
_KINDS = {"text": "string", "int": "integer", "number": "number", "bool": "boolean", "null": "null"}


def to_json_schema(shape: Shape, doc: str | None = None) -> dict[str, Any]:
    """The JSON Schema of one shape of the vocabulary."""
    out: dict[str, Any] = {"description": doc} if doc else {}
    if isinstance(shape, Value):
        kinds = [_KINDS[k] for k in shape.kinds]
        out["type"] = kinds[0] if len(kinds) == 1 else kinds
        if shape.choices:
            out["enum"] = list(shape.choices)
        if shape.minimum is not None:
            out["minimum"] = shape.minimum
        if shape.pattern:
            out["pattern"] = shape.pattern
    elif isinstance(shape, ListOf):
        out.update(type="array", items=to_json_schema(shape.item))
    elif isinstance(shape, Entries):
        out.update(type="object", additionalProperties=to_json_schema(shape.value))
        if shape.key != "any":
            out["propertyNames"] = {"pattern": SIGNATURE if shape.key == "signature" else IDENTIFIER}
        if shape.at_most is not None:
            out.update(minProperties=1, maxProperties=shape.at_most)
    elif isinstance(shape, Record):
        out.update(type="object", additionalProperties=False,
                   properties={name: to_json_schema(f.shape, f.doc) for name, f in shape.fields.items()})
        if shape.required and shape.base:  # a variant inherits them from its base file
            out["anyOf"] = [{"required": list(shape.required)}, {"required": [shape.base]}]
        elif shape.required:
            out["required"] = list(shape.required)
    elif isinstance(shape, Either):
        out["anyOf"] = [to_json_schema(option) for option in shape.options]
    return out


def rule_file_schema() -> dict[str, Any]:
    """The JSON Schema of a rule file (rulesets/*.yaml)."""
    return {"$schema": DIALECT, "title": "Naipes rule file", **to_json_schema(RULE_FILE)}


def strategy_file_schema() -> dict[str, Any]:
    """The JSON Schema of a strategy file (strategies/GAME/LEVEL.yaml)."""
    return {"$schema": DIALECT, "title": "Naipes strategy file", **to_json_schema(STRATEGY_FILE)}


SCHEMAS = {"rules": rule_file_schema, "strategy": strategy_file_schema}
