"""Configuration, read once from the environment (and ``.env`` via python-dotenv).

Secrets and deployment choices live here and nowhere else; every other module receives a
:class:`Config`.  Defaults make a fresh clone work: SQLite in the git-ignored ``var/`` folder.
The token never leaves this object by accident: its ``repr`` masks it, so a log line or a
traceback that prints the configuration does not leak it.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dotenv import load_dotenv

from bot.i18n import LOCALES
from rules.text import parse_yes_no

__all__ = [
    "Config",
    "ConfigError",
    "StartupProblem",
    "load_config",
    "env_file_problem",
    "REPO_ROOT",
    "ENV_FILE",
    "SUPPORTED_LOCALES",
    "DEFAULT_RETENTION_DAYS",
    "MAX_RETENTION_DAYS",
    "MAX_SHARDS",
    "Shards",
    "locale_hint",
    "normalized_database_url",
]

REPO_ROOT = Path(__file__).resolve().parent.parent
ENV_FILE = REPO_ROOT / ".env"
SUPPORTED_LOCALES = LOCALES  # the catalogue's languages (bot.i18n.LOCALES), listed once
DEFAULT_DATABASE_URL = f"sqlite+aiosqlite:///{REPO_ROOT / 'var' / 'arbitro.db'}"
DEFAULT_RETENTION_DAYS = 30
MAX_RETENTION_DAYS = 3650
MAX_SHARDS = 4096  # far beyond any bot of this kind; a typo like 20000 is caught, not obeyed


class StartupProblem(ValueError):
    """Something the operator must fix before the bot can start: ``key`` names the translated
    explanation (``cli.*``), printed as one line instead of a traceback (exit status 2)."""

    def __init__(self, key: str, /, **params: Any) -> None:
        self.key = key
        self.params = params
        super().__init__(f"{key} {params}")

    def render(self, locale: str) -> str:
        from bot.i18n import t

        return t(self.key, locale, **self.params)


class ConfigError(StartupProblem):
    """A setting of the environment has a value the bot cannot use."""


@dataclass(frozen=True, slots=True)
class Shards:
    """Which of Discord's shards this process serves.

    Discord sends a guild's events to shard ``(guild_id >> 22) % count``; a process that
    holds shards ``ids`` owns exactly those guilds: their commands, their caches and their
    timers.  The default (one shard of one) is an unsharded bot serving every guild.
    """

    count: int = 1
    ids: tuple[int, ...] = (0,)

    @property
    def sharded(self) -> bool:
        return self.count > 1 or self.ids != (0,)

    def shard_of(self, guild_id: int) -> int:
        return (guild_id >> 22) % self.count

    def owns(self, guild_id: int | None) -> bool:
        """Whether this process serves ``guild_id`` (direct messages go to shard 0)."""
        return self.shard_of(guild_id or 0) in self.ids

    def describe(self) -> str:
        return f"{','.join(map(str, self.ids))}/{self.count}"


@dataclass(frozen=True, slots=True)
class Config:
    token: str | None
    database_url: str
    dev_guild_id: int | None
    log_level: str
    default_locale: str
    retention_days: int = DEFAULT_RETENTION_DAYS
    shards: Shards = Shards()
    timer_lease_seconds: int = (
        60  # how long a claimed timer is reserved (bot.services.shared.timers)
    )
    timer_poll_seconds: int = 300  # how often timers are re-read without a local change
    pool_size: int = 5  # PostgreSQL connections kept per process (docs/deployment.md budget)
    max_overflow: int = 10  # extra PostgreSQL connections per process under load
    #: ``ARBITRO_MESSAGE_CONTENT``: ask Discord for members' messages (the privileged Message
    #: Content intent, enabled in the Developer Portal) so campaigns may post by typing
    #: (issue 24, docs/play-by-post.md «Escribir como en Umbría»).  Off: slash commands only.
    message_content: bool = False
    #: Posting an imported Umbría game into Discord (bot.services.chronicle.publication):
    #: milliseconds between two steps, and seconds before the first.
    publish_pace_ms: int = 2500
    publish_delay_seconds: int = 60

    @property
    def is_sqlite(self) -> bool:
        return self.database_url.startswith("sqlite")

    def __repr__(self) -> str:
        # The token is a password: show only whether there is one.
        token = "'***'" if self.token else "None"
        return (
            f"Config(token={token}, database_url={_mask_url(self.database_url)!r}, "
            f"dev_guild_id={self.dev_guild_id!r}, log_level={self.log_level!r}, "
            f"default_locale={self.default_locale!r}, retention_days={self.retention_days!r}, "
            f"shards={self.shards.describe()!r}, message_content={self.message_content!r})"
        )

    __str__ = __repr__


def _mask_url(url: str) -> str:
    """The database URL without its password (PostgreSQL URLs may carry one)."""
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:  # noqa: BLE001 - not a URL: say nothing of what it contains
        return "<invalid>"


def locale_hint(env: dict[str, str] | None = None) -> str:
    """The language to explain a configuration error in, even if that setting is the bad one."""
    env = dict(os.environ) if env is None else env
    value = (env.get("ARBITRO_DEFAULT_LOCALE") or "es").strip().lower()[:2]
    return value if value in SUPPORTED_LOCALES else "es"


def env_file_problem(path: Path = ENV_FILE) -> bool:
    """True when ``path`` (the ``.env`` holding the token) can be read by other users."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return False
    return bool(mode & (stat.S_IRWXG | stat.S_IRWXO))


