"""The persistent buttons still answer the custom ids already sitting in Discord.

Messages sent before an upgrade keep their buttons; after the upgrade discord.py hands every
press to the registered ``DynamicItem`` whose template fullmatches the id.  The ids below are
literals as the buttons emitted them before they shared :class:`cogs.ui.keyed_button.KeyedButton`
(one of each kind and action): each must match exactly one registered class (two matches would
run two callbacks), rebuild with the same integers, action, style and emoji, and the buttons
built today must emit the same ids.  The help menus and pages and the wizard's select, keyed by
text through :class:`cogs.ui.keyed_button.KeyedItem`, are parsed the same way.
"""

from __future__ import annotations

from typing import Any

import discord
import pytest

from cogs.help import PageButton, TopicMenu
from cogs.ui.approval import ApprovalButton
from cogs.ui.attack_panel import DeclaredDefenceButton, DefenceButton
from cogs.ui.combat_panel import DeathTestButton, InitButton
from cogs.ui.keyed_button import KeyedButton
from cogs.ui.levelup import HitDieButton
from cogs.ui.pain_panel import PainButton, StandButton
from cogs.ui.publishing import StopPublicationButton
from cogs.ui.request_panel import RequestButton
from cogs.ui.round_panel import RedirectButton
from cogs.ui.undo import UndoButton
from cogs.ui.wizard import WizardButton, WizardSelect

Style = discord.ButtonStyle

# custom id → class, its integers by name, action, style, emoji (as the previous code built them)
OLD_IDS: list[tuple[str, type[KeyedButton], dict[str, int], str, Style, str | None]] = [
    ("arb:1:defend:41:3", DefenceButton, {"log_id": 41, "version": 3}, "", Style.primary, None),
    ("arb:1:redirect:7:3", RedirectButton, {"combat_id": 7, "ref": 3}, "", Style.secondary, None),
    ("arb:1:decl-defend:7:3", DeclaredDefenceButton, {"combat_id": 7, "ref": 3}, "", Style.primary, None),
    ("arb:1:init-next:7:12", InitButton, {"combat_id": 7, "version": 12}, "next", Style.primary, None),
    ("arb:1:init-show:7:12", InitButton, {"combat_id": 7, "version": 12}, "show", Style.secondary, None),
    ("arb:1:init-death:7:55", DeathTestButton, {"combat_id": 7, "character_id": 55}, "", Style.danger, None),
    ("arb:1:init-stand:7:55", StandButton, {"combat_id": 7, "character_id": 55}, "", Style.secondary, None),
    ("arb:1:pain-0:55:2", PainButton, {"character_id": 55, "ref": 2}, "0", Style.danger, None),
    ("arb:1:pain-1:55:2", PainButton, {"character_id": 55, "ref": 2}, "1", Style.primary, None),
    ("arb:1:undo:41:3", UndoButton, {"log_id": 41, "version": 3}, "", Style.secondary, "↩️"),
    ("arb:1:approve-yes:55:0", ApprovalButton, {"character_id": 55}, "yes", Style.success, None),
    ("arb:1:approve-no:55:0", ApprovalButton, {"character_id": 55}, "no", Style.danger, None),
    ("arb:1:hitdie:41", HitDieButton, {"grant_id": 41}, "", Style.primary, "🎲"),
    ("arb:1:req-roll:9:55", RequestButton, {"request_id": 9, "character_id": 55}, "roll", Style.primary, "🎲"),
    ("arb:1:req-close:9:0", RequestButton, {"request_id": 9, "character_id": 0}, "close", Style.danger, None),
    ("arb:1:req-results:9:0", RequestButton, {"request_id": 9, "character_id": 0}, "results", Style.secondary, None),
    ("arb:1:pub-stop:12", StopPublicationButton, {"publication_id": 12}, "", Style.danger, None),
    ("arb:1:wiz:roll:3:4", WizardButton, {"draft_id": 3, "version": 4}, "roll", Style.primary, None),
    ("arb:1:wiz:form:3:4", WizardButton, {"draft_id": 3, "version": 4}, "form", Style.primary, None),
    ("arb:1:wiz:skip:3:4", WizardButton, {"draft_id": 3, "version": 4}, "skip", Style.secondary, None),
    ("arb:1:wiz:finish:3:4", WizardButton, {"draft_id": 3, "version": 4}, "finish", Style.success, None),
    ("arb:1:wiz:restart:3:4", WizardButton, {"draft_id": 3, "version": 4}, "restart", Style.secondary, None),
    ("arb:1:wiz:cancel:3:4", WizardButton, {"draft_id": 3, "version": 4}, "cancel", Style.danger, None),
]  # fmt: skip

