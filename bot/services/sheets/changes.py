"""The changes a use case can make to a sheet, as values :class:`SheetWriter` re-applies.

Each change is computed on the sheet's current version every time the writer tries, so it
never carries a sheet read earlier: only what the user asked for (an amount, an item, a
spell) and, for rolls already made, the effects the rules returned (:class:`SheetEffect`),
which refuse when what the roll relied on no longer holds.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from bot.grammar import gender_of, sheet_fields
from bot.services.campaigns.context import CampaignContext
from bot.services.shared.audit import AuditEntry
from bot.services.shared.errors import DomainError, NotAllowed
from bot.services.shared.labels import resolve, spoken
from bot.services.sheets.access import set_path
from bot.services.sheets.dead import dead_state, heal_living
from bot.services.sheets.guarded import changed_guarded, keep_guarded
from bot.services.sheets.imports import keep_referee_fields, referee_changes
from bot.services.sheets.writes import Computed, XpEntry
from rules.combat import effects
from rules.combat.attack import AttackResult, Fighter, RollLine, TargetChange
from rules.combat.effects import Effect
from rules.combat.health import Act, require
from rules.systems.base import (
    AdvanceResult,
    CastResult,
    CharacterBuilder,
    FieldSpec,
    GameSystem,
    HealthChange,
    Purse,
    RestResult,
    SheetEffect,
    SpellBook,
    SpellRequest,
    apply_effects,
    capabilities,
    single_purse,
)

__all__ = [
    "AddEffect",
    "AdjustInventory",
    "AdjustMoney",
    "ApplyEffects",
    "CastSpell",
    "LandSpell",
    "Purse",
    "Landed",
    "Damage",
    "GrantXp",
    "Granted",
    "Heal",
    "ReplaceSheet",
    "RemoveEffect",
    "Rest",
    "SetField",
    "TickEffects",
    "EndFightEffects",
    "Ticked",
    "TouchCast",
    "Touched",
    "SpendXp",
    "AskPurchase",
    "DecidePurchase",
    "builder_of",
    "require_able",
    "spellbook_of",
]


def require_able(
    context: CampaignContext, sheet: Mapping[str, Any], act: Act, option: str | None = None
) -> None:
    """Refuse ``act`` for a character whose health forbids it (dying, unconscious, dead),
    saying why; what its system still allows (rolweb's death test) passes.  Checked on the
    version being written, so a character knocked out meanwhile cannot still act."""
    system = context.system
    health = capabilities(system).health
    if health is not None:
        state = health.combat_state(sheet, context.settings)
        name = str(sheet.get("name", ""))
        require(state, act, name, option, system=system.id, gender=gender_of(sheet))


def builder_of(system: GameSystem) -> CharacterBuilder:
    """The system's builder (wizard, inventory, money), or a translated refusal."""
    builder = capabilities(system).builder
    if builder is None:
        raise DomainError("sheet.error.no_builder", system=system.name)
    return builder


def spellbook_of(system: GameSystem) -> SpellBook:
    book = capabilities(system).spellbook  # every shipped system has one; a new one may not
    if book is None:
        raise DomainError("spell.error.no_spellbook", system=system.name)
    return book


@dataclass(frozen=True, slots=True)
class SetField:
    """``/sheet set``: one parsed value at one field path."""

    path: str
    value: Any
    validate: bool = True

    def compute(self, sheet: dict[str, Any], context: CampaignContext) -> Computed[None]:
        return Computed(set_path(sheet, self.path, self.value), None)


@dataclass(frozen=True, slots=True)
class AdjustInventory:
    """``/sheet item``: add (positive) or remove (negative) a quantity of one item."""

    item: str
    quantity: int
    validate: bool = True

    def compute(self, sheet: dict[str, Any], context: CampaignContext) -> Computed[None]:
        builder = builder_of(context.system)
        return Computed(
            builder.adjust_inventory(sheet, self.item, self.quantity, context.settings), None
        )


@dataclass(frozen=True, slots=True)
class AdjustMoney:
    """``/sheet money``: add or spend (refused below zero by the system)."""

    amount: int
    currency: str | None = None
    validate: bool = True

    def compute(self, sheet: dict[str, Any], context: CampaignContext) -> Computed[Purse]:
        builder = builder_of(context.system)
        new = builder.adjust_money(sheet, self.amount, self.currency, context.settings)
        coinage = capabilities(context.system).coinage
        if coinage is not None:  # S&W: mo, mp, mc
            return Computed(new, coinage.purse(new, self.currency, context.settings))
        return Computed(new, single_purse(new, self.currency, context.settings))


@dataclass(frozen=True, slots=True)
class GrantXp:
    """The referee's grant (negative corrects one), with its ledger row.

    ``session`` marks a game session's award: a system with a per-session bonus
    (``SessionAward``: Núcleo's Humano +1, Artificial −1) adds it to this character's share,
    and the ledger, the audit row and its undo record what the character really got."""

    amount: int
    granted_by: int
    reason: str | None = None
    session: bool = False
    validate: bool = True

    def compute(self, sheet: dict[str, Any], context: CampaignContext) -> Computed[Granted]:
        bonus, why = 0, None
        award = capabilities(context.system).session_award
        if self.session and award is not None:
            bonus, why = award.session_bonus(sheet, context.settings)
        amount = max(0, self.amount + bonus) if bonus else self.amount
        result = context.system.grant_xp(sheet, amount, context.settings)
        entry = XpEntry(amount, result.xp_before, result.xp_after, self.granted_by, self.reason)
        # logged so the GM can undo a grant from its reply or /history
        audit = AuditEntry(
            kind="xp",
            expression=f"{self.amount:+d}{bonus:+d} XP" if bonus else f"{amount:+d} XP",
            breakdown=f"{result.xp_before} → {result.xp_after}",
            total=amount,
            reason=self.reason,
        )
        value = Granted(result, amount - self.amount, why)
        return Computed(result.sheet, value, audit=audit, xp=entry)


@dataclass(frozen=True, slots=True)
class Granted:
    """What a grant did, and the session bonus it carried (``bonus`` PX because of ``why``)."""

    result: AdvanceResult
    bonus: int = 0
    why: str | None = None


@dataclass(frozen=True, slots=True)
class SpendXp:
    """A purchase by the player's choice (rolweb abilities)."""

    what: str
    validate: bool = True

    def compute(self, sheet: dict[str, Any], context: CampaignContext) -> Computed[AdvanceResult]:
        system = context.system
        advancement = capabilities(system).advancement
        if advancement is None:
            raise DomainError("xp.error.nothing_to_buy", system=system.name)
        # what the autocomplete offers, read as typed («sigilo», the label): whole names
        # only, spending is a write the user sees only after it lands
        purchases = advancement.purchases(sheet, context.settings)
        offered = (spoken(o.value, o.label) for o in purchases)
        what = resolve(self.what, offered, prefix=False) or self.what
        result = advancement.purchase(sheet, what, context.settings)
        return Computed(result.sheet, result)


@dataclass(frozen=True, slots=True)
class AskPurchase:
    """A player's purchase left waiting for the GM (``PurchaseApproval``): checked now as
    the purchase itself would be, bought only when the GM approves."""

    what: str
    validate: bool = True

    def compute(self, sheet: dict[str, Any], context: CampaignContext) -> Computed[str]:
        found = capabilities(context.system)
        approval, advancement = found.purchase_approval, found.advancement
        if approval is None or advancement is None:
            raise DomainError("xp.error.nothing_to_buy", system=context.system.name)
        offered = (spoken(o.value, o.label) for o in advancement.purchases(sheet, context.settings))
        what = resolve(self.what, offered, prefix=False) or self.what
        waiting, shown = approval.ask_purchase(sheet, what, context.settings)
        return Computed(dict(waiting), shown)


@dataclass(frozen=True, slots=True)
class DecidePurchase:
    """The GM's answer to the purchase waiting on a sheet: bought (on the sheet as it is
    now: the PX, the maxima and the pyramid are checked again) or dropped."""

    approve: bool
    validate: bool = True

    def compute(
        self, sheet: dict[str, Any], context: CampaignContext
    ) -> Computed[tuple[str, AdvanceResult | None]]:
        found = capabilities(context.system)
        approval, advancement = found.purchase_approval, found.advancement
        pending = approval.pending_purchase(sheet) if approval is not None else None
        if approval is None or advancement is None or pending is None:
            raise DomainError("xp.error.nothing_pending", name=str(sheet.get("name", "")))
        if not self.approve:
            return Computed(dict(approval.drop_pending(sheet)), (pending, None))
        result = advancement.purchase(sheet, pending, context.settings)
        return Computed(dict(result.sheet), (pending, result))


@dataclass(frozen=True, slots=True)
class Landed:
    """What a cast did to the sheet it landed on: the timed effect it left, the damage or
    heal it made (``held``: a touch spell whose damage waits for its melee attack)."""

    effect: Effect | None = None
    health: HealthChange | None = None
    held: bool = False


def target_change(
    system: GameSystem, cast: CastResult, target: Fighter, settings: Mapping[str, Any]
) -> TargetChange | None:
    """The damage or heal a cast makes: the system's own reading when it has one (Núcleo:
    absorption, Toque vampírico's drain), else the rolled effect as it is."""
    changes = capabilities(system).spell_changes
    if changes is not None:
        return changes.spell_change(cast, target, settings)
    if cast.effect is None:
        return None
    kind = "heal" if cast.effect.kind == "healing" else "damage"
    return TargetChange(kind, max(0, cast.effect.total))


def land(
    sheet: dict[str, Any], cast: CastResult, context: CampaignContext, *, own: bool
) -> tuple[dict[str, Any], Landed]:
    """Apply a cast to ``sheet``: its timed effect (on the caster when ``own`` and the seed
    says ``lanzador``; on the target otherwise) and its damage or heal (held for a touch
    spell: seed 002 asks for the melee attack first)."""
    effect = None
    timed = cast.timed_effect
    if timed is not None and (cast.effect_target == "lanzador") == own:
        sheet = effects.add(sheet, timed)
        effect = timed
    health, held = None, False
    change = target_change(
        context.system, cast, Fighter(str(sheet.get("name", "")), sheet=sheet), context.settings
    )
    if change is not None and change.amount > 0:
        if cast.needs_melee_attack:
            held = True
        elif change.kind == "heal":  # the dead are refused (bot/services/sheets/dead.py)
            health = heal_living(context.system, sheet, change.amount, context.settings)
        else:
            health = context.system.apply_damage(sheet, change.amount, context.settings)
        if health is not None:
            sheet = dict(health.sheet)
    return sheet, Landed(effect, health, held)


@dataclass(frozen=True, slots=True)
class CastSpell:
    """A cast, rolled on the current version (a retry rolls again: only one cast is kept).

    A spell that lasts on its caster (``lanzador``) leaves its effect on this same sheet;
    ``on_self`` (the caster named itself as the target) also lands its damage or heal here.
    """

    request: SpellRequest
    rng: random.Random
    audit: Callable[[CastResult], AuditEntry]
    validate: bool = False
    on_self: bool = False

    def compute(
        self, sheet: dict[str, Any], context: CampaignContext
    ) -> Computed[tuple[CastResult, Landed]]:
        require_able(context, sheet, Act.CAST)
        result = spellbook_of(context.system).cast(sheet, self.request, context.settings, self.rng)
        new = dict(result.sheet)
        landed = Landed()
        if result.timed_effect is not None and result.effect_target == "lanzador":
            new, landed = land(new, replace(result, effect=None), context, own=True)
        if self.on_self:
            new, also = land(new, result, context, own=False)
            landed = Landed(landed.effect or also.effect, also.health, also.held)
        return Computed(new, (result, landed), audit=self.audit(result))


@dataclass(frozen=True, slots=True)
class LandSpell:
    """What a cast does to another character (its target): computed on the target's current
    version, in the same transaction as the cast (:meth:`SheetWriter.apply_each`)."""

    cast: CastResult
    caster: str
    validate: bool = False

    def compute(self, sheet: dict[str, Any], context: CampaignContext) -> Computed[Landed]:
        new, landed = land(sheet, self.cast, context, own=False)
        amount = landed.health.amount if landed.health is not None else 0
        audit = AuditEntry(
            kind="spell_target",
            expression=self.cast.label,
            breakdown=f"{self.caster} → {self.cast.label}"
            + (f" ({landed.effect.name})" if landed.effect else "")
            + (f": {landed.health.state}" if landed.health else ""),
            total=amount,
            reason=self.caster,
            detail={"effect": landed.effect.name if landed.effect else None, "held": landed.held},
        )
        return Computed(new, landed, audit=audit)


@dataclass(frozen=True, slots=True)
class Touched:
    """A touch spell cast after its melee attack hit: the cast, what it does to the target
    (``change``: the spell's damage, with Toque vampírico's drain as ``to_attacker``) and
    what the caster received (``drained``)."""

    cast: CastResult
    change: TargetChange | None = None
    drained: HealthChange | None = None

    def attack(self, hit: AttackResult) -> AttackResult:
        """The melee attack's result carrying the spell's damage (what the target takes)."""
        effect = self.cast.effect
        if effect is None or self.change is None:
            notes = (*hit.notes, "touch.note.cast_failed")
            return replace(hit, weapon=self.cast.label, notes=notes)
        roll = RollLine(self.cast.label, effect.expression, effect.total, effect.breakdown)
        left = hit.hit_points_left
        return replace(
            hit,
            weapon=self.cast.label,
            damage=self.change.amount,
            damage_rolls=(roll,),
            change=self.change,
            hit_points_left=None if left is None else left - self.change.amount,
        )


@dataclass(frozen=True, slots=True)
class TouchCast:
    """The caster's part of a touch spell whose melee attack hit (seed 002: Toque eléctrico
    line 326, Toque vampírico line 370): the cast on the caster's current version and, when
    the spell drains («otorgándoselos al lanzador»), the drained points healing the caster
    in the same write.  ``target`` is the target as read for the attack: what the spell's
    damage is judged against (both touch spells ignore armour).  The target's part is
    :class:`bot.services.play.attacks.Wound` on :meth:`Touched.attack`, the next step of the same
    :meth:`SheetWriter.apply_each`."""

    request: SpellRequest
    rng: random.Random
    target: Fighter
    validate: bool = False

    def compute(self, sheet: dict[str, Any], context: CampaignContext) -> Computed[Touched]:
        require_able(context, sheet, Act.CAST)
        system, settings = context.system, context.settings
        cast = spellbook_of(system).cast(sheet, self.request, settings, self.rng)
        new = dict(cast.sheet)
        change = target_change(system, cast, self.target, settings)
        if change is None or change.amount <= 0:
            return Computed(new, Touched(cast))
        drained = None
        if change.to_attacker > 0:
            drained = system.heal(new, change.to_attacker, settings)
            new = dict(drained.sheet)
        return Computed(new, Touched(cast, change, drained))


def lands_on_target(cast: CastResult) -> bool:
    """Whether a cast changes its target's sheet at all (else only the caster is written)."""
    effect = cast.timed_effect is not None and cast.effect_target != "lanzador"
    return effect or cast.effect is not None


@dataclass(frozen=True, slots=True)
class Rest:
    validate: bool = False

    def compute(self, sheet: dict[str, Any], context: CampaignContext) -> Computed[RestResult]:
        result = spellbook_of(context.system).rest(sheet, context.settings)
        return Computed(result.sheet, result)


def _effect_entry(action: str, effect: Effect) -> AuditEntry:
    """Kind ``effect`` (undoable, see :data:`bot.services.shared.audit.UNDOABLE`); ``action`` says
    whether it was added or removed."""
    rounds = "∞" if effect.rounds is None else str(effect.rounds)
    sign = "+" if action == "add" else "-"
    return AuditEntry(
        kind="effect",
        expression=f"{sign}{effect.name}",
        breakdown=f"{effect.name} ({rounds})",
        total=effect.rounds or 0,
        detail={"action": action, "effect": effect.to_dict()},
    )


@dataclass(frozen=True, slots=True)
class Damage:
    """Damage through the system, logged (kind ``damage``, undoable; ``/init damage``)."""

    amount: int
    validate: bool = False
    reason: str | None = None

    def compute(self, sheet: dict[str, Any], context: CampaignContext) -> Computed[HealthChange]:
        result = context.system.apply_damage(sheet, self.amount, context.settings)
        return Computed(result.sheet, result, audit=_health_audit("damage", result, self.reason))


@dataclass(frozen=True, slots=True)
class Heal:
    """Healing through the system, logged (kind ``heal``, undoable; ``/init heal``).

    A dead sheet is refused unless ``force`` (the GM's explicit override; the service
    checks who asks): see :mod:`bot.services.sheets.dead`."""

    amount: int
    validate: bool = False
    reason: str | None = None
    force: bool = False

    def compute(self, sheet: dict[str, Any], context: CampaignContext) -> Computed[HealthChange]:
        result = heal_living(context.system, sheet, self.amount, context.settings, force=self.force)
        return Computed(result.sheet, result, audit=_health_audit("heal", result, self.reason))


def _health_audit(kind: str, result: HealthChange, reason: str | None = None) -> AuditEntry:
    """``/init damage`` and ``/init heal`` are logged (kind ``damage``/``heal``) to be undoable."""
    sign = "-" if kind == "damage" else "+"
    return AuditEntry(
        kind=kind,
        expression=f"{sign}{result.amount}",
        breakdown=f"{sign}{result.amount} ({result.state})",
        total=result.amount,
        reason=reason,
        detail={"state": result.state, "notes": list(result.notes)},
    )


@dataclass(frozen=True, slots=True)
class AddEffect:
    """``/effect add``: a timed effect on the current version (same name: restarted).

    ``resolve`` turns the typed modifier text into :class:`Modifier`s against the sheet's own
    check options (so «PER-2» finds Percepción on a Núcleo sheet) — on every retry."""

    effect: Effect
    modifier_text: str | None = None
    validate: bool = False

    def compute(self, sheet: dict[str, Any], context: CampaignContext) -> Computed[Effect]:
        from bot.services.sheets.effect_syntax import parse_modifiers

        effect = self.effect
        if self.modifier_text:
            mods = parse_modifiers(self.modifier_text, context.system, sheet, context.settings)
            effect = replace(effect, modifiers=mods)
        new = effects.add(sheet, effect)
        added = next(
            e for e in effects.effects(new) if e.name.casefold() == effect.name.strip().casefold()
        )
        return Computed(new, added, audit=_effect_entry("add", added))


@dataclass(frozen=True, slots=True)
class RemoveEffect:
    """``/effect remove``: refused (translated) when the sheet no longer has it."""

    name: str
    validate: bool = False

    def compute(self, sheet: dict[str, Any], context: CampaignContext) -> Computed[Effect]:
        new, removed = effects.remove(sheet, self.name)
        return Computed(new, removed, audit=_effect_entry("remove", removed))


@dataclass(frozen=True, slots=True)
class Ticked:
    """What the owner's turn did to its effects: those that ended, turn actions rolled, the
    health after a heal action (None when nothing healed)."""

    expired: tuple[Effect, ...]
    rolls: tuple[effects.ActionRoll, ...]
    remaining: tuple[Effect, ...]
    health: HealthChange | None = None


@dataclass(frozen=True, slots=True)
class TickEffects:
    """The owner's turn (issue 23 §2): as it begins (``phase`` ``"begin"``) its effects come
    into play and the turn actions the bot can roll are rolled (Aura de curación heals
    through the system); as it ends (``"end"``) every timed effect in play loses a round and
    those at 0 expire; ``"whole"`` does both at once.  A retry after a clash ticks the newer
    version again, so a round is never counted twice."""

    rng: random.Random
    validate: bool = False
    phase: str = "whole"

    def compute(self, sheet: dict[str, Any], context: CampaignContext) -> Computed[Ticked]:
        ticked = {
            "begin": effects.begin_turn,
            "end": effects.end_turn,
            "whole": effects.tick,
        }[self.phase](sheet)
        new: Mapping[str, Any] = ticked.sheet
        rolls = []
        health = None
        for effect in ticked.actions:
            if effect.action is None or effect.action.kind != "heal":
                continue  # a miss chance is rolled when the owner is attacked, not now
            if dead_state(context.system, new, context.settings) is not None:
                continue  # an aura does not raise the dead (bot/services/sheets/dead.py)
            roll = effects.roll_action(effect, self.rng)
            rolls.append(roll)
            if roll.amount > 0:
                health = context.system.heal(dict(new), roll.amount, context.settings)
                new = health.sheet
        value = Ticked(ticked.expired, tuple(rolls), effects.effects(new), health)
        audit = None
        if ticked.expired or rolls:
            audit = AuditEntry(
                kind="effect_tick",
                expression=", ".join(r.expression for r in rolls) or "-",
                breakdown="; ".join(
                    [f"{r.effect}: {r.breakdown}" for r in rolls]
                    + [f"{e.name} ✕" for e in ticked.expired]
                ),
                total=sum(r.amount for r in rolls),
                detail={"expired": [e.name for e in ticked.expired]},
            )
        return Computed(new, value, audit=audit)


@dataclass(frozen=True, slots=True)
class EndFightEffects:
    """The fight ended (issue 23 §2): effects measured in rounds end with it, or, ``keep``
    (the GM's explicit choice), stay and count afresh in the next fight.  The value is the
    timed effects (ended, or kept); the audit row (kind ``effect_tick``) names the ended."""

    keep: bool = False
    validate: bool = False

    def compute(
        self, sheet: dict[str, Any], context: CampaignContext
    ) -> Computed[tuple[Effect, ...]]:
        ended = effects.end_of_fight(sheet, self.keep)
        timed = tuple(e for e in effects.effects(sheet) if e.rounds is not None)
        audit = None
        if ended.expired:
            audit = AuditEntry(
                kind="effect_tick",
                expression="-",
                total=0,
                breakdown="; ".join(f"{e.name} ✕" for e in ended.expired),
                detail={"expired": [e.name for e in ended.expired], "fight_ended": True},
            )
        return Computed(ended.sheet, timed, audit=audit)


@dataclass(frozen=True, slots=True)
class ApplyEffects:
    """What a roll already made changes (a token given, a death test): refused by the rules'
    ``expect`` effects when the current version no longer allows it, logged with the roll."""

    effects: tuple[SheetEffect, ...]
    audit: AuditEntry | None = None
    validate: bool = False

    def compute(self, sheet: dict[str, Any], context: CampaignContext) -> Computed[None]:
        return Computed(apply_effects(sheet, self.effects), None, audit=self.audit)


@dataclass(frozen=True, slots=True)
class ReplaceSheet:
    """An import over an existing character: the whole new sheet.

    ``guarded`` lists the referee-only fields a player may not change this way: checked
    against the *current* version (refused if the document changes one) and, when the
    document leaves one out, taken from it — so an XP grant made meanwhile is kept.
    """

    sheet: Mapping[str, Any] = field(default_factory=dict)
    guarded: tuple[FieldSpec, ...] = ()
    validate: bool = True
    #: the health and resources a player's file may not change (``salud_por_comandos``,
    #: issue 23 §3), checked and kept the same way on the current version: a heal or a
    #: wound written meanwhile is neither refused nor undone
    health: tuple[str, ...] = ()
    #: the guarded paths the file itself set (the others take the current values)
    health_set: tuple[str, ...] = ()

    def compute(self, sheet: dict[str, Any], context: CampaignContext) -> Computed[None]:
        new = dict(self.sheet)
        if self.health:
            if wrong := changed_guarded(new, sheet, self.health_set):
                labels = {s.path: s.label for s in sheet_fields(context.system, context.settings)}
                shown = ", ".join(labels.get(path, path) for path in wrong)
                raise NotAllowed("sheet.error.import_health", fields=shown)
            new = keep_guarded(new, sheet, self.health, overwrite=True)
        if not self.guarded:
            return Computed(new, None)
        changed = referee_changes(new, sheet, self.guarded)
        if changed:
            raise NotAllowed("sheet.error.import_referee_fields", fields=", ".join(changed))
        return Computed(keep_referee_fields(new, sheet, self.guarded), None)


@dataclass(frozen=True, slots=True)
class Callback:
    """Adapter for :meth:`CharacterService.update_sheet` callers: ``fn(sheet, system, settings)``
    returns the new sheet, computed on the current version like every other change."""

    fn: Callable[[dict[str, Any], GameSystem, Mapping[str, Any]], Mapping[str, Any]]
    validate: bool = True

    def compute(self, sheet: dict[str, Any], context: CampaignContext) -> Computed[None]:
        return Computed(self.fn(sheet, context.system, context.settings), None)
