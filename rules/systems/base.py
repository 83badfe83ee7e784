"""The one interface every rule system implements, so cogs and services never branch on it.

A *sheet* is a plain JSON-compatible ``dict`` (what the database stores and what
``/sheet export`` writes).  Its common keys are ``name`` and ``system``; everything else
belongs to the system, which describes its fields with :class:`FieldSpec` and validates
them in :meth:`GameSystem.validate`.  Systems never mutate a sheet they are given: they
return a new one.

Everything here is pure: values in, frozen dataclasses out, randomness only through an
injected :class:`random.Random`.  Text shown to users is *not* produced here except for
game terms, which stay in Spanish in every language (``"Fuerza"``, ``"Resistencia"``);
outcomes are enums and problems are catalogue keys with parameters, translated by the bot.
"""

from __future__ import annotations

import copy
import enum
import random
import weakref
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:  # the fight's types live with the fight rules, which import this module
    from rules.combat.actions import Allowance, Use
    from rules.combat.attack import (
        AttackRequest,
        AttackResult,
        DefenceRequest,
        Fighter,
        RollLine,
        TargetChange,
    )
    from rules.combat.effects import Effect
    from rules.combat.health import CombatState
    from rules.combat.participants import Side

Sheet = Mapping[str, Any]
Settings = Mapping[str, Any]


class FieldKind(enum.StrEnum):
    """How a sheet field is typed and validated."""

    INTEGER = "integer"
    TEXT = "text"
    CHOICE = "choice"
    BOOLEAN = "boolean"


@dataclass(frozen=True, slots=True)
class FieldSpec:
    """One editable field of a sheet, as ``/sheet set`` and the creation wizard see it.

    ``path`` is dotted (``"atributos.Fuerza"``, ``"habilidades.Sigilo"``); ``label`` is the
    game term shown to users (Spanish in every locale).  ``choices`` lists the allowed values
    for :attr:`FieldKind.CHOICE`.  ``referee_only`` fields (experience, spent experience)
    change through the rules' own use cases (XP grants, purchases); by hand only the GM
    may set them, so a player cannot award himself experience.
    """

    path: str
    label: str
    kind: FieldKind
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()
    group: str = "general"
    referee_only: bool = False  # experience and the like: only the GM sets them by hand


@dataclass(frozen=True, slots=True)
class Problem:
    """Why a sheet or a request is not legal: a catalogue key plus its parameters.

    ``key`` is looked up in the bot's message catalogue (``sheet.problem.<key>``), so the
    same problem reads well in Spanish and English.  ``path`` names the offending field.
    """

    key: str
    path: str = ""
    params: Mapping[str, Any] = field(default_factory=dict)


class RulesError(Exception):
    """A request the rules refuse; carries problems the bot translates."""

    def __init__(self, problems: list[Problem] | Problem) -> None:
        self.problems = problems if isinstance(problems, list) else [problems]
        super().__init__("; ".join(p.key for p in self.problems))


@dataclass(frozen=True, slots=True)
class DerivedValue:
    """A number (or state) the rules compute from a sheet, with how it was computed.

    ``key`` is stable (``"pv"``, ``"defensa"``, ``"salvacion"``); ``label`` the game term;
    ``formula`` a short human-readable derivation (``"Físico 6 × 4"``) for ``/sheet show``.
    """

    key: str
    label: str
    value: int | float | str  # a float is a measure (pounds): the bot writes it per locale
    formula: str = ""
    group: str = "derived"


class Outcome(enum.StrEnum):
    """How a check ended, for every system."""

    SUCCESS = "success"
    FAILURE = "failure"
    CRITICAL = "critical"
    FUMBLE = "fumble"


@dataclass(frozen=True, slots=True)
class CheckOption:
    """Something a character can roll (``/check`` autocompletes these).

    ``key`` is what the request names (``"atributo:Ágil"``, ``"habilidad:Sigilo"``,
    ``"salvacion"``, ``"ladron:forzar_cerraduras"``); ``label`` is shown to users.
    """

    key: str
    label: str
    kind: str


@dataclass(frozen=True, slots=True)
class CheckRequest:
    """What the player asked for.

    ``modifier`` is the GM's or the situation's modifier; ``difficulty`` a target chosen by
    the GM where the system uses one; ``circumstances`` are system-specific flags
    (``"token"``, ``"dos_oportunidades_peor"``, ``"dividir_acciones"``, ``"amenaza:veneno"``).
    """

    option: str
    modifier: int = 0
    difficulty: int | None = None
    circumstances: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class SheetEffect:
    """One change a roll makes to the character, kept apart from the sheet it was rolled on.

    A check never returns a whole new sheet: between the roll and the write another command
    may have changed the character (money, damage, another check).  The bot re-applies the
    effects to the sheet's *current* version under its version check (:func:`apply_effects`),
    so ``expect`` refuses when the fact the roll relied on no longer holds (a token spent twice
    is spent once; the second check is refused) and nothing written in between is lost.

    ``op``: ``"expect"`` (refuse with ``problem`` unless the value at ``path`` equals ``value``),
    ``"set"`` (store ``value``) or ``"add"`` (add the integer ``value``).  ``path`` is dotted.
    """

    op: str
    path: str
    value: Any = None
    problem: Problem | None = None

    @classmethod
    def expect(cls, path: str, value: Any, problem: Problem) -> SheetEffect:
        return cls("expect", path, value, problem)

    @classmethod
    def set(cls, path: str, value: Any) -> SheetEffect:
        return cls("set", path, value)

    @classmethod
    def add(cls, path: str, amount: int) -> SheetEffect:
        return cls("add", path, amount)


def _read(sheet: Mapping[str, Any], path: str) -> Any:
    node: Any = sheet
    for part in path.split("."):
        if not isinstance(node, Mapping) or part not in node:
            return None
        node = node[part]
    return node


