"""Names people can read: no invisible names, no hidden characters, a key that fits
(issue 22 §4), on every path that names a character, a campaign or a scene."""

from __future__ import annotations

import json

import pytest

from bot.services import Actor, Place
from bot.services.shared.errors import DomainError
from bot.services.sheets.imports import check_sheet, parse_document
from rules import systems
from rules.text import name_problem, plain_spaces
from tests.bot.test_characters import rolweb_sheet

GUILD, CHANNEL, THREAD = 1000, 11, 51
HERE = Place(GUILD, CHANNEL, (CHANNEL,))
GM = Actor(1, "Máster", can_manage_channels=True)
ANA = Actor(2, "Ana")

INVISIBLE = {
    "zero-width space": "\u200b",
    "zero-width spaces": "\u200b\u200c\u2060",
    "hangul fillers": "\u3164\u3164",
    "braille blank": "\u2800",
    "a lone accent": "\u0301",
}
HIDDEN = {
    "zero-width inside": "Ar\u200bdelia",
    "right-to-left override": "\u202eailedrA",
    "a control character": "Ardelia\x07",
    "a line separator": "Ardelia\u2028Vane",
}


@pytest.mark.parametrize("name", INVISIBLE.values(), ids=INVISIBLE.keys())
def test_names_that_show_nothing(name):
    assert name_problem(plain_spaces(name)) in ("not_visible", "invisible")


@pytest.mark.parametrize("name", HIDDEN.values(), ids=HIDDEN.keys())
def test_names_hiding_characters(name):
    assert name_problem(name) == "invisible"


@pytest.mark.parametrize(
    "name", ["Ardelia", "Ñoño el 3º", "👨\u200d👩\u200d👧 Familia", "李小龙", "O'Brien-Vane"]
)
def test_ordinary_names_pass(name):
    assert name_problem(name) is None


def test_every_kind_of_space_is_a_plain_space():
    assert plain_spaces("\u00a0Joan\u3000Vane\u2009") == "Joan Vane"


@pytest.fixture
async def table(services):
    await services.campaigns.create(
        HERE, GM, name="Mesa", system="rolweb", target_id=CHANNEL, kind="channel"
    )
    return services


def _refused(caught: pytest.ExceptionInfo[DomainError]) -> str:
    return caught.value.key


@pytest.mark.parametrize("name", [*INVISIBLE.values(), *HIDDEN.values()])
async def test_every_path_refuses_them(table, name):
    expected = {
        "sheet.error.name_not_visible",
        "sheet.error.name_invisible",
        "sheet.error.bad_name",
    }
    with pytest.raises(DomainError) as caught:
        await table.characters.create(HERE, ANA, rolweb_sheet(name))
    assert _refused(caught) in expected
    with pytest.raises(DomainError) as caught:
        await table.characters.create(HERE, GM, rolweb_sheet(name), is_npc=True)
    assert _refused(caught) in expected
    with pytest.raises(DomainError) as caught:
        await table.creation.start(HERE, ANA, name)
    assert _refused(caught) in expected
    await table.characters.create(HERE, ANA, rolweb_sheet("Ardelia"))
    with pytest.raises(DomainError) as caught:
        await table.characters.set_field(HERE, ANA, "Ardelia", "name", name)
    assert _refused(caught) in expected
    document = {"format": "arbitro.sheet", "version": 1, "system": "rolweb", "npc": False}
    payload = json.dumps({**document, "sheet": rolweb_sheet(name)}).encode()
    with pytest.raises(DomainError) as caught:
        check_sheet(parse_document(payload), "rolweb", systems.get("rolweb"), {})
    assert _refused(caught) in expected
    with pytest.raises(DomainError) as caught:
        await table.campaigns.create(
            Place(GUILD, 12, (12,)), GM, name=name, system="rolweb", target_id=12, kind="channel"
        )
    assert _refused(caught) in {*expected, "campaign.error.bad_name"}
    title = " ".join(name.split())  # a title's runs of spaces (and line breaks) are one space
    if title and name_problem(title) is None:
        return
    with pytest.raises(DomainError) as caught:
        await table.scenes.plan_open(Place(GUILD, THREAD, (THREAD, CHANNEL)), GM, title=name)
    assert _refused(caught) in {*expected, "scene.error.bad_title"}


async def test_a_blank_name_says_the_names_limit(table):
    await table.characters.create(HERE, ANA, rolweb_sheet("Ardelia"))
    with pytest.raises(DomainError) as caught:
        await table.characters.set_field(HERE, ANA, "Ardelia", "name", "   ")
    assert (caught.value.key, caught.value.params) == ("sheet.error.bad_name", {"limit": 100})


async def test_a_name_whose_key_would_be_cut_is_refused(table):
    """60 «ß» fold to 120 letters: the key was cut at 100 and two such names clashed."""
    with pytest.raises(DomainError) as caught:
        await table.characters.create(HERE, GM, rolweb_sheet("ß" * 60 + " Jefe"), is_npc=True)
    assert (caught.value.key, caught.value.params) == (
        "sheet.error.name_key_too_long",
        {"limit": 100},
    )
    made = await table.characters.create(HERE, GM, rolweb_sheet("ß" * 40 + " Jefe"), is_npc=True)
    assert made.name == "ß" * 40 + " Jefe"


async def test_a_name_with_a_no_break_space_is_stored_with_a_plain_one(table):
    made = await table.characters.create(HERE, ANA, rolweb_sheet("Joan\u00a0Vane"))
    assert made.name == "Joan Vane"
