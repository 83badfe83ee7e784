"""One base for the bot's persistent buttons, keyed ``arb:1:<kind><action>:<id>[:<n>]``.

Every button the bot leaves on a message (defence, turn panel, death test, undo, approval,
hit die, roll request, creation wizard) must keep working after a restart and after an
upgrade, so it is a :class:`discord.ui.DynamicItem` whose custom id carries all it needs: a
kind (plus the action, where one class has several) and one or two integers (a row id and a
version or a second id).  The state lives in the database and the service checks everything
again on each press, so a subclass keeps only what is its own: its kind and look, the names
of its integers, and its callback.

The kind and look go in the class line; the integers are the subclass's annotations, in
custom-id order (as a dataclass's fields)::

    class UndoButton(KeyedButton, kind="undo", emoji="↩️"):
        log_id: int
        version: int

    UndoButton(12, 3, label="Deshacer").custom_id == "arb:1:undo:12:3"

A ``style`` mapping names the actions of a class with several
(``InitButton(kind="init-", style={"next": primary, "show": secondary})`` emits
``arb:1:init-next:…``); ``suffix`` is a constant tail (approval ids end in ``:0``).  The ids are
those the classes built before this base existed, to the letter
(``tests/bot/test_keyed_buttons.py`` parses a literal one of each kind).

Items keyed by text (the help menus and pages, the wizard's select) derive from
:class:`KeyedItem`, which holds only discord.py's ``from_custom_id`` (once, with our bot's
interaction type) and asks the subclass's :meth:`~KeyedItem.from_match`.
"""

from __future__ import annotations

import inspect
import logging
import re
from collections.abc import Collection, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Self, TypeVar

import discord

from bot.i18n import t
from bot.services.shared.errors import DomainError
from cogs.ui.context import ctx_of
from cogs.ui.custom_ids import INT, CustomId
from cogs.ui.errors import describe_error, send_error

if TYPE_CHECKING:
    from bot.app import Arbitro

log = logging.getLogger(__name__)

__all__ = ["KeyedButton", "KeyedItem"]

Style = discord.ButtonStyle
ItemT = TypeVar("ItemT", bound=discord.ui.Item[Any])


class KeyedItem(discord.ui.DynamicItem[ItemT], template=r"(?!)"):
    """Any persistent item: discord.py's ``from_custom_id`` declared once for our bot, so a
    subclass answers :meth:`from_match` (the items keyed by text — the help pages, the
    wizard's select — derive from it directly; the buttons keyed by integers through
    :class:`KeyedButton`).  The template ``(?!)`` matches nothing: bases are never registered."""

    @classmethod
    async def from_custom_id(
        cls,
        itx: discord.Interaction[Arbitro],  # type: ignore[override]  # discord.py: any Client
        item: ItemT,  # type: ignore[override]  # the kind of item this class wraps
        match: re.Match[str],
    ) -> Self:
        return cls.from_match(item, match)

    @classmethod
    def from_match(cls, item: ItemT, match: re.Match[str]) -> Self:
        """The pressed item again, from its custom id's ``match`` and the item as sent."""
        raise NotImplementedError


class KeyedButton(KeyedItem[discord.ui.Button[discord.ui.View]], template=r"(?!)"):
    """A persistent button keyed by kind, action and one or two integers (see the module)."""

    kind: ClassVar[str]
    keys: ClassVar[tuple[str, ...]]  # the names of the integers, in custom-id order
    styles: ClassVar[Mapping[str, Style]]  # action → style ("" for a class with one action)
    emojis: ClassVar[Mapping[str, str]]
    suffix: ClassVar[str]
    scheme: ClassVar[CustomId]  # builds and reads this class's ids (cogs/ui/custom_ids.py)
    reference: ClassVar[str]  # names the button in the "unexpected error" reply and the log

    def __init_subclass__(
        cls,
        *,
        kind: str,
        style: Style | Mapping[str, Style] = Style.secondary,
        emoji: str | Mapping[str, str] | None = None,
        suffix: str = "",
        reference: str = "",
    ) -> None:
        styles = style if isinstance(style, Mapping) else {"": style}
        annotations = inspect.get_annotations(cls)
        keys = tuple(annotations)
        if not 1 <= len(keys) <= 2 or any(
            hint not in (int, "int") for hint in annotations.values()
        ):
            raise TypeError(f"{cls.__name__} must annotate one or two int keys, not {annotations}")
        scheme = CustomId(kind, tuple((key, INT) for key in keys), tuple(styles), suffix)
        super().__init_subclass__(template=scheme.template)
        cls.kind, cls.keys, cls.styles, cls.suffix = kind, keys, styles, suffix
        cls.scheme = scheme
        if isinstance(emoji, Mapping):
            cls.emojis = emoji
        else:
            cls.emojis = {action: emoji for action in styles} if emoji else {}
        cls.reference = reference or kind.rstrip("-:")

    def __init__(self, *ids: int, action: str = "", label: str = "") -> None:
        if len(ids) != len(self.keys) or action not in self.styles:
            raise ValueError(
                f"{type(self).__name__} is keyed by {self.keys}, actions {[*self.styles]}"
            )
        super().__init__(
            discord.ui.Button(
                label=label or action or self.kind,
                style=self.styles[action],
                emoji=self.emojis.get(action),
                custom_id=self.scheme.build(*ids, action=action),
            )
        )
        self.action = action
        for name, number in zip(self.keys, ids, strict=True):
            setattr(self, name, number)

    @classmethod
    def from_match(cls, item: discord.ui.Button[discord.ui.View], match: re.Match[str]) -> Self:
        """The pressed button again, from its custom id (its label as the message shows it)."""
        ids = (int(match[key]) for key in cls.keys)
        return cls(*ids, action=match["action"], label=item.label or "")

    async def refuse(
        self, itx: discord.Interaction[Arbitro], error: Exception, *, strip_on: Collection[str] = ()
    ) -> None:
        """A failed press: the translated reason, privately (a bug is logged and answered with
        a reference).  After an error in ``strip_on`` (a stale or finished request: retrying is
        useless) the message loses its buttons first."""
        locale = (await ctx_of(itx)).locale
        text = describe_error(error, locale)
        if text is None:
            log.exception("%s button error", self.reference, exc_info=error)
            text = t("errors.unexpected", locale, reference=self.reference)
        if isinstance(error, DomainError) and error.key in strip_on:
            await itx.response.edit_message(view=None)
            await itx.followup.send(text, ephemeral=True)
            return
        await send_error(itx, text)