def apply_effects(sheet: Mapping[str, Any], effects: tuple[SheetEffect, ...]) -> dict[str, Any]:
    """A copy of ``sheet`` with ``effects`` applied in order; :class:`RulesError` listing every
    ``expect`` that does not hold (then nothing is applied)."""
    failed = [
        e.problem or Problem("sheet.problem.changed_meanwhile", e.path)
        for e in effects
        if e.op == "expect" and _read(sheet, e.path) != e.value
    ]
    if failed:
        raise RulesError(failed)
    result = copy.deepcopy(dict(sheet))
    for effect in effects:
        if effect.op == "expect":
            continue
        parts = effect.path.split(".")
        node = result
        for part in parts[:-1]:
            child = node.get(part)
            if not isinstance(child, dict):
                child = {}
                node[part] = child
            node = child
        if effect.op == "set":
            node[parts[-1]] = copy.deepcopy(effect.value)
        elif effect.op == "add":
            current = node.get(parts[-1], 0)
            base = current if isinstance(current, int) and not isinstance(current, bool) else 0
            node[parts[-1]] = base + int(effect.value)
        else:
            raise ValueError(f"unknown sheet effect {effect.op!r}")
    return result


@dataclass(frozen=True, slots=True)
class CheckResult:
    """A rolled and judged check.

    ``expression`` is the dice notation actually rolled (for the audit log), ``breakdown``
    the dice engine's plain rendering, ``target`` what the roll had to reach (roll-under
    systems: the highest success; roll-over: the difficulty), ``notes`` catalogue keys of
    circumstances applied (``"nucleo.malherido"``), ``probability`` the exact chance of
    success as a ``(numerator, denominator)`` pair when the system can compute it.
    ``effects`` is what the check changes on the character (a token given to the GM, mana
    spent, a death test's new state), re-applied by the bot to the current sheet.
    ``modifiers`` are the active timed effects (``rules.combat.effects``) added to the roll,
    by name.
    """

    option: str
    label: str
    expression: str
    total: int
    breakdown: str
    outcome: Outcome | None
    target: int | None = None
    notes: tuple[str, ...] = ()
    probability: tuple[int, int] | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)
    effects: tuple[SheetEffect, ...] = ()
    modifiers: tuple[tuple[str, int], ...] = ()  # active effects applied: ("Niebla", -2)


@dataclass(frozen=True, slots=True)
class OpposedResult:
    """Two sides of an opposed check; ``winner`` is ``"a"``, ``"b"`` or ``"tie"``."""

    a: CheckResult
    b: CheckResult | None
    winner: str


@dataclass(frozen=True, slots=True)
class InitiativeRoll:
    """One combatant's (or side's) place in the order.

    ``sort_key`` orders combatants (higher acts first); ``actions`` is how many turns the
    combatant gets each round (nucleo gives 2 at 20+, 3 at 30+); ``skips_first_round`` is
    set by a nucleo initiative fumble.
    """

    total: int
    sort_key: tuple[int, ...]
    breakdown: str
    actions: int = 1
    skips_first_round: bool = False
    goes_last: bool = False


@dataclass(frozen=True, slots=True)
class CombatPolicy:
    """How a system orders a fight, so the combat aggregate never branches on the system id.

    ``by_side``: the order is decided per side (``jugadores``/``enemigos``) with one
    ``side_die`` each, re-rolled every round when ``reroll_each_round`` (S&W «un d6 por
    bando» at the start of each asalto); otherwise each combatant keeps the initiative
    rolled once for the whole combat.  ``can_wait``: a combatant may pick a later place
    once (rolweb ORDEN DE TURNO).  ``action_step``: actions per turn grow with the total
    (Núcleo: 20+ → 2, 30+ → 3: ``total // 10``).  ``lowest_first``: a typed initiative
    acts earlier when lower (S&W alternative C segments).  ``ties`` names how equal keys
    are settled (``"sort_key"``: the system's tie-break in the key, then arrival order;
    ``"reroll_side"``: the side dice are rolled again; ``"reroll_d20"``: tied combatants
    roll a d20 each until the tie breaks).  ``typed_prefix`` goes before an
    initiative the referee types, so it compares with rolled keys (Núcleo's rolled keys
    start with 1, a fumble's with 0).  ``seed`` cites the rule.
    """

    by_side: bool = False
    reroll_each_round: bool = False
    side_die: int = 6
    can_wait: bool = False
    action_step: int | None = None
    lowest_first: bool = False
    ties: str = "sort_key"
    typed_prefix: tuple[int, ...] = ()
    seed: str = ""


@dataclass(frozen=True, slots=True)
class HealthChange:
    """The result of damage or healing applied to a sheet.

    ``sheet`` is the updated copy; ``state`` the health state key after the change
    (``"normal"``, ``"malherido"``, ``"moribundo"``, ``"muerto"`` ...); ``notes`` catalogue
    keys of triggered effects (``"rolweb.umbral_de_dolor"``).
    """

    sheet: Mapping[str, Any]
    amount: int
    state: str
    notes: tuple[str, ...] = ()
    #: the choice this damage left owed (:class:`PainChoices`: its ``ref``), if any
    owed: int | None = None


@dataclass(frozen=True, slots=True)
class AdvanceResult:
    """What an XP grant or spend did: new sheet, levels gained, notes for the reply.

    ``hit_dice`` says new hit dice are left to roll (:class:`LevelHitDice`: the reply offers
    the button that rolls them)."""

    sheet: Mapping[str, Any]
    xp_before: int
    xp_after: int
    levels: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    hit_dice: bool = False


@dataclass(frozen=True, slots=True)
class SpellInfo:
    """A spell as the spells cog lists it; ``cost`` is mana (nucleo) or a slot level (swc)."""

    key: str
    name: str
    level: int
    cost: int | None
    range: str
    description: str
    difficulty: int | None = None
    lists: tuple[str, ...] = ()
    # what ``/spell show`` adds where the system knows it (Núcleo): the duration as written,
    # the critical's benefits (catalogue suffixes: dado, bono, turnos) and a touch spell's
    # melee attack
    duration: str | None = None
    critical: tuple[str, ...] = ()
    melee_attack: bool = False


@dataclass(frozen=True, slots=True)
class SpellList:
    """What ``/spell list`` shows: the system's spells and, when it has no list of its own,
    the catalogue key of a notice explaining how its magic works instead."""

    spells: tuple[SpellInfo, ...]
    notice: str | None = None


@dataclass(frozen=True, slots=True)
class SpellPool:
    """What a caster can still spend: mana (``"mana"``) or the slots of one spell level of
    one class's list (``"explorador.mago.1"``).  ``label`` is the game term."""

    key: str
    label: str
    left: int
    maximum: int


