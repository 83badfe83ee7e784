"""The combat rules of seed 001 that ``/init`` and ``/attack`` offer, so nobody has to
remember them: surprise, free attacks, the four-flanker limit and line of sight.

The pure rules are in :mod:`rules.rolweb.combat`; this module turns them into what a
referee applies at the table:

* ``/attack … circumstances`` (:data:`ATTACK_CIRCUMSTANCES`): a free attack names its
  trigger (ATAQUE GRATUITO, line 105: «un arma Larga (y su rival no)», «abandonar un combate
  cuerpo a cuerpo», «pasar junto a un personaje»; SORPRESA); the VENTAJA situations
  (flanqueo, en el suelo, posición superior, desprevenido); ``linea_bloqueada`` (LÍNEA DE
  VISIÓN, line 185: a ranged attack cannot pass an ally); ``forzar`` (the GM overrides a
  refusal).  :func:`situation` reads them; :func:`check_free_attack`,
  :func:`check_line_of_sight` and :func:`check_reach` refuse what the seed forbids.
* ``/init surprise``: :func:`surprise` rolls the ambush for two sides (the group's worst
  Discreto against the best Atento, SORPRESA line 40) and says who attacks whom for free at
  the start of the turn and what drawing a weapon costs each surprised combatant.

Every refusal is a translated :class:`~rules.systems.base.Problem` (``rolweb_fight.*``).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rules.rolweb.actions import Action
from rules.rolweb.checks import Chances, TestRoll, opposed_target, roll_test
from rules.rolweb.combat import (
    MAX_FLANKERS,
    AdvantageReason,
    FreeAttack,
    FreeAttackTrigger,
    can_join_melee,
    draw_cost,
    long_weapon_free_attack,
    surprise_free_attacks,
    surprise_values,
)
from rules.rolweb.equipment import Shield, Weapon
from rules.rolweb.settings import NaturalRule
from rules.systems.base import Problem, RulesError

__all__ = [
    "ATTACK_CIRCUMSTANCES",
    "FREE_ATTACK",
    "OVERRIDE",
    "LINE_BLOCKED",
    "Situation",
    "situation",
    "check_free_attack",
    "check_line_of_sight",
    "check_reach",
    "Ambusher",
    "Watcher",
    "Draw",
    "Surprise",
    "surprise",
]

#: ``/attack`` circumstance → the free attack's trigger.
FREE_ATTACK: dict[str, FreeAttackTrigger] = {
    "ataque_libre_larga": FreeAttackTrigger.LONG_WEAPON,
    "ataque_libre_salir": FreeAttackTrigger.DISENGAGE,
    "ataque_libre_pasar": FreeAttackTrigger.PASSING,
    "ataque_libre_sorpresa": FreeAttackTrigger.SURPRISE,
    # UMBRAL DE DOLOR: the hurt one's player chose «el atacante obtiene un ataque gratuito»
    "ataque_libre_dolor": FreeAttackTrigger.PAIN,
}
#: ``/attack`` circumstance → the VENTAJA situation.
ADVANTAGE: dict[str, AdvantageReason] = {reason.value: reason for reason in AdvantageReason}
LINE_BLOCKED = "linea_bloqueada"
OVERRIDE = "forzar"
#: LUCHAR A CIEGAS (line 165): the attacker is hindered (its roll: two chances to fail), or
#: its target is (the attacker's roll: two chances to succeed) — the words of ``/check``
BLIND_ATTACKER = "dos_oportunidades_peor"
BLIND_TARGET = "dos_oportunidades_mejor"
#: Every circumstance rolweb's ``/attack`` reads, in the order autocomplete offers them.
ATTACK_CIRCUMSTANCES: tuple[str, ...] = (
    *FREE_ATTACK,
    *ADVANTAGE,
    LINE_BLOCKED,
    BLIND_ATTACKER,
    BLIND_TARGET,
    OVERRIDE,
)
_ATTRIBUTE = "atributo:"  # read by rules.rolweb.fight
_FREE_NOTES = {
    FreeAttackTrigger.LONG_WEAPON: "rolweb_fight.note.free_arma_larga",
    FreeAttackTrigger.DISENGAGE: "rolweb_fight.note.free_destrabarse",
    FreeAttackTrigger.PASSING: "rolweb_fight.note.free_pasar_junto",
    FreeAttackTrigger.SURPRISE: "rolweb_fight.note.free_sorpresa",
    FreeAttackTrigger.PAIN: "rolweb_fight.note.free_umbral_de_dolor",
}
#: Free attacks made with the weapon in hand against someone within reach.
_MELEE_TRIGGERS = frozenset(
    {FreeAttackTrigger.LONG_WEAPON, FreeAttackTrigger.DISENGAGE, FreeAttackTrigger.PASSING}
)


def _refuse(key: str, **params: object) -> RulesError:
    return RulesError(Problem(key, "", dict(params)))


@dataclass(frozen=True, slots=True)
class Situation:
    """What an attack's circumstances say: the free attack's trigger (None: an ordinary
    attack), the VENTAJA reasons, a blocked line of sight, and the GM's override."""

    free_attack: FreeAttackTrigger | None = None
    advantage: tuple[AdvantageReason, ...] = ()
    line_blocked: bool = False
    override: bool = False
    attacker_blind: bool = False
    target_blind: bool = False

    @property
    def chances(self) -> Chances:
        """The attacker's roll under LUCHAR A CIEGAS: «Si ambos bandos se ven perjudicados,
        no se aplica ningún ajuste; de lo contrario, el bando afectado tiene dos
        oportunidades para fallar» (the worse of two when the attacker is hindered, the
        better when its target is)."""
        if self.attacker_blind == self.target_blind:
            return Chances.ONE
        return Chances.WORSE if self.attacker_blind else Chances.BETTER

    @property
    def blind_notes(self) -> tuple[str, ...]:
        if self.attacker_blind and self.target_blind:
            return ("rolweb.note.blind_both_sides",)
        if self.attacker_blind:
            return ("rolweb.note.blind_attacker",)
        return ("rolweb.note.blind_target",) if self.target_blind else ()


