"""What is written between double brackets, rolled: ``[[1d20+5]]``, ``[[Pilotar]]``,
``[[Fuerza +2]]``, ``[[salvación veneno]]`` (issue 24 §3).

One resolution for typed posts, the roll field of ``/post`` and a plain ``[[1d20]]`` in a
campaign channel: dice notation rolls as ``/roll`` does (:class:`RollService`, logged with the
speaker's name); a name is one of the speaker's sheet options, rolled as ``/check`` does
(:class:`CheckService`: the campaign's system, the sheet, its effects, the states that forbid
acting), with an optional ``+N``/``-N`` modifier; «salvación …» is ``/save`` against that
threat.  A name nothing answers to is refused with the options the sheet has.  Every roll is
in the audit log before anything is shown.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from bot.services.play.checks import CheckOrder, CheckService, CheckView, resolve_option
from bot.services.play.rolls import RollService
from bot.services.shared.context import Actor, Place
from bot.services.shared.errors import DomainError
from bot.services.shared.typed_text import MAX_INLINE, is_dice
from bot.words import whole_list
from rules.text import fold

__all__ = ["InlineRoll", "InlineRollService", "MAX_ROLLS"]

#: Rolls one message may make in all (its ``[[…]]``): bounded before any is rolled.
MAX_ROLLS = MAX_INLINE
_MODIFIER = re.compile(r"^(?P<name>.*?[^\s+\-])\s*(?P<sign>[+-])\s*(?P<value>\d{1,3})$")
_SAVE_WORDS = ("salvacion", "salvación", "save", "saving throw", "tirada de salvacion")


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


class InlineRollService:
    def __init__(self, rolls: RollService, checks: CheckService) -> None:
        self.rolls = rolls
        self.checks = checks

    async def roll_all(
        self,
        place: Place,
        actor: Actor,
        written: Sequence[str],
        *,
        character: str | None,
        private: bool,
    ) -> list[InlineRoll]:
        """Roll each text, in order, as ``character`` (None: nobody's sheet, dice only)."""
        if len(written) > MAX_ROLLS:
            raise DomainError("typing.error.too_many_rolls", limit=MAX_ROLLS)
        return [
            await self.roll_one(place, actor, text, character=character, private=private)
            for text in written
        ]

    async def roll_one(
        self, place: Place, actor: Actor, text: str, *, character: str | None, private: bool
    ) -> InlineRoll:
        text = text.strip()
        if is_dice(text):
            rolled = await self.rolls.roll(
                place, actor, text, private=private, character_name=character
            )
            return InlineRoll(
                rolled.log_id,
                rolled.label,
                rolled.expression,
                rolled.breakdown,
                rolled.total,
                rolled.outcome,
                private,
            )
        if character is None:
            raise DomainError("post.error.narrator_check")
        return _from_check(await self._check(place, actor, text, character, private), private)

    async def _check(
        self, place: Place, actor: Actor, text: str, character: str, private: bool
    ) -> CheckView:
        """A sheet option by name (with a modifier), or a saving throw against a threat."""
        name, modifier = _name_and_modifier(text)
        options = await self.checks.options(place, actor, character)
        option = resolve_option(options, name)
        if option in {o.key for o in options}:
            order = CheckOrder(option, character=character, modifier=modifier, private=private)
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
            )
        raise DomainError(
            "inline.error.unknown",
            name=text,
            character=character,
            options=whole_list([o.label for o in options]),
        )


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
    )
