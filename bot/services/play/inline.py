"""What is written between double brackets, rolled: ``[[1d20+5]]``, ``[[Pilotar]]``,
``[[Fuerza +2]]``, ``[[salvación veneno]]`` (issue 24 §3).

One resolution for typed posts, the roll field of ``/post``, ``/roll`` of a name and a plain
``[[1d20]]`` in a campaign channel, in a fixed order: dice notation rolls as ``/roll`` does
(:class:`RollService`, logged with the speaker's name); a name is first the speaker's macro,
then the campaign's (:mod:`bot.services.sheets.macros`: what they hold is rolled, each roll
logged as the expanded expression with the macro's name as its reason), then one of the
speaker's sheet options, rolled as ``/check`` does
(:class:`CheckService`: the campaign's system, the sheet, its effects, the states that forbid
acting), with an optional ``+N``/``-N`` modifier; «salvación …» is ``/save`` against that
threat.  A name nothing answers to is refused with the options the sheet has.  Every roll is
in the audit log before anything is shown.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from bot.services.play.checks import CheckOrder, CheckService, CheckView, resolve_option
from bot.services.play.rolls import RollService, RollView
from bot.services.shared.audience import PUBLIC, Secrecy
from bot.services.shared.context import Actor, Place, Reply
from bot.services.shared.errors import DomainError
from bot.services.shared.typed_text import MAX_INLINE, is_dice
from bot.services.sheets.macros import MacroBook, MacroService, expand
from bot.words import whole_list
from rules import dice
from rules.systems.base import CheckOption
from rules.text import fold, visible

__all__ = [
    "InlineRoll",
    "InlineRollService",
    "MAX_ROLLS",
    "NamedRolls",
    "NothingRolled",
    "RollerOf",
]

#: Rolls one message may make in all (its ``[[…]]``): bounded before any is rolled.
MAX_ROLLS = MAX_INLINE
_MODIFIER = re.compile(r"^(?P<name>.*?[^\s+\-])\s*(?P<sign>[+-])\s*(?P<value>\d{1,3})$")
_SAVE_WORDS = ("salvacion", "salvación", "save", "saving throw", "tirada de salvacion")


class NothingRolled(DomainError):
    """A refusal that came before any roll was made (too many, a bad expression, an unknown
    name): asking again, corrected, gives nobody a second try at any result."""


@dataclass(frozen=True, slots=True)
class InlineRoll:
    """One roll as shown under a post (or in a reply): its log entry and its numbers."""

    log_id: int
    label: str | None
    expression: str
    breakdown: str
    total: int
    outcome: str | None
    private: bool
    #: rolled from the speaker's sheet (a check), not bare dice: it belongs to that character
    sheet: bool = False
    #: who may see it, as its log row has it (every output renders it through the rule)
    secrecy: Secrecy = PUBLIC
    written_at: datetime | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class RollerOf:
    """Who rolls: the character's name (None: nobody's sheet — the narrator), and, when
    known, its id and campaign (a post's speaker: its macros are read without a lookup)."""

    character: str | None
    character_id: int | None = None
    campaign_id: int | None = None


@dataclass(frozen=True, slots=True)
class NamedRolls:
    """``/roll`` of a macro or a sheet option: what was asked, every roll it made, and who
    may read them (a private roll: its roller and the GM)."""

    written: str
    character: str | None
    rolls: tuple[InlineRoll, ...]
    secrecy: Secrecy = PUBLIC


class InlineRollService:
    def __init__(
        self, rolls: RollService, checks: CheckService, macros: MacroService | None = None
    ) -> None:
        self.rolls = rolls
        self.checks = checks
        self.macros = macros

    async def roll_all(
        self,
        place: Place,
        actor: Actor,
        written: Sequence[str],
        *,
        character: str | None,
        private: bool,
        roller: RollerOf | None = None,
        audience: Secrecy | None = None,
    ) -> list[InlineRoll]:
        """Roll each text, in order, as ``character`` (None: nobody's sheet, dice only); a
        macro's name rolls what it holds.  Every roll is planned (and bounded) first.

        ``audience``: who the rolls are for, when they go where not everyone reads (a post's
        audience, a hidden NPC's sealed numbers); ``private`` narrows it to the roller and
        the GM."""
        roller = roller or RollerOf(character)
        try:
            plan = await self._plan(place, actor, written, roller)
            await self._refuse_early(place, actor, plan, roller)
        except NothingRolled:
            raise
        except DomainError as refusal:
            raise NothingRolled(refusal.key, **refusal.params) from None
        return [
            await self._roll(place, actor, text, macro, roller, private, audience)
            for text, macro in plan
        ]

    async def roll_command(
        self,
        place: Place,
        actor: Actor,
        expression: str,
        *,
        reason: str | None,
        private: bool,
        difficulty: int | None,
        reply: Reply[RollView | NamedRolls],
    ) -> RollView | NamedRolls:
        """``/roll``: dice notation rolls as :meth:`RollService.roll` does (with its reason and
        difficulty); anything else is a name — a macro or a sheet option — rolled as ``[[…]]``
        rolls it.  ``reply`` shows the result and every roll's log row links to its message."""
        if is_dice(expression):
            return await self.rolls.roll(
                place,
                actor,
                expression,
                reason=reason,
                private=private,
                difficulty=difficulty,
                reply=reply,
            )
        named = await self.roll_named(place, actor, expression, private=private)
        sent = await reply(named)
        if sent is not None:  # none: a private reply, nothing to link
            for roll in named.rolls:
                await self.rolls.attach_message(
                    roll.log_id, place.guild_id, sent.message_id, sent.url
                )
        return named

    async def roll_named(
        self, place: Place, actor: Actor, written: str, *, private: bool
    ) -> NamedRolls:
        """``/roll`` of a name (a macro, or a sheet option) as the actor's active character."""
        active = self.rolls.active_name
        character = await active(place, actor) if active is not None else None
        rolls = await self.roll_all(place, actor, [written], character=character, private=private)
        secrecy = Secrecy.private(actor.user_id) if private else PUBLIC.written_by(actor.user_id)
        return NamedRolls(written, character, tuple(rolls), secrecy)

    async def roll_one(
        self, place: Place, actor: Actor, text: str, *, character: str | None, private: bool
    ) -> InlineRoll:
        """One text that makes one roll (a macro that makes several is refused here)."""
        rolled = await self.roll_all(place, actor, [text], character=character, private=private)
        return rolled[0]

    async def _plan(
        self, place: Place, actor: Actor, written: Sequence[str], roller: RollerOf
    ) -> list[tuple[str, str | None]]:
        """(roll text, the macro it came from) for every roll to make, in order."""
        if len(written) > MAX_ROLLS:
            raise DomainError("typing.error.too_many_rolls", limit=MAX_ROLLS)
        book: MacroBook | None = None
        plan: list[tuple[str, str | None]] = []
        for text in (t.strip() for t in written):
            expanded = None
            if not is_dice(text) and self.macros is not None:
                book = book or await self._book(place, actor, roller)
                expanded = expand(book, text)
            plan.extend(expanded if expanded is not None else [(text, None)])
        if len(plan) > MAX_ROLLS:
            raise DomainError("typing.error.too_many_rolls", limit=MAX_ROLLS)
        return plan

    async def _refuse_early(
        self, place: Place, actor: Actor, plan: Sequence[tuple[str, str | None]], roller: RollerOf
    ) -> None:
        """Everything the plan rolls is checked before its first roll: an expression the dice
        engine refuses, or a name that is no sheet option, refuses the whole message with
        nothing rolled (a message half rolled would leave its first results in the log, and
        its author a second try at them)."""
        options: tuple[CheckOption, ...] | None = None
        for text, _macro in plan:
            if is_dice(text):
                try:
                    dice.parse(text)
                except dice.DiceError as error:
                    raise dice_refusal(error) from None
                continue
            if roller.character is None:
                raise DomainError("post.error.narrator_check")
            if options is None:
                options = await self.checks.options(place, actor, roller.character)
            name, _modifier = _name_and_modifier(text)
            known = resolve_option(options, name) in {o.key for o in options}
            if not known and _threat(name) is None:
                raise await self._unknown(place, actor, text, roller, options)

    async def _unknown(
        self,
        place: Place,
        actor: Actor,
        text: str,
        roller: RollerOf,
        options: Sequence[CheckOption],
    ) -> DomainError:
        """The refusal of a name nothing answers to, listing what the speaker can roll."""
        book = await self._book(place, actor, roller) if self.macros is not None else None
        return DomainError(
            "inline.error.unknown",
            name=text,
            character=roller.character,
            macros=whole_list(book.names()) if book and book.names() else "—",
            options=whole_list([o.label for o in options]),
        )

    async def _book(self, place: Place, actor: Actor, roller: RollerOf) -> MacroBook:
        assert self.macros is not None
        if roller.campaign_id is not None:
            return await self.macros.book_of(roller.campaign_id, roller.character_id)
        return await self.macros.book(place, actor, roller.character)

    async def _roll(
        self,
        place: Place,
        actor: Actor,
        text: str,
        macro: str | None,
        roller: RollerOf,
        private: bool,
        audience: Secrecy | None = None,
    ) -> InlineRoll:
        if is_dice(text):
            try:
                rolled = await self.rolls.roll(
                    place,
                    actor,
                    text,
                    reason=macro,
                    private=private,
                    character_name=roller.character,
                    secrecy=audience,
                )
            except dice.DiceError as error:  # a limit only rolling reaches (explosions)
                raise dice_refusal(error) from None
            return InlineRoll(
                rolled.log_id,
                macro or rolled.label,
                rolled.expression,
                rolled.breakdown,
                rolled.total,
                rolled.outcome,
                private,
                secrecy=rolled.secrecy,
                written_at=rolled.written_at,
            )
        if roller.character is None:
            raise DomainError("post.error.narrator_check")
        checked = await self._check(place, actor, text, roller, private, macro, audience)
        return _from_check(checked, private)

    async def _check(
        self,
        place: Place,
        actor: Actor,
        text: str,
        roller: RollerOf,
        private: bool,
        macro: str | None,
        audience: Secrecy | None = None,
    ) -> CheckView:
        """A sheet option by name (with a modifier), or a saving throw against a threat."""
        character = roller.character
        assert character is not None  # _roll refused the narrator
        name, modifier = _name_and_modifier(text)
        options = await self.checks.options(place, actor, character)
        option = resolve_option(options, name)
        if option in {o.key for o in options}:
            order = CheckOrder(
                option,
                character=character,
                modifier=modifier,
                private=private,
                reason=macro,
                audience=audience,
            )
            return await self.checks.check(place, actor, order)
        threat = _threat(name)
        if threat is not None:
            return await self.checks.save(
                place,
                actor,
                threat=threat or None,
                character=character,
                modifier=modifier,
                private=private,
                audience=audience,
            )
        raise await self._unknown(place, actor, text, roller, options)


def dice_refusal(error: dice.DiceError) -> DomainError:
    """The dice engine's refusal as the author reads it (``dice.error.*``, as ``/roll``
    says it), for the paths that tell it through a :class:`DomainError` (typed text)."""
    params = {k: visible(v) if isinstance(v, str) else v for k, v in error.params.items()}
    params.setdefault("column", error.column if error.column is not None else "?")
    return DomainError(f"dice.error.{error.code}", **params)


def _name_and_modifier(text: str) -> tuple[str, int]:
    found = _MODIFIER.match(text)
    if found is None:
        return text, 0
    value = int(found["value"])
    return found["name"].strip(), value if found["sign"] == "+" else -value


def _threat(name: str) -> str | None:
    """«salvación veneno» → «veneno»; «salvación» → «»; anything else → None."""
    folded = fold(name)
    for word in _SAVE_WORDS:
        key = fold(word)
        if folded == key or folded.startswith(key + " "):
            return name.strip()[len(word) :].strip() if folded != key else ""
    return None


def _from_check(checked: CheckView, private: bool) -> InlineRoll:
    result = checked.result
    return InlineRoll(
        checked.log_id,
        result.label,
        result.expression,
        result.breakdown,
        result.total,
        str(result.outcome) if result.outcome else None,
        private,
        sheet=True,
        secrecy=checked.secrecy,
        written_at=checked.written_at,
    )