def load_config(env: dict[str, str] | None = None, *, dotenv: bool = True) -> Config:
    """Build the configuration from ``env`` (default: the process environment plus ``.env``)."""
    if env is None:
        if dotenv:
            load_dotenv(ENV_FILE, override=False)
        env = dict(os.environ)
    token = (env.get("DISCORD_TOKEN") or "").strip() or None
    database_url = normalized_database_url(
        (env.get("DATABASE_URL") or "").strip() or DEFAULT_DATABASE_URL
    )
    guild = (env.get("DEV_GUILD_ID") or "").strip()
    try:
        dev_guild_id = int(guild) if guild else None
    except ValueError:
        raise ConfigError("cli.config.bad_guild", value=guild[:40]) from None
    log_level = (env.get("LOG_LEVEL") or "INFO").strip().upper()
    default_locale = (env.get("ARBITRO_DEFAULT_LOCALE") or "es").strip().lower()[:2]
    if default_locale not in SUPPORTED_LOCALES:
        raise ConfigError(
            "cli.config.bad_locale",
            value=default_locale,
            allowed=", ".join(SUPPORTED_LOCALES),
        )
    retention = (env.get("ARBITRO_RETENTION_DAYS") or "").strip()
    try:
        retention_days = int(retention) if retention else DEFAULT_RETENTION_DAYS
    except ValueError:
        retention_days = -1
    if not 0 <= retention_days <= MAX_RETENTION_DAYS:
        raise ConfigError(
            "cli.config.bad_retention", value=retention[:40], limit=MAX_RETENTION_DAYS
        )
    shards = load_shards(env)
    lease = _whole(env, "ARBITRO_TIMER_LEASE_SECONDS", 5, 3600) or 60
    poll = _whole(env, "ARBITRO_TIMER_POLL_SECONDS", 1, 3600) or 300
    pool_size = _whole(env, "DATABASE_POOL_SIZE", 1, 100) or 5
    overflow = _whole(env, "DATABASE_MAX_OVERFLOW", 0, 100)
    pace = _whole(env, "ARBITRO_PUBLISH_PACE_MS", 50, 60_000)
    delay = _whole(env, "ARBITRO_PUBLISH_DELAY_SECONDS", 0, 3600)
    return Config(
        token,
        database_url,
        dev_guild_id,
        log_level,
        default_locale,
        retention_days,
        shards,
        lease,
        poll,
        pool_size,
        10 if overflow is None else overflow,
        publish_pace_ms=2500 if pace is None else pace,
        publish_delay_seconds=60 if delay is None else delay,
        message_content=_flag(env, "ARBITRO_MESSAGE_CONTENT"),
    )


