"""Autocompleted options typed without picking a suggestion (issue 13: «a newcomer finds the
way»): the label a user reads, in either language, finds the internal value the suggestion
would have sent; several matches are refused with their names; unknown fields are listed by
what can be typed.  On real databases (SQLite, and PostgreSQL when configured)."""

from __future__ import annotations

import json

import pytest

from bot.services import Actor, Place
from bot.services.campaigns.service import SettingsChange
from bot.services.campaigns.settings import resolved_settings
from bot.services.play.attacks import AttackOrder
from bot.services.play.checks import CheckOrder
from bot.services.shared.errors import DomainError
from bot.services.shared.labels import Ambiguous, Named, resolve, spoken
from bot.words import problem_text
from rules import systems
from tests.examples import ARDELIA, swc_cleric
from tests.rules.rolweb.conftest import FixedRandom
from tests.rules.swc.test_attack_swc import aldara, orc

GUILD, CHANNEL = 1000, 11
HERE = Place(GUILD, CHANNEL, (CHANNEL,))
GM = Actor(1, "Máster", can_manage_channels=True)
ANA = Actor(2, "Ana")


# -- the resolver ------------------------------------------------------------------------

CHOICES = (
    Named("clerigo", {"es": "Clérigo", "en": "Cleric"}),
    Named("guerrero", {"es": "Guerrero", "en": "Fighter"}),
    Named("guerrero/mago", {"es": "Guerrero/Mago", "en": "Fighter/Magic-User"}),
)


@pytest.mark.parametrize(
    ("typed", "value"),
    [
        ("clerigo", "clerigo"),  # the value a suggestion sends
        ("Clérigo", "clerigo"),
        ("  CLERIGO ", "clerigo"),
        ("cleric", "clerigo"),  # English display name
        ("cléR", "clerigo"),  # a unique beginning
        ("guerrero", "guerrero"),  # a whole name wins over a longer one it begins
        ("Fighter/magic-user", "guerrero/mago"),
        ("bárbaro", None),  # names nothing: the service keeps its own error
        ("", None),
    ],
)
def test_typed_words_find_the_one_choice(typed, value):
    assert resolve(typed, CHOICES) == value


def test_a_beginning_of_several_names_is_refused_with_their_names_per_language():
    with pytest.raises(Ambiguous) as error:
        resolve("guer", CHOICES)
    params = error.value.params
    assert problem_text(error.value.key, params, "es") == (
        "«guer» puede ser varias cosas: Guerrero, Guerrero/Mago. "
        "Escribe el nombre completo o elige una sugerencia."
    )
    assert "Fighter, Fighter/Magic-User" in problem_text(error.value.key, params, "en")


def test_writes_can_refuse_beginnings():
    assert resolve("cler", CHOICES, prefix=False) is None
    assert resolve("Cleric", CHOICES, prefix=False) == "clerigo"
    # the same label for two values is ambiguous even whole
    twins = (spoken("a.x", "Armadura"), spoken("b.x", "armadura"))
    with pytest.raises(Ambiguous):
        resolve("armadura", twins, prefix=False)


# -- /check, /request: the option ---------------------------------------------------------


@pytest.fixture
async def ardelia(services):
    await services.campaigns.create(
        HERE, GM, name="Estrellas", system="nucleo", target_id=CHANNEL, kind="channel"
    )
    await services.characters.create(HERE, ANA, json.loads(json.dumps(ARDELIA)))
    return services


async def test_a_check_reads_the_label_typed(ardelia):
    """Was: «No sé qué tirar con «Percepción»» (only ``atributo:Percepción`` worked)."""
    for typed, option in (
        ("Percepción", "atributo:Percepción"),
        ("percepcion", "atributo:Percepción"),
        ("pilotar", "habilidad:Pilotar"),
        ("salvación (fís", "salvacion:Físico"),
        ("habilidad:Pilotar", "habilidad:Pilotar"),
    ):
        view = await ardelia.checks.check(HERE, ANA, CheckOrder(typed))
        assert view.result.option == option, typed
    with pytest.raises(Ambiguous) as error:
        await ardelia.checks.check(HERE, ANA, CheckOrder("salvación"))
    assert "Salvación (Físico)" in problem_text(error.value.key, error.value.params, "es")


