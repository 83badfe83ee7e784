"""The stand-in: one aiohttp application on 127.0.0.1 serving the REST API and the gateway.

``StandIn`` lives on one event loop; ``StandInThread`` runs it on a background thread so that
synchronous code (pytest tests, the terminal REPL) can drive it with ``call``.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import threading
import time
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from aiohttp import web
from aiohttp.typedefs import Handler

from .callbacks import Callbacks
from .httputil import discord_error, no_content
from .interactions import InteractionRecord, interaction_payload
from .routes import Routes
from .state import Channel, Guild, Member, World

__all__ = ["Answer", "StandIn", "StandInThread"]

T = TypeVar("T")
PIXEL = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
)


class Answer(Exception):
    """The bot did not answer an interaction in time."""


class StandIn:
    def __init__(self, world: World | None = None, *, deadline: float = 3.0) -> None:
        from .gateway import Gateway

        self.world = world or World()
        self.callbacks = Callbacks(self.world, deadline=deadline)
        self.gateway = Gateway(self.world)
        self.app = web.Application(client_max_size=64 * 1024 * 1024, middlewares=[self._record])
        self.app.router.add_get("/gateway", self.gateway.handle)
        self.app.router.add_get("/", self.gateway.handle)
        self.app.router.add_get("/attachments/{bid}/{filename}", self._blob)
        self.app.router.add_get("/cdn/{tail:.*}", self._cdn)
        self.app.router.add_post("/__standin/idle", self._idle)
        Routes(self.world, self.callbacks).add_to(self.app)
        self.app.router.add_route("*", "/{tail:.*}", self._unknown)
        self._runner: web.AppRunner | None = None
        self.port = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    async def start(self, port: int = 0) -> None:
        self._runner = web.AppRunner(self.app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", port)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]  # private, set once started
        self.world.base_url = self.url
        self.gateway.url = self.gateway_url

    async def stop(self) -> None:
        await self.gateway.close()
        if self._runner is not None:
            await self._runner.cleanup()

    @web.middleware
    async def _record(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.path.startswith("/api/"):
            self.world.requests.append((time.monotonic(), request.method, request.path))
            self.world.touch()
        return await handler(request)

    async def _unknown(self, request: web.Request) -> web.Response:
        body = await request.text() if request.can_read_body else ""
        self.world.unknown_requests.append(
            {"method": request.method, "path": request.path, "body": body[:2000]}
        )
        return discord_error(404, 0, "404: Not Found (unknown to the stand-in)")

    async def _idle(self, request: web.Request) -> web.Response:
        """The launched bot's report that all its interaction work is over (see ``settle``):
        the body lists the interactions that process received since its last report."""
        self.world.idle_reports = True
        report = await request.json()
        if isinstance(report, list):  # a launcher that reports interactions only
            report = {"interactions": report, "messages": []}
        for interaction_id in report.get("interactions") or []:
            record = self.callbacks.by_id.get(int(interaction_id))
            if record is not None:
                record.finished.set()
        for event, message_id in report.get("messages") or []:
            self.world.handled_messages[(str(event), int(message_id))] += 1
        return no_content()

    async def settle_messages(
        self, expected: dict[tuple[str, int], int], *, timeout: float, quiet: float
    ) -> None:
        """Waits until the bot has finished the work of these message events: ``expected``
        maps (event, message id) to the count of finished ones to reach (its idle reports
        name them), or, from a bot that sends no reports, for ``quiet`` seconds of quiet."""
        start = time.monotonic()
        handled = self.world.handled_messages
        while any(handled[key] < count for key, count in expected.items()):
            now = time.monotonic()
            if now - start > timeout:
                raise Answer(f"the bot did not finish with message events {expected} in time")
            reports = self.world.idle_reports
            if not reports and now - start > quiet and now - self.world.last_activity > quiet:
                return  # a bot that sends no reports, quiet for a while: assume it is done
            await asyncio.sleep(0.01)

    async def _cdn(self, request: web.Request) -> web.Response:
        """Avatars, icons and the like (``Asset.BASE`` points here): one transparent pixel."""
        return web.Response(body=PIXEL, headers={"Content-Type": "image/png"})

    async def _blob(self, request: web.Request) -> web.StreamResponse:
        found = self.world.blobs.get(int(request.match_info["bid"]))
        if found is None:  # never stored, or its message was deleted (Discord deletes both)
            return discord_error(404, 0, "404: Not Found")
        return web.Response(body=found[1], headers={"Content-Type": "application/octet-stream"})

    # -- interactions -------------------------------------------------------------------------
    def inject(
        self,
        *,
        type: int,
        data: dict[str, Any],
        guild: Guild | None,
        channel: Channel,
        member: Member,
        locale: str,
        message_id: int | None = None,
    ) -> InteractionRecord:
        message = None
        if message_id is not None:
            message = dict(self.world.messages[message_id].data)
        iid, token, payload = interaction_payload(
            self.world,
            type=type,
            data=data,
            guild=guild,
            channel=channel,
            member=member,
            locale=locale,
            message=message,
        )
        record = InteractionRecord(iid, token, type, payload, source_message_id=message_id)
        self.callbacks.register(record)
        self.world.dispatch("INTERACTION_CREATE", payload)
        return record

    async def settle(
        self, record: InteractionRecord, *, timeout: float, quiet: float, defer_grace: float = 2.0
    ) -> None:
        """Waits for the answer, then for the bot to be done with the interaction.

        A bot started through ``standin.launch`` reports when every task the interaction
        started has ended (``/__standin/finished``): then nothing more will come, however
        slow the machine is, and the wait is exact.  Otherwise (a bot started some other
        way) the wait ends once the bot has been quiet for ``quiet`` seconds — a guess that
        a loaded machine can defeat.  A deferred update (type 6) may legitimately be the
        whole answer, so after one the wait for a follow-up or edit ends when the bot reports
        it is done, or after ``defer_grace`` seconds from a bot that sends no reports.
        """
        start = time.monotonic()
        while not record.answered.is_set():
            elapsed = time.monotonic() - start
            if record.callback_type == 6 and elapsed > defer_grace:
                break
            if elapsed > timeout or any(r.get("code") == 10062 for r in record.rejections):
                raise Answer(_describe_silence(record))
            if record.finished.is_set():
                if record.callback_type == 6:
                    break  # the deferred update was the whole answer: the bot is done
                raise Answer(_describe_silence(record))  # the bot is done and said nothing
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(record.answered.wait(), timeout=0.05)
        if self.world.idle_reports:
            remaining = max(timeout - (time.monotonic() - start), 0.05)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(record.finished.wait(), timeout=remaining)
            if record.finished.is_set():
                return
        hard_stop = time.monotonic() + max(quiet * 20, 2.0)
        while time.monotonic() - self.world.last_activity < quiet and time.monotonic() < hard_stop:
            await asyncio.sleep(quiet / 4)


def _describe_silence(record: InteractionRecord) -> str:
    if any(r.get("code") == 10062 for r in record.rejections):
        return "the bot answered after the interaction deadline (10062 Unknown interaction): defer slow commands"
    if record.rejections:
        last = record.rejections[-1]
        return f"the stand-in refused the bot's {last['request']}: {last['status']} {last['error']}"
    if record.callback_type is None:
        return "the bot never answered the interaction (no callback)"
    return f"the bot deferred (type {record.callback_type}) but sent no follow-up or edit"


class StandInThread:
    """Runs a StandIn on its own loop in a daemon thread; ``call`` runs work on that loop."""

    def __init__(self, world: World | None = None, *, deadline: float = 3.0, port: int = 0) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, name="stand-in", daemon=True)
        self._thread.start()
        self.server: StandIn = self.call(self._make(world, deadline, port))

    @staticmethod
    async def _make(world: World | None, deadline: float, port: int) -> StandIn:
        server = StandIn(world, deadline=deadline)
        await server.start(port)
        return server

    def call(self, coro: Coroutine[Any, Any, T], timeout: float | None = 60) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def run(self, fn: Callable[[], T], timeout: float | None = 60) -> T:
        """Runs a plain function on the loop thread, where the world may be touched safely."""

        async def wrapper() -> T:
            return fn()

        return self.call(wrapper(), timeout)

    def close(self) -> None:
        if self.loop.is_closed():
            return
        try:
            self.call(self.server.stop(), timeout=10)
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self._thread.join(timeout=5)
            self.loop.close()
