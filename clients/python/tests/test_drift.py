"""Drift test: the client's route table (rapport/_endpoints.py), its methods and its response
types must agree with the OpenAPI document the real service serves. An operation the client has
no method for, an entry naming a path or status the service does not have, a method that does not
call its route, a response type whose required, optional or nullable fields, whose fields' types
(str, int, float, bool, None, a Literal's values, a list's items) or whose enumerated values
differ, in every object it holds (each member of a union too), or a text body (the HTML files) of
another media type fails here."""
from __future__ import annotations

import inspect
import json
import re
import typing
import unittest
import urllib.request
from typing import Any, Dict, List, Optional, Set

import rapport
from rapport import ENDPOINTS, ERROR_CODES, types
from tests._service import service

Schema = Dict[str, Any]
#: Served to anyone, for tooling: not a client call.
OUTSIDE = {"GET /v1/openapi.json"}
doc: Dict[str, Any] = {}


def setUpModule() -> None:
    with urllib.request.urlopen(service().url + "/v1/openapi.json") as res:
        doc.update(json.load(res))


def norm(path: str) -> str:
    return re.sub(r"\{[^}]+\}", "{}", path)


def resolve(s: Optional[Schema]) -> Optional[Schema]:
    while s is not None and "$ref" in s:
        s = doc["components"]["schemas"][s["$ref"].split("/")[-1]]
    return s


def allows_null(s: Optional[Schema]) -> bool:
    r = resolve(s)
    if r is None:
        return False
    t = r.get("type")
    if t == "null" or (isinstance(t, list) and "null" in t) or r.get("nullable") is True:
        return True
    return any(allows_null(x) for x in r.get("anyOf", []) + r.get("oneOf", []))


def object_of(s: Optional[Schema]) -> Optional[Schema]:
    """The object schema of a response, without a ``| null`` wrapper (by-job answers null)."""
    r = resolve(s)
    if r is None:
        return None
    alts = [a for a in (resolve(x) for x in r.get("anyOf", []) + r.get("oneOf", [])) if a and a.get("type") != "null"]
    return alts[0] if "properties" not in r and len(alts) == 1 else r


def operations() -> Set[str]:
    return {f"{m.upper()} {norm(p)}" for p, ops in doc["paths"].items() for m in ops
            if m in ("get", "post", "patch", "put", "delete")}


def is_typed_dict(hint: Any) -> bool:
    return isinstance(hint, type) and issubclass(hint, dict) and hasattr(hint, "__required_keys__")


def typed_dicts_in(hint: Any) -> List[Any]:
    """The TypedDicts a field's hint is made of: itself, a list's items, each member of a union
    (``Optional`` included); None, scalars, ``Literal`` and ``Dict`` aside."""
    if is_typed_dict(hint):
        return [hint]
    if typing.get_origin(hint) not in (typing.Union, list):
        return []
    found: List[Any] = []
    for arg in typing.get_args(hint):
        found += [c for c in typed_dicts_in(arg) if c not in found]
    return found


def objects_in(s: Optional[Schema]) -> List[Schema]:
    """The objects a field of the document holds: its value, its list's items, each alternative of
    a union (``anyOf``, ``oneOf``); null and objects without properties (``{}``, maps) aside."""
    r = resolve(s)
    if r is None:
        return []
    if r.get("type") == "array":
        return objects_in(r.get("items"))
    if r.get("properties"):
        return [r]
    return [o for x in r.get("anyOf", []) + r.get("oneOf", []) for o in objects_in(x)]


def constants_of(schema: Schema) -> Dict[str, Any]:
    """The fields of an object whose value is a constant (a union member's ``type``, a warning's ``code``)."""
    return {k: r["const"] for k, r in ((k, resolve(v) or {}) for k, v in schema.get("properties", {}).items()) if "const" in r}


def literal_values(hint: Any) -> Optional[List[str]]:
    """The values of a ``Literal`` (or ``Optional[Literal]``) hint; None for any other hint."""
    if typing.get_origin(hint) is typing.Literal:
        return sorted(typing.get_args(hint))
    args = [a for a in typing.get_args(hint) if a is not type(None)]
    return literal_values(args[0]) if typing.get_origin(hint) is typing.Union and len(args) == 1 else None


def documented_values(s: Optional[Schema]) -> Optional[List[str]]:
    """The values the document allows a field, when it lists them (``enum``, or constants, null aside)."""
    r = resolve(s)
    if r is None:
        return None
    if "enum" in r:
        return sorted(r["enum"])
    if "const" in r:
        return [r["const"]]
    alts = [a for a in (resolve(x) for x in r.get("anyOf", []) + r.get("oneOf", [])) if a and a.get("type") != "null"]
    values = [documented_values(a) for a in alts]
    return sorted(v for vs in values if vs is not None for v in vs) if alts and all(values) else None


