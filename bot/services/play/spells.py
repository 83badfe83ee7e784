"""Magic: ``/spell list``, ``show``, ``cast`` and ``rest`` through :class:`SpellBook`.

What a cast costs, rolls and does is the system's business (Núcleo rolls and spends mana,
S&W spends a slot, rolweb has no spells and says so); this module finds the caster, keeps
the sheet change and its audit-log entry (``RollLog`` kind ``"spell"``) in one transaction
under the sheet's version check, and pages the spell list within Discord's limits.
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass, replace
from typing import TYPE_CHECKING, Any

from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.grammar import gender_of
from bot.services.campaigns.service import FREE_REST, is_referee
from bot.services.play.attack_record import Declared
from bot.services.play.attacks import AttackOrder, AttackService, AttackView
from bot.services.play.combat_store import active_fight
from bot.services.play.combat_views import CombatView, FightPanel
from bot.services.play.declarations import declare_act, declaring
from bot.services.play.turn_actions import Spent, TurnActions
from bot.services.shared.audience import PUBLIC, Secrecy
from bot.services.shared.audit import AuditEntry
from bot.services.shared.context import Actor, Place
from bot.services.shared.errors import DomainError, NotAllowed
from bot.services.shared.labels import Named, resolve, spoken
from bot.services.sheets.access import CharacterView
from bot.services.sheets.changes import (
    CastSpell,
    Landed,
    LandSpell,
    Rest,
    TouchCast,
    lands_on_target,
    spellbook_of,
)
from bot.services.sheets.characters import CharacterService
from bot.services.sheets.use_case import CharacterUseCase
from bot.services.sheets.writes import Applied, Each
from rules.combat.attack import Fighter
from rules.names import LOCALES, names
from rules.systems.base import (
    ActRequest,
    CastResult,
    GameSystem,
    Problem,
    RestResult,
    RulesError,
    SpellBook,
    SpellInfo,
    SpellList,
    SpellRequest,
    SpellState,
)
from rules.text import fold

if TYPE_CHECKING:
    from bot.services.play.round_views import RoundSummary

__all__ = [
    "CastOrder",
    "CastView",
    "PAGE_SIZE",
    "RestView",
    "SpellListView",
    "SpellService",
    "SpellView",
]

PAGE_SIZE = 15
MAX_TARGET = 100
MAX_EXTRA_MANA = 100


@dataclass(frozen=True, slots=True)
class SpellListView:
    system_name: str
    spells: tuple[SpellInfo, ...]  # this page
    matches: int
    page: int
    pages: int
    notice: str | None
    character_name: str | None
    state: SpellState | None


@dataclass(frozen=True, slots=True)
class SpellView:
    spell: SpellInfo
    known_level: int | None  # the active (or named) character's level in it, if any


@dataclass(frozen=True, slots=True)
class CastView:
    """A cast; ``own`` is what it left on the caster (a ``lanzador`` effect), ``landed``
    what it did to the character named as ``target`` (its effect, damage or heal; the
    target's audit row is ``target_log_id``); ``target_secret``: a hidden NPC's state is
    described, never numbered."""

    log_id: int
    user_name: str
    character_name: str
    result: CastResult
    target: str | None
    private: bool
    gm_channel_id: int | None
    own: Landed | None = None
    landed: Landed | None = None
    target_secret: bool = False
    target_log_id: int | None = None
    #: a touch spell's melee attack (its reply, secrets marked as ``/attack``'s): the cast
    #: (``result``) only happened when it hit; ``own`` then holds a drain the caster received
    touch: AttackView | None = None
    #: whose state ids the health changes hold, and each sheet's grammatical gender, so the
    #: reply names the state agreeing with it («estado: malherida»)
    system: str = ""
    caster_gender: str | None = None
    target_gender: str | None = None
    #: the turn's warnings (``acciones_por_turno`` = ``advertir``: out of turn, no action left)
    turn_warnings: tuple[Problem, ...] = ()
    #: a spell declared for a round of declarations (issue 25 §1): sealed, cast at resolution
    declared: Declared | None = None
    #: the round this declaration completed, resolved
    summary: RoundSummary | None = None
    #: this channel's fight when the healed target is in it: its panel, refreshed
    fight: CombatView | None = None


@dataclass(frozen=True, slots=True)
class RestView:
    character_name: str
    result: RestResult
    #: a hidden NPC's rest is the GM's until it is revealed (the reply goes to him alone)
    secrecy: Secrecy = PUBLIC


def _book(system: GameSystem) -> SpellBook:
    return spellbook_of(system)


def _effect_detail(result: CastResult) -> dict[str, Any]:
    detail: dict[str, Any] = {
        "spell": result.label,
        "spent": result.spent,
        "notes": list(result.notes),
        "critical_benefits": list(result.critical_benefits),
    }
    if result.pool is not None:
        detail["pool"] = result.pool.key
        detail["left"] = result.pool.left
    if result.effect is not None:
        detail["effect"] = {
            "kind": result.effect.kind,
            "expression": result.effect.expression,
            "total": result.effect.total,
            "breakdown": result.effect.breakdown,
        }
    if result.save is not None:
        detail["save"] = list(result.save)
    return detail


def _cast_entry(result: CastResult, target: str | None, private: bool) -> AuditEntry:
    """The audit-log row of a cast: its roll when the system rolls one, else the pool spent."""
    check, pool = result.check, result.pool
    return AuditEntry(
        kind="spell",
        expression=check.expression if check else (pool.label if pool else ""),
        reason=result.label + (f" → {target}" if target else ""),
        breakdown=check.breakdown if check else "",
        detail=_effect_detail(result) | {"target": target},
        total=check.total if check else (pool.left if pool else 0),
        difficulty=check.target if check else None,
        outcome=str(check.outcome) if check and check.outcome else None,
        fumble=bool(check and check.outcome == "fumble"),
        private=private,
    )


@dataclass(frozen=True, slots=True)
class CastOrder:
    """What ``/spell cast`` asked for, as typed (the system reads the parts it uses)."""

    spell: str | None = None
    level: int | None = None
    spell_list: str | None = None
    character: str | None = None
    extra_mana: int = 0
    mana: int | None = None
    dispel: str | None = None
    modifier: int = 0
    target: str | None = None
    private: bool = False
    heal: int | None = None  # what an undefined S&W spell heals (issue 23 §3)


class SpellService(CharacterUseCase):
    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        characters: CharacterService,
        rng: random.Random | None = None,
        attacks: AttackService | None = None,
    ) -> None:
        super().__init__(sessions, characters, rng)
        self.attacks = attacks or AttackService(sessions, characters, self.rng)
        self.turns = TurnActions(sessions)
        #: this channel's fight panel when a healed target is in it (issue 23 §3)
        self.panel: FightPanel | None = None

    async def _listing(self, place: Place) -> tuple[GameSystem, SpellList]:
        context = await self.characters.contexts.load(place)
        return context.system, _book(context.system).spell_list(context.settings)

    async def _state(
        self, place: Place, actor: Actor, character: str | None
    ) -> tuple[str | None, SpellState | None]:
        """The caster's magic; with no character named, the active one if there is any."""
        try:
            view = await self.characters.show(place, actor, character)
        except DomainError:
            if character is not None:
                raise
            return None, None
        context = await self.characters.contexts.load(place)
        return view.name, _book(context.system).spell_state(view.sheet, context.settings)

    async def list(
        self,
        place: Place,
        actor: Actor,
        *,
        search: str | None = None,
        level: int | None = None,
        character: str | None = None,
        page: int = 1,
    ) -> SpellListView:
        """One page of the campaign system's spells (filtered), and the caster's pools."""
        system, listing = await self._listing(place)
        needle = fold(search or "")
        matching = tuple(
            s
            for s in listing.spells
            if (not needle or needle in fold(s.name) or needle in fold(s.description))
            and (level is None or s.level == level)
        )
        pages = max(1, -(-len(matching) // PAGE_SIZE))
        page = min(max(1, page), pages)
        name, state = await self._state(place, actor, character)
        return SpellListView(
            system_name=system.name,
            spells=matching[(page - 1) * PAGE_SIZE : page * PAGE_SIZE],
            matches=len(matching),
            page=page,
            pages=pages,
            notice=listing.notice,
            character_name=name,
            state=state,
        )

    async def show(
        self, place: Place, actor: Actor, name: str, character: str | None = None
    ) -> SpellView:
        _system, listing = await self._listing(place)
        wanted = fold(name)
        spell = next((s for s in listing.spells if fold(s.name) == wanted), None)
        if spell is None:
            if listing.notice:
                raise RulesError(Problem(listing.notice))
            raise DomainError("spell.error.unknown_spell", name=name)
        _name, state = await self._state(place, actor, character)
        known = state.known.get(spell.name) if state is not None else None
        return SpellView(spell, known)

    async def names(
        self, place: Place, actor: Actor, current: str, character: str | None = None
    ) -> tuple[tuple[str, str], ...]:
        """Autocomplete ``(label, value)``: the caster's known spells first, then the rest."""
        try:
            _system, listing = await self._listing(place)
            _name, state = await self._state(place, actor, character)
        except (DomainError, RulesError):
            return ()
        known = dict(state.known) if state is not None else {}
        needle = fold(current)
        hits = [s for s in listing.spells if needle in fold(s.name)]
        hits.sort(key=lambda s: (s.name not in known, not fold(s.name).startswith(needle)))
        return tuple(
            (f"★ {s.name} ({known[s.name]})" if s.name in known else s.name, s.name)
            for s in hits[:25]
        )

    async def lists(
        self, place: Place, actor: Actor, current: str, character: str | None = None
    ) -> tuple[tuple[str, str], ...]:
        """Autocomplete of a caster's spell lists (``mago``, ``explorador.clerigo``)."""
        try:
            _name, state = await self._state(place, actor, character)
        except (DomainError, RulesError):
            return ()
        seen: dict[str, str] = {}
        for pool in state.pools if state is not None else ():
            key = pool.key.rsplit(".", 1)[0]
            seen.setdefault(key, pool.label.rsplit(",", 1)[0])
        needle = fold(current)
        return tuple((label, key) for key, label in seen.items() if needle in fold(label + key))

    async def cast(
        self, place: Place, actor: Actor, order: CastOrder, *, dice: random.Random | None = None
    ) -> CastView:
        """Cast: the system rolls and spends on the current sheet; sheet and log entry are
        written together (a retry after a clash rolls again: only the kept cast is logged).
        During a round of declarations (issue 25 §1) the spell is declared instead — «debe
        declararlo antes de tirar por iniciativa» (seed 000) — and cast at the round's
        resolution with ``dice``, the ones the declaration fixed."""
        if not 0 <= order.extra_mana <= MAX_EXTRA_MANA:
            raise DomainError("spell.error.bad_extra_mana", limit=MAX_EXTRA_MANA)
        target = (order.target or "").strip()[:MAX_TARGET] or None
        listed_by, listing = await self._listing(place)
        request = _spell_request(order, listing, listed_by.id)
        caster_id, caster_name, target_view = await self._target(
            place, actor, order.character, target
        )
        if dice is None and declaring(await active_fight(self.sessions, place)) is not None:
            return await self._declare(place, actor, order, caster_id)
        spent = await self._spend(place, actor, order, caster_id)
        try:
            view = await self._cast(
                place, actor, order, request, target, caster_id, caster_name, target_view,
                dice or self.rng,
            )  # fmt: skip
        except Exception:
            await self.turns.refund(place, spent)
            raise
        healed = view.landed is not None and view.landed.health is not None
        if healed and target_view is not None and self.panel is not None:
            view = replace(view, fight=await self.panel(place, actor, (target_view.id,)))
        return replace(view, turn_warnings=spent.warnings) if spent is not None else view

    async def _declare(
        self, place: Place, actor: Actor, order: CastOrder, caster_id: int | None
    ) -> CastView:
        """The spell declared for the round: sealed (its player and the GM), cast when the
        round resolves (:func:`.declarations.declare_act`)."""
        context = await self.characters.contexts.load(place)
        caster = await self.characters.show(place, actor, order.character)
        if caster_id is None:
            caster_id = caster.id
        fields = {k: v for k, v in asdict(order).items() if v is not None}
        declared = await declare_act(
            self.sessions, place, actor, context, caster_id, ActRequest("cast"), fields, self.rng
        )
        view = CastView(
            log_id=0, user_name=actor.name, character_name=caster.name,
            result=CastResult(order.spell or "", {}, 0, None), target=order.target,
            private=True, gm_channel_id=context.campaign.gm_channel_id, declared=declared,
        )  # fmt: skip
        if declared.complete and self.attacks.close_round is not None:
            view = replace(view, summary=await self.attacks.close_round(place, declared.round))
        return view

    async def _spend(
        self, place: Place, actor: Actor, order: CastOrder, caster_id: int | None
    ) -> Spent | None:
        """The caster's action in this channel's fight (issue 23 §1), counted before the
        cast is rolled."""
        context = await self.characters.contexts.load(place)
        if caster_id is None:
            caster_id = (await self.characters.show(place, actor, order.character)).id
        referee = is_referee(context.campaign, actor)
        act = ActRequest("cast")
        return await self.turns.spend(place, context, act, referee=referee, character_id=caster_id)

    async def _cast(
        self,
        place: Place,
        actor: Actor,
        order: CastOrder,
        request: SpellRequest,
        target: str | None,
        caster_id: int | None,
        caster_name: str,
        target_view: CharacterView | None,
        rng: random.Random,
    ) -> CastView:
        """The cast once its action is counted (see :meth:`cast`); ``rng``: its dice."""
        context = await self.characters.contexts.load(place)

        def audit(result: CastResult) -> AuditEntry:
            return _cast_entry(result, target, order.private)

        if target_view is not None and target_view.id != caster_id:
            touch = await self._touch_spell(place, request.spell)
            if touch is not None:
                return await self._touch(
                    place, actor, order, request, (touch, target_view.name), rng
                )
        writer = self.characters.writer
        landed_on: Applied[Landed] | None = None
        if target_view is None or target_view.id == caster_id:
            applied = await writer.apply(
                place,
                actor,
                CastSpell(request, rng, audit, on_self=target_view is not None),
                name=order.character,
                playing=True,
            )
            result, landed = applied.value
            if target_view is not None:
                landed_on = Applied(applied.view, landed, applied.log_id)
        else:
            assert caster_id is not None  # a named target was found: so was its caster
            cast = CastSpell(request, rng, audit)
            applied, landed_on = await self._cast_on(
                place, actor, cast, (caster_id, caster_name), target_view.id
            )
            result, landed = applied.value
        return CastView(
            log_id=applied.log_id or 0,
            user_name=actor.name,
            character_name=applied.view.name,
            result=result,
            target=target_view.name if target_view is not None else target,
            private=order.private,
            gm_channel_id=context.campaign.gm_channel_id,
            own=landed,
            landed=landed_on.value if landed_on is not None else None,
            target_secret=bool(target_view and target_view.is_npc and target_view.hidden),
            target_log_id=landed_on.log_id if landed_on is not None else None,
            system=context.system.id,
            caster_gender=gender_of(applied.view.sheet),
            target_gender=gender_of(landed_on.view.sheet) if landed_on is not None else None,
        )

    async def _cast_on(
        self,
        place: Place,
        actor: Actor,
        cast: CastSpell,
        caster: tuple[int, str],
        target_id: int,
    ) -> tuple[Applied[Any], Applied[Landed] | None]:
        """A cast on another character: the caster's write, then what it does to the target
        (on the target's current sheet, the rules acting on the caster's behalf), in one
        transaction; the target's part is None when the cast did nothing to it."""

        def follow(values: tuple[Any, ...]) -> LandSpell | None:
            done: CastResult = values[0][0]
            return LandSpell(done, caster[1]) if lands_on_target(done) else None

        applied, on_target = await self.characters.writer.apply_each(
            place,
            actor,
            [
                Each(caster[0], cast, playing=True),
                Each(target_id, after=follow, acting=False),
            ],
        )
        return applied, on_target if on_target.value is not None else None

    async def _touch_spell(self, place: Place, name: str | None) -> str | None:
        """The spell's name if it is a touch spell that needs a melee attack first."""
        if name is None:
            return None
        _system, listing = await self._listing(place)
        wanted = fold(name)
        spell = next((s for s in listing.spells if fold(s.name) == wanted), None)
        return spell.name if spell is not None and spell.melee_attack else None

    async def _touch(
        self,
        place: Place,
        actor: Actor,
        order: CastOrder,
        request: SpellRequest,
        touching: tuple[str, str],
        rng: random.Random,
    ) -> CastView:
        """A touch spell on a character: the melee attack, then (on a hit) the cast and its
        damage, one write on both sheets (:meth:`AttackService.touch`); ``touching``: the
        spell and its target."""
        spell, target = touching

        def cast(fighter: Fighter) -> TouchCast:
            return TouchCast(request, rng, fighter)

        attack = AttackOrder(target, character=order.character, private=order.private)
        view, touched = await self.attacks.touch(place, actor, attack, cast, rng=rng)
        drained = touched.drained if touched is not None else None
        return CastView(
            log_id=view.log_id,
            user_name=actor.name,
            character_name=view.attacker,
            result=touched.cast if touched is not None else CastResult(spell, {}, 0, None),
            target=view.target,
            private=order.private,
            gm_channel_id=view.gm_channel_id,
            own=Landed(health=drained) if drained is not None else None,
            target_secret=view.target_hidden,
            target_log_id=view.log_id,
            touch=view,
            system=view.system,
            target_gender=view.target_gender,
        )

    async def _target(
        self, place: Place, actor: Actor, character: str | None, target: str | None
    ) -> tuple[int | None, str, CharacterView | None]:
        """The caster's id and the character ``target`` names, if it names one (a free text
        such as «los tres orcos» stays a label, as before).  Being a spell's target needs no
        permission: a player may heal another player's character."""
        if target is None:
            return None, "", None
        caster = await self.characters.show(place, actor, character)
        try:
            found = await self.characters.show(place, actor, target, as_opponent=True)
        except DomainError:
            return caster.id, caster.name, None
        return caster.id, caster.name, found

    async def rest(self, place: Place, actor: Actor, character: str | None = None) -> RestView:
        """Recover mana or slots as the system says (a night's rest, a new day).

        With the campaign setting ``descanso_libre`` off, only a referee grants the rest."""
        context = await self.characters.contexts.load(place)
        if not context.settings.get(FREE_REST, True) and not is_referee(context.campaign, actor):
            raise NotAllowed("flows.rest_gm_only")
        applied = await self.characters.writer.apply(place, actor, Rest(), name=character)
        return RestView(applied.view.name, applied.value, applied.secrecy)


def _spell_request(order: CastOrder, listing: SpellList, system: str) -> SpellRequest:
    """The system's request: the spells and the list named as the system reads them."""
    return SpellRequest(
        spell=_spell_name(order.spell, listing),
        level=order.level,
        spell_list=_list_id(order.spell_list, system),
        extra_mana=order.extra_mana,
        mana=order.mana,
        dispel=_spell_name(order.dispel, listing),
        modifier=order.modifier,
        amount=order.heal,
    )


def _list_id(typed: str | None, system: str) -> str | None:
    """A spell list or class of ``system`` named in either language («Magic-User», «Cleric»
    are S&W's ``mago``, ``clerigo``), as the system reads ids and Spanish names only; other
    text passes as typed (the system matches the list, the class or ``clase.lista``)."""
    text = (typed or "").strip()
    if not text:
        return None
    ids = {
        i for locale in LOCALES for kind in ("lista", "clase") for i in _names(system, locale, kind)
    }
    named = (
        Named(
            i,
            {
                loc: str(
                    _names(system, loc, "lista").get(i) or _names(system, loc, "clase").get(i, i)
                )
                for loc in LOCALES
            },
        )
        for i in sorted(ids)
    )
    return resolve(text, named, prefix=False) or text


def _names(system: str, locale: str, kind: str) -> dict[str, Any]:
    table = names(locale).get(system, {}).get(kind, {})
    return dict(table) if isinstance(table, dict) else {}


def _spell_name(typed: str | None, listing: SpellList) -> str | None:
    """The list's spell ``typed`` names, whole, any case or accents («curacion» is
    Curación: the system finds spells by their exact name); text naming none passes as
    typed (S&W records free text; the system refuses an unknown Núcleo spell)."""
    text = (typed or "").strip()
    if not text:
        return None
    return resolve(text, (spoken(s.name, s.name) for s in listing.spells), prefix=False) or text
