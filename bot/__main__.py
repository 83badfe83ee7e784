"""``python -m bot``: run the bot.  ``python -m bot sandbox``: try it offline.

``python -m bot migrate`` only creates or upgrades the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys

from bot.config import Config, ConfigError, load_config
from bot.i18n import t

__all__ = ["main"]

log = logging.getLogger("bot")


def _setup_logging(level: str) -> None:
    logging.basicConfig(
        level=getattr(logging, level, logging.INFO),
        format="%(asctime)s %(levelname)-7s %(name)s: %(message)s",
    )
    for noisy in ("discord.gateway", "alembic"):
        logging.getLogger(noisy).setLevel(max(logging.getLogger().level, logging.WARNING))


async def _migrate(config: Config) -> None:
    from bot.db.engine import create_engine
    from bot.db.migrate import upgrade

    engine = create_engine(config.database_url)
    try:
        await upgrade(engine)
    finally:
        await engine.dispose()


async def _run(config: Config) -> int:
    import discord

    from bot.app import Arbitro
    from bot.db.engine import create_engine
    from bot.db.migrate import upgrade

    engine = create_engine(config.database_url)
    await upgrade(engine)
    bot = Arbitro(config, engine)
    loop = asyncio.get_running_loop()
    stopping = asyncio.Event()

    def request_stop() -> None:
        if not stopping.is_set():
            log.info("shutting down")
            stopping.set()
            loop.create_task(bot.close())

    for signum in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(signum, request_stop)
    try:
        async with bot:
            await bot.start(config.token or "")
    except discord.LoginFailure:
        print(t("cli.bad_token", config.default_locale), file=sys.stderr)
        return 2
    finally:
        await engine.dispose()
    return 0


def _no_token(config: Config) -> int:
    print(t("cli.no_token", config.default_locale), file=sys.stderr)
    if sys.stdin.isatty():
        answer = input(t("cli.offer_sandbox", config.default_locale)).strip().lower()
        if answer in ("", "s", "si", "sí", "y", "yes"):
            from standin.repl import main as sandbox_main

            return sandbox_main([])
    return 2


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    command = args[0] if args else "run"
    if command == "sandbox":
        from standin.repl import main as sandbox_main

        return sandbox_main(args[1:])
    try:
        config = load_config()
    except ConfigError as error:
        print(error, file=sys.stderr)
        return 2
    _setup_logging(config.log_level)
    if command == "migrate":
        asyncio.run(_migrate(config))
        print(t("cli.migrated", config.default_locale))
        return 0
    if command not in ("run",):
        print(t("cli.usage", config.default_locale), file=sys.stderr)
        return 2
    if not config.token:
        return _no_token(config)
    with contextlib.suppress(KeyboardInterrupt):
        return asyncio.run(_run(config))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