def situation(circumstances: Iterable[str]) -> Situation:
    """Read rolweb's attack circumstances; an unknown one is refused (never ignored)."""
    trigger: FreeAttackTrigger | None = None
    reasons: list[AdvantageReason] = []
    blocked = override = attacker_blind = target_blind = False
    for raw in circumstances:
        name = raw.strip().casefold()
        if name.startswith(_ATTRIBUTE):
            continue
        if name in FREE_ATTACK:
            if trigger is not None and trigger is not FREE_ATTACK[name]:
                raise _refuse("rolweb_fight.problem.two_triggers")
            trigger = FREE_ATTACK[name]
        elif name in ADVANTAGE:
            if ADVANTAGE[name] not in reasons:
                reasons.append(ADVANTAGE[name])
        elif name == LINE_BLOCKED:
            blocked = True
        elif name == OVERRIDE:
            override = True
        elif name == BLIND_ATTACKER:
            attacker_blind = True
        elif name == BLIND_TARGET:
            target_blind = True
        else:
            raise _refuse(
                "rolweb_fight.problem.unknown_circumstance",
                name=raw,
                known=", ".join(ATTACK_CIRCUMSTANCES),
            )
    if trigger is FreeAttackTrigger.SURPRISE and AdvantageReason.UNAWARE not in reasons:
        # VENTAJA: «Atacar a un enemigo que no sea consciente del ataque»: the surprised is.
        reasons.append(AdvantageReason.UNAWARE)
    return Situation(trigger, tuple(reasons), blocked, override, attacker_blind, target_blind)


def check_free_attack(
    trigger: FreeAttackTrigger | None,
    weapon: Weapon | None,
    shield: Shield,
    opponent_weapon: Weapon | None,
    ranged: bool,
) -> tuple[str, ...]:
    """Refuse a free attack the seed does not grant; return its note.

    Larga (COMBATE CON ARMAS PREPARADAS, line 36): the attacker's weapon is Larga, the
    target's is not, and no shield (a rodela is fine: ESCUDO line 189).  Larga, leaving
    melee and passing by are made in reach, so not with a ranged weapon.  The first turn of
    the melee is the attacker's word: the bot does not know when the two closed in.
    ``weapon``/``opponent_weapon`` None: a sheetless combatant, whose weapon the GM judges.
    """
    if trigger is None:
        return ()
    if trigger in _MELEE_TRIGGERS and ranged:
        raise _refuse("rolweb_fight.problem.free_attack_in_reach")
    if trigger is FreeAttackTrigger.LONG_WEAPON and weapon is not None:
        opponent = opponent_weapon or Weapon("", "", frozenset())
        if not weapon.is_long:
            raise _refuse("rolweb_fight.problem.not_long", weapon=weapon.name)
        if opponent.is_long:
            raise _refuse("rolweb_fight.problem.opponent_long", weapon=opponent.name)
        if not long_weapon_free_attack(weapon, shield, opponent, first_turn=True):
            raise _refuse("rolweb_fight.problem.shield_cancels_long", weapon=weapon.name)
    return (_FREE_NOTES[trigger], "rolweb_fight.note.free_attack")


