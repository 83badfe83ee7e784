"""Everything the bot shows about systems comes from the registry (``rules.systems.ids()``).

The campaign's system choices, the «unknown system» message, the docs index and each
system's catalogue entries are checked for every registered id, so a fourth system shows up
everywhere from one registry line plus its own files (docs/architecture.md).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bot.i18n import LOCALES, catalogue
from bot.services import Actor, Place
from bot.services.shared.errors import InvalidSetting
from rules import systems
from tests import system_contract as contract

ROOT = Path(__file__).resolve().parents[2]
IDS = systems.ids()
GUILD, CHANNEL = 1000, 11
HERE = Place(GUILD, CHANNEL, (CHANNEL,))
GM = Actor(1, "Máster", can_manage_channels=True)
ANA = Actor(2, "Ana")


@pytest.mark.parametrize("system_id", IDS)
def test_every_system_names_itself_in_every_language(system_id):
    for lang in LOCALES:
        assert catalogue().has(f"{system_id}.system.choice", lang), (system_id, lang)


def test_campaign_system_choices_are_the_registered_systems():
    from cogs.campaign import system_choices

    choices = system_choices()
    assert [c.value for c in choices] == list(IDS)
    for choice in choices:
        key = f"{choice.value}.system.choice"
        assert choice.name == catalogue().get(key, "en")
        assert choice._locale_name.extras["key"] == key  # Spanish clients get the es entry


def test_language_choices_are_the_catalogue_languages():
    from cogs.campaign import language_choices

    assert [c.value for c in language_choices()] == list(LOCALES) == ["es", "en"]
    assert [c.name for c in language_choices()] == ["Español", "English"]


async def test_an_unknown_system_is_refused_naming_every_registered_one(services):
    with pytest.raises(InvalidSetting) as error:
        await services.campaigns.create(
            HERE, GM, name="Mesa", system="dnd5", target_id=CHANNEL, kind="channel"
        )
    assert error.value.key == "campaign.error.unknown_system"
    assert error.value.params["system"] == "dnd5"
    text = catalogue().format(error.value.key, "es", **error.value.params)
    # each system by its name, with the id the option (or a chronicle file) spells it with
    assert all(f"{systems.get(i).name} ({i})" in text for i in IDS)


def test_the_docs_index_lists_every_registered_system():
    """README's table of systems and docs/systems/<id>.md, one per registered id."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    listed = re.findall(r"^\| `(\w+)` \| .* \| \[docs/systems/(\w+)\.md\]", readme, re.M)
    assert [system_id for system_id, _ in listed] == list(IDS)
    assert all(system_id == page for system_id, page in listed)
    for system_id in IDS:
        assert (ROOT / "docs" / "systems" / f"{system_id}.md").is_file(), system_id


@pytest.mark.parametrize("system_id", IDS)
def test_spell_notices_are_in_the_catalogue(system_id):
    system = systems.get(system_id)
    notice = system.spell_list(contract.default_settings(system)).notice
    if notice is not None:
        assert all(catalogue().has(notice, lang) for lang in LOCALES)


@pytest.mark.parametrize("system_id", IDS)
async def test_export_import_round_trip_for_every_system(services, system_id):
    """A wizard-built character of each system exports and imports as the same sheet."""
    system = systems.get(system_id)
    await services.campaigns.create(
        HERE, GM, name="Mesa", system=system_id, target_id=CHANNEL, kind="channel"
    )
    settings = contract.default_settings(system)
    answers = contract.answers_for(system_id).get("character", {})
    sheet = contract.build(system, settings, answers, name="Eira")
    created = await services.characters.create(HERE, ANA, sheet)
    _filename, payload = await services.sheet_exchange.export(HERE, ANA, "Eira")
    document = json.loads(payload)
    assert (document["system"], document["sheet"]) == (system_id, created.sheet)
    document["sheet"]["name"] = "Eira II"
    # A copy carries values only the GM may set (rolled attributes, starting XP): the GM
    # imports it (a player's import keeps creation values: tests/bot/test_imports.py).
    imported = await services.sheet_exchange.import_sheet(HERE, GM, json.dumps(document).encode())
    assert imported.sheet == {**created.sheet, "name": "Eira II"}
    assert [(d.key, d.value) for d in imported.derived] == [
        (d.key, d.value) for d in created.derived
    ]