@dataclass(frozen=True, slots=True)
class SpellState:
    """A character's magic right now: pools left and the spells they know (levels)."""

    pools: tuple[SpellPool, ...] = ()
    known: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class SpellRequest:
    """What ``/spell cast`` asked for; each system reads the parts it uses.

    ``spell`` names the spell (free text where the system has no list); ``level`` and
    ``spell_list`` pick a slot (swc); ``extra_mana`` is burnt for a bonus, ``mana`` is what
    a variable-cost spell takes (Curación 1–3) and ``dispel`` the spell Disipar Magia cancels.
    """

    spell: str | None = None
    level: int | None = None
    spell_list: str | None = None
    extra_mana: int = 0
    mana: int | None = None
    dispel: str | None = None
    modifier: int = 0
    #: what the cast heals when the campaign does not define the spell (S&W: the caster or
    #: the GM says, issue 23 §3)
    amount: int | None = None


@dataclass(frozen=True, slots=True)
class SpellEffect:
    """Dice a successful spell rolls for its effect (damage or healing)."""

    kind: str
    expression: str
    total: int
    breakdown: str
    ignores_armour: bool = False


@dataclass(frozen=True, slots=True)
class CastResult:
    """A cast: the roll when the system rolls one, what it spent, what it did, the new sheet.

    ``spent`` counts the pool's unit (mana points or slots) taken from ``pool``; ``save`` is
    the target's «Salvación» as ``(attribute, difficulty text)``; ``critical_benefits`` and
    ``notes`` are catalogue-key suffixes and keys the bot translates.  ``timed_effect`` is
    the effect a spell with a duration leaves (add it with ``rules.combat.effects.add`` to
    ``effect_target``'s sheet: ``lanzador``, ``objetivo`` or ``area`` — whom the GM names);
    ``needs_melee_attack`` marks a touch spell that needs a melee attack first.
    """

    label: str
    sheet: Mapping[str, Any]
    spent: int
    pool: SpellPool | None
    check: CheckResult | None = None
    effect: SpellEffect | None = None
    save: tuple[str, str] | None = None
    critical_benefits: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    timed_effect: Effect | None = None
    effect_target: str = ""
    needs_melee_attack: bool = False


@dataclass(frozen=True, slots=True)
class RestResult:
    """What a rest gave back: the new sheet and the pools before and after."""

    sheet: Mapping[str, Any]
    before: tuple[SpellPool, ...]
    after: tuple[SpellPool, ...]


@runtime_checkable
class SpellBook(Protocol):
    """Magic through one interface: the spells cog never asks which system it runs.

    Núcleo rolls a cast and spends mana; S&W spends a slot of a spell level (the seed has
    slots, not spells); a system without spells refuses with a :class:`RulesError` whose
    problem explains where its powers live instead.
    """

    def spell_list(self, settings: Settings) -> SpellList: ...

    def spell_state(self, sheet: Sheet, settings: Settings) -> SpellState: ...

    def cast(
        self, sheet: Sheet, request: SpellRequest, settings: Settings, rng: random.Random
    ) -> CastResult: ...

    def rest(self, sheet: Sheet, settings: Settings) -> RestResult: ...


@dataclass(frozen=True, slots=True)
class SettingSpec:
    """A per-campaign rule setting (``/campaign settings``) with its default."""

    key: str
    kind: FieldKind
    default: Any
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None


@runtime_checkable
class GameSystem(Protocol):
    """What the bot needs from a rule system.  Implemented by ``swc``, ``rolweb``, ``nucleo``."""

    id: str
    name: str
    seed: str

    def settings(self) -> tuple[SettingSpec, ...]:
        """The campaign settings this system understands, with defaults."""

    def fields(self, settings: Settings) -> tuple[FieldSpec, ...]:
        """The editable fields of a sheet under these settings."""

    def new_sheet(self, name: str, settings: Settings) -> dict[str, Any]:
        """An empty but well-formed sheet (validation may still report missing choices)."""

    def validate(self, sheet: Sheet, settings: Settings) -> list[Problem]:
        """Every problem that makes the sheet illegal; empty when it is legal."""

    def derived(self, sheet: Sheet, settings: Settings) -> tuple[DerivedValue, ...]:
        """Everything the rules compute from the sheet, for ``/sheet show``."""

    def check_options(self, sheet: Sheet, settings: Settings) -> tuple[CheckOption, ...]:
        """What this character can roll with ``/check``."""

    def check(
        self, sheet: Sheet, request: CheckRequest, settings: Settings, rng: random.Random
    ) -> CheckResult:
        """Roll and judge one check (raises :class:`RulesError` on an unknown option)."""

    def opposed(
        self,
        a: Sheet,
        a_request: CheckRequest,
        b: Sheet,
        b_request: CheckRequest,
        settings: Settings,
        rng: random.Random,
    ) -> OpposedResult:
        """Roll an opposed check the way the system does it."""

    def initiative(self, sheet: Sheet, settings: Settings, rng: random.Random) -> InitiativeRoll:
        """Roll (or compute) one combatant's initiative."""

    def combat_policy(self, settings: Settings) -> CombatPolicy:
        """How ``/init`` orders a fight under these settings (sides, re-rolls, waiting)."""

    def apply_damage(self, sheet: Sheet, amount: int, settings: Settings) -> HealthChange:
        """Apply damage already reduced by armour where the system says so."""

    def heal(self, sheet: Sheet, amount: int, settings: Settings) -> HealthChange:
        """Heal hit points / Resistencia / wounds."""

    def grant_xp(self, sheet: Sheet, amount: int, settings: Settings) -> AdvanceResult:
        """Add experience and apply what it buys automatically (levels in swc)."""

    def spells(self, settings: Settings) -> tuple[SpellInfo, ...]:
        """The spells this system knows (empty when it has none)."""


class StepKind(enum.StrEnum):
    """How the creation wizard asks for one step (the bot renders each kind generically)."""

    ROLL = "roll"  # the bot rolls when the player presses a button; the answer is empty
    CHOOSE = "choose"  # a select menu; the answer is the list of chosen values
    FORM = "form"  # a modal of up to five text inputs; the answer maps field keys to text


@dataclass(frozen=True, slots=True)
class StepOption:
    """One choice of a CHOOSE step (at most 25 per step: Discord's select limit)."""

    value: str
    label: str
    description: str = ""


