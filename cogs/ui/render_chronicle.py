"""Replies of ``/campaign export`` and ``/campaign import`` (the chronicle)."""

from __future__ import annotations

from bot.i18n import t
from bot.services.chronicle.archive import ArchiveProblems
from bot.services.chronicle.service import ChronicleFile, ImportSummary
from cogs.ui.render import truncate

__all__ = ["exported", "imported", "problems"]

#: Discord's limit for a message's text, minus room for the heading.
MAX_PROBLEMS_TEXT = 1800


def exported(file: ChronicleFile, campaign: str, locale: str) -> str:
    return t("chronicle.exported", locale, campaign=campaign, **file.counts)


def imported(summary: ImportSummary, locale: str) -> str:
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
