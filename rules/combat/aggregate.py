"""The fight as one aggregate: who is in it, in which order, whose turn, which round.

Every change goes through a method that returns a new :class:`Combat` (and, for turn
changes, a :class:`TurnChange` saying what happened), so order, round and turn index can
never disagree: the stored tuple is always the acting order of the current round and
``index`` always points into it.  The policy (sides or individuals, re-rolls, waiting,
actions per turn) comes from the system (:meth:`GameSystem.combat_policy`) and travels
with the state, so a fight keeps the rules it started with.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from rules.combat.groups import GroupChange, heal_group, is_out, wound_group
from rules.combat.participants import Combatant, Kind, Side
from rules.systems.base import CombatPolicy, Problem, RulesError

__all__ = ["Combat", "TurnChange", "STATE_VERSION", "MAX_COMBATANTS"]

STATE_VERSION = 1
MAX_COMBATANTS = 50
_SIDE_HISTORY = 20  # rounds of side dice kept for "previous" (older rounds keep the current dice)


def _refuse(key: str, **params: Any) -> RulesError:
    return RulesError(Problem(f"combat.problem.{key}", "", params))


@dataclass(frozen=True, slots=True)
class TurnChange:
    """What a turn change did: the round, whether it is new, who acts, who was skipped.

    ``skipped`` are those who lose this turn (a Núcleo initiative fumble skips round 1);
    ``side_rolls`` are the side dice rolled for a new round (S&W), empty otherwise;
    ``left`` are the combatants passed over for the first time because they are dead, out
    or unconscious (the turn message says so once; see :meth:`Combat.next_turn`).
    """

    round: int
    new_round: bool
    current: Combatant
    actions: int
    skipped: tuple[Combatant, ...] = ()
    side_rolls: tuple[tuple[str, int], ...] = ()
    left: tuple[Combatant, ...] = ()


@dataclass(frozen=True, slots=True)
class Combat:
    """Immutable; ``round`` 0 means the fight is being set up (nobody acts yet)."""

    policy: CombatPolicy
    combatants: tuple[Combatant, ...] = ()
    round: int = 0
    index: int = 0
    side_rolls: tuple[tuple[str, int], ...] = ()
    ended: bool = False
    next_adhoc: int = 1
    reported_out: tuple[str, ...] = ()
    round_sides: tuple[tuple[int, tuple[tuple[str, int], ...]], ...] = ()
    # the combatant whose turn began with a test owed (rolweb's death test, seed 001 line
    # 142: «En cada turno posterior … una tirada de muerte … durante la iniciativa de su
    # personaje»): the turn does not pass until it is rolled or the GM skips it
    pending_test: str | None = None

    # -- reading -----------------------------------------------------------------------

    @property
    def current(self) -> Combatant | None:
        if self.round == 0 or not self.combatants:
            return None
        return self.combatants[self.index]

    def find(self, key: str) -> Combatant:
        for combatant in self.combatants:
            if combatant.key == key:
                return combatant
        raise _refuse("unknown_combatant", name=key)

    def find_by_name(self, name: str) -> Combatant:
        wanted = name.strip().casefold()
        for combatant in self.combatants:
            if combatant.name.casefold() == wanted or combatant.key == name:
                return combatant
        raise _refuse("unknown_combatant", name=name)

    def unrolled(self) -> tuple[Combatant, ...]:
        return tuple(c for c in self.combatants if not c.rolled)

    def spent(self) -> frozenset[str]:
        """The sheetless groups whose every creature fell (:mod:`rules.combat.groups`): the
        turn order passes over them as over a dead character, and reports each once."""
        return frozenset(c.key for c in self.combatants if is_out(c))

    def skips(self, combatant: Combatant, round_: int) -> bool:
        """A Núcleo fumble: «no se actúa en el primer turno» (seed 002, Combate 3)."""
        return round_ == 1 and combatant.skips_first_round

    # -- ordering ----------------------------------------------------------------------

    def _ordered(
        self, combatants: Iterable[Combatant], side_rolls: tuple[tuple[str, int], ...]
    ) -> tuple[Combatant, ...]:
        rolls = dict(side_rolls)
        people = list(combatants)
        if self.policy.by_side:
            # within a side, the last element of the key: Destreza in S&W («empates» inside
            # a side are the referee's; Destreza is our default, /init move overrides it)
            people.sort(
                key=lambda c: (c.rolled, rolls.get(c.side.value, 0), c.sort_key[-1:]),
                reverse=True,
            )
        else:
            people.sort(key=lambda c: (c.rolled, c.sort_key), reverse=True)
        for waiter in [c for c in people if c.waited_after]:
            targets = [c.key for c in people]
            if waiter.waited_after not in targets:
                continue
            people.remove(waiter)
            position = [c.key for c in people].index(waiter.waited_after)
            people.insert(position + 1, waiter)
        return tuple(people)

    def _with_order(self, combatants: Iterable[Combatant], **changes: Any) -> Combat:
        """Re-sort and keep the turn on the same combatant."""
        current = self.current
        side_rolls = changes.get("side_rolls", self.side_rolls)
        ordered = self._ordered(combatants, side_rolls)
        index = 0
        if current is not None:
            keys = [c.key for c in ordered]
            index = keys.index(current.key) if current.key in keys else 0
        return replace(self, combatants=ordered, index=index, **changes)

    def _live(self) -> None:
        if self.ended:
            raise _refuse("ended")

    # -- setting up --------------------------------------------------------------------

    def add(self, combatant: Combatant) -> Combat:
        """Join the fight; the order is re-sorted and the current turn stays where it was."""
        self._live()
        if len(self.combatants) >= MAX_COMBATANTS:
            raise _refuse("too_many", limit=MAX_COMBATANTS)
        for other in self.combatants:
            if other.key == combatant.key or other.name.casefold() == combatant.name.casefold():
                raise _refuse("already_in", name=combatant.name)
        return self._with_order((*self.combatants, combatant))

    def add_adhoc(
        self,
        name: str,
        initiative: int | None,
        *,
        count: int = 1,
        side: Side = Side.ENEMIGOS,
        defence: int | None = None,
        armour: str | None = None,
        hit_points: int | None = None,
    ) -> tuple[Combat, Combatant]:
        """A group the referee describes in a line ("3 trasgos"), with a typed initiative
        and, optionally, the numbers ``/attack`` needs to judge and wound it."""
        combatant = Combatant(
            key=f"a{self.next_adhoc}",
            name=name,
            kind=Kind.ADHOC,
            side=side,
            count=max(1, count),
            defence=defence,
            armour=armour,
            hit_points=hit_points,
            max_hit_points=hit_points,
        )
        if initiative is not None:
            combatant = self._typed(combatant, initiative)
        combat = replace(self, next_adhoc=self.next_adhoc + 1).add(combatant)
        return combat, combatant

    def _typed(self, combatant: Combatant, total: int) -> Combatant:
        step = self.policy.action_step
        actions = total // step if step and total >= 2 * step else 1
        value = -total if self.policy.lowest_first else total
        return replace(
            combatant.with_initiative(
                total, (*self.policy.typed_prefix, value), str(total), actions=actions
            ),
            waited_after=None,
        )

    def wound_group(self, key: str, amount: int) -> tuple[Combat, GroupChange]:
        """Damage to a sheetless group: the creature in front is wounded, at 0 it falls and
        the next one stands (:func:`rules.combat.groups.wound_group`); its place stays."""
        updated, change = wound_group(self.find(key), amount)
        return self._replaced(updated), change

    def heal_group(self, key: str, amount: int) -> tuple[Combat, GroupChange]:
        """Healing of a sheetless group's creature in front (never of the fallen)."""
        updated, change = heal_group(self.find(key), amount)
        return self._replaced(updated), change

    def _replaced(self, updated: Combatant) -> Combat:
        return replace(
            self,
            combatants=tuple(updated if c.key == updated.key else c for c in self.combatants),
        )

    def set_initiative(self, key: str, total: int) -> Combat:
        """The referee types a place (``/init move``): it replaces any roll or wait."""
        self._live()
        target = self.find(key)
        updated = self._typed(target, total)
        return self._with_order(updated if c.key == key else c for c in self.combatants)

    def record_roll(
        self,
        key: str,
        total: int,
        sort_key: tuple[int, ...],
        breakdown: str,
        *,
        actions: int = 1,
        skips_first_round: bool = False,
        goes_last: bool = False,
    ) -> Combat:
        """Store a rolled initiative (from :meth:`GameSystem.initiative`)."""
        self._live()
        target = self.find(key)
        updated = target.with_initiative(
            total,
            sort_key,
            breakdown,
            actions=actions,
            skips_first_round=skips_first_round,
            goes_last=goes_last,
        )
        return self._with_order(updated if c.key == key else c for c in self.combatants)

    def break_ties(self, rng: random.Random) -> Combat:
        """rolweb: combatants still tied on Ágil, Atento and the d20 roll 1D20 again among
        themselves until they are not (``ties == "reroll_d20"``; other systems keep arrival
        order and the referee's ``/init move``)."""
        if self.policy.ties != "reroll_d20":
            return self
        keys = {c.key: c.sort_key for c in self.combatants if c.rolled}
        while True:
            groups: dict[tuple[int, ...], list[str]] = {}
            for key, sort_key in keys.items():
                groups.setdefault(sort_key, []).append(key)
            tied = [group for group in groups.values() if len(group) > 1]
            if not tied:
                break
            for group in tied:
                for key in group:
                    keys[key] = (*keys[key], rng.randint(1, 20))
        updated = (
            replace(c, sort_key=keys[c.key]) if c.key in keys else c for c in self.combatants
        )
        return self._with_order(updated)

    def remove(self, key: str, rng: random.Random) -> tuple[Combat, TurnChange | None]:
        """Leave the fight; when the one acting leaves, the turn passes to the next."""
        self._live()
        target = self.find(key)
        position = self.combatants.index(target)
        rest = tuple(c for c in self.combatants if c.key != key)
        if self.round == 0 or not rest:
            return replace(self, combatants=rest, index=0), None
        if position != self.index:
            index = self.index - 1 if position < self.index else self.index
            return replace(self, combatants=rest, index=index), None
        return replace(self, combatants=rest)._step_from(position, rng)

    def wait(self, key: str, after: str) -> Combat:
        """rolweb: wait and act right after ``after`` — later only, and final (seed 001)."""
        self._live()
        if not self.policy.can_wait:
            raise _refuse("no_waiting")
        waiter, target = self.find(key), self.find(after)
        if waiter.waited_after is not None:
            raise _refuse("wait_already_chosen", name=waiter.name)
        keys = [c.key for c in self.combatants]
        if keys.index(target.key) <= keys.index(waiter.key):
            raise _refuse("wait_not_later", name=waiter.name, after=target.name)
        if self.round and keys.index(waiter.key) < self.index:
            raise _refuse("wait_already_acted", name=waiter.name)
        updated = replace(waiter, waited_after=target.key)
        ordered = self._ordered(
            (updated if c.key == key else c for c in self.combatants), self.side_rolls
        )
        # the one who waits leaves its slot: whoever is now at the index acts
        return replace(self, combatants=ordered)

    # -- turns -------------------------------------------------------------------------

    def _roll_sides(self, rng: random.Random) -> tuple[tuple[str, int], ...]:
        """One die per side; a tie is rolled again (seed 000, DETERMINAR LA INICIATIVA)."""
        die = self.policy.side_die
        while True:
            rolls = tuple((side.value, rng.randint(1, die)) for side in Side)
            if len({value for _side, value in rolls}) == len(rolls) or self.policy.ties != (
                "reroll_side"
            ):
                return rolls

    def _new_round(self, round_: int, rng: random.Random) -> Combat:
        rolls: tuple[tuple[str, int], ...] = ()
        recorded = dict(self.round_sides).get(round_)
        if recorded is not None:  # replaying a round after "previous": same dice
            rolls = recorded
        elif self.policy.by_side and (self.policy.reroll_each_round or round_ == 1):
            rolls = self._roll_sides(rng)
        else:
            rolls = self.side_rolls
        ordered = self._ordered(self.combatants, rolls)
        history = tuple((r, sides) for r, sides in self.round_sides if r != round_)
        if rolls and self.policy.by_side:
            history = (*history, (round_, rolls))[-_SIDE_HISTORY:]
        return replace(
            self,
            combatants=ordered,
            round=round_,
            index=0,
            side_rolls=rolls,
            round_sides=history,
        )

    def _step_from(
        self, start: int, rng: random.Random, out: Collection[str] = ()
    ) -> tuple[Combat, TurnChange]:
        """The first combatant from ``start`` who acts this round, or a new round.

        ``out`` are the keys whose health takes them out of the order (dead, out of the
        fight, unconscious): passed over, and each reported once in ``left`` until it
        returns (healed), when it acts again in its old place.
        """
        out = frozenset(out)
        reported = [k for k in self.reported_out if k in out]
        left: list[Combatant] = []
        combat, skipped, new_round = self, [], False
        rolled: tuple[tuple[str, int], ...] = ()
        position = start
        for _ in range(3 * len(self.combatants) + 3):
            if position >= len(combat.combatants):
                combat = combat._new_round(combat.round + 1, rng)
                new_round, position = True, 0
                rolled = combat.side_rolls if combat.policy.by_side else ()
                continue
            candidate = combat.combatants[position]
            if candidate.key in out:
                if candidate.key not in reported:
                    reported.append(candidate.key)
                    left.append(candidate)
                position += 1
                continue
            if combat.skips(candidate, combat.round):
                skipped.append(candidate)
                position += 1
                continue
            combat = replace(combat, index=position, reported_out=tuple(reported))
            return combat, TurnChange(
                round=combat.round,
                new_round=new_round,
                current=candidate,
                actions=candidate.actions,
                skipped=tuple(skipped),
                side_rolls=rolled,
                left=tuple(left),
            )
        raise _refuse("nobody_acts")  # pragma: no cover - every combatant acts from round 2

    def test_rolled(self, key: str) -> Combat:
        """The owed test of ``key``'s turn was rolled (once: a second is refused, as is one
        out of its turn or on the turn it fell)."""
        if self.pending_test != key:
            raise _refuse("no_test_now", name=self.find(key).name)
        return replace(self, pending_test=None)

    def next_turn(
        self,
        rng: random.Random,
        out: Collection[str] = (),
        *,
        tests: Collection[str] = (),
        skip_test: bool = False,
    ) -> tuple[Combat, TurnChange]:
        """:meth:`advance` unless the current turn's owed test is still to roll
        (``combat.problem.test_pending``; ``skip_test``: the GM skips it explicitly).
        ``tests`` are the keys whose turn is a test (rolweb's moribundo): a turn that begins
        for one of them owes it."""
        current = self.current
        owed = current is not None and current.key == self.pending_test
        if owed and current is not None and not skip_test:
            raise _refuse("test_pending", name=current.name)
        combat, change = self.advance(rng, out)
        key = change.current.key
        return replace(combat, pending_test=key if key in set(tests) else None), change

    def turn_of_round(
        self,
        round_: int,
        rng: random.Random,
        out: Collection[str] = (),
        *,
        tests: Collection[str] = (),
    ) -> tuple[Combat, TurnChange] | None:
        """The next turn of ``round_`` as a round of declarations resolves it (issue 25 §1),
        or None when nobody is left to act in that round: from the round before it, the
        first turn of ``round_`` (a new round: S&W's side dice are rolled now, after the
        declarations); within it, the next one.  A dying combatant's owed test does not hold
        the resolution (the resolution handles it)."""
        if self.round >= round_ + 1 or self.round < round_ - 1:
            return None
        try:
            combat, change = self.next_turn(rng, out, tests=tests, skip_test=True)
        except RulesError:
            return None  # nobody acts (everyone out)
        if change.round != round_:
            return None
        return combat, change

    def advance(self, rng: random.Random, out: Collection[str] = ()) -> tuple[Combat, TurnChange]:
        """Pass the turn; the first call starts round 1 (everybody must have initiative).

        ``out`` are the keys of combatants whose :class:`~rules.combat.health.CombatState`
        has ``skip_turn`` (the service reads each sheet); they keep their place in the order
        and act again there once healed.  When every combatant is out, nobody acts
        (``combat.problem.nobody_acts``).
        """
        self._live()
        if not self.combatants:
            raise _refuse("empty")
        out = frozenset(out) | self.spent()  # a group whose last creature fell
        missing = self.unrolled()
        if missing:
            raise _refuse("missing_initiative", names=", ".join(c.name for c in missing))
        if all(c.key in out for c in self.combatants):
            raise _refuse("nobody_acts")
        if self.round == 0:
            combat, change = self._new_round(1, rng)._step_from(0, rng, out)
            rolled = combat.side_rolls if combat.policy.by_side else ()
            return combat, replace(change, new_round=True, side_rolls=rolled)
        return self._step_from(self.index + 1, rng, out)

    def previous(self, out: Collection[str] = ()) -> Combat:
        """Back one turn (a mistaken "next").  Across a round boundary the previous round's
        side dice (S&W) come back with its order, from the per-round record kept by
        :meth:`_new_round`, so the next "next" replays that round instead of re-rolling it."""
        self._live()
        if self.round == 0:
            raise _refuse("not_started")
        out = frozenset(out) | self.spent()
        combat, round_, position = self, self.round, self.index - 1
        while True:
            if position < 0:
                if round_ == 1:
                    raise _refuse("first_turn")
                round_ = round_ - 1
                combat = combat._restore_round(round_)
                position = len(combat.combatants) - 1
                continue
            candidate = combat.combatants[position]
            if not combat.skips(candidate, round_) and candidate.key not in out:
                return replace(combat, round=round_, index=position, pending_test=None)
            position -= 1

    def _restore_round(self, round_: int) -> Combat:
        """The order of ``round_`` with the side dice it was played with (when recorded)."""
        sides = dict(self.round_sides).get(round_)
        if sides is None or not self.policy.by_side:
            return self
        ordered = self._ordered(self.combatants, sides)
        return replace(self, combatants=ordered, side_rolls=sides)

    def end(self) -> Combat:
        self._live()
        return replace(self, ended=True)

    # -- storage -----------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "_v": STATE_VERSION,
            "policy": _policy_dict(self.policy),
            "combatants": [c.to_dict() for c in self.combatants],
            "round": self.round,
            "index": self.index,
            "side_rolls": [list(pair) for pair in self.side_rolls],
            "ended": self.ended,
            "next_adhoc": self.next_adhoc,
            "reported_out": list(self.reported_out),
            "round_sides": [[r, [list(pair) for pair in sides]] for r, sides in self.round_sides],
            "pending_test": self.pending_test,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Combat:
        """The one loader: reads any stored version, never mutates ``data``."""
        version = int(data.get("_v", 1))
        if version > STATE_VERSION:
            raise _refuse("newer_state", version=version)
        combatants = tuple(Combatant.from_dict(c) for c in data.get("combatants") or ())
        index = int(data.get("index", 0))
        if combatants and not 0 <= index < len(combatants):
            index = 0
        return cls(
            policy=_policy_from(data.get("policy") or {}),
            combatants=combatants,
            round=int(data.get("round", 0)),
            index=index if combatants else 0,
            side_rolls=tuple((str(s), int(v)) for s, v in data.get("side_rolls") or ()),
            ended=bool(data.get("ended", False)),
            next_adhoc=int(data.get("next_adhoc", 1)),
            reported_out=tuple(str(k) for k in data.get("reported_out") or ()),
            round_sides=tuple(
                (int(r), tuple((str(s), int(v)) for s, v in sides))
                for r, sides in data.get("round_sides") or ()
            ),
            pending_test=data.get("pending_test") or None,
        )


def _policy_dict(policy: CombatPolicy) -> dict[str, Any]:
    return {
        "by_side": policy.by_side,
        "reroll_each_round": policy.reroll_each_round,
        "side_die": policy.side_die,
        "can_wait": policy.can_wait,
        "action_step": policy.action_step,
        "lowest_first": policy.lowest_first,
        "ties": policy.ties,
        "typed_prefix": list(policy.typed_prefix),
        "seed": policy.seed,
    }


def _policy_from(data: Mapping[str, Any]) -> CombatPolicy:
    return CombatPolicy(
        by_side=bool(data.get("by_side", False)),
        reroll_each_round=bool(data.get("reroll_each_round", False)),
        side_die=int(data.get("side_die", 6)),
        can_wait=bool(data.get("can_wait", False)),
        action_step=data.get("action_step"),
        lowest_first=bool(data.get("lowest_first", False)),
        ties=str(data.get("ties", "sort_key")),
        typed_prefix=tuple(int(v) for v in data.get("typed_prefix") or ()),
        seed=str(data.get("seed", "")),
    )
