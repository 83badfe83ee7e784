"""``/npc copy`` names: unique, within 100 characters, found by a bounded loop (issue 9 §1)."""

from __future__ import annotations

import pytest

from bot.services import Actor, Place
from bot.services.sheets.access import MAX_NAME, name_key
from bot.services.sheets.npcs import copy_name
from rules.text import fold
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


ORC = {
    "name": "Orco",
    "system": "swc",
    "pnj": True,
    "dados_golpe": "2+1",
    "ca": 6,
    "ataques": "1 arma (1d8)",
    "pg": {"max": 10, "actual": 10},
    "movimiento": 9,
    "valor_px": 30,
    "salvacion": 16,
}


async def test_each_swc_monster_copy_rolls_its_own_hit_points(services):
    """Issue 13 §3: copies of a monster roll 2d8+1 each (seed 000: hit points are rolled
    per monster), logged under the copy's name and privately for a hidden template."""
    import random

    from sqlmodel import select

    from bot.db.models import RollLog

    await services.campaigns.create(
        HERE, GM, name="Mesa", system="swc", target_id=CHANNEL, kind="channel"
    )
    await services.characters.create(HERE, GM, dict(ORC), is_npc=True, hidden=True)
    made = await services.npcs.copies(HERE, GM, "Orco", 3)
    # Services(rng=Random(1234)) in tests/conftest.py: the same throws on every backend
    rng = random.Random(1234)
    expected = [rng.randint(1, 8) + rng.randint(1, 8) + 1 for _ in range(3)]
    assert [c.hit_points for c in made] == expected == [11, 4, 4]
    for copy, hp in zip(made, expected, strict=True):
        shown = await services.characters.show(HERE, GM, copy.name)
        assert shown.sheet["pg"] == {"max": hp, "actual": hp}
    template = await services.characters.show(HERE, GM, "Orco")
    assert template.sheet["pg"] == {"max": 10, "actual": 10}  # the template keeps its own
    async with services.sessions() as session:
        rows = (await session.exec(select(RollLog).order_by(RollLog.id))).all()
    assert [(r.character_name, r.total, r.private) for r in rows] == [
        (c.name, hp, True) for c, hp in zip(made, expected, strict=True)
    ]


async def test_copies_of_npcs_with_fixed_numbers_roll_nothing(campaign):
    await campaign.characters.create(HERE, GM, rolweb_sheet("Trasgo"), is_npc=True)
    made = await campaign.npcs.copies(HERE, GM, "Trasgo", 2)
    assert [c.hit_points for c in made] == [None, None]


async def test_copying_a_player_character_says_there_is_no_such_npc(campaign):
    """Was «No hay ningún personaje llamado «Eira»» while Eira was right there, a player's."""
    from bot.services.shared.errors import DomainError

    await campaign.characters.create(HERE, GM, rolweb_sheet("Eira"))
    with pytest.raises(DomainError) as refused:
        await campaign.npcs.copies(HERE, GM, "Eira", 2)
    assert (refused.value.key, refused.value.params) == (
        "sheet.error.npc_not_found",
        {"name": "Eira"},
    )


def test_a_copys_key_keeps_its_number_when_letters_fold_to_two():
    """«ß» folds to «ss»: 60 of them make a 120-character key, cut to 100, and every copy
    had the template's key (the command answered «0 copias: .»)."""
    base = "ß" * 60 + " Jefe"
    names = [copy_name(base, n) for n in range(1, 25)]
    assert len({name_key(name) for name in names}) == len(names)
    assert all(name.endswith(f" {n}") for n, name in enumerate(names, start=1))
    assert all(name_key(name) == fold(name) for name in names)  # no key was cut


async def test_copies_of_a_stored_name_whose_key_was_cut_are_made(campaign):
    """A name stored before the key rule (its key cut at 100) still copies, each distinct."""
    from sqlalchemy import update

    from bot.db.models import Character

    await campaign.characters.create(HERE, GM, rolweb_sheet("Jefe"), is_npc=True)
    old = "ß" * 60 + " Jefe"
    async with campaign.sessions() as session, session.begin():
        await session.exec(
            update(Character)
            .where(Character.name == "Jefe")
            .values(name=old, name_key=name_key(old))
        )
    made = await campaign.npcs.copies(HERE, GM, old, 5)
    assert len(made) == 5 and len({name_key(c.name) for c in made}) == 5
    assert [c.name[-2:] for c in made] == [" 1", " 2", " 3", " 4", " 5"]
