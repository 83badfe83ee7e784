"""A round's resolution paused for a player's choice (issue 25 §1: «where a choice belongs to
a player (rolweb's pain threshold), resolution pauses at that point and asks them, with a
default after a time limit»), for :class:`.rounds.RoundService`.

* When an attack applied at resolution leaves a pain threshold's choice owed
  (:class:`.pain.PainAsk`), the resolution stops right after that declaration: the round's
  stored state keeps whose choice it waits for and which declarations were already applied
  (``DeclarationRound.waiting`` and ``applied``), its claim is released and its deadline is
  the round's own if still ahead, else now plus the round's length (``/init deadline`` or
  ``plazo_asalto``) — the durable timer of the round fires then.  The summary so far says it
  waits, and carries the choice's buttons.
* An NPC's choice is the GM's, who declared the NPC's act beforehand: the campaign's default
  (``umbral_por_defecto``) applies at once and the resolution goes on (docs/rules-decisions.md).
* The choice made (:func:`after_choice`), the deadline come, or the GM's ``/init next``
  (:func:`give_up`: the default, then on) resume it: the rest of the acting combatant's
  declarations, then the next turns.  Resuming claims the paused round by compare-and-set, so
  a press and the deadline at the same moment resume it once.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from bot.db.models import utcnow
from bot.db.types import as_utc
from bot.services.campaigns.service import ROUND_HOURS
from bot.services.play.declarations import seeded
from bot.services.play.pain import PainAsk, PainView, apply_defaults
from bot.services.play.round_views import ActionLine, RoundSummary
from bot.services.shared.context import Actor, Place
from bot.services.shared.errors import DomainError
from bot.services.shared.retry import retrying
from rules.combat.declarations import Declaration, DeclarationRound, round_of

if TYPE_CHECKING:
    from bot.services.play.rounds import RoundService

__all__ = ["after_choice", "give_up", "pain_lines", "pause", "stand", "waiting_for"]


def waiting_for(round_: DeclarationRound) -> tuple[int, int] | None:
    """The choice a paused round waits for: ``(character id, choice number)``."""
    waiting = round_.waiting
    if waiting is None:
        return None
    return int(waiting.get("character_id", 0)), int(waiting.get("ref", 0))


def pain_lines(made: tuple[PainView, ...]) -> list[ActionLine]:
    """The summary's lines of choices made (or defaulted) during the resolution."""
    return [ActionLine(view.name, "pain", pain=view) for view in made]


async def npc_defaults(
    service: RoundService, place: Place, gm: Actor, ask: PainAsk
) -> list[ActionLine]:
    """An NPC's choice during the resolution: the campaign's default, now."""
    made = await apply_defaults(service.combat.characters, place, gm, ask.character_id)
    return pain_lines(made)


async def pause(
    service: RoundService, place: Place, round_: DeclarationRound, ask: PainAsk, fallen: list[int]
) -> datetime:
    """Store the pause (module docstring); returns until when it waits."""
    context = await service.combat.characters.contexts.load(place)
    round_hours = int(context.settings.get(ROUND_HOURS, 48))

    async def attempt() -> datetime:
        record = await service.combat.store.require(place)
        now = utcnow()
        own = as_utc(datetime.fromisoformat(round_.deadline)) if round_.deadline else None
        hours = record.turn_hours or round_hours
        until = own if own is not None and own > now else now + timedelta(hours=hours)
        waiting = {
            "character_id": ask.character_id,
            "ref": ask.ref,
            "name": ask.name,
            "fallen": fallen,
        }
        paused = replace(
            round_, resolving=None, waiting=waiting, deadline=as_utc(until).isoformat()
        )
        await service.write_round(record, paused, until)
        return until

    return await retrying(attempt)


async def after_choice(
    service: RoundService, place: Place, character_id: int, ref: int, made: PainView
) -> RoundSummary | None:
    """The player chose: the round paused for that choice here goes on (None: no round
    waits for it here, or another resumption holds it)."""
    record = await service.combat.store.active(place)
    open_round = round_of(record.state) if record is not None else None
    if open_round is None or waiting_for(open_round) != (character_id, ref):
        return None
    return await service.resolve(
        place, open_round.round, resume=True, first=tuple(pain_lines((made,)))
    )


async def give_up(
    service: RoundService, place: Place, round_: DeclarationRound, gm: Actor, *, at_deadline: bool
) -> RoundSummary | None:
    """Nobody chose before the pause's deadline (or the GM goes on): the default, then the
    rest of the round.  A choice made meanwhile stands: the default finds nothing owed."""
    waited = waiting_for(round_)
    if waited is None:
        return None
    made = await apply_defaults(service.combat.characters, place, gm, waited[0])
    return await service.resolve(
        place, round_.round, at_deadline=at_deadline, resume=True, first=tuple(pain_lines(made))
    )


async def stand(
    service: RoundService, place: Place, actor: Actor, declaration: Declaration
) -> ActionLine:
    """A declared «levantarse» (rolweb), in its turn: the Ágil test with the dice fixed when
    declared, paid from the turn's actions like a live one; a refusal then is reported."""
    if service.pain is None:
        return ActionLine(declaration.name, "refused", problem="pain.error.not_in_system")
    try:
        view = await service.pain.stand(
            place, actor, declaration.name, dice=seeded(declaration.seed)
        )
    except DomainError as error:
        params = tuple((str(k), str(v)) for k, v in error.params.items())
        return ActionLine(declaration.name, "refused", problem=error.key, params=params)
    return ActionLine(declaration.name, "stand", stand=view)
