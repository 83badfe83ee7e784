"""The pain threshold's choice and getting up from the ground (issue 23 §1; seed 001,
UMBRAL DE DOLOR and LEVANTARSE), for a system with the capabilities
:class:`~rules.systems.base.PainChoices` and :class:`~rules.systems.base.Prone`.

* A hit over the threshold leaves a choice owed on the hurt one's sheet (the system writes it
  with the wound, :mod:`.attack_landing`); the attack's reply asks for it with buttons
  (:class:`PainAsk`).  Who chooses (docs/rules-decisions.md): the hurt character's player,
  or the GM for an NPC; the GM may always choose in a player's place.
* :meth:`PainService.choose` stores the choice by the sheet's compare-and-set
  (:class:`SheetWriter`): two presses of the two buttons at once choose once — the second
  finds nothing owed on the newer version and is refused.  Its consequence is the system's
  (:meth:`PainChoices.choose_pain`): on the ground, or a free attack for the attacker.
* Unchosen when the hurt one's turn begins, the campaign's default applies
  (:func:`apply_defaults`, called by the tracker and by a round's resolution).
* :meth:`PainService.stand` gets a character up: in a fight, on its turn, paying what the
  system's test says through the turn's ledger (:mod:`.turn_actions`); outside one, at once.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from bot.db.models import Character, saved_id
from bot.grammar import gender_of
from bot.services.campaigns.context import CampaignContext
from bot.services.campaigns.service import is_referee
from bot.services.play.combat_store import active_fight
from bot.services.play.declarations import declare_act, declaring
from bot.services.play.pain_ask import PainAsk, ask_for, pain_secrecy
from bot.services.play.turn_actions import Spent, TurnActions
from bot.services.shared.audience import PUBLIC, Secrecy
from bot.services.shared.audit import AuditEntry
from bot.services.shared.context import Actor, Place
from bot.services.shared.errors import DomainError, NotAllowed, refused
from bot.services.sheets.characters import CharacterService
from bot.services.sheets.schema import upgraded_sheet
from bot.services.sheets.writes import Computed
from rules.combat import Combat
from rules.systems.base import (
    ActRequest,
    PainChoices,
    PainChosen,
    Problem,
    Prone,
    RulesError,
    capabilities,
)

if TYPE_CHECKING:
    from bot.services.play.round_views import RoundSummary

__all__ = [
    "PainAsk",
    "after_fight",
    "apply_defaults",
    "PainService",
    "PainView",
    "StandView",
    "ask_for",
    "pain_secrecy",
]


@dataclass(frozen=True, slots=True)
class PainView:
    """A choice made (or defaulted): what it did to whom, and its audit row."""

    name: str
    attacker: str | None
    choice: str
    by_default: bool
    prone: bool
    free_attack: bool
    log_id: int | None
    secrecy: Secrecy = PUBLIC
    gender: str | None = None
    #: the round of declarations this choice let go on (issue 25 §1), resolved further
    summary: RoundSummary | None = None


@dataclass(frozen=True, slots=True)
class StandView:
    """Getting up: ``stood`` (False: the failed test left it down, its movement spent),
    the test (None outside a fight), what is left of the turn and the audit row."""

    name: str
    stood: bool
    in_fight: bool
    success: bool | None = None
    breakdown: str = ""
    left: tuple[tuple[str, int], ...] = ()
    warnings: tuple[Problem, ...] = ()
    log_id: int | None = None
    secrecy: Secrecy = PUBLIC
    gender: str | None = None
    #: a fight by rounds of declarations (issue 25 §1): getting up was declared for this
    #: round (its number), to be rolled in its turn at resolution; and the round it completed
    declared_round: int | None = None
    summary: RoundSummary | None = None


#: What goes on with a round paused for a choice: (place, character id, choice number, the
#: choice made) → the rest of the round's resolution, or None when no round waited for it.
RoundResumer = Callable[[Place, int, int, "PainView"], Awaitable["RoundSummary | None"]]
#: What resolves a round of declarations its last declaration completed (the round service).
RoundCloser = Callable[[Place, int], Awaitable["RoundSummary | None"]]
#: Getting up, as the system prices it (rolweb: a movement action, seed 001 line 60).
STAND = ActRequest("stand")


def _pain(context: CampaignContext) -> PainChoices:
    able = capabilities(context.system).pain_choices
    if able is None:
        raise DomainError("pain.error.not_in_system")
    return able


def _prone(context: CampaignContext) -> Prone:
    able = capabilities(context.system).prone
    if able is None:
        raise DomainError("pain.error.not_in_system")
    return able


@dataclass(frozen=True, slots=True)
class ChoosePain:
    """The choice ``ref``'s ``option`` (its place among the choice's options, as a button
    names it; None: the campaign's default), logged (kind ``pain``)."""

    ref: int
    option: int | None
    validate: bool = False

    def compute(self, sheet: dict[str, Any], context: CampaignContext) -> Computed[PainChosen]:
        able = _pain(context)
        owed = next((o for o in able.pain_owed(sheet) if o.ref == self.ref), None)
        if owed is None:  # chosen already (a second press, or its turn's default)
            raise DomainError("pain.problem.not_owed")
        choice = None
        if self.option is not None:
            if not 0 <= self.option < len(owed.options):
                raise DomainError("pain.problem.bad_choice", choice=str(self.option))
            choice = owed.options[self.option]
        try:
            chosen = able.choose_pain(sheet, self.ref, choice, context.settings)
        except RulesError as error:
            raise refused(error) from None
        audit = AuditEntry(
            kind="pain",
            expression="-",
            breakdown=chosen.choice,
            total=0,
            reason=chosen.choice,
            detail={
                "ref": chosen.ref,
                "choice": chosen.choice,
                "default": chosen.by_default,
                "attacker": chosen.attacker,
            },
        )
        return Computed(chosen.sheet, chosen, audit=audit)


