"""Content-Length framing: frames split anywhere, LF-only headers, other headers, garbage."""

from __future__ import annotations

import pytest

from listd.framing import FrameDecoder, FramingError, encode_message


def test_frames_split_at_every_byte_decode_to_the_same_messages() -> None:
    messages = [{"a": "é"}, [1, 2], {"jsonrpc": "2.0", "id": 1, "result": None}]
    stream = b"".join(encode_message(m) for m in messages)
    stream += b"content-length: 2\nContent-Type: application/vscode-jsonrpc; charset=utf-8\n\n{}"
    decoder = FrameDecoder()
    decoded = [m for i in range(len(stream)) for m in decoder.feed(stream[i : i + 1])]
    assert decoded == [*messages, {}]
    assert FrameDecoder().feed(stream) == [*messages, {}]


def test_the_length_counts_utf8_bytes() -> None:
    assert encode_message({"t": "日本"}) == b'Content-Length: 14\r\n\r\n{"t":"\xe6\x97\xa5\xe6\x9c\xac"}'


@pytest.mark.parametrize(
    "stream, message",
    [
        (b"Content-Length: x\r\n\r\n", "not a number"),
        (b"Junk\r\n\r\n", "malformed header line"),
        (b"Content-Type: a\r\n\r\n", "without a valid Content-Length"),
        (b"Content-Length: 3\r\n\r\n{x}", "not JSON"),
    ],
)
def test_garbage_is_a_framing_error(stream: bytes, message: str) -> None:
    with pytest.raises(FramingError, match=message):
        FrameDecoder().feed(stream)