@dataclass(frozen=True, slots=True)
class FormField:
    """One text input of a FORM step; ``label`` at most 45 characters (Discord's limit)."""

    key: str
    label: str
    placeholder: str = ""
    default: str = ""
    required: bool = True
    paragraph: bool = False
    max_length: int = 100


@dataclass(frozen=True, slots=True)
class CreationStep:
    """The next question of the creation wizard.

    ``prompt`` is a catalogue key with parameters (e.g. the rolled scores to remind the
    player of), ``summary`` lines (game terms, values) show what is decided so far.
    """

    key: str
    kind: StepKind
    prompt: Problem
    options: tuple[StepOption, ...] = ()
    min_choices: int = 1
    max_choices: int = 1
    fields: tuple[FormField, ...] = ()
    optional: bool = False
    summary: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class LoggedRoll:
    """A roll made while building a character, for the audit log."""

    expression: str
    breakdown: str
    total: int
    reason: str


@dataclass(frozen=True, slots=True)
class CreationOutcome:
    """What answering a step did: the new draft, rolls to log, notes to show."""

    draft: Mapping[str, Any]
    rolls: tuple[LoggedRoll, ...] = ()
    notes: tuple[Problem, ...] = ()


@runtime_checkable
class CharacterBuilder(Protocol):
    """Step-by-step creation of player characters and quick NPC stat blocks.

    The wizard asks ``creation_step(draft, done, ...)`` for the next question until it
    returns None, then stores the draft after :meth:`GameSystem.validate` accepts it.
    ``done`` lists the step keys already answered (so a system never has to mark its drafts).
    A step's answer is validated by :meth:`apply_creation_step`, which raises
    :class:`RulesError` naming exactly what is wrong and leaves the draft untouched.
    """

    def creation_step(
        self, draft: Sheet, done: tuple[str, ...], settings: Settings, *, npc: bool = False
    ) -> CreationStep | None: ...

    def apply_creation_step(
        self,
        draft: Sheet,
        step_key: str,
        answer: Any,
        settings: Settings,
        rng: random.Random,
        *,
        npc: bool = False,
    ) -> CreationOutcome: ...

    def catalogue(self, kind: str, settings: Settings) -> tuple[StepOption, ...]:
        """Names for autocomplete: ``"clase"``, ``"raza"``, ``"habilidad"``, ``"equipo"``,
        ``"hechizo"`` (empty for kinds the system does not have)."""
        ...

    def adjust_inventory(
        self, sheet: Sheet, item: str, quantity: int, settings: Settings
    ) -> dict[str, Any]:
        """Add (positive) or remove (negative) ``quantity`` of ``item``; validates the item
        against the system's equipment where it has one, free text otherwise."""
        ...

    def adjust_money(
        self, sheet: Sheet, amount: int, currency: str | None, settings: Settings
    ) -> dict[str, Any]:
        """Add or spend money; refuses to go below zero (RulesError)."""
        ...


class CreationModule(Protocol):
    """What ``rules/<id>/builder.py`` provides (a module satisfies this protocol)."""

    def creation_step(
        self, draft: Sheet, done: tuple[str, ...], settings: Settings, *, npc: bool = False
    ) -> CreationStep | None: ...

    def apply_creation_step(
        self,
        draft: Sheet,
        step_key: str,
        answer: Any,
        settings: Settings,
        rng: random.Random,
        *,
        npc: bool = False,
    ) -> CreationOutcome: ...


class DelegatedCreation:
    """Forwards the wizard half of :class:`CharacterBuilder` to a system's builder module.

    Each system keeps its questions and answers in ``rules/<id>/builder.py`` (functions
    ``creation_step`` and ``apply_creation_step``); its system class sets ``builder`` to that
    module and inherits these two methods instead of repeating them.
    """

    builder: CreationModule

    def creation_step(
        self, draft: Sheet, done: tuple[str, ...], settings: Settings, *, npc: bool = False
    ) -> CreationStep | None:
        return self.builder.creation_step(draft, done, settings, npc=npc)

    def apply_creation_step(
        self,
        draft: Sheet,
        step_key: str,
        answer: Any,
        settings: Settings,
        rng: random.Random,
        *,
        npc: bool = False,
    ) -> CreationOutcome:
        return self.builder.apply_creation_step(draft, step_key, answer, settings, rng, npc=npc)


class SpellBookModule(Protocol):
    """What ``rules/<id>/spellbook.py`` provides (a module satisfies this protocol)."""

    def spell_list(self, settings: Settings) -> SpellList: ...

    def spell_state(self, sheet: Sheet, settings: Settings) -> SpellState: ...

    def cast(
        self, sheet: Sheet, request: SpellRequest, settings: Settings, rng: random.Random
    ) -> CastResult: ...

    def rest(self, sheet: Sheet, settings: Settings) -> RestResult: ...


class DelegatedSpellBook:
    """Forwards :class:`SpellBook` to a system's ``spellbook`` module (``rules/<id>/spellbook.py``).

    A system sets ``spellbook`` to that module and overrides a method only where it passes
    more than the protocol's arguments.
    """

    spellbook: SpellBookModule

    def spell_list(self, settings: Settings) -> SpellList:
        return self.spellbook.spell_list(settings)

    def spell_state(self, sheet: Sheet, settings: Settings) -> SpellState:
        return self.spellbook.spell_state(sheet, settings)

    def cast(
        self, sheet: Sheet, request: SpellRequest, settings: Settings, rng: random.Random
    ) -> CastResult:
        return self.spellbook.cast(sheet, request, settings, rng)

    def rest(self, sheet: Sheet, settings: Settings) -> RestResult:
        return self.spellbook.rest(sheet, settings)


# -- Optional capabilities ------------------------------------------------------------------
#
# «Can this system do X?» has one answer: :func:`capabilities` (below) returns the system as
# each protocol it implements, or None.  A service never asks ``isinstance``, ``getattr`` or
# the system's id; a new system gains a command by implementing the protocol in
# ``rules/<id>/`` (``tests/bot/test_system_knowledge.py`` keeps it that way).


