"""Who attacks whom: the two sides of an attack, resolved one way for every attack use case
(``/attack``, the defence of a pending request, a touch spell).

The attacker is the caller's active character, or what ``/attack … character`` names (any
character or combatant for the GM; a sheetless combatant only by the GM, with the bonus and
damage typed); the target a combatant of this channel's fight first, then a character the
caller can see (a hidden NPC in the fight can be attacked by players).  Acting *with* a
character needs its owner or the GM; being the target does not: the write to the target's
sheet is the rules acting on the attacker's behalf.

Whether a side's numbers are secret is decided here too (:meth:`Sides.secret`,
:meth:`Sides.hidden`): a hidden NPC on either side, or a sheetless group whose numbers the GM
typed, keeps them from the players unless the campaign shows numbers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.db.models import Campaign, Character, CombatRecord
from bot.grammar import gender_of
from bot.services.campaigns.context import CampaignContext
from bot.services.campaigns.service import SHOW_NUMBERS, is_referee
from bot.services.play.combat_store import active_fight, fight_in
from bot.services.shared.context import Actor, Place
from bot.services.shared.errors import DomainError, NotAllowed, NotReferee
from bot.services.sheets.access import find_character, require_playable
from bot.services.sheets.dead import require_alive_target
from bot.services.sheets.schema import upgraded_sheet
from rules.combat import Combat
from rules.combat.attack import Fighter
from rules.combat.groups import is_out
from rules.combat.health import Act, require
from rules.combat.participants import Combatant
from rules.systems.base import Problem, RulesError, capabilities

__all__ = ["MAX_DAMAGE_TEXT", "Side", "SideFinder", "Sides", "damage_text"]

MAX_DAMAGE_TEXT = 40


@dataclass(frozen=True, slots=True)
class Side:
    """One side of an attack: what the rules see (``fighter``) and where it comes from (a
    character, a combatant of the fight, or both)."""

    fighter: Fighter
    character: Character | None = None
    combatant: Combatant | None = None

    @property
    def hidden_npc(self) -> bool:
        return bool(self.character is not None and self.character.is_npc and self.character.hidden)

    @property
    def gender(self) -> str | None:
        """The character's grammatical gender (states and notes agree with it)."""
        return gender_of(self.character.sheet) if self.character is not None else None


@dataclass(frozen=True, slots=True)
class Sides:
    """An attack's two sides in the channel's fight (``record``/``combat`` None: no fight);
    ``referee``: the caller is the campaign's GM."""

    attacker: Side
    target: Side
    referee: bool
    record: CombatRecord | None = None
    combat: Combat | None = None

    def _typed_group(self) -> bool:
        """A sheetless group whose numbers the GM typed at ``/init add``."""
        target = self.target
        return target.character is None and (
            target.fighter.defence is not None or target.fighter.hit_points is not None
        )

    def hidden(self, settings: Mapping[str, Any]) -> tuple[bool, bool]:
        """(attacker's numbers withheld, target's numbers withheld) — see :meth:`secret`."""
        if settings.get(SHOW_NUMBERS, False):
            return False, False
        return self.attacker.hidden_npc, self.target.hidden_npc or self._typed_group()

    def secret(self, settings: Mapping[str, Any]) -> bool:
        """A hidden NPC on either side keeps its numbers from the players (its AC/Defensa or
        hit points as a target; as an attacker, the defence target its Diestro gives away),
        and so does a sheetless group whose numbers the GM typed."""
        return any(self.hidden(settings))

    def key(self, side: Side) -> str | None:
        """The side's combatant key in the fight (None: it is not in it)."""
        if side.combatant is not None:
            return side.combatant.key
        if side.character is None or self.combat is None:
            return None
        wanted = side.character.id
        return next((c.key for c in self.combat.combatants if c.character_id == wanted), None)

    def require_fit(self, context: CampaignContext, act: Act) -> None:
        """Before any die: the attacker's health allows ``act`` (not while dying, unconscious
        or dead) and the target is not dead or out of the fight (a group whose last creature
        fell included)."""
        system, settings = context.system, context.settings
        health = capabilities(system).health
        attacker = self.attacker.fighter
        if health is not None and attacker.sheet is not None:
            require(
                health.combat_state(attacker.sheet, settings), act, attacker.name,
                system=system.id, gender=gender_of(attacker.sheet),
            )  # fmt: skip
        target = self.target.fighter
        if target.sheet is not None:
            require_alive_target(system, target.sheet, settings, target.name)
        group = self.target.combatant
        if target.sheet is None and group is not None and is_out(group):
            raise RulesError(Problem("combat.problem.group_down", "", {"name": group.name}))


