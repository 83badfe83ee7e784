"""A local Discord stand-in: test bed and offline sandbox for Árbitro.

``server`` is the aiohttp stand-in (REST + gateway), ``launch`` points an unmodified discord.py
bot at it, ``client`` is the synchronous driver used by the e2e tests and by ``repl``, the
terminal session behind ``python -m bot sandbox``. Imports are lazy so that
``python -m standin.launch`` does not load the driver into the bot's process.
"""

from typing import Any

__all__ = ["GuildHandle", "Msg", "Reply", "Sandbox"]


def __getattr__(name: str) -> Any:
    if name in ("GuildHandle", "Sandbox"):
        from . import client

        return getattr(client, name)
    if name in ("Msg", "Reply"):
        from . import replies

        return getattr(replies, name)
    raise AttributeError(name)
