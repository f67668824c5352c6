"""Test support: Protocol/protocol.json, and a blocking facade over AsyncClient so one exercise drives both clients."""

from __future__ import annotations

import asyncio
import inspect
import json
import threading
from pathlib import Path
from typing import Any, Awaitable, Callable

import listd

#: The repository's root (clients/python/tests → ../../..).
ROOT = Path(__file__).resolve().parents[3]


def protocol() -> dict[str, Any]:
    """Protocol/protocol.json."""
    with open(ROOT / "Protocol" / "protocol.json", encoding="utf-8") as file:
        return json.load(file)


class AsyncFacade:
    """An ``AsyncClient`` whose methods block: each call runs on an event loop in a thread of
    its own and returns the awaited result, so tests written against ``Client`` drive the
    asyncio client unchanged (through its real coroutines, futures and reader task)."""

    def __init__(self, open_client: Callable[[], Awaitable[listd.AsyncClient]]) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="asyncio-facade", daemon=True)
        self.thread.start()
        try:
            self.client: listd.AsyncClient = self.run(open_client())
        except BaseException:
            self._stop_loop()
            raise

    def run(self, awaitable: Awaitable[Any], timeout: float = 120) -> Any:
        async def wrapper() -> Any:
            return await awaitable

        return asyncio.run_coroutine_threadsafe(wrapper(), self.loop).result(timeout)

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self.client, name)
        if not callable(attribute):
            return attribute

        def call(*args: Any, **kwargs: Any) -> Any:
            async def invoke() -> Any:
                result = attribute(*args, **kwargs)
                return await result if inspect.isawaitable(result) else result

            return self.run(invoke())

        return call

    def close(self) -> None:
        if self.thread.is_alive():
            try:
                self.run(self.client.close())
            finally:
                self._stop_loop()

    def _stop_loop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()

    def __enter__(self) -> AsyncFacade:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