@runtime_checkable
class PurchaseApproval(Protocol):
    """Purchases a player asks for and the GM approves (Núcleo's advancement table, issue 23
    §4: «XP can raise skills and attributes … with the GM's approval»).  The sheet keeps the
    one purchase waiting; the bot asks the system, never reads the sheet's keys."""

    def needs_approval(self, settings: Settings) -> bool:
        """Whether a player's purchase waits for the GM (a campaign setting)."""
        ...

    def ask_purchase(self, sheet: Sheet, what: str, settings: Settings) -> tuple[Sheet, str]:
        """``sheet`` with ``what`` waiting for approval, and how it reads («Sigilo 1 → 2 (4
        PX)»); :class:`RulesError` when it could not be bought now (refused at once)."""
        ...

    def pending_purchase(self, sheet: Sheet) -> str | None:
        """The purchase waiting for the GM (what :meth:`Advancement.purchase` takes), or None."""
        ...

    def drop_pending(self, sheet: Sheet) -> Sheet:
        """``sheet`` with nothing waiting."""
        ...


@runtime_checkable
class RollUnder(Protocol):
    """A roll-under system (rolweb, seed 001: «1D20 … igual o inferior» to the attribute):
    a difficulty typed for a free roll (``/roll 1d20 difficulty:12``) is a target the result
    must not exceed, as ``/check``'s is (issue 23 §5: it was judged roll-over)."""

    def judge_under(self, total: int, natural: int | None, target: int, settings: Settings) -> str:
        """``success``, ``failure``, ``critical`` or ``fumble``: ``total`` against ``target``;
        ``natural`` is the face of a lone d20 (the campaign's natural 1/20 rule reads it),
        None when the roll is anything else."""
        ...


@runtime_checkable
class SessionAward(Protocol):
    """Experience a character gains or loses on every award for a game session (Núcleo's
    races, seed 002: Humano «Recibe 1px más por partida», Artificial «Gana 1px menos»).

    ``/xp grant`` marks whether a grant is a session's award (by default a party grant is);
    the bonus applies once per such award, never to a one-off grant or a correction.
    """

    def session_bonus(self, sheet: Sheet, settings: Settings) -> tuple[int, str | None]:
        """(experience to add, negative to take, and what gives it: the race's name), or
        ``(0, None)`` when this character has none."""
        ...


@runtime_checkable
class Advancement(Protocol):
    """Spending experience by the player's choice (rolweb abilities: 10 / 20 / 30 XP).

    Systems where experience buys nothing by choice (S&W levels come on their own with
    :meth:`GameSystem.grant_xp`) do not implement it, and the bot says so.  Núcleo's seed gives
    no costs: its advancement table is a house rule with settings (rules/nucleo/advancement.py).
    """

    def purchases(self, sheet: Sheet, settings: Settings) -> tuple[StepOption, ...]:
        """What this character could buy now; ``value`` is what :meth:`purchase` takes and the
        description names the cost."""
        ...

    def purchase(self, sheet: Sheet, what: str, settings: Settings) -> AdvanceResult:
        """Spend the experience for ``what`` (RulesError when unknown or unaffordable)."""
        ...


@runtime_checkable
class CopyRolls(Protocol):
    """What each copy of an NPC rolls again (S&W: a monster's hit points from its Hit Dice).

    ``/npc copy`` of five orcs makes five orcs, not five with the template's very roll.
    Returns the copy's sheet and the rolls to log; a sheet with nothing to roll comes back
    unchanged with no rolls.  Systems whose NPCs have fixed numbers do not implement it.
    """

    def roll_copy(
        self, sheet: Sheet, settings: Settings, rng: random.Random
    ) -> tuple[Sheet, tuple[LoggedRoll, ...]]: ...


@runtime_checkable
class LevelHitDice(Protocol):
    """Rolling the hit dice a new level brings (S&W: ``grant_xp`` notes ``swc.note.roll_hit_die``).

    ``before`` and ``after`` are the sheets around the XP grant; the result
    (``rules.swc.levelup.HitDiceRoll``) carries the new sheet, the rolls and what changed.
    """

    def roll_hit_dice(
        self, before: Sheet, after: Sheet, settings: Settings, rng: random.Random
    ) -> Any: ...


@runtime_checkable
class XpInheritance(Protocol):
    """A dead character's experience passed to its player's next character; the creation
    wizard offers it.

    Seed 001 (rolweb), MUERTE DE UN PERSONAJE JUGADOR: «el jugador puede crear un nuevo
    personaje empleando todos los puntos de experiencia acumulados hasta el momento. Así se
    evita que el nuevo personaje empiece con desventaja respecto del resto del grupo».
    """

    def inherited_xp(self, previous: Sheet, settings: Settings) -> int | None:
        """The experience a new character takes over from ``previous`` (its player's last
        character), or None when ``previous`` passes nothing on (it is not dead)."""
        ...

    def inherit_xp(self, draft: Sheet, xp: int, settings: Settings) -> Sheet:
        """A new draft (not mutated) that starts with ``xp`` experience to spend (never less
        than :meth:`starting_xp` gives)."""
        ...

    def starting_xp(self, inherited: int | None, settings: Settings) -> int:
        """The one rule for a new player character's experience (issue 23 §4): what the
        campaign gives a new character, or the ``inherited`` total when larger."""
        ...

    def new_character_xp(
        self, sheet: Sheet, inherited: int | None, settings: Settings, *, referee: bool
    ) -> Sheet:
        """A whole new character brought in (an import) with the experience the wizard would
        give it: :meth:`starting_xp`, its abilities paid out of it.  The ``referee``'s file
        keeps a larger total or spend it records (a veteran); a player's cannot set them.
        Raises :class:`RulesError` when the abilities cost more."""
        ...


@runtime_checkable
class ExtraSheetKeys(Protocol):
    """Keys a sheet may carry besides its fields: state the rules write during play (S&W's
    spent spell slots), which ``/sheet import`` accepts instead of refusing as unknown."""

    @property
    def extra_sheet_keys(self) -> frozenset[str]: ...


@runtime_checkable
class Attacks(Protocol):
    """``/attack``: one interface for every system's blow (implemented by ``swc``,
    ``rolweb`` and ``nucleo``; the request and result are in :mod:`rules.combat.attack`)."""

    def weapons(self, sheet: Sheet, settings: Settings) -> tuple[StepOption, ...]:
        """The sheet's weapons for autocomplete: ``value`` is what :attr:`AttackRequest.weapon`
        takes, ``description`` the damage."""
        ...

    def attack(
        self, request: AttackRequest, settings: Settings, rng: random.Random
    ) -> AttackResult:
        """Roll and judge one attack (RulesError for an unknown weapon or an illegal request)."""
        ...


