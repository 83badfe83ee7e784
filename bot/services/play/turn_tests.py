"""A test owed on a turn (rolweb's death test, seed 001 line 142: «En cada turno posterior, el
jugador debe hacer una tirada de muerte … durante la iniciativa de su personaje»), rolled in
the channel's fight (issue 23 §1).

The fight remembers whose turn began owing its test (:attr:`rules.combat.Combat.pending_test`);
``/check`` of that test, by its player or the GM, is allowed only then and once, and marks it
rolled in the same transaction as the roll's write, by compare-and-set on the fight's
version: five tests pressed in one turn roll one.  Outside a fight, or during its set-up, the
test is the GM's business as before.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.services.play.combat_store import active_fight, write_fight_state
from bot.services.shared.context import Place
from bot.services.shared.errors import refused
from rules.combat import Combat
from rules.systems.base import RulesError

__all__ = ["Claim", "claim_test"]

#: Runs in the roll's transaction: marks the owed test rolled, or rolls the roll back.
Claim = Callable[[AsyncSession], Awaitable[None]]


async def claim_test(
    sessions: async_sessionmaker[AsyncSession], place: Place, character_id: int
) -> Claim | None:
    """The claim of the test ``character_id`` owes on this turn; None when it is in no
    fight here (or the fight is being set up).  Refused (translated) out of its turn, on the
    turn it fell, or a second time."""
    record = await active_fight(sessions, place)
    if record is None:
        return None
    combat = Combat.from_dict(record.state)
    who = next((c for c in combat.combatants if c.character_id == character_id), None)
    if who is None or combat.round == 0:
        return None
    try:
        rolled = combat.test_rolled(who.key)
    except RulesError as error:
        raise refused(error) from None
    state = {**record.state, **rolled.to_dict(), "system": record.state.get("system", "")}

    async def claim(session: AsyncSession) -> None:
        # the fight moved meanwhile: roll nothing, say so (StaleWrite, a ConcurrentChange)
        await write_fight_state(session, record, state)

    return claim
