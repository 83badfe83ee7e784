"""``/campaign stats``: the chart as an attachment and the same facts as text.

The text is what a screen reader reads (the embed) and, shortened, the image's description
(Discord's alt text): players' names as the service chose them (display names, never ids),
durations in hours or days, percentages in the reader's language.
"""

from __future__ import annotations

import io
from datetime import timedelta
from typing import Any

import discord

from bot.formatting import format_date, format_number, format_percent
from bot.i18n import t
from bot.services.table.stats import StatsView
from bot.services.table.stats_data import MAX_WEEKS
from cogs.ui.render import COLOUR, fit_lines, moment, truncate

__all__ = ["duration", "stats"]

_ALT_LIMIT = 1024  # Discord's attachment description


def duration(value: timedelta, locale: str) -> str:
    """``5 h``, ``2,5 días`` — hours up to two days, then days."""
    hours = value / timedelta(hours=1)
    if hours < 1:
        return t("stats.under_an_hour", locale)
    if hours < 48:
        return t("stats.hours", locale, hours=format_number(round(hours, 1), locale))
    return t("stats.days", locale, days=format_number(round(hours / 24, 1), locale))


def _players(view: StatsView, locale: str) -> list[str]:
    lines = []
    for player in view.players:
        params = {
            "name": view.names[player.user_id],
            "speakers": ", ".join(player.speakers[:3]),
            "posts": player.posts,
        }
        if player.median_answer is None:
            lines.append(t("stats.player_line_no_answers", locale, **params))
            continue
        median = duration(player.median_answer, locale)
        lines.append(
            t("stats.player_line", locale, median=median, answers=player.answers, **params)
        )
    return lines


def _busiest(view: StatsView, locale: str) -> str | None:
    totals = [sum(p.per_week[i] for p in view.players) for i in range(len(view.weeks))]
    if not totals or not max(totals):
        return None
    best = max(range(len(totals)), key=lambda i: (totals[i], i))
    week = format_date(view.weeks[best], locale, view.time_zone)
    return t("stats.busiest_week", locale, week=week, posts=totals[best])


def _waiting(view: StatsView, locale: str) -> list[str]:
    return [
        t(
            "stats.waiting_line",
            locale,
            title=scene.title,
            names=", ".join(f"**{entry.name}**" for entry in scene.pending),
            when=moment(scene.started_at, "R"),
        )
        for scene in view.waiting
    ]


def _luck(view: StatsView, locale: str) -> list[str]:
    return [
        t(
            "stats.luck_line_one" if item.rolls == 1 else "stats.luck_line",
            locale,
            name=item.character,
            percent=format_percent(item.mean, locale),
            rolls=item.rolls,
        )
        for item in view.luck
    ]


def stats(view: StatsView, locale: str) -> dict[str, Any]:
    """The reply: an embed with the text summary, the chart attached and shown in it."""
    title_key = "stats.title_players" if view.for_players else "stats.title"
    since = format_date(view.since, locale, view.time_zone)
    head = [t("stats.period", locale, weeks=MAX_WEEKS, since=since)]
    busiest = _busiest(view, locale)
    if busiest:
        head.append(busiest)
    filename = t("stats.filename", locale)
    embed = discord.Embed(
        title=truncate(t(title_key, locale, campaign=view.campaign_name), 256),
        description="\n".join(head),
        colour=COLOUR[None],
    )
    sections = (
        ("stats.players_field", _players(view, locale), "stats.no_posts"),
        ("stats.waiting_field", _waiting(view, locale), "stats.waiting_none"),
        ("stats.luck_field", _luck(view, locale), "stats.luck_none"),
    )
    for name, lines, empty in sections:
        value = fit_lines(lines, locale, 1024) if lines else t(empty, locale)
        embed.add_field(name=t(name, locale), value=value, inline=False)
    embed.set_image(url=f"attachment://{filename}")
    alt = t("stats.alt", locale, campaign=view.campaign_name)
    chart = discord.File(
        io.BytesIO(view.chart), filename=filename, description=truncate(alt, _ALT_LIMIT)
    )
    return {"embed": embed, "file": chart}