# ids of no button: the old templates refused them, so must the new ones
NOT_IDS = [
    "arb:1:approve-yes:55:1",  # approvals always end in :0
    "arb:1:hitdie:41:0",  # the hit die has one integer
    "arb:1:undo:41",  # the undo has two
    "arb:1:init-stop:7:12",  # no such action
    "arb:1:pain-2:55:2",  # a choice has two options
    "arb:1:defend:41:3:9",
    "arb:1:defend:-41:3",
    "arb:1:wiz:choose:3:4",  # the wizard's select is keyed by a step too
    "arb:1:help:menu:12",  # four menus at most: one digit
    "arb:2:undo:41:3",
]


@pytest.fixture
def registered(loaded_bot):
    """The dynamic items the real bot registers (every extension loaded), by pattern."""
    return dict(loaded_bot._connection._view_store._dynamic_items)


def _pressed(custom_id: str) -> discord.ui.Button[Any]:
    """The button as discord.py rebuilds it from the message of a press."""
    return discord.ui.Button(label="Pulsado", custom_id=custom_id)


@pytest.mark.parametrize(("custom_id", "cls", "ids", "action", "style", "emoji"), OLD_IDS)
async def test_an_old_custom_id_reaches_its_one_button_with_its_integers(
    registered, custom_id, cls, ids, action, style, emoji
):
    matches = [(p, item) for p, item in registered.items() if p.fullmatch(custom_id)]
    assert [item for _, item in matches] == [cls], custom_id
    pattern, _ = matches[0]
    button = await cls.from_custom_id(None, _pressed(custom_id), pattern.fullmatch(custom_id))
    assert type(button) is cls
    assert {key: getattr(button, key) for key in ids} == ids
    assert button.action == action
    assert button.custom_id == custom_id
    assert button.item.label == "Pulsado"  # the label the message showed, whatever the locale
    assert button.item.style == style
    assert (str(button.item.emoji) if button.item.emoji else None) == emoji


@pytest.mark.parametrize(("custom_id", "cls", "ids", "action", "style", "emoji"), OLD_IDS)
def test_a_button_built_today_emits_the_old_custom_id(custom_id, cls, ids, action, style, emoji):
    button = cls(*ids.values(), action=action, label="x")
    assert button.custom_id == custom_id
    assert button.item.style == style


# the items keyed by text (KeyedItem without KeyedButton): custom id → class, what it rebuilds
OLD_TEXT_IDS = [
    ("arb:1:help:menu:2", TopicMenu, {}),
    ("arb:1:help:page:3:sheet create", PageButton, {"page": 3, "topic": "sheet create"}),
    (
        "arb:1:wiz:choose:3:4:clase",
        WizardSelect,
        {"draft_id": 3, "version": 4, "step_key": "clase"},
    ),
]


@pytest.mark.parametrize(("custom_id", "cls", "fields"), OLD_TEXT_IDS)
async def test_an_old_menu_or_page_id_reaches_its_one_item(registered, custom_id, cls, fields):
    matches = [(p, item) for p, item in registered.items() if p.fullmatch(custom_id)]
    # by name: load_extension runs cogs/help.py again, so its classes are other objects
    assert [item.__qualname__ for _, item in matches] == [cls.__qualname__], custom_id
    pattern, _ = matches[0]
    if cls is PageButton:
        sent = discord.ui.Button(label="▶", custom_id=custom_id)
    else:
        sent = discord.ui.Select(custom_id=custom_id, options=[discord.SelectOption(label="x")])
    item = await cls.from_custom_id(None, sent, pattern.fullmatch(custom_id))
    assert type(item) is cls
    assert {key: getattr(item, key) for key in fields} == fields
    assert item.custom_id == custom_id


@pytest.mark.parametrize("custom_id", NOT_IDS)
def test_ids_of_no_button_match_no_button(registered, custom_id):
    assert not [item for p, item in registered.items() if p.fullmatch(custom_id)]


def test_a_button_with_the_wrong_integers_or_action_is_refused_when_built():
    with pytest.raises(ValueError):
        UndoButton(41, label="x")
    with pytest.raises(ValueError):
        HitDieButton(41, 0, label="x")
    with pytest.raises(ValueError):
        InitButton(7, 12, action="stop", label="x")
    with pytest.raises(ValueError):
        InitButton(7, 12, label="x")  # a class with several actions names one


def test_a_subclass_must_name_one_or_two_integers():
    with pytest.raises(TypeError):

        class Bare(KeyedButton, kind="bare"):  # noqa: F841 - defining it is the test
            pass

    with pytest.raises(TypeError):

        class Worded(KeyedButton, kind="worded"):  # noqa: F841 - defining it is the test
            log_id: int
            topic: str  # a custom id of this base carries integers only
