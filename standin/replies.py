"""Snapshots of what the bot did, handed to tests and the REPL.

They are copied on the stand-in's loop, so a test can read them while the bot keeps working.
``Reply.message`` is the interaction's own message (after any edits); follow-ups and edits are
listed separately, and ``all_text`` puts everything together for loose assertions.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from .state import Message, World

__all__ = ["Msg", "Reply", "embed_text", "msg_from", "reply_from"]


def embed_text(embed: dict[str, Any]) -> str:
    """Every human-visible string of an embed, one per line, in reading order."""
    lines = []
    if (embed.get("author") or {}).get("name"):
        lines.append(embed["author"]["name"])
    for key in ("title", "description"):
        if embed.get(key):
            lines.append(str(embed[key]))
    for f in embed.get("fields") or []:
        lines.append(f"{f.get('name', '')}: {f.get('value', '')}")
    if (embed.get("footer") or {}).get("text"):
        lines.append(embed["footer"]["text"])
    return "\n".join(lines)


@dataclass(frozen=True)
class Msg:
    id: int
    channel_id: int
    content: str
    embeds: list[dict[str, Any]]
    components: list[dict[str, Any]]
    ephemeral: bool
    attachments: dict[str, bytes]
    author: str
    data: dict[str, Any]
    deleted: bool = False

    @property
    def text(self) -> str:
        """Content, embeds and Components V2 text displays, as plain text."""
        parts = [self.content] if self.content else []
        parts += [embed_text(e) for e in self.embeds]
        parts += [c.get("content") or "" for c in _walk(self.components) if c.get("type") == 10]
        return "\n".join(p for p in parts if p)

    @property
    def buttons(self) -> list[dict[str, Any]]:
        return [c for c in _walk(self.components) if c.get("type") == 2]

    @property
    def selects(self) -> list[dict[str, Any]]:
        return [c for c in _walk(self.components) if c.get("type") in (3, 5, 6, 7, 8)]


def _walk(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for c in components:
        yield c
        yield from _walk(c.get("components") or [])
        if isinstance(c.get("component"), dict):
            yield c["component"]
        if isinstance(c.get("accessory"), dict):
            yield c["accessory"]


def msg_from(
    msg: Message, data: dict[str, Any] | None = None, files: dict[str, bytes] | None = None
) -> Msg:
    data = copy.deepcopy(data if data is not None else msg.data)
    return Msg(
        id=msg.id,
        channel_id=msg.channel_id,
        content=data.get("content") or "",
        embeds=data.get("embeds") or [],
        components=data.get("components") or [],
        ephemeral=msg.ephemeral,
        attachments=dict(files if files is not None else msg.files),
        author=(data.get("author") or {}).get("username", ""),
        data=data,
        deleted=msg.deleted,
    )


@dataclass
class Reply:
    """The outcome of one injected interaction."""

    ok: bool
    error: str | None = None
    message: Msg | None = None
    followups: list[Msg] = field(default_factory=list)
    edits: list[Msg] = field(default_factory=list)
    callback_type: int | None = None
    modal: dict[str, Any] | None = None
    choices: list[dict[str, Any]] = field(default_factory=list)
    rejections: list[dict[str, Any]] = field(default_factory=list)
    guild_id: int | None = None
    channel_id: int | None = None
    interaction_id: int | None = None

    @property
    def deferred(self) -> bool:
        return self.callback_type in (5, 6)

    def expect_ok(self) -> Reply:
        """For setup steps: the reply itself, or an AssertionError saying what was refused."""
        if not self.ok:
            raise AssertionError(f"refused: {self.error}")
        if self.rejections:
            raise AssertionError(f"the stand-in refused the bot's requests: {self.rejections}")
        return self

    @property
    def content(self) -> str:
        return self.message.content if self.message else ""

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return self.message.embeds if self.message else []

    @property
    def components(self) -> list[dict[str, Any]]:
        return self.message.components if self.message else []

    @property
    def ephemeral(self) -> bool:
        return bool(self.message and self.message.ephemeral)

    @property
    def attachments(self) -> dict[str, bytes]:
        found: dict[str, bytes] = {}
        for m in [self.message, *self.followups]:
            if m is not None:
                found.update(m.attachments)
        return found

    @property
    def text(self) -> str:
        return self.message.text if self.message else ""

    @property
    def messages(self) -> list[Msg]:
        """The response message and every follow-up, each once, in order."""
        seen, out = set(), []
        for m in [self.message, *self.followups]:
            if m is not None and m.id not in seen:
                seen.add(m.id)
                out.append(m)
        return out

    @property
    def all_text(self) -> str:
        texts = [m.text for m in self.messages] + [e.text for e in self.edits]
        return "\n".join(t for t in texts if t)

    def __bool__(self) -> bool:  # pragma: no cover - guard against `assert r` meaning "exists"
        raise TypeError("use r.ok, not the Reply itself, in a condition")


def reply_from(world: World, record: Any) -> Reply:
    def snap(mid: int) -> Msg:
        return msg_from(world.messages[mid])

    payload = record.payload
    reply = Reply(
        ok=True,
        message=snap(record.message_id) if record.message_id else None,
        followups=[snap(m) for m in record.followups],
        edits=[
            msg_from(world.messages[e["message_id"]], e["data"], e["files"]) for e in record.edits
        ],
        callback_type=record.callback_type,
        rejections=copy.deepcopy(record.rejections),
        guild_id=int(payload["guild_id"]) if payload.get("guild_id") else None,
        channel_id=int(payload["channel_id"]),
        interaction_id=record.id,
    )
    if record.callback_type == 9:
        reply.modal = copy.deepcopy(record.callback_data)
        reply.modal["_source_message_id"] = record.source_message_id
    if record.callback_type == 8:
        reply.choices = copy.deepcopy((record.callback_data or {}).get("choices") or [])
    return reply
