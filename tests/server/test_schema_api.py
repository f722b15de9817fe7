"""The HTTP API against its own OpenAPI schema, with schemathesis: every operation, generated
valid and invalid requests, no server error, and every answer (status, media type, body) as the
schema documents it.

Path parameters that are random strings only ever reach "no such table", so every generated
request is sent a second time at a real table (one with a finished hand, so that the hand
histories answer 200), with the creator's token for the operation that needs it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck
from hypothesis import settings as hsettings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    positive_data_acceptance,
    response_schema_conformance,
    status_code_conformance,
)
from schemathesis.core.result import Ok

from server.helpers import Player, create, step
from truco.server import Settings, create_app

schema = schemathesis.openapi.from_dict(
    create_app(Settings(database_url="sqlite+aiosqlite://")).openapi()
)


AS_DOCUMENTED = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]


@dataclass(frozen=True)
class Api:
    client: TestClient
    table: str
    """A table whose first hand is over, its creator against a bot."""
    token: str
    open_table: str
    """A table with seat 1 still empty."""
    open_token: str


@pytest.fixture
def api(settings: Settings) -> Iterator[Api]:
    with TestClient(create_app(settings)) as client:
        t = create(client, bots={"1": "random"})
        ana = Player(client, t["table"], t["token"])
        while ana.view is None or ana.view["hand"] < 2:
            assert step([ana], lambda legal: legal[0])
        ana.close()
        Player.opened.clear()
        o = create(client)
        yield Api(client, t["table"], t["token"], o["table"], o["token"])


def send(api: Api, case: Any) -> Any:
    kwargs = case.as_transport_kwargs(base_url="http://testserver")
    # schemathesis speaks requests; the test client is httpx, which spells these differently.
    if not kwargs.get("cookies"):
        kwargs.pop("cookies", None)
    if isinstance(kwargs.get("data"), bytes | str):
        kwargs["content"] = kwargs.pop("data")
    response = api.client.request(**kwargs)
    assert response.status_code < 500, (case.as_curl_command(), response.text)
    return response


def validate(case: Any, response: Any) -> None:
    # A name the schema allows may still break the name rule (truco.server.players.names: no
    # control, bidirectional or invisible characters, 24 after NFKC), which a schema cannot say
    # either.
    refused_name = response.status_code == 422 and response.json()["code"] == "bad_name"
    if case.operation.method.upper() == "POST" and case.operation.path == "/api/tables":
        # Which options and bots go together (a bot's seat within the table, an option's
        # value) is for Rules to say; the schema names the options but cannot hold those rules.
        # Such a refusal is bad_options (or bad_name), never bad_message, which would mean the
        # schema and the body's own validation disagree.
        case.validate_response(response, excluded_checks=[positive_data_acceptance])
        if case.meta and case.meta.generation.mode.is_positive and response.status_code == 422:
            assert response.json()["code"] in ("bad_options", "bad_name"), response.text
        return
    if refused_name:
        case.validate_response(response, excluded_checks=[positive_data_acceptance])
        return
    case.validate_response(response)


@schema.parametrize()
@hsettings(
    max_examples=25,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_the_api_answers_as_documented(case: Any, api: Api) -> None:
    validate(case, send(api, case))
    if "table_id" in (case.path_parameters or {}):
        bots = case.operation.path.endswith("/bots")
        case.path_parameters["table_id"] = api.open_table if bots else api.table
        if bots:
            case.headers = {**(case.headers or {}), "Authorization": f"Bearer {api.open_token}"}
        if "n" in case.path_parameters and isinstance(case.path_parameters["n"], int):
            case.path_parameters["n"] = 1 + abs(case.path_parameters["n"]) % 2  # 1: finished
        # The checks that judge the request as generated (was it valid, was a header missing)
        # no longer apply to the changed one; the answer must still be as documented.
        case.validate_response(send(api, case), checks=AS_DOCUMENTED)


def test_every_operation_is_covered() -> None:
    """A new endpoint joins the schema test by itself; this pins what it covers today."""
    ops: set[tuple[str, str]] = set()
    for r in schema.get_all_operations():
        assert isinstance(r, Ok), r  # the schema's every operation loads
        ops.add((r.ok().method.upper(), r.ok().path))
    assert ops >= {
        ("GET", "/api/tables"),
        ("POST", "/api/tables"),
        ("GET", "/api/tables/{table_id}"),
        ("POST", "/api/tables/{table_id}/seats"),
        ("POST", "/api/tables/{table_id}/bots"),
        ("GET", "/api/tables/{table_id}/hands/{n}.toml"),
        ("GET", "/api/tables/{table_id}/match.toml"),
        ("POST", "/api/tables/{table_id}/hands/{n}/analysis"),
    }


def test_errors_are_documented_in_one_shape(settings: Settings) -> None:
    """Every documented error answer is the {code, message} object, including FastAPI's own
    refusals (a body that is not UTF-8, a method the path does not have)."""
    spec = create_app(settings).openapi()
    for path, item in spec["paths"].items():
        for method, op in item.items():
            for status, response in op["responses"].items():
                if status.startswith(("4", "5")):
                    ref = response["content"]["application/json"]["schema"]["$ref"]
                    assert ref.endswith("/ErrorBody"), (method, path, status)
    with TestClient(create_app(settings)) as client:
        r = client.post(
            "/api/tables", content=b"\xff\xfe", headers={"content-type": "application/json"}
        )
        assert r.status_code == 422 and r.json()["code"] == "bad_message", r.text
        r = client.delete("/api/tables")
        assert r.status_code == 405 and r.json()["code"] == "method_not_allowed"
        assert r.headers["allow"] == "GET, POST"
        r = client.options("/api/tables/x/bots")
        assert r.status_code == 405 and r.headers["allow"] == "POST"
        r = client.get("/api/nothing/here")
        assert r.status_code == 404 and r.json()["code"] == "not_found"
        r = client.get("/api/tables/nope/hands/1.toml")
        assert r.status_code == 404 and r.headers["content-type"].startswith("application/json")
