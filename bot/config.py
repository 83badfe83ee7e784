"""Configuration, read once from the environment (and ``.env`` via python-dotenv).

Secrets and deployment choices live here and nowhere else; every other module receives a
:class:`Config`.  Defaults make a fresh clone work: SQLite in the git-ignored ``var/`` folder.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from dotenv import load_dotenv

from bot.i18n import LOCALES

__all__ = ["Config", "load_config", "REPO_ROOT", "SUPPORTED_LOCALES"]

REPO_ROOT = Path(__file__).resolve().parent.parent
SUPPORTED_LOCALES = LOCALES  # the catalogue's languages (bot.i18n.LOCALES), listed once
DEFAULT_DATABASE_URL = f"sqlite+aiosqlite:///{REPO_ROOT / 'var' / 'arbitro.db'}"


class ConfigError(ValueError):
    """A setting has a value the bot cannot use."""


@dataclass(frozen=True, slots=True)
class Config:
    token: str | None
    database_url: str
    dev_guild_id: int | None
    log_level: str
    default_locale: str

    @property
    def is_sqlite(self) -> bool:
        return self.database_url.startswith("sqlite")


def load_config(env: dict[str, str] | None = None, *, dotenv: bool = True) -> Config:
    """Build the configuration from ``env`` (default: the process environment plus ``.env``)."""
    if env is None:
        if dotenv:
            load_dotenv(REPO_ROOT / ".env", override=False)
        env = dict(os.environ)
    token = (env.get("DISCORD_TOKEN") or "").strip() or None
    database_url = (env.get("DATABASE_URL") or "").strip() or DEFAULT_DATABASE_URL
    guild = (env.get("DEV_GUILD_ID") or "").strip()
    try:
        dev_guild_id = int(guild) if guild else None
    except ValueError:
        raise ConfigError(f"DEV_GUILD_ID must be a numeric Discord id, not {guild!r}") from None
    log_level = (env.get("LOG_LEVEL") or "INFO").strip().upper()
    default_locale = (env.get("ARBITRO_DEFAULT_LOCALE") or "es").strip().lower()[:2]
    if default_locale not in SUPPORTED_LOCALES:
        raise ConfigError(
            f"ARBITRO_DEFAULT_LOCALE must be one of {', '.join(SUPPORTED_LOCALES)}, not {default_locale!r}"
        )
    return Config(token, database_url, dev_guild_id, log_level, default_locale)
