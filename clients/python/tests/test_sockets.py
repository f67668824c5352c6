"""The socket checks listctl makes, made by the Python clients too: the default path, its directory, the socket's owner, the daemon's uid."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time

import pytest

import listd


def test_the_default_path_is_the_one_listd_listens_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_RUNTIME_DIR", "/run/user/7")
    assert listd.default_socket_path() == "/run/user/7/listd/listd.sock"
    monkeypatch.delenv("XDG_RUNTIME_DIR")
    assert listd.default_socket_path() == f"/tmp/listd-{os.getuid()}/listd.sock"


@pytest.mark.skipif(sys.platform == "darwin", reason="macOS reads TMPDIR, else confstr")
def test_the_default_path_ignores_a_relative_runtime_directory_and_trailing_slashes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("XDG_RUNTIME_DIR", "/x/")
    assert listd.default_socket_path() == "/x/listd/listd.sock"
    monkeypatch.setenv("XDG_RUNTIME_DIR", "/")
    assert listd.default_socket_path() == "/listd/listd.sock"
    monkeypatch.setenv("XDG_RUNTIME_DIR", "rel/dir")
    assert listd.default_socket_path() == f"/tmp/listd-{os.getuid()}/listd.sock"


def test_both_clients_connect_to_the_default_socket(listd_bin: str, monkeypatch: pytest.MonkeyPatch) -> None:
    with tempfile.TemporaryDirectory(prefix="runtime-") as runtime:
        monkeypatch.setenv("XDG_RUNTIME_DIR", runtime)
        with pytest.raises(listd.NoDaemon, match="start one with `listd --listen --stay`|does not exist"):
            listd.Client.connect()
        daemon = subprocess.Popen(
            [listd_bin, "--listen", "--stay"], stdin=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        try:
            path = listd.default_socket_path()
            while True:
                try:
                    client = listd.Client.connect()
                    break
                except listd.NoDaemon:
                    assert daemon.poll() is None
                    time.sleep(0.01)
            with client:
                client.list_create("shared")

            async def read() -> list[str]:
                async with await listd.AsyncClient.connect() as aclient:
                    return [info["list"] for info in (await aclient.list_all())["lists"]]

            import asyncio

            assert asyncio.run(read()) == ["shared"]
            assert os.stat(os.path.dirname(path)).st_mode & 0o777 == 0o700
        finally:
            daemon.terminate()
            daemon.wait(10)


def test_a_directory_others_can_enter_is_refused_at_the_default_path(listd_daemon: listd.Daemon) -> None:
    path = listd_daemon.socket_path
    listd.Client.connect(path, private_directory=True).close()
    os.chmod(listd_daemon.directory, 0o755)
    with pytest.raises(listd.UntrustedSocket) as error:
        listd.Client.connect(path, private_directory=True)
    assert str(error.value) == (
        f"cannot connect to {path}: {listd_daemon.directory} can be entered by other users (mode 755); "
        "use a directory only you can enter (chmod 700)"
    )
    listd.Client.connect(path).close()  # an explicit path is the user's choice: its directory is not checked


needs_root = pytest.mark.skipif(os.getuid() != 0, reason="needs root to give a file to another uid")


@needs_root
def test_a_directory_of_another_user_is_refused(listd_daemon: listd.Daemon) -> None:
    os.chown(listd_daemon.directory, 65534, 65534)
    with pytest.raises(listd.UntrustedSocket, match=f"{listd_daemon.directory} belongs to uid 65534, not to this user"):
        listd.Client.connect(listd_daemon.socket_path, private_directory=True)


@needs_root
def test_a_socket_of_another_user_is_refused(listd_daemon: listd.Daemon) -> None:
    os.chown(listd_daemon.socket_path, 65534, 65534)
    with pytest.raises(listd.UntrustedSocket, match="the socket belongs to uid 65534, not to this user"):
        listd.Client.connect(listd_daemon.socket_path)


@needs_root
def test_a_daemon_running_as_another_user_is_refused(tmp_path_factory: pytest.TempPathFactory) -> None:
    # The socket file is ours (bound as root); the process that listens on it runs as uid 65534.
    directory = tempfile.mkdtemp(prefix="peer-")
    path = os.path.join(directory, "s.sock")
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(path)
    code = (
        "import os, socket, sys; s = socket.socket(fileno=int(sys.argv[1])); os.setgid(65534); os.setuid(65534); "
        "s.listen(); print('ready', flush=True); s.accept(); sys.stdin.read()"
    )
    listener = subprocess.Popen(
        [sys.executable, "-c", code, str(server.fileno())],
        pass_fds=(server.fileno(),),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    try:
        assert listener.stdout is not None and listener.stdout.readline() == b"ready\n"
        with pytest.raises(listd.UntrustedSocket, match="the daemon there runs as uid 65534, not as this user"):
            listd.Client.connect(path)
    finally:
        listener.kill()
        listener.wait()
        server.close()
        os.remove(path)
        os.rmdir(directory)


def test_what_is_not_a_socket_is_named(tmp_path_factory: pytest.TempPathFactory) -> None:
    directory = tempfile.mkdtemp(prefix="notsock-")
    try:
        with pytest.raises(listd.SocketError, match="it is a directory, not a socket"):
            listd.Client.connect(directory)
        regular = os.path.join(directory, "file")
        open(regular, "w").close()
        with pytest.raises(listd.SocketError, match="it is not a socket"):
            listd.Client.connect(regular)
        with pytest.raises(listd.SocketError, match="the limit is 107 bytes"):
            listd.Client.connect("/tmp/" + "x" * 200)
        with pytest.raises(listd.NoDaemon):
            listd.Client.connect(os.path.join(directory, "none.sock"))
    finally:
        os.remove(os.path.join(directory, "file"))
        os.rmdir(directory)


@pytest.mark.parametrize("kind", ["sync", "async"])
def test_a_client_closes_its_writing_side_when_the_daemon_closes_its_own(kind: str) -> None:
    """A stopping daemon drains a socket until its peer closes (for at most a moment): a client
    that reads end of file closes its side for writing, so the daemon waits for nothing."""
    with tempfile.TemporaryDirectory(prefix="eof-") as directory:
        os.chmod(directory, 0o700)
        path = os.path.join(directory, "fake.sock")
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        server.bind(path)
        server.listen(1)
        server.settimeout(10)

        def serve_and_close() -> bytes:
            peer, _ = server.accept()
            peer.settimeout(10)
            peer.shutdown(socket.SHUT_WR)  # the daemon's half-close after its last answer
            received = b""
            while chunk := peer.recv(1 << 16):  # socket.timeout if the client never closes
                received += chunk
            peer.close()
            return received

        if kind == "sync":
            client = listd.Client.connect(path, initialize=False, private_directory=True)
            try:
                assert serve_and_close() == b""
            finally:
                client.close()
        else:
            import asyncio

            async def run() -> bytes:
                aclient = await listd.AsyncClient.connect(path, initialize=False, private_directory=True)
                try:
                    return await asyncio.get_running_loop().run_in_executor(None, serve_and_close)
                finally:
                    await aclient.close()

            assert asyncio.run(run()) == b""
        server.close()
