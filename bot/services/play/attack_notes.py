"""The GM's notes of secret attacks, for a campaign without a GM channel.

An attack whose numbers are secret (a hidden NPC on either side) made by a player where the
campaign has no GM channel is logged with ``detail.gm_note``; the GM's next fight command
hands those numbers to the GM privately, once (:func:`take_notes`).
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import update
from sqlmodel import col, select

from bot.db.models import Campaign, RollLog
from bot.services.campaigns.service import is_referee
from bot.services.shared.context import Actor, Place
from bot.services.sheets.characters import CharacterService

__all__ = ["MAX_NOTES_READ", "GmNote", "take_notes"]

#: Audit rows read per hand-out of the GM's notes (older ones follow on the next command).
MAX_NOTES_READ = 200


@dataclass(frozen=True, slots=True)
class GmNote:
    """One secret attack's numbers for the GM (from its audit row)."""

    log_id: int
    channel_id: int
    attacker: str
    target: str
    outcome: str
    total: int
    target_number: int | None
    defence: int | None
    hit_points_left: int | None
    damage: int
    #: a sheetless group's creature fell (``hit_points_left`` is then the next one's), and
    #: whether none is left standing
    fell: bool = False
    out: bool = False


def _note(row: RollLog) -> GmNote:
    secret = row.detail.get("secret") or {}
    group = row.detail.get("group") or {}
    return GmNote(
        log_id=row.id or 0,
        channel_id=row.channel_id,
        attacker=str(row.detail.get("attacker", row.character_name or "")),
        target=str(row.detail.get("target", "")),
        outcome=row.outcome or "",
        total=row.total,
        target_number=secret.get("target_number"),
        defence=secret.get("defence"),
        hit_points_left=secret.get("hit_points_left"),
        damage=int(row.detail.get("damage") or 0),
        fell=bool(group.get("fell")),
        out=bool(group.get("fell")) and group.get("standing") == 0,
    )


async def take_notes(
    characters: CharacterService, place: Place, actor: Actor
) -> tuple[GmNote, ...]:
    """The secret numbers of attacks made since the GM last saw them (``detail.gm_note``),
    handed out once: the marker ``campaign.gm_notes_seen`` moves by compare-and-set, so two
    fight commands of the GM at the same moment do not both show them."""
    campaign = await characters.campaigns.find(place)
    if campaign is None or not is_referee(campaign, actor):
        return ()
    async with characters.sessions() as session, session.begin():
        rows = (
            await session.exec(
                select(RollLog)
                .where(
                    RollLog.campaign_id == campaign.id,
                    RollLog.kind == "attack",
                    col(RollLog.id) > campaign.gm_notes_seen,
                )
                .order_by(col(RollLog.id))
                .limit(MAX_NOTES_READ)
            )
        ).all()
        if not rows:
            return ()
        last = max(row.id or 0 for row in rows)
        claimed = await session.exec(
            update(Campaign)
            .where(
                col(Campaign.id) == campaign.id,
                col(Campaign.gm_notes_seen) == campaign.gm_notes_seen,
            )
            .values(gm_notes_seen=last)
        )
        if claimed.rowcount != 1:
            return ()
    return tuple(_note(row) for row in rows if row.detail.get("gm_note"))
