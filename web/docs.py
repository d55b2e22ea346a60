"""The API's documentation from its OpenAPI schema: the page `/docs` (every endpoint with its
whole description, its body's fields with types, limits and defaults, its answers, and an
example call) and the JSON index `GET /api`. The page is rendered on the server from the
schema, so it needs no script and no network and works under the app's Content-Security-
Policy (a script-driven viewer would need inline scripts or a CDN)."""

from __future__ import annotations

import json
from typing import Any

from starlette.responses import Response

METHODS = ("get", "post")


def _resolve(schema: dict[str, Any], node: Any) -> Any:
    """A schema node with its `$ref` followed."""
    while isinstance(node, dict) and "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[-1]
        node = schema.get("components", {}).get("schemas", {}).get(name, {})
    return node


def type_text(schema: dict[str, Any], node: Any) -> str:
    """A field's type in words: `integer`, `string or null`, `one of a, b`, `list of
    string`."""
    node = _resolve(schema, node)
    if not isinstance(node, dict):
        return "any"
    if "enum" in node:
        return "one of " + ", ".join(json.dumps(v) for v in node["enum"])
    if "const" in node:
        return json.dumps(node["const"])
    for key in ("anyOf", "oneOf"):
        if key in node:
            return " or ".join(dict.fromkeys(type_text(schema, n) for n in node[key]))
    kind = node.get("type")
    if kind == "array":
        return f"list of {type_text(schema, node.get('items', {}))}"
    if kind == "object" and "title" in node and "properties" in node:
        return str(node["title"])
    if kind == "object":
        return "object"
    return str(kind) if kind else "any"


def _number(value: Any) -> str:
    """A limit as written in the schema (FastAPI writes 10**18 as 1e+18, 0 as 0.0)."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def limits_text(node: dict[str, Any]) -> str:
    """A field's limits in words (the range of a number, the length of a text or list)."""
    parts = []
    for sub in [node, *node.get("anyOf", [])]:
        if not isinstance(sub, dict):
            continue
        lo = sub.get("minimum", sub.get("exclusiveMinimum"))
        hi = sub.get("maximum")
        if lo is not None or hi is not None:
            low = f"more than {_number(lo)}" if "exclusiveMinimum" in sub else _number(lo)
            parts.append(f"{low}..{_number(hi)}" if hi is not None else f"at least {low}")
        if "maxLength" in sub:
            parts.append(f"at most {sub['maxLength']:,} characters")
        if "maxItems" in sub:
            parts.append(f"at most {sub['maxItems']} items")
        if "pattern" in sub:
            parts.append(f"matching {sub['pattern']}")
    return "; ".join(parts)


def fields_of(schema: dict[str, Any], node: Any) -> list[dict[str, str]]:
    """The fields of an object schema: name, type, whether required, default, limits and
    description."""
    node = _resolve(schema, node)
    if not isinstance(node, dict):
        return []
    required = set(node.get("required", []))
    out = []
    for name, prop in node.get("properties", {}).items():
        prop = _resolve(schema, prop) if "$ref" in prop else prop
        default = prop.get("default")
        out.append({"name": name, "type": type_text(schema, prop),
                    "required": "required" if name in required else "",
                    "default": "" if name in required or default is None
                    else json.dumps(default),
                    "limits": limits_text(prop), "description": prop.get("description", "")})
    return out


def _responses(schema: dict[str, Any], op: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for status, answer in sorted(op.get("responses", {}).items()):
        content = answer.get("content", {}).get("application/json", {})
        node = content.get("schema")
        models = []
        if node is not None:
            for sub in _resolve(schema, node).get("anyOf", [node]):
                resolved = _resolve(schema, sub)
                if isinstance(resolved, dict) and "properties" in resolved:
                    models.append({"name": resolved.get("title", ""),
                                   "doc": resolved.get("description", ""),
                                   "fields": fields_of(schema, resolved)})
        out.append({"status": status, "description": answer.get("description", ""),
                    "models": models})
    return out


def _example(path: str, method: str, fields: list[dict[str, str]]) -> str:
    """A curl call of the endpoint with its required fields."""
    url = f"http://127.0.0.1:8000{path}"
    if method == "get":
        return f"curl -s {url}"
    body = {f["name"]: "..." for f in fields if f["required"]}
    return (f"curl -s {url} -H 'content-type: application/json' "
            f"-d '{json.dumps(body)}'")


def endpoints(schema: dict[str, Any]) -> list[dict[str, Any]]:
    """Every operation of the schema, in path order, ready for the page."""
    out = []
    for path, item in schema.get("paths", {}).items():
        for method in METHODS:
            op = item.get(method)
            if op is None:
                continue
            body = op.get("requestBody", {}).get("content", {}).get("application/json", {})
            fields = fields_of(schema, body.get("schema")) if body else []
            params = [{"name": p["name"], "type": type_text(schema, p.get("schema", {})),
                       "limits": limits_text(p.get("schema", {}))}
                      for p in op.get("parameters", [])]
            out.append({"method": method.upper(), "path": path,
                        "anchor": f"{method}-{path.strip('/').replace('/', '-')}"
                        .replace("{", "").replace("}", ""),
                        "summary": op.get("summary", ""),
                        "description": op.get("description", ""),
                        "tag": (op.get("tags") or [""])[0], "params": params,
                        "fields": fields, "responses": _responses(schema, op),
                        "example": _example(path, method, fields)})
    return out


def docs_context(schema: dict[str, Any]) -> dict[str, Any]:
    """What the documentation page shows."""
    info = schema.get("info", {})
    return {"title": info.get("title", ""), "version": info.get("version", ""),
            "intro": info.get("description", ""), "endpoints": endpoints(schema)}


def api_index(schema: dict[str, Any]) -> Response:
    """`GET /api`: every endpoint (method, path, summary and whole description), and where
    the schema and the documentation page are."""
    listed = [{"method": e["method"], "path": e["path"], "does": e["summary"],
               "description": " ".join(e["description"].split())} for e in endpoints(schema)]
    data = {"endpoints": listed, "openapi": "/openapi.json", "docs": "/docs"}
    return Response(json.dumps(data, indent=2) + "\n", media_type="application/json")
