"""Who owes what at the table, and since when (issue 25 §2): the one per-player view that
``/catch-up`` shows a player (their own) and the GM's digest shows the GM (everyone's).

Three kinds of debt, each read from the state the rest of the bot keeps:

* ``post`` — a scene's round of posts waits for the character
  (:func:`bot.services.table.pace_rounds.open_rounds`: the player, or the GM while the
  character is NPCized), since the round began;
* ``roll`` — an open roll request (``/request check``) waits for the character's roll, since
  the request was made;
* ``turn`` — a fight played turn by turn is on the character's turn, since the turn began;
* ``declare`` — a fight played by rounds of declarations (issue 25 §1) waits for the
  character's declaration in the open round, until the round's deadline.

The fight's mode names the debt (:func:`_fight_debts`); every reader of :class:`Owed` shows
it by its kind.

Read in a handful of queries per campaign, whatever its size (bounded by the pace's
:data:`~bot.services.table.pace_rounds.MAX_SCENES` and :data:`MAX_OPEN`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.db.models import (
    Campaign,
    CombatRecord,
    RollRequest,
    RollRequestEntry,
    Scene,
    Timer,
    saved_id,
)
from bot.services.play.combat_store import TURN_TIMER
from bot.services.table.pace_rounds import open_rounds
from bot.services.table.pacing import DECLARE, KINDS, POST, ROLL, TURN, Owed, RoundView
from rules.combat import Combat
from rules.combat.declarations import Mode, mode_of, round_of

__all__ = ["DECLARE", "KINDS", "MAX_OPEN", "POST", "ROLL", "TURN", "Owed", "owed_in_campaign"]

#: Open requests and active fights read per campaign (a bound on one reading).
MAX_OPEN = 100


async def owed_in_campaign(
    session: AsyncSession,
    campaign: Campaign,
    now: datetime,
    rounds: Sequence[RoundView] | None = None,
) -> tuple[Owed, ...]:
    """Everything owed in the campaign now, oldest first within each kind (``rounds``: the
    open scenes' rounds when the caller has read them already)."""
    if rounds is None:
        rounds = await open_rounds(session, campaign, now)
    rounds = [r for r in rounds if r.pending]
    requests = (
        await session.exec(
            select(RollRequest)
            .where(RollRequest.campaign_id == campaign.id, RollRequest.status == "open")
            .order_by(col(RollRequest.id))
            .limit(MAX_OPEN)
        )
    ).all()
    fights = (
        await session.exec(
            select(CombatRecord)
            .where(CombatRecord.campaign_id == campaign.id, CombatRecord.status == "active")
            .order_by(col(CombatRecord.id))
            .limit(MAX_OPEN)
        )
    ).all()
    # a fight's turn reminder (its durable timer) is where the moment its turn began is kept
    turns = dict(
        (
            await session.exec(
                select(Timer.ref, Timer.due_at).where(
                    Timer.kind == TURN_TIMER, col(Timer.ref).in_([str(f.id) for f in fights])
                )
            )
        ).all()
    )
    found = [
        *_post_debts(rounds),
        *_roll_debts(requests, await _unrolled(session, campaign, requests)),
        *(
            debt
            for fight in fights
            for debt in _fight_debts(fight, campaign.gm_user_id, turns.get(str(fight.id)))
        ),
    ]
    return tuple(sorted(found, key=Owed.order))


def _post_debts(rounds: Iterable[RoundView]) -> list[Owed]:
    return [
        Owed(
            POST,
            entry.responsible_id,
            entry.name,
            view.title,
            view.channel_id,
            view.started_at,
            entry.npcized,
        )
        for view in rounds
        for entry in view.pending
    ]


async def _unrolled(
    session: AsyncSession, campaign: Campaign, requests: Sequence[RollRequest]
) -> set[tuple[int, int]]:
    """``(request id, character id)`` of every roll still awaited: the entry rows a press
    has not filled (issue 26 keeps each roll there, not in the request's asked list), of
    requests outside a closed scene (its buttons are refused: nobody owes them)."""
    if not requests:
        return set()
    closed = set(
        (
            await session.exec(
                select(Scene.channel_id).where(
                    Scene.campaign_id == campaign.id,
                    Scene.status == "closed",
                    col(Scene.channel_id).in_({r.channel_id for r in requests}),
                )
            )
        ).all()
    )
    live = [saved_id(r) for r in requests if r.channel_id not in closed]
    if not live:
        return set()
    rows = await session.exec(
        select(RollRequestEntry.request_id, RollRequestEntry.character_id).where(
            col(RollRequestEntry.request_id).in_(live), col(RollRequestEntry.log_id).is_(None)
        )
    )
    return {(int(request_id), int(character_id)) for request_id, character_id in rows.all()}


def _roll_debts(requests: Sequence[RollRequest], unrolled: set[tuple[int, int]]) -> list[Owed]:
    """The awaited rolls (``unrolled``), named as the request asked them."""
    return [
        Owed(
            ROLL,
            int(entry["owner_id"]),
            str(entry["name"]),
            request.label,
            request.channel_id,
            request.created_at,
        )
        for request in requests
        for entry in request.entries
        if (saved_id(request), int(entry["character_id"])) in unrolled
    ]


def _fight_debts(
    record: CombatRecord, gm_user_id: int, reminder_due: datetime | None
) -> list[Owed]:
    """What the fight waits for: by turns, the turn the tracker is on; by declarations, the
    declaration of each combatant the open round still waits for (none while it resolves).

    Since when: a turn's reminder (``reminder_due``, its timer's moment) less its hours when
    the fight has one (the moment the turn began), else the fight's last change."""
    combat = Combat.from_dict(record.state)
    if combat.ended:
        return []
    since = record.updated_at
    if mode_of(record.state) is Mode.DECLARATIONS:
        return _declaration_debts(record, combat, gm_user_id, since)
    current = combat.current
    if current is None:
        return []
    if reminder_due is not None and record.turn_hours:
        since = reminder_due - timedelta(hours=record.turn_hours)
    who = current.owner_id if current.owner_id is not None else gm_user_id
    return [Owed(TURN, who, current.name, str(combat.round), record.channel_id, since)]


def _declaration_debts(
    record: CombatRecord, combat: Combat, gm_user_id: int, since: datetime
) -> list[Owed]:
    declaring = round_of(record.state)
    if declaring is None or declaring.resolving:
        return []
    until = datetime.fromisoformat(declaring.deadline) if declaring.deadline else None
    names = {c.key: c for c in combat.combatants}
    owed = []
    for key in declaring.owing(declaring.owed):
        combatant = names.get(key)
        if combatant is None:
            continue
        who = combatant.owner_id if combatant.owner_id is not None else gm_user_id
        where = str(declaring.round)
        owed.append(
            Owed(DECLARE, who, combatant.name, where, record.channel_id, since, until=until)
        )
    return owed
