"""The server's campaigns (``/campaign list``): live and archived, with their dates."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import discord

from bot.i18n import t
from bot.services.campaigns.archive import CampaignRow
from cogs.ui.render import COLOUR, fit_lines
from cogs.ui.render import moment as stamp
from rules import systems

__all__ = ["campaign_list"]


def _date(moment: datetime) -> str:
    """A Discord timestamp: each reader sees the date in their own locale and time zone."""
    return stamp(moment, "d")


def campaign_list(rows: tuple[CampaignRow, ...], locale: str) -> dict[str, Any]:
    if not rows:
        return {"content": t("flows.list_empty", locale)}
    lines = []
    for row in rows:
        system = systems.get(row.system).name
        if row.status == "archived" and row.ended_at is not None:
            lines.append(
                t(
                    "flows.list_archived",
                    locale,
                    name=row.name,
                    system=system,
                    gm=f"<@{row.gm_user_id}>" if row.gm_user_id else t("privacy.no_gm", locale),
                    created=_date(row.created_at),
                    ended=_date(row.ended_at),
                )
            )
        else:
            lines.append(
                t(
                    "flows.list_active",
                    locale,
                    name=row.name,
                    system=system,
                    gm=f"<@{row.gm_user_id}>" if row.gm_user_id else t("privacy.no_gm", locale),
                    created=_date(row.created_at),
                )
            )
    embed = discord.Embed(
        title=t("flows.list_title", locale),
        description=fit_lines(lines, locale),
        colour=COLOUR[None],
    )
    return {"embed": embed}
