"""The player's own defence (seed 001) against a declared NPC attack (issue 25 §1): «los jugadores siempre
tiran» (seed 001), so when the GM declares an NPC's blow at a player's character the player
is asked for the defence with a button; pressing it fixes the defence's dice (a seed, in the
declaration) and shows its outcome as things stand, sealed for that player and the GM; the
resolution rolls the same dice.  A defence never asked for before the resolution is rolled
by the bot then, and the summary says so.

One compare-and-set of the fight's state with the defence's private audit row: two presses
at once roll one defence; a press after the round resolved is refused.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from bot.db.models import saved_id
from bot.services.campaigns.service import is_referee
from bot.services.play.attack_record import AttackView, named_audit
from bot.services.play.combat_store import write_fight_state
from bot.services.play.declarations import SEED_BITS, order_of, seeded
from bot.services.shared.audience import PUBLIC, Part
from bot.services.shared.audit import write_audit
from bot.services.shared.context import Actor, Place
from bot.services.shared.errors import DomainError, NotAllowed
from bot.services.shared.retry import retrying
from rules.combat.declarations import ROUND_KEY, Declaration, round_of

if TYPE_CHECKING:
    from bot.services.play.rounds import RoundService

__all__ = ["defend"]


def _declarer(declaration: Declaration) -> Actor:
    """Who declared the attack (the GM, for an NPC): the preview is computed as he would."""
    return Actor(
        declaration.by, declaration.by_name, frozenset(declaration.by_roles), declaration.by_admin
    )


async def defend(
    rounds: RoundService, place: Place, actor: Actor, fight_id: int, ref: int
) -> AttackView:
    """Roll the defence of declaration ``ref`` in fight ``fight_id`` (module docstring)."""
    context = await rounds.combat.characters.contexts.load(place)
    seed = rounds.attacks.rng.getrandbits(SEED_BITS)

    async def attempt() -> AttackView:
        record = await rounds.combat.store.active(place)
        open_round = round_of(record.state) if record is not None else None
        if record is None or saved_id(record) != fight_id or open_round is None:
            raise DomainError("declare.error.defence_gone")
        declaration = open_round.by_ref(ref)
        if (
            declaration is None
            or declaration.defender is None
            or open_round.resolving
            or open_round.waiting is not None
        ):
            raise DomainError("declare.error.defence_gone")
        if actor.user_id != declaration.defender and not is_referee(context.campaign, actor):
            raise NotAllowed("attack.error.not_your_defence", name=declaration.target)
        if declaration.defence_seed is not None:
            raise DomainError("declare.error.defended", name=declaration.target)
        view = await rounds.attacks.declared_defence(
            place, _declarer(declaration), order_of(declaration),
            seeded(declaration.seed), seeded(seed),
        )  # fmt: skip
        names = (view.attacker, view.target)
        sealed = PUBLIC.sealing(Part.DETAIL, Part.DIFFICULTY) if view.secret else PUBLIC
        entry = named_audit(names, view.result, view.secret, private=True, secrecy=sealed)
        entry = replace(entry, kind="declaration", character=view.target)
        state: dict[str, Any] = {
            **record.state,
            ROUND_KEY: open_round.replacing(replace(declaration, defence_seed=seed)).to_dict(),
        }
        async with rounds.sessions() as session, session.begin():
            log_id = await write_audit(
                session, place, actor, context.campaign.id, view.target, entry
            )
            await write_fight_state(session, record, state)
        return replace(view, log_id=log_id)

    return await retrying(attempt)
