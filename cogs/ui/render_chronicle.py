"""Replies of ``/campaign export`` and ``/campaign import`` (the chronicle)."""

from __future__ import annotations

from typing import Any

import discord

from bot.formatting import format_number
from bot.i18n import t
from bot.services.chronicle.archive import ArchiveProblems
from bot.services.chronicle.service import ChronicleFile, ImportSummary
from bot.services.chronicle.umbria_import import UmbriaSummary
from bot.words import whole_list
from cogs.ui.publishing import StopPublicationButton
from cogs.ui.render import truncate

__all__ = ["exported", "imported", "imported_message", "part_sent", "problems", "too_big"]

#: Discord's limit for a message's text, minus room for the heading.
MAX_PROBLEMS_TEXT = 1800


def _megabytes(size: int, locale: str) -> str:
    """Megabytes with one decimal in the reader's language («25,3» in Spanish)."""
    return format_number(size / 2**20, locale, 1)


def exported(file: ChronicleFile, campaign: str, locale: str) -> str:
    text = t("chronicle.exported", locale, campaign=campaign, **file.counts)
    if len(file.parts) > 1:
        limit = _megabytes(file.limit, locale)
        text += "\n" + t("chronicle.exported_parts", locale, count=len(file.parts), limit=limit)
    return text


def part_sent(number: int, count: int, locale: str) -> str:
    return t("chronicle.part_sent", locale, number=number, count=count)


def too_big(file: ChronicleFile, name: str, size: int, locale: str) -> str:
    """A part still over the upload limit (the record alone, on a huge campaign)."""
    return t(
        "chronicle.error.part_too_big",
        locale,
        name=name,
        size=_megabytes(size, locale),
        limit=_megabytes(file.limit, locale),
    )


def imported(summary: ImportSummary | UmbriaSummary, locale: str) -> str:
    if isinstance(summary, UmbriaSummary):
        return truncate(umbria_imported(summary, locale), MAX_PROBLEMS_TEXT)
    view = summary.campaign
    return t(
        "chronicle.imported",
        locale,
        campaign=view.name,
        gm=f"<@{view.gm_user_id}>",
        **summary.counts,
    )


def problems(error: ArchiveProblems, locale: str) -> str:
    """Every problem of a refused archive, one per line, in the member's language."""
    lines = [f"• {t(key, locale, **params)}" for key, params in error.problems]
    if error.more:
        lines.append(t("chronicle.error.more_problems", locale, count=error.more))
    text = t("chronicle.error.invalid", locale, problems="\n".join(lines))
    return truncate(text, MAX_PROBLEMS_TEXT)


def imported_message(summary: ImportSummary | UmbriaSummary, locale: str) -> dict[str, Any]:
    """The import's reply: its summary, and for a paced posting how long it will take and
    the button that stops it."""
    message: dict[str, Any] = {"content": imported(summary, locale)}
    job = summary.publication if isinstance(summary, UmbriaSummary) else None
    if job is None:
        return message
    minutes = max(1, -(-job.seconds // 60))
    key = "umbria.publication_posts" if job.mode == "posts" else "umbria.publication_links"
    line = t(key, locale, scenes=job.scenes, posts=job.posts, minutes=minutes,
             start=f"<t:{int(job.starts_at.timestamp())}:R>")  # fmt: skip
    message["content"] = truncate(message["content"] + "\n" + line, 2000)
    view = discord.ui.View(timeout=None)
    view.add_item(StopPublicationButton(job.id, label=t("umbria.stop_publication", locale)))
    message["view"] = view
    return message


def umbria_imported(summary: UmbriaSummary, locale: str) -> str:
    """What an Umbría import wrote, what each player does next, and what the zip lacked."""
    lines = [
        t("umbria.imported.headline", locale, campaign=summary.name, gm=f"<@{summary.gm_user_id}>"),
        t("umbria.imported.counts", locale, **summary.counts),
        t("umbria.imported.claim", locale),
        t("umbria.imported.sheets", locale),
        t("umbria.imported.history", locale),
    ]
    if summary.skipped:
        lines.append(t("umbria.imported.skipped", locale, pages=whole_list(summary.skipped)))
    if summary.missing_images:
        lines.append(t("umbria.imported.missing_images", locale, count=summary.missing_images))
    if summary.unknown_speakers:
        names = whole_list(summary.unknown_speakers)
        lines.append(t("umbria.imported.unknown_speakers", locale, names=names))
    if summary.bad_avatars:
        names = whole_list(summary.bad_avatars)
        lines.append(t("umbria.imported.bad_avatars", locale, names=names))
    return "\n".join(lines)
