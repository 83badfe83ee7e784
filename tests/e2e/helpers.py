"""Setup steps shared by the end-to-end scenarios; each fails loudly when refused."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from standin.client import GuildHandle, Sandbox

__all__ = ["new_campaign", "sheet_file", "import_sheet", "start_arbitro"]


def new_campaign(sb: Sandbox, guild_name: str, system: str, *, name: str = "Mesa") -> GuildHandle:
    """A fresh guild whose #mesa is bound to a new campaign run by ``gm``."""
    g = sb.new_guild(name=guild_name)
    sb.command(
        "campaign create", {"name": name, "system": system}, guild=g, channel="mesa", user="gm"
    ).expect_ok()
    return g


def sheet_file(sheet: dict[str, Any], *, npc: bool = False) -> bytes:
    """``sheet`` as a docs/sheet-format.md document, ready for ``/sheet import``."""
    document = {"format": "arbitro.sheet", "version": 1, "system": sheet["system"], "npc": npc}
    return json.dumps({**document, "sheet": sheet}).encode()


def import_sheet(
    sb: Sandbox, g: GuildHandle, sheet: dict[str, Any], *, user: str = "ana", npc: bool = False
) -> None:
    sb.command(
        "sheet import", {"file": sheet_file(sheet, npc=npc)}, guild=g, channel="mesa", user=user
    ).expect_ok()


def start_arbitro(
    database_url: str, log_dir: Path, extra_env: dict[str, str] | None = None
) -> Sandbox:
    """A stand-in with a new Árbitro process connected to ``database_url`` (caller closes it)."""
    sb = Sandbox(
        timeout=float(os.environ.get("ARBITRO_E2E_TIMEOUT", "10")),
        deadline=float(os.environ.get("ARBITRO_E2E_DEADLINE", "3")),
    )
    env = {
        "DATABASE_URL": database_url,
        "LOG_LEVEL": "INFO",
        "ARBITRO_DEFAULT_LOCALE": "es",
        **(extra_env or {}),
    }
    try:
        sb.start_bot("bot.__main__", env=env, log_path=log_dir / "bot.log")
    except Exception:
        sb.close()
        raise
    return sb
