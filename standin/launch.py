"""Runs an unmodified discord.py bot against the stand-in.

discord.py reads ``Route.BASE``, ``DiscordWebSocket.DEFAULT_GATEWAY`` and ``Asset.BASE`` when it
uses them, so pointing them at the stand-in before ``main`` runs is enough; the bot's own code does
not change. Only loopback addresses are accepted: this must never talk to anything else, and a
real token must never leave the machine.

    python -m standin.launch --api http://127.0.0.1:PORT [--gateway ws://...] [--module M] -- [args]
"""

from __future__ import annotations

import argparse
import importlib
import ipaddress
import os
import sys
import threading
import time
from collections.abc import Coroutine, Generator
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import urlsplit

if TYPE_CHECKING:
    from discord.types.interactions import Interaction as InteractionData

__all__ = [
    "FAKE_TOKEN",
    "check_loopback",
    "main",
    "point_discord_at",
    "report_finished_interactions",
]

FAKE_TOKEN = "sandbox.token.not-a-real-discord-token"

T = TypeVar("T")


def check_loopback(url: str) -> str:
    """Returns ``url`` if its host is a loopback address, else raises ValueError."""
    host = urlsplit(url).hostname or ""
    if host == "localhost":
        return url
    try:
        if ipaddress.ip_address(host).is_loopback:
            return url
    except ValueError:
        pass
    raise ValueError(f"refusing non-loopback address {url!r}: the stand-in only runs on 127.0.0.1")


def point_discord_at(api: str, gateway: str | None = None) -> None:
    import discord.asset
    import discord.gateway
    import discord.http
    import yarl

    api = check_loopback(api.rstrip("/"))
    gateway = check_loopback(gateway or api.replace("http", "ws", 1) + "/gateway")
    discord.http.Route.BASE = f"{api}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
    discord.asset.Asset.BASE = f"{api}/cdn"


