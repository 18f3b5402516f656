"""``/api/docs/``: the OpenAPI schema (api/schema.py, built once) rendered as a plain page of the
site: every path and method with its parameters, request body and answers, and the shapes of the
objects. No script (Swagger UI stays at ``/api/docs/swagger/`` for trying requests out); it
reads well on a phone and passes axe."""
from __future__ import annotations

from django.shortcuts import render
from django.views.decorators.http import require_GET

from .schema import SchemaView

METHODS = ("get", "post", "put", "patch", "delete")


def _ref_name(ref: str) -> str:
    return ref.rsplit("/", 1)[-1]


def _type(schema: dict | None) -> str:
    """A short type text: ``Match``, ``array of Match``, ``string (date-time)``, ``active | finished``."""
    if not schema:
        return ""
    if "$ref" in schema:
        return _ref_name(schema["$ref"])
    for key in ("allOf", "oneOf", "anyOf"):
        if key in schema:
            return " | ".join(_type(s) for s in schema[key]) if key != "allOf" else _type(schema[key][0])
    if "enum" in schema:
        return " | ".join(str(v) for v in schema["enum"] if v not in ("", None))
    kind = schema.get("type", "object")
    if kind == "array":
        return f"array of {_type(schema.get('items')) or 'object'}"
    return f"{kind} ({schema['format']})" if schema.get("format") else kind


def _body(op: dict) -> str:
    content = (op.get("requestBody") or {}).get("content") or {}
    media = content.get("application/json") or next(iter(content.values()), {})
    return _type(media.get("schema"))


def operations(schema: dict) -> list[dict]:
    """The schema's operations grouped by their first tag, in path order."""
    groups: dict[str, list] = {}
    for path, item in schema.get("paths", {}).items():
        for method in METHODS:
            op = item.get(method)
            if not op:
                continue
            answers = []
            for status, answer in sorted((op.get("responses") or {}).items()):
                media = next(iter((answer.get("content") or {}).values()), {})
                answers.append({"status": status, "text": answer.get("description", ""),
                                "type": _type(media.get("schema"))})
            groups.setdefault((op.get("tags") or ["api"])[0], []).append({
                "id": f"{method}-{path}".replace("/", "-").replace("{", "").replace("}", "").strip("-"),
                "method": method.upper(), "path": path, "summary": op.get("summary", ""),
                "description": op.get("description", ""),
                "parameters": [{"name": p.get("name"), "in": p.get("in"), "required": p.get("required", False),
                                "type": _type(p.get("schema")), "text": p.get("description", "")}
                               for p in op.get("parameters", [])],
                "body": _body(op), "answers": answers,
                "auth": [next(iter(s), "") for s in op.get("security", []) if s]})
    return [{"tag": tag, "ops": ops} for tag, ops in sorted(groups.items())]


def components(schema: dict) -> list[dict]:
    out = []
    for name, shape in sorted((schema.get("components", {}).get("schemas") or {}).items()):
        required = set(shape.get("required", []))
        out.append({"name": name, "type": _type({k: v for k, v in shape.items() if k != "properties"})
                    if "properties" not in shape else "object",
                    "properties": [{"name": k, "type": _type(v), "required": k in required,
                                    "read_only": v.get("readOnly", False), "text": v.get("description", "")}
                                   for k, v in (shape.get("properties") or {}).items()]})
    return out


@require_GET
def api_docs(request):
    schema = SchemaView.as_view()(request).data
    return render(request, "api/docs.html", {
        "info": schema.get("info", {}), "groups": operations(schema), "shapes": components(schema)})