@dataclass(frozen=True, slots=True)
class DefaultPains:
    """Every choice still owed gets the default (the hurt one's turn began unchosen)."""

    validate: bool = False

    def compute(
        self, sheet: dict[str, Any], context: CampaignContext
    ) -> Computed[tuple[PainChosen, ...]]:
        able = _pain(context)
        done: list[PainChosen] = []
        for owed in able.pain_owed(sheet):
            chosen = able.choose_pain(sheet, owed.ref, None, context.settings)
            sheet = chosen.sheet
            done.append(chosen)
        audit = None
        if done:
            audit = AuditEntry(
                kind="pain",
                expression="-",
                breakdown=", ".join(c.choice for c in done),
                total=0,
                reason=done[0].choice,
                detail={"refs": [c.ref for c in done], "default": True},
            )
        return Computed(sheet, tuple(done), audit=audit)


@dataclass(frozen=True, slots=True)
class Stand:
    """On its feet (``stood``) or still down after a failed test, logged (kind ``stand``)."""

    stood: bool
    breakdown: str = ""
    roll: int | None = None
    target: int | None = None
    validate: bool = False

    def compute(self, sheet: dict[str, Any], context: CampaignContext) -> Computed[bool]:
        prone = _prone(context)
        if not prone.is_prone(sheet):  # someone else got it up meanwhile
            raise DomainError("pain.problem.not_prone", name=str(sheet.get("name", "")))
        new = prone.set_prone(sheet, False) if self.stood else sheet
        audit = AuditEntry(
            kind="stand",
            expression="1d20" if self.roll is not None else "-",
            breakdown=self.breakdown or "-",
            total=self.roll or 0,
            difficulty=self.target,
            outcome=None if self.roll is None else "success" if self.stood else "failure",
            detail={"stood": self.stood},
        )
        return Computed(new, self.stood, audit=audit)


