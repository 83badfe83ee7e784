"""Rounds of declarations (issue 25 §1): the forum's rhythm of a fight, pure.

In a play-by-post game a fight is not played turn by turn: everyone declares the round's
actions, then the round is resolved in initiative order.  This module keeps the round being
declared (:class:`DeclarationRound`), stored in the fight's state next to the order under
:data:`ROUND_KEY`, and the fight's mode under :data:`MODE_KEY`.

A declaration keeps what was asked (the command's typed options) and the **seed** of its
dice: the dice are fixed the moment the player declares («el jugador tira», seed 001) and
rolled again from that seed at resolution, against the situation then (a target that fell,
a state, an effect).  Changing a declaration keeps the seed of its slot, so a player can
change action or target until the round closes, never re-roll for a better result.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

__all__ = [
    "MODE_KEY",
    "PREVIOUS_KEY",
    "REDIRECT_KEY",
    "ROUND_KEY",
    "Declaration",
    "DeclarationRound",
    "Mode",
    "mode_of",
    "previous_of",
    "redirectable",
    "round_of",
]

#: where the fight's mode lives in its stored state
MODE_KEY = "modo"
#: where the round being declared lives in the fight's stored state
ROUND_KEY = "declaraciones"
#: the last resolved round's actions whose target had fallen: the GM may redirect them
REDIRECT_KEY = "redirigibles"
#: the last resolved round's actions (a standing order repeats them)
PREVIOUS_KEY = "anteriores"


class Mode(enum.StrEnum):
    """How a fight is played: turn by turn (live) or by rounds of declarations (forum)."""

    TURNS = "turns"
    DECLARATIONS = "declarations"


def mode_of(state: Mapping[str, Any]) -> Mode:
    """The stored fight's mode (a fight stored before issue 25 plays by turns)."""
    return Mode.DECLARATIONS if state.get(MODE_KEY) == Mode.DECLARATIONS else Mode.TURNS


@dataclass(frozen=True, slots=True)
class Declaration:
    """One act a combatant declared for the round.

    ``key`` is the combatant, ``slot`` its place among the combatant's acts of the round
    (0, 1…: Núcleo's second action is slot 1); ``act`` the kind (``"attack"``); ``order`` the
    options as typed; ``seed`` the dice, fixed when first declared; ``by`` the member who
    declared it (with ``by_name`` and the roles that make him the GM, so resolution acts as
    he would); ``log_id`` the sealed audit row of the dice.
    """

    key: str
    name: str
    slot: int
    act: str
    order: Mapping[str, Any]
    seed: int
    by: int
    by_name: str = ""
    by_roles: tuple[int, ...] = ()
    by_admin: bool = False
    log_id: int | None = None
    target: str = ""
    #: rolweb's defence («los jugadores siempre tiran»): the defending player asked to roll
    #: it (its user id), and its dice once rolled (None: not yet, the bot rolls it then)
    defender: int | None = None
    defence_seed: int | None = None
    #: the declaration's number in its round (a button names it; a change keeps it)
    ref: int = 0
    #: a standing order: the combatant declared nothing and repeats its last round's act
    repeated: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "name": self.name,
            "slot": self.slot,
            "act": self.act,
            "order": dict(self.order),
            "seed": self.seed,
            "by": self.by,
            "by_name": self.by_name,
            "by_roles": list(self.by_roles),
            "by_admin": self.by_admin,
            "log_id": self.log_id,
            "target": self.target,
            "defender": self.defender,
            "defence_seed": self.defence_seed,
            "ref": self.ref,
            "repeated": self.repeated,
        }

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> Declaration:
        log_id = raw.get("log_id")
        return cls(
            key=str(raw["key"]),
            name=str(raw.get("name", "")),
            slot=int(raw.get("slot", 0)),
            act=str(raw.get("act", "attack")),
            order=dict(raw.get("order") or {}),
            seed=int(raw.get("seed", 0)),
            by=int(raw.get("by", 0)),
            by_name=str(raw.get("by_name", "")),
            by_roles=tuple(int(r) for r in raw.get("by_roles") or ()),
            by_admin=bool(raw.get("by_admin", False)),
            log_id=int(log_id) if isinstance(log_id, int) else None,
            target=str(raw.get("target", "")),
            defender=_int(raw.get("defender")),
            defence_seed=_int(raw.get("defence_seed")),
            ref=int(raw.get("ref", 0)),
            repeated=bool(raw.get("repeated", False)),
        )


