"""Each combatant's actions in the channel's fight, counted as its system counts them (issue 23
§1), before the act is rolled.

The pure procedure is :mod:`rules.combat.actions` (who may act now, what is left, what an act
spends); the system prices acts through :class:`~rules.systems.base.ActionEconomy`.  What a
combatant spent this round lives in the fight's stored state under :data:`LEDGER_KEY`, next
to the order, and every spend is a compare-and-set on the fight's version: two attacks
pressed together by a one-action combatant spend one action, and the second is refused.
An act the rules refuse after its action was spent (a target killed meanwhile) gives the
action back (:meth:`TurnActions.refund`).

The campaign setting ``acciones_por_turno`` decides what happens to an act out of turn or
beyond the count: ``rechazar`` (default) refuses it, and the GM's circumstance ``forzar`` lets
it through; ``advertir`` lets it through with a warning in the reply; ``libre`` counts nothing.
During the set-up (round 0: an ambush's free attacks) nothing is counted.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, replace

from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.db.models import CombatRecord, saved_id
from bot.services.campaigns.context import CampaignContext
from bot.services.campaigns.service import TURN_ACTIONS
from bot.services.play.combat_store import active_fight, write_fight_state
from bot.services.play.turn_ledger import LEDGER_KEY, ledger_of
from bot.services.shared.context import Place
from bot.services.shared.errors import refused
from bot.services.shared.retry import retrying
from bot.services.shared.versioned import StaleWrite
from rules.combat import Combat, Combatant
from rules.combat.actions import Allowance, Ledger, Use, Verdict, give_back, judge, left, may_act
from rules.systems.base import ActRequest, Problem, RulesError, capabilities

__all__ = ["FORCE", "Spent", "TurnActions"]

FORCE = "forzar"


@dataclass(frozen=True, slots=True)
class Spent:
    """What one act spent: the fight, combatant and round, what it used and granted (for a
    refund), what is left, and the warnings of the ``advertir`` mode (problems)."""

    fight_id: int
    key: str
    round: int
    spent: str
    grants: int = 0
    left: tuple[tuple[str, int], ...] = ()
    warnings: tuple[Problem, ...] = ()


def _who(combat: Combat, character_id: int | None, key: str | None) -> Combatant | None:
    for combatant in combat.combatants:
        if (key is not None and combatant.key == key) or (
            character_id is not None and combatant.character_id == character_id
        ):
            return combatant
    return None


class TurnActions:
    """Spends (and gives back) a combatant's actions in the channel's fight."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession]) -> None:
        self.sessions = sessions

    async def spend(
        self,
        place: Place,
        context: CampaignContext,
        act: ActRequest,
        *,
        referee: bool,
        character_id: int | None = None,
        key: str | None = None,
    ) -> Spent | None:
        """Count ``act`` for the combatant (by character or combatant key) in this channel's
        fight; None when nothing is counted (no fight, not in it, the set-up, a reaction).
        A refusal is a :class:`DomainError` naming the combatant."""
        mode = str(context.settings.get(TURN_ACTIONS, "rechazar"))
        economy = capabilities(context.system).action_economy
        if mode == "libre" or economy is None:
            return None
        # the GM's word; a player's ``forzar`` forces nothing here (the rules that read it
        # refuse it with their own message: rolweb's situations)
        force = FORCE in act.circumstances and referee
        use = economy.action_cost(act, context.settings)
        if not use.counted:
            return None

        async def attempt() -> Spent | None:
            record = await active_fight(self.sessions, place)
            combat = Combat.from_dict(record.state) if record is not None else None
            who = _who(combat, character_id, key) if combat is not None else None
            if record is None or combat is None or who is None or combat.round == 0:
                return None
            allowance = economy.action_allowance(who.actions, context.settings)
            before = ledger_of(record.state, who.key).for_round(combat.round)
            verdict, warnings = _judged(combat, who, allowance, before, use, mode, force)
            await self._store(record, who.key, verdict.ledger)
            return Spent(
                saved_id(record),
                who.key,
                combat.round,
                verdict.spent,
                use.grants,
                tuple((str(k), n) for k, n in left(allowance, verdict.ledger)),
                warnings,
            )

        return await retrying(attempt)

    async def refund(self, place: Place, spent: Spent | None) -> None:
        """Give back what ``spent`` took (the act was refused after it), on the combatant's
        current ledger, while the fight and its round are the ones it was spent in."""
        if spent is None:
            return
        given = spent

        async def attempt() -> None:
            record = await active_fight(self.sessions, place)
            if record is None or saved_id(record) != given.fight_id:
                return
            ledger = ledger_of(record.state, given.key)
            if ledger.round != given.round:
                return
            await self._store(record, given.key, give_back(ledger, given.spent, given.grants))

        # the fight keeps changing: the refused act's action stays spent
        with contextlib.suppress(StaleWrite):
            await retrying(attempt)

    async def _store(self, record: CombatRecord, key: str, ledger: Ledger) -> None:
        """Compare-and-set the fight's state with ``key``'s new ledger (:class:`StaleWrite`
        when the fight changed since it was read: the caller retries)."""
        ledgers = dict(record.state.get(LEDGER_KEY) or {})
        ledgers[key] = ledger.to_dict()
        state = {**record.state, LEDGER_KEY: ledgers}
        async with self.sessions() as session, session.begin():
            await write_fight_state(session, record, state)


def _judged(
    combat: Combat,
    who: Combatant,
    allowance: Allowance,
    before: Ledger,
    use: Use,
    mode: str,
    force: bool,
) -> tuple[Verdict, tuple[Problem, ...]]:
    """Whether ``who`` may act now and what ``use`` spends; refused (translated) unless the
    GM forces it or the campaign only warns (then with the warnings, and counted anyway)."""
    lenient = force or mode == "advertir"
    warnings: list[Problem] = []
    current = combat.current
    if not use.optional and not may_act(
        allowance,
        round_=combat.round,
        acting=current.key if current else None,
        acting_side=current.side.value if current else None,
        key=who.key,
        side=who.side.value,
    ):
        problem = Problem(
            "actions.problem.not_your_turn",
            "",
            {"name": who.name, "current": current.name if current else "—"},
        )
        if not lenient:
            raise refused(RulesError(problem))
        warnings.append(problem)
    try:
        verdict = judge(allowance, before, use, combat.round)
    except RulesError as error:
        if not lenient:
            raise _named(error, who.name) from None
        warnings += [_with_name(p, who.name) for p in error.problems]
        verdict = _over(before, use.cost.value)
    return verdict, () if force else tuple(warnings)  # the GM's word: nothing to warn about


def _with_name(problem: Problem, name: str) -> Problem:
    return replace(problem, params={**problem.params, "name": name})


def _named(error: RulesError, name: str) -> Exception:
    return refused(RulesError([_with_name(p, name) for p in error.problems]))


def _over(ledger: Ledger, cost: str) -> Verdict:
    """An act let through beyond the count (``advertir``, ``forzar``): counted all the same."""
    if cost == "movimiento":
        return Verdict(replace(ledger, movement=ledger.movement + 1), "movimiento")
    return Verdict(replace(ledger, main=ledger.main + 1), "principal")