@dataclass(frozen=True, slots=True)
class AfterFight:
    """The fight ended: standing, owing no choice (nothing logged when nothing changed)."""

    validate: bool = False

    def compute(self, sheet: dict[str, Any], context: CampaignContext) -> Computed[bool]:
        prone = _prone(context)
        return Computed(prone.after_fight(sheet), True)


async def apply_defaults(
    characters: CharacterService, place: Place, actor: Actor, character_id: int
) -> tuple[PainView, ...]:
    """The choices ``character_id`` still owes get the campaign's default (its turn, or its
    round's resolution, came first); written on the owner's behalf, once: a retry on a newer
    version finds them chosen."""
    context = await characters.contexts.load(place)
    if capabilities(context.system).pain_choices is None:
        return ()
    applied = await characters.writer.apply(
        place, actor, DefaultPains(), character_id=character_id, on_behalf=True
    )
    async with characters.sessions() as session:
        character = await session.get(Character, character_id)
    if character is None:
        return ()
    return tuple(
        _view(applied.view.name, chosen, applied.log_id, character, applied.view.sheet)
        for chosen in applied.value
    )


async def after_fight(
    characters: CharacterService, place: Place, actor: Actor, character_id: int
) -> None:
    """The fight ended: ``character_id`` gets up and owes no choice of it."""
    context = await characters.contexts.load(place)
    if capabilities(context.system).prone is None:
        return
    await characters.writer.apply(
        place, actor, AfterFight(), character_id=character_id, on_behalf=True
    )


