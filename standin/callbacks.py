"""Interaction callbacks, follow-ups and @original edits: the answers the driver waits for.

The rules are Discord's: one callback per interaction, within the deadline (3 s by default); the
callback types allowed depend on the interaction type; follow-ups need a callback first; the first
follow-up after a "thinking" deferral (type 5) replaces the loading message. Every callback is
answered with the interaction-callback body, since discord.py always sends ``with_response=1``.
"""

from __future__ import annotations

import contextlib
import json
import time
from typing import Any

from aiohttp import web

from .httputil import discord_error, json_response, no_content, read_body
from .interactions import InteractionRecord
from .limits import check_choices, check_message, status_of
from .messages import create_message, delete_message, edit_message
from .state import EPHEMERAL, LOADING, Message, World

__all__ = ["Callbacks"]

ALLOWED = {2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5, 6, 7}}


class Callbacks:
    def __init__(self, world: World, *, deadline: float = 3.0) -> None:
        self.world = world
        self.deadline = deadline
        self.by_id: dict[int, InteractionRecord] = {}
        self.by_token: dict[str, InteractionRecord] = {}

    def register(self, record: InteractionRecord) -> None:
        self.by_id[record.id] = record
        self.by_token[record.token] = record

    def _reject(
        self, rec: InteractionRecord | None, resp: web.Response, what: str, body: Any
    ) -> web.Response:
        entry = {"request": what, "status": resp.status, "body": body, "error": resp.text}
        with contextlib.suppress(ValueError, TypeError):
            entry["code"] = json.loads(resp.text or "")["code"]
        self.world.rejections.append(entry)
        if rec is not None:
            rec.rejections.append(entry)
        return resp

    # -- POST /interactions/{id}/{token}/callback ------------------------------------------
    async def callback(self, request: web.Request) -> web.Response:
        rec = self.by_id.get(int(request.match_info["iid"]))
        body, files = await read_body(request)
        what = f"callback {body.get('type')}"
        if rec is None or rec.token != request.match_info["token"]:
            return self._reject(rec, discord_error(404, 10062, "Unknown interaction"), what, body)
        if rec.callback_type is not None:
            err = discord_error(400, 40060, "Interaction has already been acknowledged.")
            return self._reject(rec, err, what, body)
        if time.monotonic() - rec.created > self.deadline:
            return self._reject(rec, discord_error(404, 10062, "Unknown interaction"), what, body)
        kind, data = int(body.get("type", 0)), body.get("data") or {}
        if kind not in ALLOWED.get(rec.type, set()) or (
            kind in (6, 7) and rec.source_message_id is None
        ):
            err = discord_error(400, 40004, f"Interaction response type {kind} is not valid here")
            return self._reject(rec, err, what, body)
        upload = self.world.upload_in(rec.payload.get("guild_id"))
        if kind in (4, 7) and (
            problem := check_message(data, files=files, partial=kind == 7, upload=upload)
        ):
            return self._reject(rec, json_response(problem, status_of(problem)), what, body)
        if kind == 8 and (problem := check_choices(list(data.get("choices") or []))):
            return self._reject(rec, json_response(problem, status_of(problem)), what, body)
        if kind == 9 and (problem := _check_modal(data)):
            return self._reject(rec, json_response(problem, status_of(problem)), what, body)

        rec.callback_type, rec.callback_data = kind, data
        channel = self.world.channels[int(rec.payload["channel_id"])]
        message: Message | None = None
        if kind == 4:
            message = create_message(
                self.world, channel, data, files, source="interaction", interaction=rec
            )
            rec.message_id = message.id
        elif kind == 5:
            flags = int(data.get("flags") or 0) & EPHEMERAL
            message = create_message(
                self.world,
                channel,
                {"flags": flags},
                source="interaction",
                interaction=rec,
                extra_flags=LOADING,
            )
            rec.message_id = message.id
        elif kind in (6, 7) and rec.source_message_id is not None:  # (refused above if None)
            rec.message_id = rec.source_message_id
            message = self.world.messages[rec.source_message_id]
            if kind == 7:
                edit_message(self.world, message, data, files)
                rec.edits.append(_snapshot(message))
        rec.check_answered()
        self.world.touch()
        info: dict[str, Any] = {"id": str(rec.id), "type": rec.type}
        resource: dict[str, Any] = {"type": kind}
        if message is not None:
            info.update(
                response_message_id=str(message.id),
                response_message_loading=kind == 5,
                response_message_ephemeral=message.ephemeral,
            )
            if kind != 6:
                resource["message"] = message.data
        return json_response({"interaction": info, "resource": resource})

    # -- /webhooks/{application id}/{token}[/messages/{id}] ---------------------------------
    def record_for(self, token: str) -> InteractionRecord | None:
        return self.by_token.get(token)

    async def followup(self, request: web.Request, rec: InteractionRecord) -> web.Response:
        body, files = await read_body(request)
        if rec.callback_type is None:
            return self._reject(rec, discord_error(404, 10015, "Unknown Webhook"), "followup", body)
        upload = self.world.upload_in(rec.payload.get("guild_id"))
        if problem := check_message(body, files=files, upload=upload):
            return self._reject(rec, json_response(problem, status_of(problem)), "followup", body)
        original = self.world.messages.get(rec.message_id) if rec.message_id else None
        if rec.callback_type == 5 and original is not None and original.data["flags"] & LOADING:
            body = {**body, "flags": (int(body.get("flags") or 0) & ~EPHEMERAL)}
            edit_message(self.world, original, body, files)
            original.data["flags"] &= ~LOADING
            msg = original
        else:
            channel = self.world.channels[int(rec.payload["channel_id"])]
            msg = create_message(
                self.world, channel, body, files, source="followup", interaction=rec
            )
        rec.followups.append(msg.id)
        if rec.followup_at is None:
            rec.followup_at = time.monotonic()
        rec.check_answered()
        self.world.touch()
        return json_response(msg.data)

    def _target(self, rec: InteractionRecord, message_ref: str) -> Message | None:
        if message_ref == "@original":
            return self.world.messages.get(rec.message_id) if rec.message_id else None
        msg = self.world.messages.get(int(message_ref)) if message_ref.isdigit() else None
        allowed = {rec.message_id, *rec.followups}
        return msg if msg is not None and msg.id in allowed and not msg.deleted else None

    async def message(self, request: web.Request, rec: InteractionRecord) -> web.Response:
        ref = request.match_info["mid"]
        body, files = await read_body(request)
        if rec.callback_type is None:
            return self._reject(
                rec, discord_error(404, 10015, "Unknown Webhook"), f"{request.method} {ref}", body
            )
        msg = self._target(rec, ref)
        if msg is None:
            return self._reject(
                rec, discord_error(404, 10008, "Unknown Message"), f"{request.method} {ref}", body
            )
        if request.method == "GET":
            return json_response(msg.data)
        if request.method == "DELETE":
            delete_message(self.world, msg)
            self.world.touch()
            return no_content()
        upload = self.world.upload_in(rec.payload.get("guild_id"))
        if problem := check_message(body, files=files, partial=True, upload=upload):
            return self._reject(
                rec, json_response(problem, status_of(problem)), f"PATCH {ref}", body
            )
        edit_message(self.world, msg, body, files)
        msg.data["flags"] &= ~LOADING
        rec.edits.append(_snapshot(msg))
        rec.check_answered()
        self.world.touch()
        return json_response(msg.data)


def _snapshot(msg: Message) -> dict[str, Any]:
    import copy

    return {"message_id": msg.id, "data": copy.deepcopy(msg.data), "files": dict(msg.files)}


def _check_modal(data: dict[str, Any]) -> dict[str, Any] | None:
    problems = []
    if not data.get("custom_id") or len(data.get("custom_id", "")) > 100:
        problems.append("custom_id")
    if not data.get("title") or len(data.get("title", "")) > 45:
        problems.append("title")
    if not 1 <= len(data.get("components") or []) <= 5:
        problems.append("components")
    if not problems:
        return None
    errors = {
        p: {"_errors": [{"code": "BASE_TYPE_BAD_LENGTH", "message": "Invalid length"}]}
        for p in problems
    }
    return {"code": 50035, "message": "Invalid Form Body", "errors": {"data": errors}}