def check_line_of_sight(ranged: bool, blocked: bool, override: bool) -> tuple[str, ...]:
    """LÍNEA DE VISIÓN: «Las armas a distancia no pueden atravesar a otros combatientes».
    An ally in the way stops the shot (the shooter must move: a movement action); only a
    ranged attack has a line to block.  The GM's ``forzar`` lets it through (the GM judged
    the ally out of the way)."""
    if not blocked:
        return ()
    if not ranged:
        raise _refuse("rolweb_fight.problem.line_only_ranged")
    if not override:
        raise _refuse("rolweb_fight.problem.line_blocked")
    return ("rolweb_fight.note.line_forced",)


def check_reach(
    engaged: Sequence[str], attacker: str, ranged: bool, override: bool
) -> tuple[str, ...]:
    """FLANQUEAR (line 193): «El máximo de personas que puede rodear a una persona o
    criatura es de cuatro; cualquier combatiente adicional no puede alcanzar al objetivo».
    ``engaged`` are those already in melee with the target; one of them may keep hitting,
    a fifth is refused unless the GM overrides it.  A ranged attack needs no place around it."""
    if ranged or attacker.casefold() in {name.casefold() for name in engaged}:
        return ()
    if can_join_melee(len(engaged)):
        return ()
    if not override:
        raise _refuse(
            "rolweb_fight.problem.target_surrounded", names=", ".join(engaged), limit=MAX_FLANKERS
        )
    return ("rolweb_fight.note.reach_forced",)


# -- surprise ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Ambusher:
    """One of the side that tries to surprise: its Discreto."""

    name: str
    discreto: int


@dataclass(frozen=True, slots=True)
class Watcher:
    """One of the side that may be surprised: its Atento and its main weapon (None: no
    sheet, or unarmed — natural weapons are always ready)."""

    name: str
    atento: int | None
    weapon: Weapon | None = None


@dataclass(frozen=True, slots=True)
class Draw:
    """SORPRESA: what drawing its weapon costs a surprised combatant (``weapon`` None: the
    GM knows its weapon; ``cost`` None then)."""

    name: str
    weapon: str | None
    cost: Action | None


@dataclass(frozen=True, slots=True)
class Surprise:
    """The ambush rolled: the two values compared, the test, and its consequences.

    ``players_roll_defence``: the players were the ambushed side, so (players always roll)
    they rolled ``[Atento←Discreto]`` and a success means *no* surprise.  On a surprise,
    ``free_attacks`` lists every ambusher-victim pair (each ambusher makes one, at the
    start of the turn, against the victim its player picks) and ``draws`` the surprised."""

    discreto: int
    atento: int
    test: TestRoll
    players_roll_defence: bool
    surprised: bool
    free_attacks: tuple[FreeAttack, ...]
    draws: tuple[Draw, ...]


def surprise(
    ambushers: Sequence[Ambusher],
    watchers: Sequence[Watcher],
    rng: random.Random,
    naturals: NaturalRule = NaturalRule.NONE,
    modifier: int = 0,
    *,
    players_roll_defence: bool = False,
) -> Surprise:
    """SORPRESA (lines 40, 201): ``[Discreto←Atento]`` with the ambushers' lowest Discreto
    against the watchers' highest Atento.

    Players always roll (line 9): when NPCs ambush the players, the players roll the
    mirror test ``[Atento←Discreto]`` (target Atento + 10 − Discreto − modifier) and a
    success foils the ambush.  On a d20 the two targets add up to 20, so the chance of a
    surprise is the same whichever side rolls.  Watchers without a known Atento (a group
    the GM gave no number) are left out of the maximum but are surprised with the rest."""
    discreto = [a.discreto for a in ambushers]
    atento = [w.atento for w in watchers if w.atento is not None]
    lowest, highest = surprise_values(discreto, atento)
    if players_roll_defence:
        test = roll_test(opposed_target(highest, lowest, -modifier), rng, naturals, Chances.ONE)
        surprised = not test.success
    else:
        test = roll_test(opposed_target(lowest, highest, modifier), rng, naturals, Chances.ONE)
        surprised = test.success
    if not surprised:
        return Surprise(lowest, highest, test, players_roll_defence, False, (), ())
    attacks = surprise_free_attacks([a.name for a in ambushers], [w.name for w in watchers])
    draws = tuple(
        Draw(w.name, w.weapon.name if w.weapon else None, draw_cost(w.weapon) if w.weapon else None)
        for w in watchers
    )
    return Surprise(lowest, highest, test, players_roll_defence, True, attacks, draws)
