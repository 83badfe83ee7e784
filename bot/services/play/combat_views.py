"""What the ``/init`` cog renders: the fight's lines, a turn reminder, a wound or a heal.

:func:`combat_view` builds the one view of a fight from its stored record, the pure
:class:`rules.combat.Combat` and each character combatant's :class:`Health` (read from its
sheet by :class:`.combat_store.FightStore`).  The types of a change to the fight
(:data:`Change`, :data:`HealthChange`) live here too: each use case of
:mod:`bot.services.play.combat` is one such function, applied by the store's compare-and-set.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from bot.db.models import Campaign, CombatRecord, saved_id
from bot.services.shared.audience import PUBLIC, Part, Reader, Secrecy, Shown, Sight, show, sight
from bot.services.sheets.changes import Ticked
from bot.services.sheets.undo import Undoable
from rules.combat import Combat, Combatant, Kind, TurnChange, effects
from rules.combat.declarations import mode_of, round_of
from rules.combat.groups import GroupChange, GroupState, group_state
from rules.combat.health import CombatState, Condition
from rules.systems.base import GameSystem

if TYPE_CHECKING:
    from bot.services.play.pain import PainAsk, PainView
    from bot.services.play.round_views import RoundHeader, RoundSummary

__all__ = [
    "Change",
    "CombatView",
    "FightPanel",
    "CombatantLine",
    "Health",
    "HealthChange",
    "HealthView",
    "Reminder",
    "Rolled",
    "RolledLine",
    "Step",
    "TickView",
    "combat_for",
    "combat_view",
    "out_of_order",
    "owing_tests",
    "panel_version",
    "PANEL_VERSION",
]

#: The version a panel's buttons carry: every change of the tracker bumps it, but not a
#: combatant's spent actions (:mod:`.turn_actions`) nor a sheetless group's wound, which
#: write the fight's row (its ``version``) without changing whose turn it is — so the "next"
#: button a player presses after attacking is not stale.
PANEL_VERSION = "panel_version"


def panel_version(record: CombatRecord) -> int:
    """The version the panel's buttons carry (the row's own for a fight stored before)."""
    stored = record.state.get(PANEL_VERSION)
    return int(stored) if isinstance(stored, int) else record.version


@dataclass(frozen=True, slots=True)
class CombatantLine:
    key: str
    name: str
    kind: str
    side: str
    owner_id: int | None
    count: int
    initiative: int | None
    breakdown: str
    actions: int
    current: bool
    skips_this_round: bool
    waited_after: str | None
    # health (issue 11 §2): the system's word, the common condition, what a player may read
    # about a hidden NPC, and the numbers — ``secret`` when only the GM may see them
    state: str = ""
    condition: str = ""
    description: str = ""
    hit_points: tuple[int, int] | None = None
    secret: bool = False
    turn_test: str | None = None
    character_id: int | None = None
    effects: tuple[tuple[str, int | None], ...] = ()  # (name, rounds left; None: until removed)
    gender: str | None = None  # the sheet's grammatical gender: «Aldara · malherida»
    #: who may see its numbers (a hidden NPC's are the GM's until it is revealed; a sheetless
    #: group's for good); ``secret`` above says whether *this* view's reader may not (set by
    #: :func:`combat_for`, which also drops a group's hit points for a reader who may not)
    secrecy: Secrecy = PUBLIC
    fallen: int = 0  # a sheetless group's creatures that fell (``count``: still standing)
    #: «en el suelo», and a pain threshold's choice still owed (rolweb, issue 23 §1)
    prone: bool = False
    choice_owed: bool = False


@dataclass(frozen=True, slots=True)
class RolledLine:
    """An initiative this use case rolled: ``breakdown`` is ``None`` where the reader may
    not see it (a hidden NPC's, in the channel)."""

    name: str
    breakdown: str | None
    secrecy: Secrecy = PUBLIC


@dataclass(frozen=True, slots=True)
class Health:
    """A character combatant's sheet read for the tracker: its state and its effects."""

    state: CombatState | None
    is_npc: bool
    hidden: bool
    effects: tuple[effects.Effect, ...] = ()
    gender: str | None = None

    @property
    def secret(self) -> bool:
        """A hidden NPC's numbers are the GM's until the NPC is revealed."""
        return self.is_npc and self.hidden


@dataclass(frozen=True, slots=True)
class TickView:
    """The new current combatant's effects at the start of its turn (see :class:`Ticked`)."""

    name: str
    ticked: Ticked
    secret: bool
    log_id: int | None


@dataclass(frozen=True, slots=True)
class CombatView:
    """What the cog renders; ``turn`` is set when this use case changed whose turn it is."""

    id: int
    version: int
    channel_id: int
    system: str
    round: int
    active: bool
    lines: tuple[CombatantLine, ...]
    current: CombatantLine | None
    side_rolls: tuple[tuple[str, int], ...]
    by_side: bool
    can_wait: bool
    turn: TurnChange | None = None
    rolled: tuple[RolledLine, ...] = ()  # rolled by this use case
    ticked: TickView | None = None  # the effects of the combatant whose turn just began
    ended: TickView | None = None  # ... and of the one whose turn just ended (rounds counted)
    #: ``end``: the effects measured in rounds that ended with the fight, by owner; or kept
    effects_ended: tuple[tuple[str, tuple[str, ...]], ...] = ()
    effects_kept: bool = False
    referee: bool = False  # the viewer is the GM (``show``): secret numbers may go to them
    ambush: bool = False  # ``start``: the system rolls an ambush now (``/init surprise``)
    joined: str | None = None  # ``join``: the character that came in (the reply names it)
    #: what the combatant whose turn it is has left (``("principal", 1)``…; issue 23 §1)
    actions_left: tuple[tuple[str, int], ...] = ()
    #: a fight by rounds of declarations (issue 25 §1): the round being declared, if any
    #: (its number, who has declared and who must), and what this use case opened or resolved
    mode: str = "turns"
    declaring: tuple[int, tuple[str, ...], tuple[str, ...]] | None = None
    header: RoundHeader | None = None
    summary: RoundSummary | None = None
    #: the pain choices the current combatant's turn found unchosen: their defaults applied
    pain_defaults: tuple[PainView, ...] = ()


@dataclass(frozen=True, slots=True)
class Reminder:
    """A turn that waited ``hours``: whom to mention (the player, or the GM for an NPC)."""

    channel_id: int
    combat_id: int
    name: str
    mention_id: int
    round: int
    hours: int
    locale: str | None = None  # the campaign's language, for a message nobody asked for
    nonce: str = ""  # the timer firing's Discord nonce: a repeated post returns the first


@dataclass(frozen=True, slots=True)
class HealthView:
    """``/init damage|heal``: what was done, the new state, what is left (``secret`` for a
    hidden NPC: the numbers go to the GM only), and the audit row (for an undo button)."""

    name: str
    amount: int
    state: str
    notes: tuple[str, ...]
    healed: bool
    #: the audit row and sheet version of this write, for the GM's undo button
    undo: Undoable | None = None
    label: str = ""
    description: str = ""
    hit_points: tuple[int, int] | None = None
    secret: bool = False
    log_id: int | None = None
    system: str = ""  # whose state ids ``state`` and the notes are
    gender: str | None = None  # the character's grammatical gender, for agreement
    #: a sheetless group's change (its creature in front; one fell?), None for a sheet
    group: GroupChange | None = None
    #: rolweb: the pain threshold's choice this damage left owed (asked with buttons)
    pain: PainAsk | None = None
    #: after a heal, the fight as it stands: its panel, refreshed (issue 23 §3: a healed
    #: combatant is back in the order)
    fight: CombatView | None = None


def _secrecy(health: Health | None, character_id: int | None) -> Secrecy:
    """A combatant's numbers: a hidden NPC's are sealed until it is revealed (issue 22 §1)."""
    if health is not None and health.secret and character_id is not None:
        return PUBLIC.hiding_npc(character_id)
    return PUBLIC


def _health_fields(health: Health | None) -> dict[str, Any]:
    if health is None:
        return {}
    fields: dict[str, Any] = {
        "effects": tuple((e.name, e.rounds) for e in health.effects),
        "secret": health.secret,
        "gender": health.gender,
    }
    state = health.state
    if state is not None:
        fields.update(
            state=state.label,
            condition=state.condition.value,
            description=state.description,
            hit_points=state.hit_points,
            turn_test=state.turn_test,
            prone=state.prone,
            choice_owed=state.choice_owed,
        )
    return fields


#: A sheetless group's hit points are the GM's (he typed them at ``/init add``): its count
#: and state word are for everyone, its numbers (``Part.DETAIL``) for him alone.
GROUP_NUMBERS = PUBLIC.sealing(Part.DETAIL)


def _group_fields(combatant: Combatant) -> dict[str, Any]:
    """A sheetless group's health on the panel (:mod:`rules.combat.groups`): «herido» or
    «fuera de combate» (nothing while unhurt), its creature in front's hit points (sealed)
    and how many fell."""
    state = group_state(combatant)
    if state is None:
        return {}
    fields: dict[str, Any] = {"secrecy": GROUP_NUMBERS, "fallen": combatant.fallen}
    if state is not GroupState.UNHURT:
        fields.update(state=state.value, description=state.value, condition=_CONDITION[state])
    if state is not GroupState.OUT:
        maximum = combatant.max_hit_points or combatant.hit_points or 0
        fields["hit_points"] = (combatant.hit_points or 0, maximum)
    return fields


_CONDITION = {
    GroupState.UNHURT: Condition.OK.value,
    GroupState.WOUNDED: Condition.WOUNDED.value,
    GroupState.OUT: Condition.OUT.value,
}


def combat_view(
    record: CombatRecord,
    combat: Combat,
    turn: TurnChange | None = None,
    rolled: Rolled = (),
    health: Mapping[str, Health] | None = None,
    actions_left: tuple[tuple[str, int], ...] = (),
) -> CombatView:
    """The fight as the cog shows it: every combatant's line (its health read from its
    sheet), whose turn it is, and what this use case changed or rolled."""
    names = {c.key: c.name for c in combat.combatants}
    current = combat.current
    health = health or {}
    lines = tuple(
        CombatantLine(
            key=c.key,
            name=c.name,
            kind=c.kind.value,
            side=c.side.value,
            owner_id=c.owner_id,
            count=c.count,
            initiative=c.initiative,
            breakdown=c.breakdown,
            actions=c.actions,
            current=current is not None and c.key == current.key,
            skips_this_round=combat.skips(c, combat.round),
            waited_after=names.get(c.waited_after or ""),
            character_id=c.character_id,
            **_health_fields(health.get(c.key)),
            **(
                _group_fields(c)
                if c.character_id is None
                else {"secrecy": _secrecy(health.get(c.key), c.character_id)}
            ),
        )
        for c in combat.combatants
    )
    secrecy = {line.key: line.secrecy for line in lines}
    return CombatView(
        id=saved_id(record),
        version=panel_version(record),
        channel_id=record.channel_id,
        system=str(record.state.get("system", "")),
        round=combat.round,
        active=record.status == "active" and not combat.ended,
        lines=lines,
        current=next((line for line in lines if line.current), None),
        side_rolls=combat.side_rolls,
        by_side=combat.policy.by_side,
        can_wait=combat.policy.can_wait,
        turn=turn,
        rolled=tuple(
            RolledLine(name, breakdown, secrecy.get(key, PUBLIC)) for key, name, breakdown in rolled
        ),
        actions_left=actions_left,
        mode=mode_of(record.state).value,
        declaring=_declaring(record, combat),
    )


def _declaring(
    record: CombatRecord, combat: Combat
) -> tuple[int, tuple[str, ...], tuple[str, ...]] | None:
    """The round being declared: its number, who has declared, who has not (names); none
    once the fight has ended (its last round is kept in the state, owed by nobody)."""
    open_round = round_of(record.state)
    if open_round is None or record.status != "active":
        return None
    names = {c.key: c.name for c in combat.combatants}
    owing = set(open_round.owing(open_round.owed))
    done = tuple(names[k] for k in open_round.owed if k in names and k not in owing)
    waiting = tuple(names[k] for k in open_round.owed if k in names and k in owing)
    return open_round.round, done, waiting


#: Lines rolled by a use case: (combatant key, name, breakdown).
Rolled = tuple[tuple[str, str, str], ...]
#: What a change computes: the new combat, the turn change it made, what it rolled.
Step = tuple[Combat, TurnChange | None, Rolled]
# A change: (campaign, system, settings, combat) -> Step
Change = Callable[[Campaign, GameSystem, Mapping[str, Any], Combat], Step]
# A change that reads the combatants' health first (``next``, ``prev``): + health by key
HealthChange = Callable[
    [Campaign, GameSystem, Mapping[str, Any], Combat, Mapping[str, Health]], Step
]


def owing_tests(health: Mapping[str, Health]) -> frozenset[str]:
    """The keys whose turn is a test (rolweb's moribundo: ``turn_test``)."""
    return frozenset(k for k, h in health.items() if h.state is not None and h.state.turn_test)


def out_of_order(health: Mapping[str, Health]) -> frozenset[str]:
    """The keys the turn order passes over (dead, out, unconscious: ``skip_turn``)."""
    return frozenset(k for k, h in health.items() if h.state is not None and h.state.skip_turn)


#: ``panel(place, actor, character_ids)``: this channel's fight when one of the characters
#: is in it (its panel, refreshed after a heal: issue 23 §3), else None.  Typed loosely on
#: the place and actor (shared.context) to keep this module's imports as they are.
FightPanel = Callable[[Any, Any, Sequence[int]], Awaitable["CombatView | None"]]


def combat_for(view: CombatView, reader: Reader) -> Shown[CombatView]:
    """The fight as ``reader`` may see it (the audience rule, per combatant): a combatant
    whose numbers are sealed from him shows no initiative roll, hit points or heal amounts
    (``secret``), and the initiatives rolled now keep their dice from him."""

    def project(_seen: Sight) -> CombatView:
        lines = tuple(_line_for(line, reader) for line in view.lines)
        rolled = []
        for line in view.rolled:
            seen = sight(line.secrecy, reader)
            shows = seen is not None and seen.shows(Part.TOTAL)
            rolled.append(replace(line, breakdown=line.breakdown if shows else None))
        ticked, ended = view.ticked, view.ended
        if ticked is not None:
            current = next((line for line in lines if line.current), None)
            hidden = current.secret if current is not None else ticked.secret
            ticked = replace(ticked, secret=ticked.secret and hidden)
        if ended is not None:  # the turn that ended: its owner's line, by name
            owner = next((line for line in lines if line.name == ended.name), None)
            hidden = owner.secret if owner is not None else not reader.is_gm
            ended = replace(ended, secret=ended.secret and hidden)
        return replace(
            view,
            lines=lines,
            current=next((line for line in lines if line.current), None),
            rolled=tuple(rolled),
            ticked=ticked,
            ended=ended,
            referee=reader.is_gm,
        )

    shown = show(PUBLIC, reader, project)
    assert shown is not None  # a fight's panel is for everyone
    return shown


def _line_for(line: CombatantLine, reader: Reader) -> CombatantLine:
    seen = sight(line.secrecy, reader)
    if seen is None or not seen.shows(Part.DETAIL):  # a group's numbers are the GM's
        line = replace(line, hit_points=None) if line.kind == Kind.ADHOC.value else line
    return replace(line, secret=seen is None or not seen.shows(Part.TOTAL))
