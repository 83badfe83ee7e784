"""The JSON gateway: HELLO, heartbeats, IDENTIFY -> READY -> GUILD_CREATE, RESUME, member chunks.

Frames are sent as text, which discord.py parses as JSON even though it asks for zlib-stream
(``DiscordWebSocket.received_message`` only decompresses bytes). A session outlives its socket so
that a RESUME after a dropped connection replays the events the bot missed.

Shards work as on Discord: an IDENTIFY with ``shard: [id, count]`` opens a session that receives
only the events of guilds with ``(guild_id >> 22) % count == id`` (and, on shard 0, those without
a guild, such as DMs). Several sessions (several bot processes) are connected at once; a new
IDENTIFY for a shard replaces that shard's previous session.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections import deque
from typing import Any

from aiohttp import WSMsgType, web

from .intents import as_seen, disallowed
from .state import World

__all__ = ["Gateway"]

log = logging.getLogger(__name__)

# discord.py reconnects after 60 s of silence (``heartbeat_timeout``); beats keep it talking.
HEARTBEAT_INTERVAL_MS = 20_000
#: Discord's close code for an IDENTIFY asking for a privileged intent the portal disallows.
DISALLOWED_INTENTS = 4014


def shard_of(guild_id: int, count: int) -> int:
    """Discord's routing: the shard that receives a guild's events."""
    return (guild_id >> 22) % count


def _guild_of_event(event: str, data: dict[str, Any]) -> int | None:
    if event in ("GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE"):
        return int(data["id"])
    guild = data.get("guild_id")
    return int(guild) if guild else None


class Session:
    """One IDENTIFY: its shard, its intents, the events it was sent (for a RESUME)."""

    def __init__(
        self,
        session_id: str,
        shard: tuple[int, int] = (0, 1),
        *,
        intents: int = -1,
        bot_id: int = 0,
    ) -> None:
        self.id = session_id
        self.shard = shard
        self.intents = intents  # -1: everything (tests that open a bare session)
        self.bot_id = bot_id
        self.seq = 0
        self.buffer: deque[dict[str, Any]] = deque(maxlen=2000)
        self.out: asyncio.Queue[dict[str, Any]] | None = None

    def serves(self, guild_id: int | None) -> bool:
        shard_id, count = self.shard
        return shard_of(guild_id or 0, count) == shard_id

    def on_event(self, event: str, data: dict[str, Any]) -> bool:
        """Queue the event for the bot if this session receives it (its shard, its intents;
        a message's content emptied without Message Content); whether it did."""
        if event not in ("READY", "RESUMED") and not self.serves(_guild_of_event(event, data)):
            return False
        seen = as_seen(event, data, self.intents, self.bot_id)
        if seen is None:
            return False
        self.seq += 1
        frame = {"op": 0, "t": event, "s": self.seq, "d": seen}
        self.buffer.append(frame)
        if self.out is not None:
            self.out.put_nowait(frame)
        return True


class Gateway:
    def __init__(self, world: World) -> None:
        self.world = world
        self.sessions: dict[str, Session] = {}
        self.current: Session | None = None
        self.by_shard: dict[tuple[int, int], Session] = {}
        self.identifies: dict[tuple[int, int], int] = {}  # IDENTIFYs per shard, ever
        self.refused_identifies: list[int] = []  # the disallowed intents of each 4014
        self.identified = asyncio.Event()
        self.sockets: set[web.WebSocketResponse] = set()
        self.connections = 0
        self.resumes = 0
        self.url = ""

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        self.connections += 1
        self.sockets.add(ws)
        out: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        writer = asyncio.create_task(self._writer(ws, out))
        out.put_nowait(
            {"op": 10, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}, "s": None, "t": None}
        )
        session: Session | None = None
        try:
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                op, data = frame.get("op"), frame.get("d")
                if op == 1:
                    out.put_nowait({"op": 11, "d": None, "s": None, "t": None})
                elif op == 2:
                    session = self._identify(data, out)
                    if session is None:  # a privileged intent the portal does not allow
                        await ws.close(code=DISALLOWED_INTENTS, message=b"Disallowed intent(s).")
                        break
                elif op == 6:
                    session = self._resume(data, out)
                elif op == 8:
                    self._chunk(data)
                elif op not in (3, 4):
                    log.warning("unknown gateway op %s", op)
        finally:
            if session is not None and session.out is out:
                session.out = None
            writer.cancel()
            self.sockets.discard(ws)
        return ws

    @staticmethod
    async def _writer(ws: web.WebSocketResponse, out: asyncio.Queue[dict[str, Any]]) -> None:
        with contextlib.suppress(ConnectionResetError, RuntimeError):
            while True:
                frame = await out.get()
                await ws.send_str(json.dumps(frame, ensure_ascii=False))

    def _listen(self) -> None:
        self.world.listeners[:] = [s.on_event for s in self.by_shard.values()]

    def _identify(self, data: dict[str, Any], out: asyncio.Queue[dict[str, Any]]) -> Session | None:
        intents = int(data.get("intents") or 0)
        if refused := disallowed(intents, self.world.portal_intents):
            self.refused_identifies.append(refused)
            log.info("IDENTIFY refused: intents %s are not enabled in the portal", refused)
            return None
        shard_id, count = (data.get("shard") or [0, 1])[:2]
        session = Session(
            secrets.token_hex(16),
            (int(shard_id), int(count)),
            intents=intents,
            bot_id=self.world.bot.id,
        )
        self.sessions[session.id] = session
        previous = self.by_shard.get(session.shard)
        if previous is not None:
            previous.out = None
        if self.by_shard and {c for _, c in self.by_shard} != {session.shard[1]}:
            # a new shard count (a redeployment): the old layout's sessions are gone
            self.by_shard.clear()
        self.by_shard[session.shard] = session
        self.identifies[session.shard] = self.identifies.get(session.shard, 0) + 1
        self.current, session.out = session, out
        self.world.identified = data
        self._listen()
        w = self.world
        ready = {
            "v": 10,
            "user": {**w.bot.payload(), "verified": True, "mfa_enabled": False},
            "guilds": [
                {"id": str(g.id), "unavailable": True}
                for g in w.guilds.values()
                if w.bot_in(g) and session.serves(g.id)
            ],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.url,
            "application": {"id": str(w.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "auth": {},
            "user_settings": {},
        }
        if data.get("shard"):
            ready["shard"] = data["shard"]
        session.on_event("READY", ready)
        for guild in w.guilds.values():
            if w.bot_in(guild):
                session.on_event("GUILD_CREATE", guild.create_payload())  # its shard's only
        self.identified.set()
        return session

    def _resume(self, data: dict[str, Any], out: asyncio.Queue[dict[str, Any]]) -> Session | None:
        session = self.sessions.get(data.get("session_id", ""))
        if session is None:
            out.put_nowait({"op": 9, "d": False, "s": None, "t": None})
            return None
        self.resumes += 1
        seen = int(data.get("seq") or 0)
        for frame in list(session.buffer):
            if frame["s"] > seen:
                out.put_nowait(frame)
        session.out = out
        self.current = session
        self.by_shard[session.shard] = session
        self._listen()
        session.on_event("RESUMED", {})
        return session

    def _chunk(self, data: dict[str, Any]) -> None:
        guild = self.world.guilds.get(int(data.get("guild_id", 0)))
        if guild is None or self.current is None:
            return
        session = next((s for s in self.by_shard.values() if s.serves(guild.id)), None)
        if session is None:
            return
        members = list(guild.members.values())
        not_found = []
        if data.get("user_ids"):
            wanted = [int(u) for u in data["user_ids"]]
            not_found = [str(u) for u in wanted if u not in guild.members]
            members = [m for m in members if m.id in wanted]
        elif data.get("query"):
            members = [m for m in members if m.name.lower().startswith(data["query"].lower())]
        if data.get("limit"):
            members = members[: int(data["limit"])]
        chunk = {
            "guild_id": str(guild.id),
            "members": [m.payload() for m in members],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": not_found,
        }
        if data.get("nonce"):
            chunk["nonce"] = data["nonce"]
        session.on_event("GUILD_MEMBERS_CHUNK", chunk)

    async def reconnect(self) -> None:
        """Asks the bot to reconnect (op 7), as Discord does; it should RESUME."""
        for ws in list(self.sockets):
            with contextlib.suppress(ConnectionResetError, RuntimeError):
                await ws.send_str(json.dumps({"op": 7, "d": None, "s": None, "t": None}))

    async def close(self) -> None:
        for ws in list(self.sockets):
            await ws.close()