class PainService:
    """The pain threshold's choice and getting up (module docstring)."""

    def __init__(self, characters: CharacterService, rng: random.Random | None = None) -> None:
        self.characters = characters
        self.sessions = characters.sessions
        self.rng = rng or random.SystemRandom()
        self.turns = TurnActions(self.sessions)
        #: goes on with a round of declarations paused for this choice (set by the round
        #: service, :mod:`.round_pause`: it builds on this service)
        self.resume_round: RoundResumer | None = None
        #: resolves a round of declarations its last declaration (getting up) completed
        self.close_round: RoundCloser | None = None

    async def choose(
        self, place: Place, actor: Actor, character_id: int, ref: int, option: int
    ) -> PainView:
        """The hurt character's player (an NPC's: the GM; the GM always) chooses ``option``
        (its place among the options) for the choice ``ref``; once: a second press is
        refused (``pain.problem.not_owed``)."""
        await self.characters.campaigns.require_open_scene(place)
        context = await self.characters.contexts.load(place)
        character = await self._character(context, character_id)
        if not is_referee(context.campaign, actor) and (
            character.is_npc or character.owner_user_id != actor.user_id
        ):
            raise NotAllowed("pain.error.not_yours", name=character.name)
        applied = await self.characters.writer.apply(
            place, actor, ChoosePain(ref, option), character_id=character_id, on_behalf=True
        )
        sheet = applied.view.sheet
        made = _view(applied.view.name, applied.value, applied.log_id, character, sheet)
        if self.resume_round is not None:  # a round of declarations waiting for it goes on
            made = replace(made, summary=await self.resume_round(place, character_id, ref, made))
        return made

    async def stand(
        self,
        place: Place,
        actor: Actor,
        name: str | None,
        *,
        character_id: int | None = None,
        dice: random.Random | None = None,
    ) -> StandView:
        """Get ``name`` (default: the actor's active character) up: its player or the GM.
        In a fight (issue 23 §1): on its turn, the test rolled and paid from its ledger —
        success one movement action, failure the whole turn; without the whole turn left a
        failure leaves it down, its movement spent.  Outside a fight it just gets up."""
        await self.characters.campaigns.require_open_scene(place)
        context = await self.characters.contexts.load(place)
        prone = _prone(context)
        if character_id is not None:  # the panel's button: the combatant it names
            character = await self._character(context, character_id)
            settings = context.settings
        else:
            _c, character, _system, settings = await self.characters.sheet_of(place, actor, name)
        referee = is_referee(context.campaign, actor)
        if not referee and (character.is_npc or character.owner_user_id != actor.user_id):
            raise NotAllowed("pain.error.not_yours", name=character.name)
        sheet = upgraded_sheet(character)
        if not prone.is_prone(sheet):
            raise DomainError("pain.problem.not_prone", name=character.name)
        if not await self._fighting(place, saved_id(character)):
            # not in this channel's fight (or its set-up): up at once, nothing rolled
            return await self._stood(place, actor, character, Stand(True), in_fight=False)
        if dice is None and declaring(await active_fight(self.sessions, place)) is not None:
            return await self._declare(place, actor, context, character)
        try:
            test = prone.stand_test(sheet, settings, dice or self.rng)
        except RulesError as error:
            raise refused(error) from None
        spent: list[Spent] = []
        stood = True
        for index, cost in enumerate(test.costs):
            try:
                one = await self.turns.spend(
                    place, context, cost, referee=referee, character_id=saved_id(character)
                )
            except DomainError:
                if index == 0:
                    raise  # not its turn, or no movement left: nothing spent, nothing rolled
                stood = False  # not the whole turn left: still down, its movement spent
                break
            if one is not None:  # None: the campaign counts nothing (acciones_por_turno)
                spent.append(one)
        change = Stand(stood, test.breakdown, test.roll, test.target)
        try:
            view = await self._stood(place, actor, character, change, in_fight=True)
        except Exception:
            for one in reversed(spent):
                await self.turns.refund(place, one)
            raise
        warnings = tuple(w for one in spent for w in one.warnings)
        left = spent[-1].left if spent else ()
        return replace(view, success=test.success, left=left, warnings=warnings)

    async def _declare(
        self, place: Place, actor: Actor, context: CampaignContext, character: Character
    ) -> StandView:
        """A fight by rounds of declarations: getting up is declared for the round (priced
        as a movement action, like any declaration), its Ágil test rolled in its turn at
        resolution with the dice fixed now (:mod:`.rounds`)."""
        order = {"character": character.name}
        declared = await declare_act(
            self.sessions, place, actor, context, saved_id(character), STAND, order, self.rng
        )
        view = StandView(
            character.name,
            stood=False,
            in_fight=True,
            secrecy=pain_secrecy(character),
            declared_round=declared.round,
        )
        if declared.complete and self.close_round is not None:
            view = replace(view, summary=await self.close_round(place, declared.round))
        return view

    async def _fighting(self, place: Place, character_id: int) -> bool:
        """Whether the character is in this channel's fight, past its set-up (by rounds of
        declarations, the tracker's round moves at resolution: a round open counts)."""
        record = await active_fight(self.sessions, place)
        if record is None:
            return False
        combat = Combat.from_dict(record.state)
        started = combat.round > 0 or declaring(record) is not None  # a round being declared
        return started and any(c.character_id == character_id for c in combat.combatants)

    async def _stood(
        self, place: Place, actor: Actor, character: Character, change: Stand, *, in_fight: bool
    ) -> StandView:
        applied = await self.characters.writer.apply(
            place, actor, change, character_id=saved_id(character), on_behalf=True
        )
        return StandView(
            applied.view.name,
            applied.value,
            in_fight,
            breakdown=change.breakdown,
            log_id=applied.log_id,
            secrecy=pain_secrecy(character),
            gender=gender_of(applied.view.sheet),
        )

    async def _character(self, context: CampaignContext, character_id: int) -> Character:
        async with self.sessions() as session:
            character = await session.get(Character, character_id)
        if character is None or character.campaign_id != context.campaign.id:
            raise DomainError("pain.error.gone")
        return character


def _view(
    name: str, chosen: PainChosen, log_id: int | None, character: Character, sheet: Any
) -> PainView:
    return PainView(
        name,
        chosen.attacker,
        chosen.choice,
        chosen.by_default,
        chosen.prone,
        chosen.free_attack,
        log_id,
        pain_secrecy(character),
        gender_of(sheet),
    )
