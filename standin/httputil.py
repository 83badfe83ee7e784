"""Request and response details that discord.py is strict about.

discord.py parses a body as JSON only when Content-Type is exactly ``application/json``
(``json_or_text`` in discord/http.py), while aiohttp's ``json_response`` appends
``; charset=utf-8``. Bodies with files arrive as multipart with ``payload_json`` and
``files[n]`` parts (``handle_message_parameters``).
"""

from __future__ import annotations

import json
from typing import Any

from aiohttp import BodyPartReader, web

__all__ = ["discord_error", "json_response", "no_content", "read_body"]


def json_response(data: Any, status: int = 200) -> web.Response:
    return web.Response(
        body=json.dumps(data, ensure_ascii=False).encode(),
        status=status,
        headers={"Content-Type": "application/json"},
    )


def no_content() -> web.Response:
    return web.Response(status=204)


def discord_error(status: int, code: int, message: str, **extra: Any) -> web.Response:
    return json_response({"code": code, "message": message, **extra}, status=status)


async def read_body(request: web.Request) -> tuple[dict[str, Any], list[tuple[str, bytes]]]:
    """Returns (JSON body, [(filename, bytes)]) for JSON and multipart requests alike."""
    if not request.can_read_body:
        return {}, []
    if request.content_type.startswith("multipart/"):
        body: dict[str, Any] = {}
        files: list[tuple[str, bytes]] = []
        reader = await request.multipart()
        async for part in reader:
            if not isinstance(part, BodyPartReader):  # discord.py never nests multiparts
                continue
            if part.name == "payload_json":
                body = json.loads(await part.text())
            else:
                files.append((part.filename or part.name or "file", bytes(await part.read())))
        return body, files
    raw = await request.read()
    if not raw:
        return {}, []
    data = json.loads(raw)
    return (data if isinstance(data, dict) else {"_list": data}), []