async def test_a_roll_request_reads_the_label_typed(ardelia):
    view = await ardelia.requests.create(HERE, GM, who="Ardelia", option="Sigilo")
    assert view.option == "habilidad:Sigilo"


# -- /sheet set: the field and its value -------------------------------------------------


def _cleric() -> dict:
    return swc_cleric()


@pytest.fixture
async def aldara_swc(services):
    await services.campaigns.create(
        HERE, GM, name="Marca", system="swc", target_id=CHANNEL, kind="channel"
    )
    await services.characters.create(HERE, ANA, _cleric())
    return services


async def test_sheet_set_reads_the_fields_label_and_a_values_name_in_either_language(aldara_swc):
    """Was: ``/ficha cambiar campo:fuerza`` → an error (the field is ``atributos.Fuerza``)."""
    chars = aldara_swc.characters
    view = await chars.set_field(HERE, GM, "Aldara", "fuerza", "12")
    assert view.sheet["atributos"]["Fuerza"] == 12
    view = await chars.set_field(HERE, GM, "Aldara", "Puntos de golpe ACTUALES", "5")
    assert view.sheet["pg"]["actual"] == 5
    view = await chars.set_field(HERE, GM, "Aldara", "alineamiento", "Chaotic")
    assert view.sheet["alineamiento"] == "caotico"
    view = await chars.set_field(HERE, GM, "Aldara", "Alineamiento", "LAWFUL")
    assert view.sheet["alineamiento"] == "legal"
    view = await chars.set_field(HERE, GM, "Aldara", "género gramatical", "femenino")
    assert view.sheet["genero"] == "femenino"
    # no beginnings on a write: «fue» names no field, nothing is written
    with pytest.raises(DomainError) as error:
        await chars.set_field(HERE, GM, "Aldara", "fue", "3")
    assert error.value.key == "sheet.error.unknown_field"
    assert (await chars.show(HERE, ANA)).sheet["atributos"]["Fuerza"] == 12


async def test_the_unknown_field_error_lists_what_can_be_typed(aldara_swc):
    """Was: «Campos: atributos.Fuerza, pg.max, monedas.mo, name…» (raw paths)."""
    with pytest.raises(DomainError) as error:
        await aldara_swc.characters.set_field(HERE, ANA, None, "fuerzo", "3")
    for locale in ("es", "en"):
        text = problem_text(error.value.key, error.value.params, locale)
        listed = text.split(": ", 1)[1]
        assert listed.startswith("Fuerza"), text  # the likely one first
        assert "Puntos de Golpe máximos" in listed and "Nombre" in listed
        assert "atributos." not in text and "pg.max" not in text and "name" not in listed


async def test_the_value_suggestions_follow_a_typed_field_label(aldara_swc):
    values = await aldara_swc.sheet_options.value_choices(HERE, "Alineamiento", "")
    assert values == ("legal", "neutral", "caotico")
    assert await aldara_swc.sheet_options.field_path(HERE, "alineamiento") == "alineamiento"
    assert await aldara_swc.sheet_options.field_path(HERE, "Fuerza") == "atributos.Fuerza"
    assert await aldara_swc.sheet_options.field_path(HERE, "fue") is None


# -- /attack weapon, /xp spend, /spell list, /campaign settings -------------------------


async def test_an_attack_reads_the_weapon_typed(services):
    await services.campaigns.create(
        HERE, GM, name="Marca", system="swc", target_id=CHANNEL, kind="channel"
    )
    await services.characters.create(HERE, ANA, aldara())
    await services.characters.create(HERE, GM, orc(), is_npc=True)
    services.attacks.rng = FixedRandom(11, 3)
    view = await services.attacks.attack(HERE, ANA, AttackOrder("Orco", weapon="espada"))
    assert view.result.weapon == "Espada larga"


async def test_xp_spend_reads_the_ability_typed(services):
    place = Place(GUILD, 13, (13,))
    await services.campaigns.create(
        place, GM, name="Foro", system="rolweb", target_id=13, kind="channel"
    )
    system = systems.get("rolweb")
    await services.characters.create(
        place, ANA, system.new_sheet("Eira", resolved_settings(system.settings(), {}))
    )
    await services.xp.grant(place, GM, 30, character="Eira")
    await services.xp.spend(place, ANA, "medicus")
    sheet = (await services.characters.show(place, ANA)).sheet
    assert sheet["habilidades"]["Medicus"] == "principiante"


