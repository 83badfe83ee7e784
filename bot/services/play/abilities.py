"""``/ability``: a character uses an ability of the campaign's list (seed 001, rolweb).

The system's :class:`~rules.systems.base.Abilities` decides the level, the action it costs, the effect
text and — for the healing abilities — the roll and the change to the target.  The use is one
versioned write with its audit row (kind ``ability``, undoable by the GM): on the target's
sheet when the ability changes one (the heal is computed on the target's *current* version,
and being healed needs no permission: the rules write on the user's behalf), otherwise on the
user's own sheet, so every use is on the record.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.db.models import Character, saved_id
from bot.grammar import gender_of
from bot.services.campaigns.context import CampaignContext
from bot.services.campaigns.service import is_referee
from bot.services.play.attack_record import Declared
from bot.services.play.attacks import RoundCloser
from bot.services.play.combat_store import active_fight
from bot.services.play.combat_views import CombatView, FightPanel
from bot.services.play.declarations import declare_act, declaring, seeded
from bot.services.play.turn_actions import TurnActions
from bot.services.shared.audit import AuditEntry
from bot.services.shared.context import Actor, Place
from bot.services.shared.errors import DomainError
from bot.services.shared.labels import resolve, spoken
from bot.services.sheets.access import find_character, require_editor, require_playable
from bot.services.sheets.characters import CharacterService
from bot.services.sheets.dead import heal_living
from bot.services.sheets.schema import upgraded_sheet
from bot.services.sheets.undo import Undoable
from bot.services.sheets.use_case import CharacterUseCase
from bot.services.sheets.writes import Computed, Each
from rules.combat.attack import Fighter

if TYPE_CHECKING:
    from bot.services.play.round_views import RoundSummary
from rules.systems.base import (
    Abilities,
    AbilityUse,
    ActRequest,
    GameSystem,
    Problem,
    Settings,
    StepOption,
    capabilities,
)

__all__ = ["AbilityLine", "AbilityService", "AbilityUseView"]


@dataclass(frozen=True, slots=True)
class AbilityLine:
    """One ability on the sheet for ``/ability list``: its level and what it does;
    ``system`` says whose level ids ``level`` is."""

    name: str
    level: str
    action: str
    description: str
    effect: str
    system: str = ""


@dataclass(frozen=True, slots=True)
class AbilityUseView:
    user: str
    target: str
    ability: str
    level: str
    action: str
    effect: str
    roll: str | None  # the dice engine's breakdown
    healed: int | None
    state: str | None
    notes: tuple[str, ...]
    undo: Undoable | None = None
    system: str = ""  # whose level ids ``level`` and ``state`` are
    #: the turn's warnings (``acciones_por_turno`` = ``advertir``: out of turn, no action left)
    turn_warnings: tuple[Problem, ...] = ()
    #: declared for a round of declarations (issue 25 §1): sealed, used at resolution
    declared: Declared | None = None
    #: the round this declaration completed, resolved
    summary: RoundSummary | None = None
    #: this channel's fight when the healed one is in it: its panel, refreshed (issue 23 §3)
    fight: CombatView | None = None
    #: the healed one's grammatical gender, so its state agrees («Estado: activa»)
    gender: str | None = None


def _ability_name(abilities: Abilities, typed: str, settings: Settings) -> str:
    """The campaign's ability ``typed`` names, whole, any case or accents («imposicion de
    manos»; the rules compare names ignoring case only); other text passes as typed and the
    rules refuse it by name."""
    names = (spoken(name, name) for name in abilities.ability_names(settings))
    return resolve(typed, names, prefix=False) or typed


def _abilities(system: GameSystem) -> Abilities:
    abilities = capabilities(system).abilities
    if abilities is None:
        raise DomainError("ability.error.no_abilities", system=system.name)
    return abilities


def _paid(sheet: dict[str, Any], context: CampaignContext, use: AbilityUse | None) -> Any:
    """``sheet`` after its user paid ``use``'s costs (a herb, the day's power), on this
    version: a concurrent use that took the last herb makes this one refuse."""
    if use is None or not use.costs:
        return sheet
    return _abilities(context.system).pay_ability(sheet, use, context.settings)


@dataclass(frozen=True, slots=True)
class _Heal:
    """The heal on its target; ``paying``: the target is the user, who pays in the same
    write."""

    amount: int
    audit: AuditEntry | None
    paying: AbilityUse | None = None
    validate: bool = False

    def compute(self, sheet: dict[str, Any], context: CampaignContext) -> Computed[Any]:
        paid = _paid(sheet, context, self.paying)
        result = heal_living(context.system, paid, self.amount, context.settings)
        return Computed(result.sheet, result, audit=self.audit)


@dataclass(frozen=True, slots=True)
class _Record:
    """The use on its user's sheet: its costs paid, and its audit row unless the target's
    write carries it."""

    audit: AuditEntry | None
    paying: AbilityUse | None = None
    validate: bool = False

    def compute(self, sheet: dict[str, Any], context: CampaignContext) -> Computed[None]:
        return Computed(_paid(sheet, context, self.paying), None, audit=self.audit)


class AbilityService(CharacterUseCase):
    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        characters: CharacterService,
        rng: random.Random | None = None,
    ) -> None:
        super().__init__(sessions, characters, rng)
        self.turns = TurnActions(sessions)  # the action a use spends in a fight
        #: resolves a round of declarations its last declaration completed (issue 25 §1)
        self.close_round: RoundCloser | None = None
        #: this channel's fight panel when a healed character is in it (issue 23 §3)
        self.panel: FightPanel | None = None

    async def list(
        self, place: Place, actor: Actor, character: str | None = None
    ) -> tuple[str, tuple[AbilityLine, ...]]:
        """The character's abilities with their level, action and description."""
        _campaign, stored, system, settings = await self.characters.sheet_of(
            place, actor, character
        )
        known = _abilities(system).known_abilities(stored.sheet, settings)
        return stored.name, tuple(
            AbilityLine(k.name, k.level, k.action, k.description, k.effect, system.id)
            for k in known
        )

    async def choices(
        self, place: Place, actor: Actor, character: str | None
    ) -> tuple[StepOption, ...]:
        """The abilities the character knows (autocomplete), with their level."""
        try:
            name, lines = await self.list(place, actor, character)
        except DomainError:
            return ()
        return tuple(StepOption(line.name, f"{line.name} ({line.level})") for line in lines)

    async def use(
        self,
        place: Place,
        actor: Actor,
        ability: str,
        *,
        target: str | None = None,
        character: str | None = None,
        level: str | None = None,
        herbs: bool = False,
        amount: int | None = None,
        dice: random.Random | None = None,
    ) -> AbilityUseView:
        """Use an ability; during a round of declarations (issue 25 §1) an ability that costs
        an action is declared instead (sealed: its player reads what it would do now) and
        used at the round's resolution with ``dice``, the ones the declaration fixed."""
        context = await self.characters.contexts.load(place)
        abilities = _abilities(context.system)
        async with self.sessions() as session:
            user = await find_character(session, context.campaign, actor, character)
            healed_one = (
                await find_character(session, context.campaign, actor, target, as_opponent=True)
                if target
                else user
            )
        require_editor(context.campaign, user, actor)  # acting *with* a character
        require_playable(user)  # not while it awaits the GM's approval
        ability = _ability_name(abilities, ability, context.settings)
        user_sheet = upgraded_sheet(user)
        other = None if healed_one.id == user.id else upgraded_sheet(healed_one)
        fighter = Fighter(healed_one.name, sheet=other) if other is not None else None
        result = abilities.use_ability(
            user_sheet, ability, fighter, context.settings, dice or self.rng, level=level,
            herbs=herbs, amount=amount,
        )  # fmt: skip
        act = ActRequest("ability", action=str(result.action), grants=result.grants)
        if dice is None and await self._declaring(place, context, act):
            order = {
                "ability": ability, "target": target, "level": level, "herbs": herbs,
                "amount": amount,
            }  # fmt: skip
            declared = await declare_act(
                self.sessions, place, actor, context, saved_id(user), act, order, self.rng
            )
            result = abilities.use_ability(  # the declared dice, as things stand now
                user_sheet, ability, fighter, context.settings, seeded(declared.seed),
                level=level, herbs=herbs, amount=amount,
            )  # fmt: skip
            return await self._declared(place, declared, context, result, (user, healed_one))
        return await self._now(place, actor, context, act, result, (user, healed_one))

    async def _now(
        self,
        place: Place,
        actor: Actor,
        context: CampaignContext,
        act: ActRequest,
        result: AbilityUse,
        who: tuple[Character, Character],
    ) -> AbilityUseView:
        """The use made now: the user's action in this channel's fight (issue 23 §1), the
        write, and the fight's panel when the healed one is in it (issue 23 §3)."""
        user, healed_one = who
        referee = is_referee(context.campaign, actor)
        spent = await self.turns.spend(
            place, context, act, referee=referee, character_id=saved_id(user)
        )
        try:
            view = await self._write(place, actor, context, result, user, healed_one)
        except Exception:
            await self.turns.refund(place, spent)
            raise
        if view.healed is not None and self.panel is not None:
            view = replace(view, fight=await self.panel(place, actor, (saved_id(healed_one),)))
        return replace(view, turn_warnings=spent.warnings) if spent is not None else view

    async def _declaring(self, place: Place, context: CampaignContext, act: ActRequest) -> bool:
        """Whether this use is declared: a round of declarations is open and the system
        counts it as an action (a reaction or a free ability still happens at once)."""
        if declaring(await active_fight(self.sessions, place)) is None:
            return False
        economy = capabilities(context.system).action_economy
        return economy is None or economy.action_cost(act, context.settings).counted

    async def _declared(
        self,
        place: Place,
        declared: Declared,
        context: CampaignContext,
        result: AbilityUse,
        who: tuple[Character, Character],
    ) -> AbilityUseView:
        """The declaration's sealed view: the use as its dice would go now (the resolution
        rolls them again from the declaration's seed against the situation then)."""
        user, healed_one = who
        view = AbilityUseView(
            user=user.name, target=healed_one.name, ability=result.ability,
            level=result.level, action=str(result.action), effect=result.effect,
            roll=result.roll.breakdown if result.roll else None, healed=None, state=None,
            notes=tuple(result.notes), system=context.system.id, declared=declared,
        )  # fmt: skip
        if declared.complete and self.close_round is not None:
            view = replace(view, summary=await self.close_round(place, declared.round))
        return view

    async def _write(
        self,
        place: Place,
        actor: Actor,
        context: CampaignContext,
        result: AbilityUse,
        user: Character,
        healed_one: Character,
    ) -> AbilityUseView:
        """The use's write: the heal on the target, or the record on the user's sheet; what
        the use costs (a herb, the day's power) is paid on the user's sheet in the same
        transaction (issue 23 §3), so a refused payment heals nobody."""
        audit = _audit(result, user.name, healed_one.name)
        writer = self.characters.writer
        if result.change is not None and result.change.kind == "heal":
            heal = _Heal(result.change.amount, audit)
            if healed_one.id == user.id:
                applied = await writer.apply(
                    place, actor, replace(heal, paying=result), character_id=user.id
                )
            elif result.costs:
                _paying, applied = await writer.apply_each(
                    place,
                    actor,
                    [
                        Each(
                            saved_id(user),
                            _Record(_paid_audit(result), paying=result),
                            playing=True,
                        ),
                        Each(saved_id(healed_one), heal, acting=False),
                    ],
                )
            else:
                applied = await writer.apply(
                    place, actor, heal, character_id=healed_one.id, on_behalf=True
                )
            health = applied.value
            healed, state, notes = health.amount, health.state, tuple(health.notes)
        else:
            applied = await writer.apply(
                place, actor, _Record(audit, paying=result), character_id=user.id
            )
            healed, state, notes = None, None, ()
        undo = Undoable(applied.log_id, applied.view.version) if applied.log_id else None
        return AbilityUseView(
            user=user.name,
            target=healed_one.name,
            ability=result.ability,
            level=result.level,
            action=str(result.action),
            effect=result.effect,
            roll=result.roll.breakdown if result.roll else None,
            healed=healed,
            state=state,
            notes=tuple(result.notes) + notes,
            undo=undo,
            system=context.system.id,
            gender=gender_of(healed_one.sheet),
        )


def _audit(result: AbilityUse, user: str, target: str) -> AuditEntry:
    """The use's audit row (kind ``ability``): its roll, or the effect when it rolls none."""
    return AuditEntry(
        kind="ability",
        expression=(result.roll.expression if result.roll else result.ability)[:250],
        breakdown=result.roll.breakdown if result.roll else result.effect[:1000],
        total=result.roll.total if result.roll else 0,
        reason=f"{result.ability} ({result.level}) → {target}"[:200],
        detail={"user": user, "target": target, "action": result.action},
    )


def _paid_audit(result: AbilityUse) -> AuditEntry:
    """The user's own row when the use is paid on their sheet and heals someone else (kind
    ``ability``, undoable: the GM can give the herb or the day's power back)."""
    paid = ", ".join(result.costs)
    return AuditEntry(
        kind="ability",
        expression=f"-{paid}"[:250],
        breakdown=f"{result.ability}: {paid}"[:1000],
        total=0,
        reason=f"{result.ability} ({result.level})"[:200],
        detail={"paid": list(result.costs), "action": result.action},
    )
