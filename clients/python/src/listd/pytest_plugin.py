"""The pytest plugin (entry point ``listd.pytest_plugin``): fixtures that start a private listd and connect to it.

Fixtures:

- ``listd_bin``: the ``listd`` executable: ``--listd-bin``, else ``$LISTD_BIN``, else ``$LISTD``,
  else ``listd`` on the PATH, else ``.build/debug/listd`` of the repository the tests are in.
- ``listd_daemon``: a ``listd.Daemon`` on a private socket in a temporary directory, stopped
  (SIGTERM) after the test; extra daemon arguments with ``@pytest.mark.listd_args("--demo")``.
  A test that fails shows the daemon's log.
- ``listd_client``: a ``listd.Client`` session of ``listd_daemon``, initialized, closed after the
  test.
- ``assert_changeset``: ``listd.testing.assert_changeset``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable, Generator, Iterator

import pytest

from .client import Client
from .daemon import Daemon
from .errors import DaemonNotFound
from .locate import find_listd
from .testing import assert_changeset as _assert_changeset


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("listd")
    group.addoption(
        "--listd-bin",
        action="store",
        default=None,
        metavar="PATH",
        help="the listd executable the listd_daemon fixture starts (default: $LISTD_BIN, $LISTD, PATH, .build/debug/listd)",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "listd_args(*args): extra command-line arguments for the listd_daemon fixture")


def _repository_build(start: Path) -> str | None:
    """``.build/debug/listd`` of the first directory from ``start`` upwards that has one."""
    for directory in [start, *start.parents]:
        candidate = directory / ".build" / "debug" / "listd"
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    return None


@pytest.fixture(scope="session")
def listd_bin(pytestconfig: pytest.Config) -> str:
    """The path of the ``listd`` executable the fixtures start."""
    explicit = pytestconfig.getoption("listd_bin")
    try:
        return find_listd(explicit)
    except DaemonNotFound as error:
        problem = str(error)
    if explicit is None:
        built = _repository_build(Path(str(pytestconfig.rootpath)).resolve())
        if built:
            return built
    # Failed outside the except block: inside it, pytest would print the DaemonNotFound too, joined
    # by "During handling of the above exception", saying the same thing twice.
    pytest.fail(f"{problem}; or pass --listd-bin PATH", pytrace=False)


@pytest.fixture
def listd_daemon(request: pytest.FixtureRequest, listd_bin: str) -> Iterator[Daemon]:
    """A ``listd --listen SOCKET --stay`` of this test's own, on a private socket."""
    args: list[str] = []
    for marker in request.node.iter_markers("listd_args"):
        args = [*marker.args, *args]
    daemon = Daemon.start(*args, listd=listd_bin)
    try:
        yield daemon
    finally:
        log = daemon.log()
        status = daemon.stop()
        if status != 0:
            pytest.fail(f"listd exited with status {status} (not 0 after SIGTERM):\n{log}", pytrace=False)


@pytest.fixture
def listd_client(listd_daemon: Daemon, request: pytest.FixtureRequest) -> Iterator[Client]:
    """An initialized ``Client`` session of ``listd_daemon``, named after the test."""
    client = listd_daemon.connect(name=request.node.name[:80])
    try:
        yield client
    finally:
        client.close()


@pytest.fixture
def assert_changeset() -> Callable[..., Any]:
    """``listd.testing.assert_changeset(answer, inserts=…, deletes=…, moves=…, …)``."""
    return _assert_changeset


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[Any]) -> Generator[None, Any, None]:
    # A failed test that used listd_daemon shows the daemon's log.
    outcome = yield
    report = outcome.get_result()
    daemon = getattr(item, "funcargs", {}).get("listd_daemon")
    if report.failed and isinstance(daemon, Daemon):
        log = daemon.log()
        if log:
            report.sections.append(("listd log", log))