@runtime_checkable
class HealthStates(Protocol):
    """A sheet's health as the tracker and the action commands read it
    (:class:`rules.combat.health.CombatState`); every built-in system implements it."""

    def combat_state(self, sheet: Sheet, settings: Settings) -> CombatState:
        """The sheet's health as a :class:`CombatState`."""
        ...


@dataclass(frozen=True, slots=True)
class ActRequest:
    """An act a combatant takes in a fight, as :class:`ActionEconomy` prices it: ``kind`` is
    ``"attack"``, ``"cast"``, ``"ability"``, ``"defence"`` or ``"stand"``; ``circumstances``
    the act's own (a free attack's trigger, «dividir_acciones»); ``action`` what a rolweb
    ability's level says it costs (``"activa"``, ``"reactiva"``…); ``grants`` the extra attacks
    it gives."""

    kind: str
    circumstances: frozenset[str] = frozenset()
    action: str = ""
    grants: int = 0


@runtime_checkable
class ActionEconomy(Protocol):
    """How many actions a turn has and what an act costs (issue 23 §1), for the one counting
    procedure of :mod:`rules.combat.actions`."""

    def action_allowance(self, actions: int, settings: Settings) -> Allowance:
        """A combatant's actions in a turn; ``actions`` is what its initiative gave."""
        ...

    def action_cost(self, act: ActRequest, settings: Settings) -> Use:
        """What ``act`` spends."""
        ...


@runtime_checkable
class PlayerDefence(Protocol):
    """Players roll their own defence (seed 001: «los jugadores siempre tiran»).

    When a character that is not a player's attacks a player's character, ``/attack`` sets
    :attr:`AttackRequest.defender_rolls`; the system's :meth:`Attacks.attack` then returns a
    :class:`DefenceRequest` instead of a roll, and the defender's player rolls it here (a
    button on the reply, or the GM at once with ``defence_now``)."""

    def resolve_defence(
        self, request: DefenceRequest, settings: Settings, rng: random.Random
    ) -> AttackResult: ...


@dataclass(frozen=True, slots=True)
class FightMoment:
    """The fight an attack is made in, as :class:`AttackSituations` reads it.

    ``attacks`` are the audit details of this fight's latest attacks, newest first (each has
    ``attacker``, ``target``, ``round``, ``melee`` and what :attr:`Situated.audit` added);
    ``state`` is the fight's stored state (where an :class:`Ambush` keeps its record);
    ``attacker_key``/``target_key`` are the two sides' combatant keys (None: not in it).
    """

    round: int
    present: tuple[str, ...]
    attacks: tuple[Mapping[str, Any], ...]
    state: Mapping[str, Any]
    attacker_key: str | None = None
    target_key: str | None = None


@dataclass(frozen=True, slots=True)
class Situated:
    """An attack request placed in its fight: ``request`` with what the fight adds (who is
    already engaged with the target), and ``audit``, fields the attack's audit row keeps so
    later attacks can read them (the free attack's trigger)."""

    request: AttackRequest
    audit: Mapping[str, Any] = field(default_factory=dict)


class RefereeOnly(RulesError):
    """A request only the referee may make (overriding a refusal of the rules)."""


@runtime_checkable
class AttackSituations(Protocol):
    """Attack circumstances that depend on the fight (seed 001: free attacks once per trigger
    and round, at most four in melee around a target, the ambush's free attacks, the GM's
    override), offered by ``/attack``'s circumstances autocomplete and checked before the
    blow is rolled."""

    def attack_circumstances(self) -> tuple[str, ...]:
        """What ``/attack``'s circumstances autocomplete offers, in order."""
        ...

    def situate(self, request: AttackRequest, fight: FightMoment | None, referee: bool) -> Situated:
        """Place ``request`` in ``fight`` (None: no fight in the channel); RulesError for what
        the rules refuse, :class:`RefereeOnly` for what only the referee may ask."""
        ...


@dataclass(frozen=True, slots=True)
class AmbushParty:
    """One combatant of an ambush: its fight key, name and sheet (None: a sheetless group,
    whose value the GM gives)."""

    key: str
    name: str
    sheet: Sheet | None = None


@dataclass(frozen=True, slots=True)
class AmbushSetup:
    """``/init surprise``: the fight as it stands and what the GM said.

    ``ambushing`` is the side that tries to surprise; ``ambusher_value``/``watcher_value``
    the GM's number for each side's sheetless groups (rolweb: Discreto, Atento)."""

    state: Mapping[str, Any]
    round: int
    ambushing: Side
    ambushers: tuple[AmbushParty, ...]
    watchers: tuple[AmbushParty, ...]
    modifier: int = 0
    ambusher_value: int | None = None
    watcher_value: int | None = None


@dataclass(frozen=True, slots=True)
class AmbushRoll:
    """An ambush rolled and judged.

    ``state`` holds the entries the fight's stored state gains (its record of the ambush, read
    back by :class:`AttackSituations`); ``expression``, ``breakdown``, ``roll``, ``target``,
    ``outcome``, ``reason`` and ``detail`` are the audit row (``detail["secret"]`` keeps the
    numbers a hidden NPC would give away); ``ambush_value``/``watch_value`` are the two values
    compared; ``attackers``/``victims`` name who attacks whom for free; ``draws`` are
    ``(name, weapon, cost)`` of drawing each surprised combatant's weapon.
    """

    state: Mapping[str, Any]
    expression: str
    breakdown: str
    roll: int
    target: int
    outcome: str
    reason: str
    detail: Mapping[str, Any]
    ambush_value: int
    watch_value: int
    surprised: bool
    attackers: tuple[str, ...] = ()
    victims: tuple[str, ...] = ()
    draws: tuple[tuple[str, str | None, str | None], ...] = ()


@runtime_checkable
class Ambush(Protocol):
    """``/init surprise``: an ambush rolled at the start of a fight and applied to its first
    round (seed 001, SORPRESA); ``/init start`` offers it."""

    def ambush(self, setup: AmbushSetup, settings: Settings, rng: random.Random) -> AmbushRoll:
        """Roll the ambush (RulesError when the fight was surprised already, is past its first
        round, has an empty side or lacks a value the GM must give)."""
        ...


