"""The clients' methods against Protocol/protocol.json: one per client-to-server method, with exactly its params."""

from __future__ import annotations

import inspect
import keyword
import re
from typing import Any

import pytest

import listd
from listd.requests import Requests


def python_name(method: str) -> str:
    """``list/changesSince`` → ``list_changes_since``; ``$/setTrace`` → ``set_trace``."""
    words = method.removeprefix("$/").split("/")
    return "_".join(re.sub(r"(?<!^)(?=[A-Z])", "_", word).lower() for word in words)


def snake(name: str) -> str:
    """``atVersion`` → ``at_version``; a Python keyword gets a trailing ``_`` (``from`` → ``from_``)."""
    snaked = re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()
    return snaked + "_" if keyword.iskeyword(snaked) else snaked


def client_methods(spec: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    return [(name, method) for name, method in spec["methods"].items() if method["direction"] == "clientToServer"]


def params_schema(method: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    params = method.get("params") or {}
    return params.get("properties", {}), params.get("required", [])


@pytest.mark.parametrize("client_class", [listd.Client, listd.AsyncClient], ids=["Client", "AsyncClient"])
def test_every_client_to_server_method_is_a_method_with_the_schemas_params(
    spec: dict[str, Any], client_class: type
) -> None:
    problems = []
    for name, method in client_methods(spec):
        attribute = python_name(name)
        function = getattr(client_class, attribute, None)
        if function is None:
            problems.append(f"{name}: no method {client_class.__name__}.{attribute}")
            continue
        properties, required = params_schema(method)
        signature = inspect.signature(function)
        parameters = [p for p in signature.parameters.values() if p.name != "self"]
        names = {p.name for p in parameters}
        expected = {snake(prop) for prop in properties}
        if names != expected:
            problems.append(f"{name}: {attribute} takes {sorted(names)}, the schema has {sorted(expected)}")
            continue
        for parameter in parameters:
            is_required = any(snake(r) == parameter.name for r in required)
            if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
                problems.append(f"{name}: {attribute} has *{parameter.name}")
            elif is_required and parameter.default is not parameter.empty:
                problems.append(f"{name}: {parameter.name} is required by the schema but has a default")
            elif not is_required and parameter.default is not None:
                problems.append(f"{name}: {parameter.name} is optional in the schema but has no default None")
        if function.__doc__ is None or len(function.__doc__.strip()) < 20:
            problems.append(f"{name}: {attribute} has no docstring")
    assert problems == []


def test_every_method_sends_exactly_the_schemas_member_names(spec: dict[str, Any]) -> None:
    """Each argument reaches the wire under the schema's (camelCase) name, and a None one is left out."""

    class Recorder(Requests[Any]):
        def _request(self, method: str, params: dict[str, Any]) -> Any:
            self.sent = (method, params)

        def _notify(self, method: str, params: dict[str, Any]) -> None:
            self.sent = (method, params)

        def _initialize(self, params: dict[str, Any]) -> Any:
            self.sent = ("initialize", params)

    recorder = Recorder()
    for name, method in client_methods(spec):
        properties, required = params_schema(method)
        function = getattr(recorder, python_name(name))
        marker = {prop: f"<{prop}>" for prop in properties}
        function(**{snake(prop): value for prop, value in marker.items()})
        assert recorder.sent == (name, marker), name
        function(**{snake(prop): marker[prop] for prop in required})
        assert recorder.sent == (name, {prop: marker[prop] for prop in required}), name


def test_the_error_classes_are_the_protocols_codes(spec: dict[str, Any]) -> None:
    codes = {int(code): label for code, label in spec["errorCodes"].items()}
    assert {code: cls.NAME for code, cls in listd.ERROR_CLASSES.items()} == codes
    for code, cls in listd.ERROR_CLASSES.items():
        error = listd.ResponseError.from_wire({"code": code, "message": "m", "data": {"x": 1}})
        assert type(error) is cls and isinstance(error, listd.ResponseError)
        assert (error.code, error.message, error.data) == (code, "m", {"x": 1})
    other = listd.ResponseError.from_wire({"code": -1, "message": "odd"})
    assert type(other) is listd.ResponseError and other.code == -1


def test_the_package_is_typed_and_documented() -> None:
    import importlib.resources

    assert importlib.resources.files("listd").joinpath("py.typed").is_file()
    for name in listd.__all__:
        value = getattr(listd, name)
        if inspect.isclass(value) or inspect.isfunction(value):
            assert value.__doc__, f"listd.{name} has no docstring"
    for cls in (listd.Client, listd.AsyncClient, listd.Mirror, listd.Daemon):
        for attribute, member in vars(cls).items():
            if not attribute.startswith("_") and (
                inspect.isfunction(member) or isinstance(member, (classmethod, property))
            ):
                function = member.__func__ if isinstance(member, classmethod) else member
                assert getattr(function, "__doc__", None), f"{cls.__name__}.{attribute} has no docstring"