@dataclass(frozen=True, slots=True)
class DeclarationRound:
    """The round being declared: its number, its deadline (ISO 8601, UTC) and what each
    combatant declared; ``owed`` who must declare.  ``resolving`` marks a resolution in progress (its start, ISO), so
    the last declaration and the deadline never resolve the same round twice."""

    round: int
    deadline: str | None = None
    entries: tuple[Declaration, ...] = ()
    resolving: str | None = None
    #: who must declare (the keys the round's header named)
    owed: tuple[str, ...] = ()
    #: where the fight is (the channel and what contains it), for the deadline's resolution
    chain: tuple[int, ...] = ()
    #: a resolution paused for a player's choice (rolweb's pain threshold, issue 25 §1): whose
    #: choice (``character_id``, ``ref``, ``name``) — None while not paused; ``applied``: the
    #: declarations already applied before the pause (its resumption skips them)
    waiting: Mapping[str, Any] | None = None
    applied: tuple[int, ...] = ()

    def of(self, key: str) -> tuple[Declaration, ...]:
        """What ``key`` declared, in slot order."""
        return tuple(sorted((d for d in self.entries if d.key == key), key=lambda d: d.slot))

    def slot_of(self, key: str, slot: int) -> Declaration | None:
        """What ``key`` declared in ``slot``, if anything."""
        for declaration in self.entries:
            if declaration.key == key and declaration.slot == slot:
                return declaration
        return None

    def seed_of(self, key: str, slot: int) -> int | None:
        """The dice already rolled for ``key``'s act in ``slot``, if any."""
        found = self.slot_of(key, slot)
        return found.seed if found is not None else None

    def by_ref(self, ref: int) -> Declaration | None:
        """The declaration numbered ``ref`` in this round, if any."""
        return next((d for d in self.entries if d.ref == ref), None)

    def replacing(self, declaration: Declaration) -> DeclarationRound:
        """With ``declaration`` instead of the one of the same number."""
        entries = tuple(declaration if d.ref == declaration.ref else d for d in self.entries)
        return replace(self, entries=entries)

    def declaring(self, declaration: Declaration) -> DeclarationRound:
        """With ``declaration`` in its slot (a change replaces the slot's act, its dice
        stay: the seed of a slot already declared wins over the new one)."""
        earlier = self.slot_of(declaration.key, declaration.slot)
        if earlier is not None:  # a change: its dice and its number stay
            declaration = replace(declaration, seed=earlier.seed, ref=earlier.ref)
        else:
            declaration = replace(
                declaration, ref=1 + max((d.ref for d in self.entries), default=0)
            )
        kept = tuple(
            d for d in self.entries if not (d.key == declaration.key and d.slot == declaration.slot)
        )
        return replace(self, entries=(*kept, declaration))

    def owing(self, keys: Iterable[str]) -> tuple[str, ...]:
        """Which of ``keys`` (those who must declare) have declared nothing yet."""
        declared = {d.key for d in self.entries}
        return tuple(k for k in keys if k not in declared)

    def to_dict(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "deadline": self.deadline,
            "entries": [d.to_dict() for d in self.entries],
            "resolving": self.resolving,
            "owed": list(self.owed),
            "chain": list(self.chain),
            "waiting": dict(self.waiting) if self.waiting is not None else None,
            "applied": list(self.applied),
        }

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> DeclarationRound:
        return cls(
            round=int(raw.get("round", 1)),
            deadline=str(raw["deadline"]) if raw.get("deadline") else None,
            entries=tuple(Declaration.from_dict(d) for d in raw.get("entries") or ()),
            resolving=str(raw["resolving"]) if raw.get("resolving") else None,
            owed=tuple(str(k) for k in raw.get("owed") or ()),
            chain=tuple(int(c) for c in raw.get("chain") or ()),
            waiting=dict(raw["waiting"]) if isinstance(raw.get("waiting"), Mapping) else None,
            applied=tuple(int(r) for r in raw.get("applied") or ()),
        )


def _int(value: Any) -> int | None:
    return int(value) if isinstance(value, int) and not isinstance(value, bool) else None


def redirectable(state: Mapping[str, Any]) -> tuple[int, tuple[Declaration, ...]]:
    """The last resolved round's number and its actions whose target had fallen."""
    raw = state.get(REDIRECT_KEY)
    if not isinstance(raw, Mapping):
        return 0, ()
    entries = tuple(Declaration.from_dict(d) for d in raw.get("entries") or ())
    return int(raw.get("round", 0)), entries


def previous_of(state: Mapping[str, Any]) -> DeclarationRound:
    """The last resolved round's actions (an empty round 0 when none)."""
    raw = state.get(PREVIOUS_KEY)
    return DeclarationRound.from_dict(raw) if isinstance(raw, Mapping) else DeclarationRound(0)


def round_of(state: Mapping[str, Any]) -> DeclarationRound | None:
    """The round being declared in a stored fight's state, or None (none open)."""
    raw = state.get(ROUND_KEY)
    return DeclarationRound.from_dict(raw) if isinstance(raw, Mapping) else None