def _flag(env: dict[str, str], name: str) -> bool:
    """``env[name]`` as yes/no (1/0, sí/no, true/false…), off when unset; else ConfigError."""
    raw = (env.get(name) or "").strip()
    if not raw:
        return False
    value = parse_yes_no(raw)
    if value is None:
        raise ConfigError("cli.config.bad_flag", name=name, value=raw[:40])
    return value


#: URL schemes hosts give (Heroku's ``postgres://``, libpq's ``postgresql://``, a bare
#: ``sqlite://``) → the asynchronous driver the bot runs on.
ASYNC_SCHEMES = {
    "postgres": "postgresql+asyncpg",
    "postgresql": "postgresql+asyncpg",
    "sqlite": "sqlite+aiosqlite",
}


def normalized_database_url(url: str) -> str:
    """``DATABASE_URL`` as the bot's engine reads it.

    Hosting providers (Heroku and those that copy it: the repository's Procfile) hand out
    ``postgres://user:pass@host/db``, often with libpq's ``?sslmode=require``; the bot speaks
    to PostgreSQL through asyncpg, which SQLAlchemy names ``postgresql+asyncpg`` and which
    calls that parameter ``ssl`` (same values).  Any other scheme is left as typed, for
    :func:`bot.db.preflight.parse_url` to refuse in one line.
    """
    scheme, separator, rest = url.partition("://")
    driver = ASYNC_SCHEMES.get(scheme.strip().lower())
    if not separator or driver is None:
        return url
    if driver.startswith("postgresql"):
        rest = re.sub(r"([?&])sslmode=", r"\1ssl=", rest)
    return f"{driver}://{rest}"


def _whole(env: dict[str, str], name: str, low: int, high: int) -> int | None:
    """``env[name]`` as an integer in ``[low, high]``, None when unset; else ConfigError."""
    raw = (env.get(name) or "").strip()
    if not raw:
        return None
    try:
        value = int(raw)
    except ValueError:
        value = low - 1
    if not low <= value <= high:
        raise ConfigError("cli.config.bad_number", name=name, value=raw[:40], low=low, high=high)
    return value


def load_shards(env: dict[str, str]) -> Shards:
    """``SHARD_COUNT`` with ``SHARD_IDS`` (a comma list) or ``SHARD_INDEX``/``SHARDS_PER_PROCESS``.

    ``SHARD_COUNT`` alone: this process serves every shard.  Neither: one unsharded process.
    The count must be the same in every process of a deployment (Discord routes by it).
    """
    count = _whole(env, "SHARD_COUNT", 1, MAX_SHARDS)
    ids_raw = (env.get("SHARD_IDS") or "").strip()
    index = _whole(env, "SHARD_INDEX", 0, MAX_SHARDS - 1)
    per_process = _whole(env, "SHARDS_PER_PROCESS", 1, MAX_SHARDS)
    if count is None:
        if ids_raw or index is not None or per_process is not None:
            raise ConfigError("cli.config.shards_without_count")
        return Shards()
    if ids_raw and (index is not None or per_process is not None):
        raise ConfigError("cli.config.shards_both")
    if ids_raw:
        ids: list[int] = []
        for part in ids_raw.split(","):
            part = part.strip()
            if not part.isdigit() or int(part) >= count:
                raise ConfigError("cli.config.bad_shard_ids", value=ids_raw[:60], last=count - 1)
            ids.append(int(part))
        if len(set(ids)) != len(ids):
            raise ConfigError("cli.config.bad_shard_ids", value=ids_raw[:60], last=count - 1)
        return Shards(count, tuple(sorted(ids)))
    if index is not None or per_process is not None:
        per_process = per_process or 1
        first = (index or 0) * per_process
        if first >= count:
            raise ConfigError(
                "cli.config.bad_shard_index",
                index=index or 0,
                per_process=per_process,
                count=count,
            )
        return Shards(count, tuple(range(first, min(first + per_process, count))))
    return Shards(count, tuple(range(count)))