_PRIMITIVES = {str: "string", int: "integer", float: "number", bool: "boolean", type(None): "null"}


def hint_type(hint: Any) -> List[str]:
    """A field's hint as the sorted set of its alternatives, in the document's words: ``string``,
    ``integer`` (``int``), ``number`` (``float``), ``boolean``, ``null``, a ``Literal``'s values
    (``"card"``, ``2``), ``array<...>`` of its items, ``object`` (a TypedDict or a ``Dict``)."""
    found: Set[str] = set()
    origin = typing.get_origin(hint)
    if origin is typing.Union:
        found.update(t for arg in typing.get_args(hint) for t in hint_type(arg))
    elif origin is typing.Literal:
        found.update(json.dumps(v) for v in typing.get_args(hint))
    elif origin is list:
        found.add(f"array<{'|'.join(hint_type(typing.get_args(hint)[0]))}>")
    elif origin is dict or is_typed_dict(hint):
        found.add("object")
    elif hint is Any:
        found.add("any")
    else:
        found.add(_PRIMITIVES.get(hint, f"unsupported {hint}"))
    return sorted(found)


def schema_type(s: Optional[Schema]) -> List[str]:
    """The same description of a field of the document: an ``enum`` or ``const`` its values,
    ``anyOf``/``oneOf`` each alternative, any object (with properties or a map) ``object``."""
    r = resolve(s)
    if r is None:
        return []
    found: Set[str] = {"null"} if r.get("nullable") is True else set()
    if "const" in r:
        return sorted(found | {json.dumps(r["const"])})
    if "enum" in r:
        return sorted(found | {json.dumps(v) for v in r["enum"]})
    t = r.get("type")
    types = t if isinstance(t, list) else [] if t is None else [t]
    if "object" in types or "properties" in r or "additionalProperties" in r:
        found.add("object")
    elif "anyOf" in r or "oneOf" in r:
        found.update(x for alt in r.get("anyOf", []) + r.get("oneOf", []) for x in schema_type(alt))
    elif not types:
        found.add("any")
    for name in types:
        if name == "array":
            found.add(f"array<{'|'.join(schema_type(r.get('items')))}>")
        elif name != "object":
            found.add(name)
    return sorted(found)


def method_of(client: rapport.Rapport, name: str) -> Any:
    target: Any = client
    for part in name.split("."):
        target = getattr(target, part, None)
    return target