async def test_campaign_settings_read_a_settings_name_or_its_beginning(aldara_swc):
    view = await aldara_swc.campaigns.update_settings(
        HERE, GM, SettingsChange(system_setting=("Monks allowed", "no"))
    )
    assert {s.key: s.value for s in view.settings}["monjes_permitidos"] is False
    view = await aldara_swc.campaigns.update_settings(
        HERE, GM, SettingsChange(system_setting=("monjes", "sí"))
    )
    assert {s.key: s.value for s in view.settings}["monjes_permitidos"] is True


# -- effect modifiers by name, and agreement ---------------------------------------------


async def test_effect_modifiers_are_shown_by_name_in_each_language(ardelia):
    """Was: «Modificadores: to_hit +1, damage +1d6»."""
    from cogs.ui.render_effects import effect_reply

    view = await ardelia.effects.add(
        HERE, ANA, "Ardelia", "Bendición", rounds=3, modifier="ataque+1, daño+1d6, PER-2"
    )
    spanish = effect_reply(view, "es")["embed"].description
    english = effect_reply(view, "en")["embed"].description
    assert "Modificadores: ataque +1, daño +1d6, Percepción -2" in spanish, spanish
    assert "attack +1, damage +1d6, Percepción -2" in english, english
    assert "to_hit" not in spanish + english


async def test_npcized_agrees_with_the_characters_gender(ardelia):
    from cogs.ui.render_pace import npcized

    neutral = await ardelia.pace.npcize(HERE, GM, "Ardelia")
    assert "pasa a manos del máster (PNJtización)" in npcized(neutral, "es")
    await ardelia.pace.unnpcize(HERE, GM, "Ardelia")
    with pytest.raises(DomainError) as error:
        await ardelia.pace.unnpcize(HERE, GM, "Ardelia")
    assert "PNJtizad" not in problem_text(error.value.key, error.value.params, "es")
    await ardelia.characters.set_field(HERE, ANA, None, "genero", "femenino")
    female = await ardelia.pace.npcize(HERE, GM, "Ardelia")
    assert "**Ardelia** queda PNJtizada" in npcized(female, "es")
    assert "gets her back" in npcized(female, "en")
    await ardelia.pace.unnpcize(HERE, GM, "Ardelia")
    await ardelia.characters.set_field(HERE, ANA, None, "genero", "masculino")
    male = await ardelia.pace.npcize(HERE, GM, "Ardelia")
    assert "**Ardelia** queda PNJtizado" in npcized(male, "es")


# -- spells and abilities, by name typed any way -----------------------------------------


async def test_a_spell_is_cast_by_its_name_typed_without_accents(services):
    from bot.services.play.spells import CastOrder, _list_id
    from tests.examples import ardelia_the_mage

    await services.campaigns.create(
        HERE, GM, name="Magia", system="nucleo", target_id=CHANNEL, kind="channel"
    )
    await services.characters.create(HERE, ANA, json.loads(json.dumps(ardelia_the_mage())))
    view = await services.spells.cast(HERE, ANA, CastOrder(spell="PROYECTIL MAGICO"))
    assert view.result.label == "Proyectil mágico"
    # S&W lists by their English names too (the system reads ids and Spanish names)
    assert (_list_id("Magic-User", "swc"), _list_id("cleric", "swc"), _list_id("notas", "swc")) == (
        "mago",
        "clerigo",
        "notas",
    )


async def test_an_ability_is_used_by_its_name_typed_without_accents(services):
    place = Place(GUILD, 13, (13,))
    await services.campaigns.create(
        place, GM, name="Foro", system="rolweb", target_id=13, kind="channel"
    )
    system = systems.get("rolweb")
    eira = system.new_sheet("Eira", resolved_settings(system.settings(), {}))
    eira["habilidades"] = {"Recuperación": "principiante"}
    await services.characters.create(place, ANA, eira)
    view = await services.abilities.use(place, ANA, "recuperacion")
    assert view.ability == "Recuperación"
