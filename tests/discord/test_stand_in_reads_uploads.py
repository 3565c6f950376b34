"""The Discord stand-in reads back every upload exactly as discord.py's form carries it: the JSON
payload, each file's name, bytes and content type, for any name and any bytes."""
from __future__ import annotations

import json

import aiohttp
import pytest

from tests.discord.fake_discord import Upload, _multipart

pytestmark = pytest.mark.asyncio

NAMES = ["board.png", "kibitz-12.pgn", "a b.gif", 'say "hi".png', "back\\slash.png", "C:\\\\two.png",
         "é-üñí.png", "semi;colon=x.png"]
DATA = [b"\x89PNG\r\n\x1a\n" + bytes(range(256)), b"", b"line\r\n", b"\r\n\r\n", b"--", b"\r\n--"]


async def as_discord_py_sends(payload: dict, files: list[Upload]) -> tuple[bytes, str]:
    """The body and Content-Type of a form built the way discord.py builds one (quote_fields=False)."""
    form = aiohttp.FormData(quote_fields=False)
    form.add_field("payload_json", json.dumps(payload), content_type="application/json")
    for index, upload in enumerate(files):
        form.add_field(f"files[{index}]", upload.data, filename=upload.filename, content_type=upload.content_type)
    writer = form()
    return await writer.as_bytes(), writer.content_type


@pytest.mark.parametrize("name", NAMES)
async def test_every_file_name_reads_back_as_sent(name):
    files = [Upload(name, DATA[0], "application/octet-stream"), Upload("two.png", b"second", "image/png")]
    payload = {"content": "alice plays **e4**", "attachments": [{"id": 0, "description": "a board"}]}
    assert _multipart(*await as_discord_py_sends(payload, files)) == (payload, files)


@pytest.mark.parametrize("data", DATA, ids=["png", "empty", "ends-in-crlf", "blank-lines", "dashes", "crlf-dashes"])
async def test_every_file_body_reads_back_as_sent(data):
    files = [Upload("a.bin", data, "application/octet-stream"), Upload("b.bin", data, "application/octet-stream")]
    assert _multipart(*await as_discord_py_sends({"content": ""}, files)) == ({"content": ""}, files)