def report_finished_interactions(api: str) -> None:
    """Tell the stand-in whenever the bot has finished all interaction work (``/__standin/idle``),
    and the work of the message events it received (``on_message``: typed posts).

    discord.py answers an interaction in tasks it schedules (the command tree's invoker, a
    view's item callback, ``interaction`` listeners), and those may start tasks of their own.
    Every task created while an interaction is being dispatched inherits a context variable,
    and so do the tasks those create, so the loop's task factory can count them.  A task
    waiting in ``View.wait()`` is waiting for a person, not working, so it is not counted
    while it waits (a confirmation's work resumes in the *command's* task when the *click*
    arrives, which is why the count is global, not per interaction), and neither is a view's
    timeout timer.  Each time the count drops to zero the stand-in is told the ids of the
    interactions this process received since its last report (exactly those: with several
    bot processes, one shard's idleness says nothing of another's): tests then wait exactly as long as the bot works,
    on a fast machine or a loaded one, instead of guessing from a quiet period.  Only the
    test launcher does this: the bot's own code is unchanged.
    """
    import asyncio
    import contextlib
    import contextvars
    import json
    import urllib.request

    from discord.state import ConnectionState
    from discord.ui.view import BaseView

    base = check_loopback(api.rstrip("/"))
    tracked: contextvars.ContextVar[bool] = contextvars.ContextVar("standin_tracked", default=False)
    busy = 0
    received: list[int] = []
    messages: list[list[Any]] = []  # [event, message id] of each message event received

    def post(report: dict[str, list[Any]]) -> None:
        request = urllib.request.Request(
            f"{base}/__standin/idle",
            data=json.dumps(report).encode(),
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        with contextlib.suppress(OSError):  # gone or busy: tests fall back to a quiet period
            urllib.request.urlopen(request, timeout=5).close()

    def hold() -> None:
        nonlocal busy
        busy += 1

    def release(*_: object) -> None:
        nonlocal busy
        busy -= 1
        if busy == 0 and (received or messages):
            finished: dict[str, list[Any]] = {
                "interactions": list(received),
                "messages": messages[:],
            }
            received.clear()
            messages.clear()
            asyncio.get_running_loop().run_in_executor(None, post, finished)

    def factory(
        loop: asyncio.AbstractEventLoop,
        coro: Generator[Any, None, T] | Coroutine[Any, Any, T],
        /,
        **kwargs: Any,
    ) -> asyncio.Task[T]:
        task = asyncio.Task(coro, loop=loop, **kwargs)
        timer = "timeout_task_impl" in getattr(coro, "__qualname__", "")
        if tracked.get() and not timer:
            hold()
            task.add_done_callback(release)
        return task

    original_parse = ConnectionState.parse_interaction_create
    original_wait = BaseView.wait

    def parse_interaction_create(self: ConnectionState[Any], data: InteractionData) -> None:
        loop = asyncio.get_running_loop()
        if loop.get_task_factory() is not factory:
            loop.set_task_factory(factory)
        received.append(int(data["id"]))
        token = tracked.set(True)
        hold()  # held during the synchronous dispatch
        try:
            original_parse(self, data)
        finally:
            tracked.reset(token)
            release()

    def tracking_messages(event: str, original: Any) -> Any:
        """The same for a message event: the work ``on_message`` listeners start (typed
        posts) is counted, and the idle report names the event and its message."""

        def parse(self: ConnectionState[Any], data: Any) -> None:
            loop = asyncio.get_running_loop()
            if loop.get_task_factory() is not factory:
                loop.set_task_factory(factory)
            messages.append([event, int(data["id"])])
            token = tracked.set(True)
            hold()
            try:
                original(self, data)
            finally:
                tracked.reset(token)
                release()

        return parse

    async def wait(self: BaseView) -> bool:
        counted = tracked.get()
        if counted:
            release()
        try:
            return await original_wait(self)
        finally:
            if counted:
                hold()

    # patching discord.py's methods in the test bot is the point here
    ConnectionState.parse_interaction_create = parse_interaction_create  # type: ignore[method-assign]
    ConnectionState.parse_message_create = tracking_messages(  # type: ignore[method-assign]
        "MESSAGE_CREATE", ConnectionState.parse_message_create
    )
    ConnectionState.parse_message_update = tracking_messages(  # type: ignore[method-assign]
        "MESSAGE_UPDATE", ConnectionState.parse_message_update
    )
    ConnectionState.parse_message_delete = tracking_messages(  # type: ignore[method-assign]
        "MESSAGE_DELETE", ConnectionState.parse_message_delete
    )
    BaseView.wait = wait  # type: ignore[method-assign]


def end_ready_with_the_last_guild() -> None:
    """Fire ``on_ready`` as soon as every guild READY listed has arrived.

    discord.py announces the bot ready once no GUILD_CREATE has come for
    ``guild_ready_timeout`` (2 s): on Discord the guilds of READY trickle in.  The stand-in
    sends them all right after READY, so every start idled 2 s before ``on_ready``, the
    durable timers and the purge loop (they wait for it).  Here the wait for more guilds ends
    when the last one READY listed is in, through the same path as the timeout (the queue's
    ``get`` raises ``TimeoutError``); guilds announced live meanwhile are handled as before,
    and the 2 s timeout still applies while a listed guild is missing.  Test launcher only.
    """
    import asyncio

    from discord.guild import Guild
    from discord.state import AutoShardedConnectionState, ConnectionState

    class ReadyGuilds(asyncio.Queue[Guild]):
        def __init__(self, expected: set[int]) -> None:
            super().__init__()
            self.expected = expected

        def put_nowait(self, guild: Guild) -> None:
            self.expected.discard(guild.id)
            super().put_nowait(guild)

        async def get(self) -> Guild:
            if not self.expected and self.empty():
                raise TimeoutError  # what the timeout would say 2 s later
            return await super().get()

    def expected(data: Any) -> set[int]:
        return {int(guild["id"]) for guild in data["guilds"]}

    plain = ConnectionState.parse_ready
    sharded = AutoShardedConnectionState.parse_ready

    def parse_ready(self: ConnectionState[Any], data: Any) -> None:
        plain(self, data)  # schedules _delay_ready, which reads _ready_state when it runs
        self._ready_state = ReadyGuilds(expected(data))

    def parse_ready_sharded(self: AutoShardedConnectionState[Any], data: Any) -> None:
        shard_id = data["shard"][0]
        fresh = shard_id not in self._ready_states  # (a queue still waiting is kept)
        sharded(self, data)  # schedules _delay_shard_ready, which reads the queue when it runs
        if fresh:
            self._ready_states[shard_id] = ReadyGuilds(expected(data))

    # patching discord.py's methods in the test bot is the point here
    ConnectionState.parse_ready = parse_ready  # type: ignore[method-assign]
    AutoShardedConnectionState.parse_ready = parse_ready_sharded  # type: ignore[method-assign]


def seed_dice(seed: int) -> None:
    """Test-only: the bot's services roll with ``random.Random(seed)`` instead of the
    system's entropy, so an end-to-end test that plays a whole fight in a process of its own
    can assert exact numbers (``ARBITRO_TEST_DICE_SEED``; never read by ``bot/`` itself)."""
    import random

    import bot.app

    original = bot.app.Services.__init__

    def init(self: bot.app.Services, *args: Any, **kwargs: Any) -> None:
        if len(args) < 2 and kwargs.get("rng") is None:
            kwargs["rng"] = random.Random(seed)
        original(self, *args, **kwargs)

    bot.app.Services.__init__ = init  # type: ignore[method-assign]  # the test launcher's point


def lift_cooldowns() -> None:
    """Test-only, with the dice seeded: no per-member cooldowns (cogs/ui/cooldowns.py).  A
    replayed script types faster than any player, and how many of its commands fall inside
    one ten-second window depends on the machine's speed: its transcript must not."""
    from cogs.ui import cooldowns

    cooldowns.MemberCooldown.use = lambda self, key, now: None  # type: ignore[method-assign]


def _exit_with_parent(parent: int) -> None:
    """A bot left behind by a killed test run would retry its connection forever: when the
    process that started it goes away (we get re-parented), stop."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m standin.launch", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument(
        "--api", required=True, help="stand-in base URL, e.g. http://127.0.0.1:8123"
    )
    parser.add_argument("--gateway", help="gateway URL (default: the API's /gateway)")
    parser.add_argument(
        "--module", default="bot.__main__", help="module whose main(argv) runs the bot"
    )
    parser.add_argument("rest", nargs=argparse.REMAINDER, help="arguments for the bot, after --")
    args = parser.parse_args(argv)
    rest = args.rest[1:] if args.rest[:1] == ["--"] else args.rest
    try:
        point_discord_at(args.api, args.gateway)
    except ValueError as exc:
        parser.error(str(exc))
    report_finished_interactions(args.api)
    end_ready_with_the_last_guild()
    os.environ.setdefault("DISCORD_TOKEN", FAKE_TOKEN)
    if parent := os.environ.get("ARBITRO_SANDBOX_PARENT"):
        _exit_with_parent(int(parent))
    if seed := os.environ.get("ARBITRO_TEST_DICE_SEED"):
        seed_dice(int(seed))
        lift_cooldowns()
    module = importlib.import_module(args.module)
    result = module.main(rest)
    return int(result or 0)


if __name__ == "__main__":
    sys.exit(main())
