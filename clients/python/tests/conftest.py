"""Shared fixtures of the listd package's own tests: the plugin, both client kinds, the protocol spec."""

from __future__ import annotations

from typing import Any, Callable, Iterator

import pytest
from support import AsyncFacade, protocol

import listd

pytest_plugins = ["listd.pytest_plugin", "pytester"]


@pytest.fixture(scope="session")
def spec() -> dict[str, Any]:
    """Protocol/protocol.json."""
    return protocol()


@pytest.fixture(params=["sync", "async"])
def kind(request: pytest.FixtureRequest) -> str:
    """Which client a test drives: ``Client``, or ``AsyncClient`` through ``AsyncFacade``."""
    return request.param


@pytest.fixture
def connect(kind: str, listd_daemon: listd.Daemon, listd_bin: str) -> Iterator[Callable[..., Any]]:
    """``connect(name, spawn=None, initialize=True)``: a session of the client kind under test,
    on ``listd_daemon`` (or, with ``spawn=[args…]``, on a private stdio daemon); closed after the test."""
    opened: list[Any] = []

    def open_client(name: str = "subject", *, spawn: list[str] | None = None, initialize: bool = True) -> Any:
        if kind == "sync":
            if spawn is not None:
                client: Any = listd.Client.spawn(*spawn, listd=listd_bin, name=name, initialize=initialize)
            else:
                client = listd.Client.connect(listd_daemon.socket_path, name=name, initialize=initialize)
        elif spawn is not None:
            client = AsyncFacade(
                lambda: listd.AsyncClient.spawn(*spawn, listd=listd_bin, name=name, initialize=initialize)
            )
        else:
            client = AsyncFacade(
                lambda: listd.AsyncClient.connect(listd_daemon.socket_path, name=name, initialize=initialize)
            )
        opened.append(client)
        return client

    yield open_client
    for client in opened:
        client.close()