@dataclass(frozen=True, slots=True)
class KnownAbility:
    """One ability on a sheet for ``/ability list``: its level, action and what it does."""

    name: str
    level: str
    action: str
    description: str
    effect: str


@dataclass(frozen=True, slots=True)
class AbilityUse:
    """One use: the level used, the action it costs, the effect text, the healing roll and
    the change for the target (None: the effect is the text, for the GM to apply)."""

    ability: str
    level: str
    action: str
    effect: str
    roll: RollLine | None = None
    change: TargetChange | None = None
    notes: tuple[str, ...] = ()
    grants: int = 0  # extra attacks this use gives in the same turn (rolweb, line 24)
    #: what the use costs its user, paid on the user's *current* sheet by
    #: :meth:`Abilities.pay_ability` (issue 23 §3): an item spent from the inventory
    #: (rolweb's «Hierbas curativas»), a once-a-day power marked used (S&W's Imposición de
    #: manos); empty: nothing to pay
    costs: tuple[str, ...] = ()


@runtime_checkable
class Abilities(Protocol):
    """``/ability``: abilities used from chat, each with a level and the action it costs
    (seed 001, USO DE HABILIDADES)."""

    def ability_names(self, settings: Settings) -> tuple[str, ...]:
        """Every ability of the campaign's list (what a typed name is matched against)."""
        ...

    def known_abilities(self, sheet: Sheet, settings: Settings) -> tuple[KnownAbility, ...]:
        """The abilities ``sheet`` has, by name."""
        ...

    def use_ability(
        self,
        sheet: Sheet,
        name: str,
        target: Fighter | None,
        settings: Settings,
        rng: random.Random,
        *,
        level: str | None = None,
        herbs: bool = False,
        amount: int | None = None,
    ) -> AbilityUse:
        """Use ``name`` on ``target`` (None: the user itself); ``level`` picks a lower one;
        ``amount`` is what the user chooses to heal where the power lets them choose (S&W's
        Imposición de manos: «hasta 2 puntos de golpe por nivel»)."""
        ...

    def pay_ability(self, sheet: Sheet, use: AbilityUse, settings: Settings) -> Sheet:
        """The user's sheet after paying :attr:`AbilityUse.costs` (a new sheet; RulesError
        when it cannot pay: no herbs left, the day's use already spent).  Called on the
        sheet's current version inside the versioned write, so two uses never spend one
        herb twice."""
        ...


@dataclass(frozen=True, slots=True)
class Recovered:
    """What a rest or a recovery did to one sheet (issue 23 §3).

    ``healed`` counts the system's health unit recovered (Resistencia, PV, puntos de golpe);
    ``state`` is the health state after; ``roll`` the dice when the recovery rolled some
    («Recuperar el aliento»: 1d6); ``restored`` catalogue keys of what else came back
    (spell slots, mana, once-a-day powers); ``notes`` catalogue keys for the reply (a dying
    character who does not heal by resting, Recuperación's +2)."""

    sheet: Mapping[str, Any]
    healed: int
    state: str
    roll: RollLine | None = None
    restored: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()


@runtime_checkable
class Recovery(Protocol):
    """Healing between fights (issue 23 §3): days of rest and what players may not set by
    hand.  Every built-in system implements it; the numbers and their seed citations live in
    ``rules/<id>/recovery.py``."""

    def rest_days(self, sheet: Sheet, days: int, settings: Settings) -> Recovered:
        """``days`` days of game time resting (the GM advances them): the natural healing
        the system (or the campaign's decision) gives, and what a new day restores."""
        ...

    def guarded_paths(self, settings: Settings) -> tuple[str, ...]:
        """The sheet's health and resources (current hit points, wounds, spent mana or
        slots, the day's powers): with the campaign's ``salud_por_comandos`` on, only the
        GM sets them by hand (``/sheet set``, ``/sheet import replace:true``)."""
        ...


@runtime_checkable
class CatchBreath(Protocol):
    """A short rest after a fight (seed 002, «Recuperar el aliento»)."""

    def catch_breath(
        self, sheet: Sheet, fight: int | None, settings: Settings, rng: random.Random
    ) -> Recovered:
        """Rest a few minutes after the fight ``fight`` (the id of the last ended fight the
        character was in; None: none); RulesError when the campaign's rule refuses it."""
        ...


@dataclass(frozen=True, slots=True)
class Purse:
    """What ``/sheet money`` reports: the currency the change was in and the whole balance
    after it, as ``(count, currency)`` pairs (S&W keeps three coins; the others one)."""

    currency: str
    balance: tuple[tuple[int, str], ...]


def single_purse(sheet: Sheet, currency: str | None, settings: Settings) -> Purse:
    """The purse of a system with one currency: ``dinero`` counted in the campaign's
    ``moneda`` (or the currency named)."""
    name = str(settings.get("moneda") or currency or "")
    have = sheet.get("dinero", 0)
    count = have if isinstance(have, int) and not isinstance(have, bool) else 0
    return Purse(name, ((count, name),))


@runtime_checkable
class Coinage(Protocol):
    """Money kept in several coins (S&W: mo, mp, mc); without it a purse is
    :func:`single_purse`."""

    def purse(self, sheet: Sheet, currency: str | None, settings: Settings) -> Purse:
        """The balance of ``sheet`` after a change in ``currency`` (already accepted by
        :meth:`CharacterBuilder.adjust_money`)."""
        ...


@runtime_checkable
class SpellChanges(Protocol):
    """The system's own reading of what a cast does to its target (Núcleo: absorption unless
    the spell ignores armour, Toque vampírico's drain); without it the rolled effect lands
    as it is."""

    def spell_change(
        self, cast: CastResult, target: Fighter, settings: Settings
    ) -> TargetChange | None: ...


@dataclass(frozen=True, slots=True)
class PainOwed:
    """A choice a hit owes the one it hurt (seed 001, UMBRAL DE DOLOR: «el jugador debe
    elegir»): ``ref`` numbers it on the sheet (a button's, never reused), ``attacker`` is who
    dealt the hit (None: damage the GM typed), ``options`` what may be chosen, in order."""

    ref: int
    attacker: str | None
    options: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PainChosen:
    """A pain choice made (or its default applied): the sheet after it, which choice, whether
    it was the campaign's default, who dealt the hit, and what it did: ``prone`` the hurt one
    fell to the ground; ``free_attack`` the attacker may attack it for free (a reaction)."""

    sheet: dict[str, Any]
    ref: int
    choice: str
    by_default: bool
    attacker: str | None
    prone: bool
    free_attack: bool


