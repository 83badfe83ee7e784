"""Configuration, read once from the environment (and ``.env`` via python-dotenv).

Secrets and deployment choices live here and nowhere else; every other module receives a
:class:`Config`.  Defaults make a fresh clone work: SQLite in the git-ignored ``var/`` folder.
The token never leaves this object by accident: its ``repr`` masks it, so a log line or a
traceback that prints the configuration does not leak it.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dotenv import load_dotenv

from bot.i18n import LOCALES

__all__ = [
    "Config",
    "ConfigError",
    "load_config",
    "env_file_problem",
    "REPO_ROOT",
    "ENV_FILE",
    "SUPPORTED_LOCALES",
    "DEFAULT_RETENTION_DAYS",
    "MAX_RETENTION_DAYS",
]

REPO_ROOT = Path(__file__).resolve().parent.parent
ENV_FILE = REPO_ROOT / ".env"
SUPPORTED_LOCALES = LOCALES  # the catalogue's languages (bot.i18n.LOCALES), listed once
DEFAULT_DATABASE_URL = f"sqlite+aiosqlite:///{REPO_ROOT / 'var' / 'arbitro.db'}"
DEFAULT_RETENTION_DAYS = 30
MAX_RETENTION_DAYS = 3650


class ConfigError(ValueError):
    """A setting has a value the bot cannot use; ``key`` names the translated explanation."""

    def __init__(self, key: str, /, **params: Any) -> None:
        self.key = key
        self.params = params
        super().__init__(f"{key} {params}")

    def render(self, locale: str) -> str:
        from bot.i18n import t

        return t(self.key, locale, **self.params)


@dataclass(frozen=True, slots=True)
class Config:
    token: str | None
    database_url: str
    dev_guild_id: int | None
    log_level: str
    default_locale: str
    retention_days: int = DEFAULT_RETENTION_DAYS

    @property
    def is_sqlite(self) -> bool:
        return self.database_url.startswith("sqlite")

    def __repr__(self) -> str:
        # The token is a password: show only whether there is one.
        token = "'***'" if self.token else "None"
        return (
            f"Config(token={token}, database_url={_mask_url(self.database_url)!r}, "
            f"dev_guild_id={self.dev_guild_id!r}, log_level={self.log_level!r}, "
            f"default_locale={self.default_locale!r}, retention_days={self.retention_days!r})"
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
    database_url = (env.get("DATABASE_URL") or "").strip() or DEFAULT_DATABASE_URL
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
    return Config(token, database_url, dev_guild_id, log_level, default_locale, retention_days)
