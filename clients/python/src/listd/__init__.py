"""listd: a Python client of the listd daemon — live list data sources over JSON-RPC 2.0.

    import listd
    with listd.Client.connect() as client:      # the socket `listd --listen` serves
        client.list_create("todo", content={"sections": [{"id": "s", "items": [{"id": "a", "text": "Write"}]}]})
        print(client.list_edit("todo", [{"op": "appendItems", "items": [{"id": "b", "text": "Test"}]}])["changeset"])

``Client`` is synchronous, ``AsyncClient`` its asyncio twin; ``Mirror`` keeps a copy of a list
current from its ``list/didChange`` notifications (``WindowedMirror`` a window of it); ``Daemon`` starts a private daemon;
``listd.testing`` and the pytest plugin (``listd.pytest_plugin``) help tests.
"""

from .accessories import ACCESSORY_ORDER, display_order
from .aio import AsyncClient
from .client import DEFAULT_TIMEOUT, Client, PendingRequest
from .daemon import Daemon
from .errors import *  # noqa: F401,F403
from .errors import __all__ as _error_names
from .locate import find_listd
from .messages import Notification, ServerRequest
from .mirror import Mirror
from .requests import Appearance, Content, Edit, SelectionMode, SnapshotForm, TraceLevel
from .sockets import connect_socket, default_socket_path, peer_uid
from .windowed import WindowedMirror

__version__ = "0.1.0"
#: The listd protocol version this client speaks.
PROTOCOL_VERSION = 1

__all__ = [
    "ACCESSORY_ORDER",
    "AsyncClient",
    "Client",
    "DEFAULT_TIMEOUT",
    "Daemon",
    "Mirror",
    "Notification",
    "PendingRequest",
    "PROTOCOL_VERSION",
    "ServerRequest",
    "Appearance",
    "Content",
    "Edit",
    "SelectionMode",
    "SnapshotForm",
    "TraceLevel",
    "WindowedMirror",
    "connect_socket",
    "default_socket_path",
    "display_order",
    "find_listd",
    "peer_uid",
    *_error_names,
]