class DriftTest(unittest.TestCase):
    def test_every_operation_of_the_service_has_a_client_method(self) -> None:
        covered = {f"{e.method} {norm(e.path)}" for e in ENDPOINTS.values()}
        self.assertEqual(sorted(operations() - covered - OUTSIDE), [])

    def test_every_route_of_the_client_is_in_the_document_with_its_status(self) -> None:
        paths = {norm(p): ops for p, ops in doc["paths"].items()}
        for name, e in ENDPOINTS.items():
            with self.subTest(name):
                op = paths.get(norm(e.path), {}).get(e.method.lower())
                self.assertIsNotNone(op, f"{e.method} {e.path} is not in the service's document")
                self.assertIn(str(e.status), op["responses"], f"{name}: no {e.status} response")
                if e.text is not None:
                    content = op["responses"][str(e.status)].get("content", {})
                    self.assertIn(e.text, content, f"{name}: the document gives no {e.text} body")
                    self.assertEqual((resolve(content[e.text].get("schema")) or {}).get("type"), "string", f"{name}: {e.text} is not text")

    def test_every_route_has_a_method_of_that_name_that_calls_it(self) -> None:
        client = rapport.Rapport(api_key="rk_unused", base_url="http://127.0.0.1:9")
        for name in ENDPOINTS:
            with self.subTest(name):
                method = method_of(client, name)
                self.assertTrue(callable(method), f"Rapport().{name} is not a method")
                self.assertIn(f'"{name}"', inspect.getsource(method), f"Rapport().{name} does not call its route")

    def test_the_methods_call_only_routes_of_the_table(self) -> None:
        import rapport.resources.account, rapport.resources.entities, rapport.resources.files  # noqa: E401
        import rapport.resources.jobs, rapport.resources.results  # noqa: E401
        named: List[str] = []
        for module in (rapport.resources.account, rapport.resources.entities, rapport.resources.files,
                       rapport.resources.jobs, rapport.resources.results):
            named += re.findall(r'path_for\("([\w.]+)"', inspect.getsource(module))
        self.assertGreater(len(named), 25)
        self.assertEqual(sorted(set(named) - set(ENDPOINTS)), [])

    def test_query_parameters_are_the_documented_ones(self) -> None:
        client = rapport.Rapport(api_key="rk_unused", base_url="http://127.0.0.1:9")
        paths = {norm(p): ops for p, ops in doc["paths"].items()}
        compared = 0
        for name, e in ENDPOINTS.items():
            op = paths[norm(e.path)][e.method.lower()]
            documented = sorted(p["name"] for p in op.get("parameters", []) if p["in"] == "query")
            if not documented or name == "files.content":  # its ?token= is the content link's, not a client argument
                continue
            with self.subTest(name):
                path_params = set(re.findall(r"\{(\w+)\}", e.path))
                params = [p for p in inspect.signature(method_of(client, name)).parameters if p not in path_params]
                camel = sorted(re.sub(r"_(\w)", lambda m: m.group(1).upper(), p) for p in params)
                self.assertEqual(camel, documented)
                compared += 1
        self.assertGreaterEqual(compared, 10)

    def test_request_bodies_take_the_documented_fields(self) -> None:
        client = rapport.Rapport(api_key="rk_unused", base_url="http://127.0.0.1:9")
        paths = {norm(p): ops for p, ops in doc["paths"].items()}
        client_only = {"timeout", "on_progress", "filename", "content_type"}  # how the client sends, not what
        set_by_client = {"matching.create": {"context"}, "reports.create": {"context"}}  # the only value there is
        compared = 0
        for name, e in ENDPOINTS.items():
            content = paths[norm(e.path)][e.method.lower()].get("requestBody", {}).get("content", {})
            if not content:
                continue
            with self.subTest(name):
                schema = object_of(next(iter(content.values()))["schema"])
                assert schema is not None
                documented = set(schema["properties"])
                path_params = set(re.findall(r"\{(\w+)\}", e.path))
                params = {p for p in inspect.signature(method_of(client, name)).parameters if p not in path_params | client_only}
                if "idempotencyKey" not in documented:
                    params.discard("idempotency_key")  # then it is the Idempotency-Key header only
                camel = {re.sub(r"_(\w)", lambda m: m.group(1).upper(), p.rstrip("_")) for p in params}
                self.assertEqual(sorted(camel | set_by_client.get(name, set())), sorted(documented))
                compared += 1
        self.assertGreaterEqual(compared, 10)

    def test_each_response_type_has_the_documented_fields(self) -> None:
        paths = {norm(p): ops for p, ops in doc["paths"].items()}
        for name, e in ENDPOINTS.items():
            if e.response is None:
                continue
            with self.subTest(name):
                op = paths[norm(e.path)][e.method.lower()]
                schema = object_of(op["responses"][str(e.status)]["content"]["application/json"]["schema"])
                type_name = e.response
                if type_name.startswith("List:"):
                    assert schema is not None
                    self.assertEqual(sorted(schema.get("required", [])), ["data", "nextCursor"])
                    schema = resolve(schema["properties"]["data"]["items"])
                    type_name = type_name[5:]
                assert schema is not None and "properties" in schema, f"{name}: no object schema"
                self.compare_fields(getattr(types, type_name), schema, type_name)

    def test_nested_response_types_have_the_documented_fields_too(self) -> None:
        paths = {norm(p): ops for p, ops in doc["paths"].items()}
        checked: Set[str] = set()
        for name, e in ENDPOINTS.items():
            if e.response is None:
                continue
            op = paths[norm(e.path)][e.method.lower()]
            schema = object_of(op["responses"][str(e.status)]["content"]["application/json"]["schema"])
            assert schema is not None
            if e.response.startswith("List:"):
                schema = resolve(schema["properties"]["data"]["items"])
            self.compare_nested(getattr(types, e.response.replace("List:", "")), schema, e.response, checked)
        # The nested shapes reached: a change that stops reaching them would make this test vacuous.
        self.assertTrue({"Media.analysis", "Media.analysis.speakers", "Job.error", "Diarization.segments",
                         "Entity.appearances", "WebhookDelivery.attempts", "Workspace.quotas"} <= checked, sorted(checked))
        self.assertTrue({"Evidence.scale", "Evidence.target", "Evidence.target.appearances", "Evidence.group", "Evidence.pairs",
                         "Evidence.pairs.overall", "Evidence.pairs.components", "Evidence.pairs.components.cells",
                         "Evidence.pairs.components.figures", "Evidence.dimensions"} <= checked, sorted(checked))
        # Unions, each of their members followed: a result member's source, a section's blocks (and
        # a grid's cards), a media's warnings (and the hint they quote).
        self.assertTrue({"MatchingPayload.target.source", "MatchingPayload.group.source", "ReportPayload.target.source",
                         "MatchingPayload.target.source.selector", "MatchingPayload.json.sections.section_content",
                         "MatchingPayload.json.sections.section_content.items", "Media.analysis.warnings",
                         "Media.analysis.warnings.asked"} <= checked, sorted(checked))
        # A speaker's measures, wherever they are answered (and the language measures inside them).
        self.assertTrue({"MediaMetrics.speakers.metrics", "MediaMetrics.speakers.metrics.language", "EntityMetrics.metrics",
                         "EntityMetrics.metrics.language", "EntityMetrics.appearances.metrics", "Evidence.target.metrics",
                         "Evidence.target.metrics.language", "Evidence.group.metrics"} <= checked, sorted(checked))

    def compare_nested(self, cls: Any, schema: Optional[Schema], where: str, checked: Set[str]) -> None:
        """Each object a field of the document holds (each alternative of a union too: a result
        member's source, a section's blocks, a media's warnings) must be one of the TypedDicts the
        field's hint is made of, and each of those one the document has, down the tree."""
        hints = typing.get_type_hints(cls)
        props = (schema or {}).get("properties", {})
        for key, hint in hints.items():
            if key not in props:
                continue  # the field names are compared, and fail, on their own
            here = f"{where.replace('List:', '')}.{key}"
            alternatives, classes = objects_in(props[key]), typed_dicts_in(hint)
            with self.subTest(here):
                if not alternatives:
                    self.assertEqual(classes, [], f"{here}: the client types an object the document does not have")
                    continue
                self.assertNotEqual(classes, [], f"{here}: the document has an object here; the client types it {hint}")
                seen: List[Any] = []
                for alt in alternatives:
                    inner = self.class_of(alt, classes, here)
                    self.compare_fields(inner, alt, f"{here} ({inner.__name__})" if len(classes) > 1 else here)
                    seen.append(inner)
                    self.compare_nested(inner, alt, here, checked)
                self.assertEqual(sorted(c.__name__ for c in set(seen)), sorted(c.__name__ for c in classes),
                                 f"{here}: the TypedDicts of the client's hint and the document's objects")
            checked.add(here)

    def class_of(self, alt: Schema, classes: List[Any], where: str) -> Any:
        """The TypedDict an alternative of a union is: the one whose ``Literal`` constants are its."""
        if len(classes) == 1:
            return classes[0]
        constants = constants_of(alt)
        fits = [c for c in classes if constants and all(
            literal_values(typing.get_type_hints(c).get(k)) == [v] for k, v in constants.items())]
        self.assertEqual(len(fits), 1, f"{where}: the document's alternative with {constants} is {len(fits)} of "
                                       f"{[c.__name__ for c in classes]}, not one")
        return fits[0]

    def compare_fields(self, cls: Any, schema: Schema, where: str) -> None:
        hints = typing.get_type_hints(cls)
        props = schema["properties"]
        self.assertEqual(sorted(cls.__required_keys__), sorted(schema.get("required", [])), f"{where}: required")
        self.assertEqual(sorted(hints), sorted(props), f"{where}: field names")
        nullable = sorted(k for k, v in hints.items() if type(None) in typing.get_args(v))
        self.assertEqual(nullable, sorted(k for k, s in props.items() if allows_null(s)), f"{where}: nullable")
        self.compare_values(hints, props, where)
        self.compare_types(hints, props, where)

    def compare_values(self, hints: Dict[str, Any], props: Dict[str, Schema], where: str) -> None:
        """A ``Literal`` field allows exactly the values the document lists for it."""
        for key, hint in hints.items():
            values = literal_values(hint)
            if values is not None and key in props:
                self.assertEqual(values, documented_values(props[key]), f"{where}.{key}: values")

    def compare_types(self, hints: Dict[str, Any], props: Dict[str, Schema], where: str) -> None:
        """Each field's primitive type is the document's: a ``number`` typed ``str``, an ``integer``
        typed ``float`` (or a ``number`` typed ``int``), a list of other items, an enumeration with
        other members, fail. A ``Literal`` beside ``str`` (``Union[JobStage, str]``, open so that a
        later value is no type error) stands for its values, which must then be the document's."""
        mine: Dict[str, List[str]] = {}
        for key in sorted(set(hints) & set(props)):
            own = hint_type(hints[key])
            literals = [t for t in own if t.startswith('"')]
            mine[key] = [t for t in own if t != "string"] if literals and "string" in own else own
        wire = {key: schema_type(props[key]) for key in sorted(set(hints) & set(props))}
        self.assertEqual(mine, wire, f"{where}: field types (the client's hints and the document's)")

    def test_every_error_code_of_the_service_has_its_status_and_class(self) -> None:
        body = resolve(doc["components"]["schemas"]["Error"])
        assert body is not None
        error = body["properties"]["error"]
        self.assertEqual(sorted(error["properties"]["code"]["enum"]), sorted(ERROR_CODES))
        self.assertEqual(sorted(error["properties"]), ["code", "details", "message", "requestId", "retryAfter"])


if __name__ == "__main__":
    unittest.main()
