"""/ability on real databases: Medicus heals another player's character in one write."""

from __future__ import annotations

import pytest

from bot.db.models import RollLog
from bot.services import Actor, Place
from bot.services.campaigns.settings import resolved_settings
from bot.services.shared.errors import DomainError, NotAllowed
from cogs.ui import render_abilities
from rules import systems
from rules.systems.base import RulesError

GUILD = 1000
HERE = Place(GUILD, 13, (13,))
GM = Actor(1, "Máster", can_manage_channels=True)
ANA = Actor(2, "Ana")
BRUNO = Actor(3, "Bruno")


def sheet(name: str, **abilities: str) -> dict:
    system = systems.get("rolweb")
    new = system.new_sheet(name, resolved_settings(system.settings(), {}))
    new["habilidades"] = dict(abilities)
    return new


@pytest.fixture
async def table(services):
    await services.campaigns.create(
        HERE, GM, name="Foro", system="rolweb", target_id=13, kind="channel"
    )
    await services.characters.create(HERE, ANA, sheet("Eira", Medicus="principiante"))
    await services.characters.create(HERE, BRUNO, sheet("Bram"))
    return services


async def _resistencia(services, name: str) -> dict:
    _c, stored, _s, _set = await services.characters.sheet_of(HERE, GM, name)
    return stored.sheet["resistencia"]


async def test_medicus_heals_another_players_character_and_can_be_undone(table):
    full = await _resistencia(table, "Bram")
    await table.combat.start(HERE, GM)
    await table.combat.join(HERE, BRUNO)
    await table.combat.damage(HERE, GM, "Bram", 3)
    with pytest.raises(NotAllowed):  # acting with Eira needs her owner or the GM
        await table.abilities.use(HERE, BRUNO, "Medicus", target="Bram", character="Eira")
    view = await table.abilities.use(HERE, ANA, "Medicus", target="Bram")
    # seeded: Medicus principiante, the seed's 1D4, shows 4 (the sheet keeps its maximum; no house note)
    assert (view.user, view.target, view.level, view.action) == (
        "Eira",
        "Bram",
        "principiante",
        "activa",
    )
    assert view.roll == "1d4 (4) = 4" and view.healed == 4
    # the level is named in the reader's language (was: «principiante» in English)
    english = render_abilities.used(view, "en")["embed"].description
    assert "(novice)" in english and "principiante" not in english
    assert "rolweb.note.house_amount" not in view.notes
    assert (await _resistencia(table, "Bram"))["actual"] == full["actual"]
    async with table.sessions() as session:
        row = await session.get(RollLog, view.undo.log_id)
    assert row.kind == "ability" and row.total == 4 and row.character_name == "Bram"
    await table.undo.undo(HERE, GM, view.undo.log_id)
    assert (await _resistencia(table, "Bram"))["actual"] == full["actual"] - 3


async def test_unknown_and_unlearnt_abilities_are_refused(table):
    with pytest.raises(RulesError, match="ability_not_known"):
        await table.abilities.use(HERE, BRUNO, "Medicus")
    with pytest.raises(RulesError, match="unknown_ability"):
        await table.abilities.use(HERE, ANA, "Volar")
    name, lines = await table.abilities.list(HERE, ANA)
    assert name == "Eira" and [(a.name, a.level) for a in lines] == [("Medicus", "principiante")]
    assert lines[0].description and lines[0].effect


async def test_other_systems_say_abilities_are_rolwebs(services):
    """Núcleo has no abilities to use (S&W has its class powers since issue 23 §3)."""
    place = Place(GUILD, 14, (14,))
    await services.campaigns.create(
        place, GM, name="S", system="nucleo", target_id=14, kind="channel"
    )
    with pytest.raises(DomainError, match="ability.error.no_abilities"):
        await services.abilities.use(place, GM, "Medicus")