@runtime_checkable
class PainChoices(Protocol):
    """A hit over the pain threshold makes a choice owed (seed 001, UMBRAL DE DOLOR): the
    system marks it on the sheet when it applies the damage, and the bot asks whoever
    chooses, stores the choice and applies it here; unchosen, :meth:`choose_pain` with no
    ``choice`` applies the campaign's default."""

    def pain_owed(self, sheet: Sheet) -> tuple[PainOwed, ...]:
        """The choices ``sheet`` still owes, oldest first."""
        ...

    def name_attacker(self, sheet: Sheet, attacker: str) -> dict[str, Any]:
        """``sheet`` with ``attacker`` named on the choices its latest hit left unnamed."""
        ...

    def choose_pain(
        self, sheet: Sheet, ref: int, choice: str | None, settings: Settings
    ) -> PainChosen:
        """Apply the choice ``ref`` (``choice`` None: the default); RulesError when ``ref``
        is no longer owed (chosen already) or ``choice`` is not one of its options."""
        ...


@dataclass(frozen=True, slots=True)
class StandTest:
    """Getting up from the ground (seed 001, LEVANTARSE): the test rolled (None: outside a
    fight nothing is rolled), whether it passed, and the acts it costs, in order; the
    first must be paid to stand at all, and the rest too or the character stays down."""

    costs: tuple[ActRequest, ...]
    success: bool = True
    expression: str = ""
    breakdown: str = ""
    roll: int | None = None
    target: int | None = None


@runtime_checkable
class Prone(Protocol):
    """«En el suelo»: a state of a sheet with its consequences in the system's attacks (seed
    001: melee attacks against it from foes standing have advantage), and getting up."""

    def is_prone(self, sheet: Sheet) -> bool: ...

    def stand_test(self, sheet: Sheet, settings: Settings, rng: random.Random) -> StandTest:
        """Roll what standing up asks (rolweb: Ágil; success costs one movement action,
        failure the whole turn)."""
        ...

    def set_prone(self, sheet: Sheet, prone: bool) -> dict[str, Any]:
        """``sheet`` on the ground, or standing."""
        ...

    def after_fight(self, sheet: Sheet) -> dict[str, Any]:
        """``sheet`` when its fight ends: standing, owing no choice of that fight."""
        ...


@dataclass(frozen=True, slots=True)
class Capabilities:
    """What one system can do beyond :class:`GameSystem`: each field is the system seen as
    that protocol, or None when it does not implement it."""

    builder: CharacterBuilder | None
    spellbook: SpellBook | None
    advancement: Advancement | None
    copy_rolls: CopyRolls | None
    level_hit_dice: LevelHitDice | None
    xp_inheritance: XpInheritance | None
    extra_sheet_keys: ExtraSheetKeys | None
    attacks: Attacks | None
    health: HealthStates | None
    player_defence: PlayerDefence | None
    attack_situations: AttackSituations | None
    ambush: Ambush | None
    abilities: Abilities | None
    coinage: Coinage | None
    spell_changes: SpellChanges | None
    session_award: SessionAward | None
    roll_under: RollUnder | None
    purchase_approval: PurchaseApproval | None
    action_economy: ActionEconomy | None
    recovery: Recovery | None
    catch_breath: CatchBreath | None
    pain_choices: PainChoices | None
    prone: Prone | None


#: The optional capabilities, in the order of :class:`Capabilities`'s fields.
CAPABILITY_PROTOCOLS: tuple[type, ...] = (
    CharacterBuilder,
    SpellBook,
    Advancement,
    CopyRolls,
    LevelHitDice,
    XpInheritance,
    ExtraSheetKeys,
    Attacks,
    HealthStates,
    PlayerDefence,
    AttackSituations,
    Ambush,
    Abilities,
    Coinage,
    SpellChanges,
    SessionAward,
    RollUnder,
    PurchaseApproval,
    ActionEconomy,
    Recovery,
    CatchBreath,
    PainChoices,
    Prone,
)


#: Each system's capabilities, computed once per system object (a runtime protocol check
#: costs tens of microseconds; fifteen of them on every command would add up).
_capabilities: weakref.WeakKeyDictionary[GameSystem, Capabilities] = weakref.WeakKeyDictionary()


def capabilities(system: GameSystem) -> Capabilities:
    """The one way to ask what ``system`` can do: ``capabilities(system).attacks`` is the
    system as :class:`Attacks`, or None."""
    known = _capabilities.get(system)
    if known is None:
        known = _capabilities[system] = _capabilities_of(system)
    return known


def _capabilities_of(s: GameSystem) -> Capabilities:
    return Capabilities(
        builder=s if isinstance(s, CharacterBuilder) else None,
        spellbook=s if isinstance(s, SpellBook) else None,
        advancement=s if isinstance(s, Advancement) else None,
        copy_rolls=s if isinstance(s, CopyRolls) else None,
        level_hit_dice=s if isinstance(s, LevelHitDice) else None,
        xp_inheritance=s if isinstance(s, XpInheritance) else None,
        extra_sheet_keys=s if isinstance(s, ExtraSheetKeys) else None,
        attacks=s if isinstance(s, Attacks) else None,
        health=s if isinstance(s, HealthStates) else None,
        player_defence=s if isinstance(s, PlayerDefence) else None,
        attack_situations=s if isinstance(s, AttackSituations) else None,
        ambush=s if isinstance(s, Ambush) else None,
        abilities=s if isinstance(s, Abilities) else None,
        coinage=s if isinstance(s, Coinage) else None,
        spell_changes=s if isinstance(s, SpellChanges) else None,
        session_award=s if isinstance(s, SessionAward) else None,
        roll_under=s if isinstance(s, RollUnder) else None,
        purchase_approval=s if isinstance(s, PurchaseApproval) else None,
        action_economy=s if isinstance(s, ActionEconomy) else None,
        recovery=s if isinstance(s, Recovery) else None,
        catch_breath=s if isinstance(s, CatchBreath) else None,
        pain_choices=s if isinstance(s, PainChoices) else None,
        prone=s if isinstance(s, Prone) else None,
    )
