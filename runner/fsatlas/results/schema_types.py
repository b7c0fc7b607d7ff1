"""The result file's JSON Schema as msgspec types, for the fast schema check (resultfile).

msgspec checks a Python value against a type in C: a quick result (70 cells, 425 metrics, 6,263
values) in 0.6 ms with the rest below, where fastjsonschema's generated Python took 1.65 ms
(Debian's Python 3.11; 2.0 ms on pyenv's). What a msgspec type cannot say (if, then,
else, not, uniqueItems; an object with named properties and a schema for the others) stays
JSON Schema: split() gives the type and the schema of the rest, which fastjsonschema checks,
a few hundred values. The types are made from the schema, the one definition of the shape.
"""
import itertools
import keyword
from typing import Annotated, Any, Literal, Union

import msgspec

ANNOTATIONS = {"title", "description", "$schema", "$id", "$defs", "$comment", "examples", "default"}
_struct_names = itertools.count()
_SIMPLE = {"string": str, "number": float, "integer": int, "boolean": bool, "null": type(None)}


def split(node) -> tuple[object, dict | None]:
    """(the msgspec type of what this schema accepts, as far as a type can say it; the schema
    of what the type leaves unchecked, or None). Takes a schema without $ref (resultfile._inlined)."""
    if not isinstance(node, dict):  # true, or false: nothing passes, which no type says
        return Any, None if node is True else {"not": {}}
    keys = set(node) - ANNOTATIONS
    kind = node.get("type")
    if kind == "object":
        typed, handled, children = _object(node)
    elif kind == "array":
        item, rest = split(node.get("items", True))
        typed = Annotated[list[item], _meta(min_length=node.get("minItems"), max_length=node.get("maxItems"))]
        handled, children = {"type", "items", "minItems", "maxItems"}, {"items": rest} if rest else {}
    elif isinstance(kind, str) and kind in _SIMPLE:
        typed, handled, children = _scalar(kind, node), _SCALAR_KEYWORDS[kind], {}
    elif isinstance(kind, list) and kind and all(k in _SIMPLE for k in kind):
        members = [_scalar(k, node) for k in kind if not (k == "integer" and "number" in kind)]
        typed, children = Union[tuple(members)], {}
        handled = {"type"} | set().union(*(_SCALAR_KEYWORDS[k] for k in kind))
    elif kind is None and ("enum" in keys) != ("const" in keys):
        values = node["enum"] if "enum" in keys else [node["const"]]
        if values and all(type(v) in (str, int) for v in values):  # not true for 1: msgspec tells them apart
            typed, handled, children = Literal[tuple(values)], {"enum", "const"}, {}
        else:
            typed, handled, children = Any, set(), {}
    else:
        typed, handled, children = Any, set(), {}
    rest = {key: node[key] for key in keys - handled}
    rest.update(children)
    return typed, rest or None


def _object(node) -> tuple[object, set, dict]:
    props, required = node.get("properties", {}), node.get("required", [])
    extra = node.get("additionalProperties", True)
    names = set(props) | set(required)
    if extra in (True, False) and all(n.isidentifier() and not keyword.iskeyword(n) and not n.startswith("_")
                                      for n in names):
        fields, children = [], {}
        for name in props:
            typed, rest = split(props[name])
            fields.append((name, typed) if name in required else (name, typed, None))
            if rest:
                children[name] = rest
        fields += [(name, Any) for name in required if name not in props]
        # gc=False: a checked document's structs are dropped at once and hold no cycles; untracked,
        # a quick result's conversion took 0.545 ms, not 0.600
        struct = msgspec.defstruct(f"Object{next(_struct_names)}", fields, kw_only=True,
                                   forbid_unknown_fields=extra is False, gc=False)
        return struct, {"type", "properties", "required", "additionalProperties"}, \
            {"properties": children} if children else {}
    if props or required:  # named properties beside a schema for the others: all of it is the rest's
        return dict, {"type"}, {}
    value, rest = split(extra)
    key, handled = str, {"type", "additionalProperties", "minProperties", "maxProperties"}
    pattern = node.get("propertyNames")
    if isinstance(pattern, dict) and not set(pattern) - ANNOTATIONS - _SCALAR_KEYWORDS["string"] - {"type"} \
            and pattern.get("type", "string") == "string":
        key, handled = _scalar("string", pattern), handled | {"propertyNames"}
    typed = Annotated[dict[key, value], _meta(min_length=node.get("minProperties"), max_length=node.get("maxProperties"))]
    return typed, handled, {"additionalProperties": rest} if rest else {}


_SCALAR_KEYWORDS = {"string": {"type", "pattern", "minLength", "maxLength"},
                    "number": {"type", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"},
                    "integer": {"type", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"},
                    "boolean": {"type"}, "null": {"type"}}


def _scalar(kind: str, node: dict):
    if kind == "string":
        return Annotated[str, _meta(pattern=node.get("pattern"), min_length=node.get("minLength"),
                                    max_length=node.get("maxLength"))]
    if kind in ("number", "integer"):
        return Annotated[_SIMPLE[kind], _meta(ge=node.get("minimum"), le=node.get("maximum"),
                                              gt=node.get("exclusiveMinimum"), lt=node.get("exclusiveMaximum"))]
    return _SIMPLE[kind]


def _meta(**constraints) -> msgspec.Meta:
    return msgspec.Meta(**{name: value for name, value in constraints.items() if value is not None})
