"""Words a reader must not meet in the catalogue (issue 13: the sandbox examples read as a
careful Spanish referee would write them)."""

from __future__ import annotations

import re

import pytest

from bot.i18n import catalogue, t
from rules.names import display


@pytest.mark.parametrize("locale", ["es", "en"])
def test_no_message_cites_the_seed_documents(locale: str) -> None:
    """«(semilla 001, SORPRESA)» meant nothing to a player: the seeds are this project's
    sources, not the players' books."""
    cited = {
        key: text
        for key, text in catalogue().messages[locale].items()
        if re.search(r"\b(semilla|seed) 00\d|\bla semilla no\b|\bthe seed gives\b", text)
    }
    assert not cited


def test_the_gm_is_the_master_not_the_bots_name() -> None:
    """S&W's book calls the GM «Árbitro», which is this bot's name: «el Árbitro decide si
    muere» read as if the bot decided."""
    said = {k: v for k, v in catalogue().messages["es"].items() if "el Árbitro" in v}
    assert not said
    assert "el máster decide si muere" in t("swc.note.incapacitado", "es")


def test_the_digest_hour_is_not_called_utc() -> None:
    """It is an hour of the campaign's time zone (its description says so)."""
    assert "UTC" not in display(None, "setting", "resumen_hora", "es")
    assert "UTC" not in display(None, "setting", "resumen_hora", "en")


def test_falling_dying_agrees() -> None:
    key = "rolweb.note.dying"
    assert t(key, "es", genero="femenino").startswith("Cae moribunda:")
    assert t(key, "es", genero="femenino").endswith("la estabilice.")
    assert t(key, "es", genero="masculino").startswith("Cae moribundo:")
    assert t(key, "es").startswith("El personaje cae moribundo")


def test_wizard_steps_before_the_gender_question_are_neutral() -> None:
    """The grammatical gender is asked on the last step: the earlier ones cannot assume it
    («puedes dejarlo sin armas», «de tu Humano» for Aldara)."""
    weapons = t("rolweb.step.weapons", "es")
    assert "dejarlo" not in weapons and "ninguna" in weapons
    classes = t("swc.step.class", "es", raza="Humano")
    assert "tu Humano" not in classes and "tu raza (Humano)" in classes


def test_a_skippable_step_says_what_is_skipped() -> None:
    """«Elige la armadura. … Puedes omitirlo.»: «lo» is not the armour; the step is."""
    for key in ("nucleo.step.weapon", "nucleo.step.armour"):
        text = t(key, "es")
        assert "omitirlo" not in text and text.endswith("este paso.")
