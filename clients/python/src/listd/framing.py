"""LSP framing (Content-Length headers) for JSON-RPC messages: encoding, and an incremental decoder."""

from __future__ import annotations

import json
from typing import Any

__all__ = ["encode_message", "FrameDecoder", "FramingError"]


class FramingError(ValueError):
    """The byte stream is not Content-Length framed JSON (the peer is not a listd)."""


def encode_message(message: Any) -> bytes:
    """One message as a frame: ``Content-Length: N\\r\\n\\r\\n`` and its UTF-8 JSON body.

    Raises ``ValueError`` for what JSON cannot carry (NaN, infinities) and ``TypeError`` for a
    value that is not JSON (a set, bytes, …), before anything is sent.
    """
    body = json.dumps(message, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


class FrameDecoder:
    """Splits a byte stream into JSON messages (Protocol/README.md §1, "Framing").

    ``feed`` takes bytes as they arrive and returns the messages completed by them. Header names
    are case-insensitive, LF-only line ends are accepted, and unknown headers are ignored.
    """

    def __init__(self, max_frame_bytes: int = 1 << 31) -> None:
        self._buffer = bytearray()
        self._length: int | None = None
        self._max = max_frame_bytes

    def feed(self, data: bytes) -> list[Any]:
        """The messages that ``data`` completes, in order. Raises ``FramingError`` on garbage."""
        self._buffer += data
        messages: list[Any] = []
        while True:
            if self._length is None:
                length = self._header()
                if length is None:
                    return messages
                self._length = length
            if len(self._buffer) < self._length:
                return messages
            body = bytes(self._buffer[: self._length])
            del self._buffer[: self._length]
            self._length = None
            try:
                messages.append(json.loads(body.decode("utf-8")))
            except (UnicodeDecodeError, json.JSONDecodeError) as error:
                raise FramingError(f"a frame's body is not JSON: {error}: {body[:200]!r}") from error

    def _header(self) -> int | None:
        """Consumes one complete header block and returns its Content-Length, or None if incomplete."""
        # Skip blank lines between frames.
        while bytes(self._buffer[:1]) in (b"\r", b"\n"):
            del self._buffer[:1]
        # The block ends at the first blank line, CRLF or LF-only.
        ends = [
            (at, size) for at, size in ((self._buffer.find(b"\r\n\r\n"), 4), (self._buffer.find(b"\n\n"), 2)) if at >= 0
        ]
        if not ends:
            if len(self._buffer) > 64 * 1024:
                raise FramingError(f"no end of a header block in 64 KiB: {bytes(self._buffer[:80])!r}")
            return None
        end, size = min(ends)
        block = bytes(self._buffer[:end]).decode("ascii", errors="replace")
        del self._buffer[: end + size]
        length: int | None = None
        for line in block.replace("\r\n", "\n").split("\n"):
            name, colon, value = line.partition(":")
            if not colon:
                raise FramingError(f"malformed header line {line!r}")
            if name.strip().lower() == "content-length":
                try:
                    length = int(value.strip())
                except ValueError:
                    raise FramingError(f"Content-Length is not a number: {value.strip()!r}") from None
        if length is None or length < 0:
            raise FramingError(f"a header block without a valid Content-Length: {block!r}")
        if length > self._max:
            raise FramingError(f"a frame of {length} bytes is over the limit of {self._max}")
        return length
