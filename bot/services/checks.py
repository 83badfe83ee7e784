"""Rolling from a sheet: ``/check`` and ``/save`` through the game-system interface.

Every check lands in the audit log with the character's name, like a ``/roll``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.db.models import RollLog
from bot.services.characters import CharacterService
from bot.services.context import Actor, Place
from bot.services.errors import DomainError
from rules.systems.base import CheckOption, CheckRequest, CheckResult, OpposedResult

__all__ = ["CheckService", "CheckView"]

MAX_CIRCUMSTANCES = 8


@dataclass(frozen=True, slots=True)
class CheckView:
    log_id: int
    user_name: str
    character_name: str
    result: CheckResult
    opponent_name: str | None
    opposed: OpposedResult | None
    private: bool
    gm_channel_id: int | None


def _jsonable(values: dict) -> dict:
    """Keep only what the audit log can store as JSON."""
    safe = {}
    for key, value in values.items():
        if isinstance(value, (str, int, float, bool, type(None), list, dict)):
            safe[str(key)] = value
        else:
            safe[str(key)] = str(value)
    return safe


def parse_circumstances(text: str | None) -> frozenset[str]:
    """``"token, amenaza:veneno"`` → ``{"token", "amenaza:veneno"}``."""
    if not text:
        return frozenset()
    items = [part.strip().casefold() for part in text.replace(";", ",").split(",") if part.strip()]
    if len(items) > MAX_CIRCUMSTANCES:
        raise DomainError("check.error.too_many_circumstances", limit=MAX_CIRCUMSTANCES)
    return frozenset(items)


class CheckService:
    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        characters: CharacterService,
        rng: random.Random | None = None,
    ) -> None:
        self.sessions = sessions
        self.characters = characters
        self.rng = rng or random.SystemRandom()

    async def options(
        self, place: Place, actor: Actor, character: str | None
    ) -> tuple[CheckOption, ...]:
        try:
            _campaign, stored, system, settings = await self.characters.sheet_of(
                place, actor, character
            )
        except DomainError:
            return ()
        return tuple(system.check_options(stored.sheet, settings))

    async def check(
        self,
        place: Place,
        actor: Actor,
        option: str,
        *,
        character: str | None = None,
        modifier: int = 0,
        difficulty: int | None = None,
        circumstances: str | None = None,
        against: str | None = None,
        against_option: str | None = None,
        private: bool = False,
    ) -> CheckView:
        campaign, own, system, settings = await self.characters.sheet_of(place, actor, character)
        request = CheckRequest(
            option=option.strip(),
            modifier=modifier,
            difficulty=difficulty,
            circumstances=parse_circumstances(circumstances),
        )
        opposed: OpposedResult | None = None
        opponent_name: str | None = None
        if against is not None:
            opponent = await self.characters.show(place, actor, against, as_opponent=True)
            opponent_name = opponent.name
            other = CheckRequest(option=(against_option or option).strip())
            opposed = system.opposed(own.sheet, request, opponent.sheet, other, settings, self.rng)
            result = opposed.a
        else:
            result = system.check(own.sheet, request, settings, self.rng)
        extra = dict(result.extra)
        updated_sheet = extra.pop("sheet", None)
        if updated_sheet is not None:
            # Some checks change the character (a rolweb death test): store it like any edit.
            await self.characters.update_sheet(
                place,
                actor,
                own.name,
                lambda _sheet, _system, _settings: updated_sheet,
                validate=False,
            )
        entry = RollLog(
            guild_id=place.guild_id,
            channel_id=place.channel_id,
            campaign_id=campaign.id,
            user_id=actor.user_id,
            user_name=actor.name[:100],
            character_name=own.name[:100],
            kind="check",
            expression=result.expression[:250],
            reason=(f"{result.label}" + (f" ← {opponent_name}" if opponent_name else ""))[:200],
            breakdown=result.breakdown,
            detail={"option": result.option, "notes": list(result.notes), **_jsonable(extra)},
            total=result.total,
            difficulty=result.target,
            outcome=str(result.outcome) if result.outcome else None,
            fumble=result.outcome == "fumble",
            private=private,
        )
        async with self.sessions() as session, session.begin():
            session.add(entry)
        return CheckView(
            log_id=entry.id,
            user_name=actor.name,
            character_name=own.name,
            result=result,
            opponent_name=opponent_name,
            opposed=opposed,
            private=private,
            gm_channel_id=campaign.gm_channel_id,
        )
