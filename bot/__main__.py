"""``python -m bot``: run the bot.  ``python -m bot sandbox``: try it offline.

``python -m bot migrate`` only creates or upgrades the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys
from typing import IO, TYPE_CHECKING, Literal

from bot import config as settings
from bot.config import Config, ConfigError, StartupProblem, load_config, locale_hint
from bot.db.preflight import DatabaseProblem, check_database
from bot.i18n import t

if TYPE_CHECKING:  # only for annotations: _open_database imports the engine lazily
    from sqlalchemy.ext.asyncio import AsyncEngine

__all__ = ["main"]

log = logging.getLogger("bot")


def _setup_logging(level: str) -> None:
    logging.basicConfig(
        level=getattr(logging, level, logging.INFO),
        format="%(asctime)s %(levelname)-7s %(name)s: %(message)s",
    )
    for noisy in ("discord.gateway", "alembic"):
        logging.getLogger(noisy).setLevel(max(logging.getLogger().level, logging.WARNING))


def _first_line(error: BaseException) -> str:
    text = str(getattr(error, "orig", None) or error).strip().splitlines()
    return (text[0] if text else type(error).__name__)[:200]


async def _open_database(config: Config) -> AsyncEngine:
    """The engine, migrated to the latest schema, or :class:`DatabaseProblem` (no traceback)."""
    from sqlalchemy.exc import DBAPIError

    from bot.db.engine import create_engine
    from bot.db.migrate import upgrade

    try:
        engine = create_engine(
            config.database_url, pool_size=config.pool_size, max_overflow=config.max_overflow
        )
    except ModuleNotFoundError as error:
        raise DatabaseProblem("cli.db.driver_missing", module=error.name or "?") from None
    try:
        await upgrade(engine)
    except DatabaseProblem:
        await engine.dispose()
        raise
    except (DBAPIError, OSError, TimeoutError) as error:
        await engine.dispose()
        raise DatabaseProblem("cli.db.unreachable", reason=_first_line(error)) from None
    return engine


def _lock_database(config: Config) -> IO[bytes] | None | Literal[False]:
    """SQLite serves one process: refuse a second one (see :func:`bot.db.engine.lock_sqlite`).

    The held lock file, None (not SQLite), or False (refused: another process holds it)."""
    from bot.db.engine import DatabaseInUse, lock_sqlite

    try:
        return lock_sqlite(config.database_url)
    except DatabaseInUse as error:
        print(t("cli.sqlite_in_use", config.default_locale, path=error.path), file=sys.stderr)
        return False


def _refuse(problem: StartupProblem, locale: str) -> int:
    """One translated line on stderr and exit status 2: the operator has something to fix."""
    print(problem.render(locale), file=sys.stderr)
    return 2


async def _migrate(config: Config) -> int:
    try:
        engine = await _open_database(config)
    except DatabaseProblem as problem:
        return _refuse(problem, config.default_locale)
    await engine.dispose()
    print(t("cli.migrated", config.default_locale))
    return 0


async def _run(config: Config) -> int:
    import discord

    from bot.app import Arbitro

    try:
        engine = await _open_database(config)
    except DatabaseProblem as problem:
        return _refuse(problem, config.default_locale)
    if config.shards.sharded:
        log.info(t("cli.sharded", config.default_locale, shards=config.shards.describe()))
    loop = asyncio.get_running_loop()
    stopping = asyncio.Event()
    bot = Arbitro(config, engine)

    def request_stop() -> None:
        if not stopping.is_set():
            log.info("shutting down")
            stopping.set()
            loop.create_task(bot.close())

    for signum in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(signum, request_stop)
    try:
        while True:
            try:
                async with bot:
                    await bot.start(config.token or "")
                break
            except discord.PrivilegedIntentsRequired:
                if not bot.reads_messages or stopping.is_set():
                    raise
                # The Developer Portal has not enabled Message Content: Discord closed the
                # gateway (4014).  Say once what to enable and run without reading messages.
                log.error(t("cli.message_content_refused", config.default_locale))
                bot = Arbitro(config, engine, message_content_refused=True)
    except discord.LoginFailure:
        print(t("cli.bad_token", config.default_locale), file=sys.stderr)
        return 2
    finally:
        await engine.dispose()
    return 0


def _no_token(config: Config) -> int:
    """Explain how to get a token and offer the offline sandbox.

    With a terminal, ask; without one (``make run`` from a script or an IDE), say how to start
    the sandbox and end normally: no token is a situation to explain, not a failure (a non-zero
    status made ``make`` add its own "Error 2" under the explanation).
    """
    print(t("cli.no_token", config.default_locale), file=sys.stderr)
    if not sys.stdin.isatty():
        print(t("cli.no_terminal", config.default_locale), file=sys.stderr)
        return 0
    answer = input(t("cli.offer_sandbox", config.default_locale)).strip().lower()
    if answer in ("", "s", "si", "sí", "y", "yes"):
        from standin.repl import main as sandbox_main

        return sandbox_main([])
    return 0


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    command = args[0] if args else "run"
    if command == "sandbox":
        from standin.repl import main as sandbox_main

        return sandbox_main(args[1:])
    try:
        config = load_config()
    except ConfigError as error:
        return _refuse(error, locale_hint())
    _setup_logging(config.log_level)
    locale = config.default_locale
    if command not in ("run", "migrate"):
        print(t("cli.usage", locale), file=sys.stderr)
        return 2
    if settings.env_file_problem(settings.ENV_FILE):
        log.warning(t("cli.env_readable", locale, path=settings.ENV_FILE))
    if command == "run" and not config.token:
        return _no_token(config)
    try:
        for key, params in check_database(config.database_url):
            log.warning(t(key, locale, **params))
    except DatabaseProblem as problem:
        return _refuse(problem, locale)
    held = _lock_database(config)  # released by the OS when this process ends, however it ends
    if held is False:
        return 2
    try:
        if command == "migrate":
            return asyncio.run(_migrate(config))
        with contextlib.suppress(KeyboardInterrupt):
            return asyncio.run(_run(config))
        return 0
    finally:
        if held is not None:
            held.close()


if __name__ == "__main__":
    raise SystemExit(main())
