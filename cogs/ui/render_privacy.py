"""``/privacy delete`` as text: the confirmation's preview and the summary of what was done."""

from __future__ import annotations

from collections.abc import Mapping

from bot.i18n import t
from bot.services.privacy.privacy import DeletionPreview, DeletionSummary
from cogs.ui.render import fit_lines

__all__ = ["names", "preview", "summary"]


def names(items: tuple[str, ...], locale: str, limit: int = 15) -> str:
    """«Ardelia», «Bram» y 3 más — for a confirmation that must stay short."""
    if not items:
        return t("common.none", locale)
    shown = ", ".join(t("privacy.quoted", locale, name=n) for n in items[:limit])
    if len(items) > limit:
        shown += " " + t("privacy.and_more", locale, count=len(items) - limit)
    return shown


def preview(
    preview: DeletionPreview,
    choice: str,
    locale: str,
    successors: Mapping[int, int] | None = None,
) -> str:
    """What will happen, before the member confirms; a GM's campaigns go to ``successors``
    (a co-GM) or are archived."""
    lines = [t("privacy.confirm_title", locale)]
    if preview.characters:
        key = "privacy.confirm_delete_characters" if choice == "delete" else "privacy.confirm_hand"
        lines.append(t(key, locale, names=names(preview.characters, locale)))
    if preview.rolls:  # never «Se borrarán tus 0 borradores»
        lines.append(t("privacy.confirm_rolls", locale, count=preview.rolls))
    if preview.drafts:
        lines.append(t("privacy.confirm_drafts", locale, count=preview.drafts))
    successors = successors or {}
    for campaign_id, name, _role in preview.gm_campaigns:
        heir = successors.get(campaign_id)
        if heir is not None:
            lines.append(t("privacy.confirm_gm_handed", locale, name=name, member=heir))
        else:
            lines.append(t("privacy.confirm_gm_archived", locale, name=name))
    live = {name for _id, name, _role in preview.gm_campaigns}
    archived = tuple(n for n in preview.campaigns_as_gm if n not in live)
    if archived:  # already archived: only the stored GM goes
        lines.append(t("privacy.confirm_gm", locale, names=names(archived, locale)))
    if preview.posts:
        key = "privacy.confirm_posts_erased" if choice == "delete" else "privacy.confirm_posts_kept"
        lines.append(t(key, locale, count=preview.posts))
        if preview.gm_copies:
            key = (
                "privacy.confirm_copies_erased"
                if choice == "delete"
                else "privacy.confirm_copies_kept"
            )
            lines.append(t(key, locale, count=preview.gm_copies))
    lines.append(t("privacy.confirm_stays", locale))
    lines.append(t("privacy.confirm_final", locale))
    return fit_lines(lines, locale, 2000)


def summary(summary: DeletionSummary, locale: str) -> str:
    lines = [t("privacy.deleted_title", locale)]
    if summary.deleted_characters:
        lines.append(
            t("privacy.deleted_characters", locale, names=names(summary.deleted_characters, locale))
        )
    if summary.handed_characters:
        lines.append(
            t("privacy.handed_characters", locale, names=names(summary.handed_characters, locale))
        )
    lines.append(t("privacy.rolls_anonymised", locale, count=summary.rolls_anonymised))
    lines.append(t("privacy.drafts_deleted", locale, count=summary.drafts_deleted))
    if summary.posts_erased:
        lines.append(t("post.privacy_erased", locale, count=summary.posts_erased))
    if summary.posts_anonymised:
        lines.append(t("post.privacy_anonymised", locale, count=summary.posts_anonymised))
    for name, member in summary.campaigns_handed:
        lines.append(t("privacy.campaign_handed", locale, name=name, member=member))
    if summary.campaigns_archived:
        archived = names(summary.campaigns_archived, locale)
        lines.append(t("privacy.campaigns_archived", locale, names=archived))
    return fit_lines(lines, locale, 2000)