def damage_text(text: str | None) -> str | None:
    """The damage dice the GM typed for a sheetless attacker, without spaces, bounded."""
    if text is None:
        return None
    text = text.strip().replace(" ", "")
    if not text or len(text) > MAX_DAMAGE_TEXT:
        raise DomainError("attack.error.bad_damage", limit=MAX_DAMAGE_TEXT)
    return text


class SideFinder:
    """Reads the channel's fight and the characters it names (see the module docstring)."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession]) -> None:
        self.sessions = sessions

    async def fight(self, place: Place) -> CombatRecord | None:
        """The channel's active fight, if any."""
        return await active_fight(self.sessions, place)

    async def by_id(
        self, campaign: Campaign, character_id: int, session: AsyncSession | None = None
    ) -> Character:
        """A character of the campaign by id; ``attack.error.gone`` once deleted.  Read in
        ``session`` when given (:meth:`resolve` reads everything in one)."""
        if session is None:
            async with self.sessions() as own:
                character = await own.get(Character, character_id)
        else:
            character = await session.get(Character, character_id)
        if (
            character is None
            or character.campaign_id != campaign.id
            or character.deleted_at is not None
        ):
            raise DomainError("attack.error.gone")
        return character

    async def resolve(
        self,
        campaign: Campaign,
        actor: Actor,
        place: Place,
        target: str,
        attacker: str | None,
        *,
        bonus: int | None = None,
        damage: str | None = None,
    ) -> Sides:
        """Both sides of an attack on ``target`` by ``attacker`` (None: the caller's active
        character) in the channel's fight."""
        referee = is_referee(campaign, actor)
        # one session for the fight and both sides (issue 26: one checkout, not three)
        async with self.sessions() as session:
            record = await fight_in(session, place)
            combat = Combat.from_dict(record.state) if record is not None else None
            found = await self._attacker(
                session, campaign, actor, attacker, bonus, damage, combat, referee
            )
            aimed = await self._target(session, campaign, actor, target, combat)
        return Sides(found, aimed, referee, record, combat)

    @staticmethod
    def _combatant(combat: Combat | None, name: str | None) -> Combatant | None:
        if combat is None or name is None:
            return None
        wanted = name.strip().casefold()
        return next((c for c in combat.combatants if c.name.casefold() == wanted), None)

    async def _attacker(
        self,
        session: AsyncSession,
        campaign: Campaign,
        actor: Actor,
        name: str | None,
        bonus: int | None,
        damage: str | None,
        combat: Combat | None,
        referee: bool,
    ) -> Side:
        combatant = self._combatant(combat, name)
        if combatant is not None and combatant.character_id is None:
            if not referee:
                raise NotReferee()
            fighter = Fighter(combatant.name, attack_bonus=bonus, damage=damage_text(damage))
            return Side(fighter, combatant=combatant)
        if combatant is not None and combatant.character_id is not None:
            character = await self.by_id(campaign, combatant.character_id, session)
        else:
            character = await find_character(session, campaign, actor, name)
        if not referee and (character.is_npc or character.owner_user_id != actor.user_id):
            raise NotAllowed("attack.error.not_yours", name=character.name)
        require_playable(character)  # not while it awaits the GM's approval
        if bonus is not None or damage:  # the systems read them only without a sheet
            raise DomainError("attack.error.attack_options_on_sheet", name=character.name)
        fighter = Fighter(
            character.name,
            sheet=upgraded_sheet(character),
            player=not character.is_npc,
        )
        return Side(fighter, character=character, combatant=combatant)

    async def _target(
        self,
        session: AsyncSession,
        campaign: Campaign,
        actor: Actor,
        name: str,
        combat: Combat | None,
    ) -> Side:
        combatant = self._combatant(combat, name)
        if combatant is not None and combatant.character_id is None:
            fighter = Fighter(
                combatant.name,
                defence=combatant.defence,
                armour=combatant.armour,
                hit_points=combatant.hit_points,
            )
            return Side(fighter, combatant=combatant)
        if combatant is not None and combatant.character_id is not None:
            character = await self.by_id(campaign, combatant.character_id, session)
        else:
            character = await find_character(session, campaign, actor, name.strip())
        fighter = Fighter(
            character.name, sheet=upgraded_sheet(character), player=not character.is_npc
        )
        return Side(fighter, character=character, combatant=combatant)
