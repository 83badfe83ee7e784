"""``/npc copy`` names: unique, within 100 characters, found by a bounded loop (issue 9 §1)."""

from __future__ import annotations

import pytest

from bot.services import Actor, Place
from bot.services.characters import MAX_NAME, name_key
from bot.services.npcs import copy_name
from tests.bot.test_characters import rolweb_sheet

GUILD, CHANNEL = 1000, 11
HERE = Place(GUILD, CHANNEL, (CHANNEL,))
GM = Actor(1, "Máster", can_manage_channels=True)


@pytest.fixture
async def campaign(services):
    await services.campaigns.create(
        HERE, GM, name="Mesa", system="rolweb", target_id=CHANNEL, kind="channel"
    )
    return services


def test_copy_names_shorten_the_base_and_keep_the_number():
    base = "x" * 99
    names = [copy_name(base, n) for n in range(1, 120)]
    assert all(len(name) <= MAX_NAME for name in names)
    assert len({name_key(name) for name in names}) == len(names)
    assert copy_name("Trasgo", 3) == "Trasgo 3"
    assert copy_name("a" * 97 + " b", 12) == "a" * 97 + " 12"  # no double space


@pytest.mark.parametrize("length", [98, 99, 100])
async def test_copies_of_a_name_at_the_limit_end_and_are_distinct(campaign, length):
    name = ("Trasgo del Bosque " * 6)[:length]
    await campaign.characters.create(HERE, GM, rolweb_sheet(name), is_npc=True)
    first = await campaign.npcs.copies(HERE, GM, name, 20)
    second = await campaign.npcs.copies(HERE, GM, name, 3)
    made = [c.name for c in first + second]
    assert len(made) == 23 and all(len(n) <= MAX_NAME for n in made)
    assert len({name_key(n) for n in made}) == 23
    assert made[-1].endswith(" 23")
    assert len(await campaign.characters.list(HERE, GM, npcs=True)) == 24
