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
from urllib.parse import urlsplit

__all__ = ["FAKE_TOKEN", "check_loopback", "main", "point_discord_at"]

FAKE_TOKEN = "sandbox.token.not-a-real-discord-token"


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
    os.environ.setdefault("DISCORD_TOKEN", FAKE_TOKEN)
    if parent := os.environ.get("ARBITRO_SANDBOX_PARENT"):
        _exit_with_parent(int(parent))
    module = importlib.import_module(args.module)
    result = module.main(rest)
    return int(result or 0)


if __name__ == "__main__":
    sys.exit(main())
