"""Gender and number agreement (issue 13, §2): «Kára está lista», «1 Dado de Golpe»."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.grammar import GENDER_FIELD, gender_of, sheet_fields
from bot.i18n import catalogue, t
from bot.services.play.combat_views import HealthView, combat_for
from bot.services.shared.audience import Reader
from bot.words import field_display, problem_text
from cogs.ui import render_combat
from rules import systems
from rules.combat.health import Act, CombatState, Condition, require
from rules.names import display_state
from rules.systems.base import RulesError


@pytest.mark.parametrize(
    ("gender", "expected"),
    [
        ("femenino", "Kára está lista"),
        ("masculino", "Kára está listo"),
        ("neutro", "La ficha de Kára está lista"),
        (None, "La ficha de Kára está lista"),
    ],
)
def test_the_wizard_title_agrees_with_the_gender(gender, expected) -> None:
    assert t("wizard.ready_title", "es", name="Kára", genero=gender) == expected


def test_saved_agrees_and_english_has_no_gender() -> None:
    assert t("wizard.saved", "es", name="Kára", genero="femenino") == "¡**Kára** guardada!"
    assert t("wizard.saved", "es", name="Íñigo", genero="masculino") == "¡**Íñigo** guardado!"
    assert t("wizard.saved", "es", name="Alex") == "¡Ficha de **Alex** guardada!"
    assert t("wizard.saved", "en", name="Kára", genero="femenino") == "**Kára** saved!"


def test_a_dying_character_still_dying_agrees() -> None:
    """Was: «Sigue moribundo» for Kára."""
    key = "rolweb.note.death_test_continues"
    assert t(key, "es", genero="femenino").startswith("Sigue moribunda:")
    assert t(key, "es", genero="masculino").startswith("Sigue moribundo:")
    assert "moribunda" not in t(key, "es") and "Sigue en estado moribundo" in t(key, "es")


def test_health_states_agree() -> None:
    assert display_state("rolweb", "moribundo", "es", "femenino") == "moribunda"
    assert display_state("rolweb", "moribundo", "es", None) == "moribundo"
    assert display_state("nucleo", "malherido", "es", "femenino") == "malherida"
    view = HealthView("Kára", 5, "moribundo", (), False, system="rolweb", gender="femenino")
    text = render_combat.health(view, "es")["embed"].description
    assert "Estado: moribunda" in text


@pytest.mark.parametrize(
    ("system", "label", "gender", "es", "en"),
    [
        ("nucleo", "malherido", "femenino", "malherida", "badly wounded"),
        ("nucleo", "inconsciente", None, "inconsciente", "unconscious"),
        ("rolweb", "ileso", "femenino", "ilesa", "unhurt"),
        ("rolweb", "herido", None, "herido", "wounded"),
        ("swc", "incapacitado", "femenino", "incapacitada", "incapacitated"),
        ("swc", "gravemente herido", "femenino", "gravemente herida", "badly wounded"),
    ],
)
def test_every_system_reads_its_states_lowercase_in_both_languages(
    system, label, gender, es, en
) -> None:
    """Was: «Estado: Malherido» but «Estado: normal»; rolweb's «Herido»/«Ileso» were
    Spanish words written by the rules, shown as they were in English too."""
    view = HealthView("Kára", 5, label, (), False, label=label, system=system, gender=gender)
    assert f"Estado: {es}" in render_combat.health(view, "es")["embed"].description
    assert f"State: {en}" in render_combat.health(view, "en")["embed"].description


@pytest.mark.parametrize(
    ("gender", "es"),
    [
        ("femenino", "Kára está inconsciente y no puede actuar."),
        ("masculino", "Kára está inconsciente y no puede actuar."),
        (None, "Kára no puede actuar: su estado es «inconsciente»."),
    ],
)
def test_a_refusal_names_the_state_in_the_systems_words(gender, es) -> None:
    from bot.words import problem_text

    params = {"name": "Kára", "state": "malherido", "system": "nucleo", "genero": gender}
    named = problem_text("combat.problem.cannot_act", params, "es")
    assert ("malherida" if gender == "femenino" else "malherido") in named
    params["state"] = "inconsciente"
    assert problem_text("combat.problem.cannot_act", params, "es") == es
    assert problem_text("combat.problem.cannot_act", params, "en") == (
        "Kára is unconscious and cannot act."
    )


@pytest.mark.parametrize(
    ("count", "expected"),
    [("1", "1 Dado de Golpe (un d8)"), ("3", "3 Dados de Golpe"), ("1+1", "1+1 Dados de Golpe")],
)
def test_hit_dice_are_counted(count, expected) -> None:
    """Was: «1 Dados de Golpe»."""
    assert expected in t("swc.step.npc_hit_points", "es", dados_golpe=count)


def test_counts_of_one_are_singular() -> None:
    assert t("combat.actions", "es", count=1) == "· 1 acción"
    assert t("combat.actions", "es", count=2) == "· 2 acciones"
    assert t("roll.explosions", "es", count=1) == "1 dado extra"
    assert t("roll.explosions", "en", count=3) == "3 extra dice"
    # was «1 asaltos», «1 conjuros», «1 PV drenados»
    assert t("effects.rounds_left", "es", count=1) == "1 asalto"
    assert t("effects.rounds_left", "en", count=1) == "1 round"
    assert "· 1 conjuro ·" in t("spell.list_footer", "es", page=1, pages=1, matches=1, count=1)
    assert "· 7 conjuros ·" in t("spell.list_footer", "es", page=1, pages=1, matches=7, count=7)
    assert t("combat.damaged", "es", name="Kára", amount=1) == "**Kára** recibe 1 punto de daño."
    assert t("combat.healed", "es", name="Kára", amount=3) == "**Kára** recupera 3 puntos."
    assert "1 PV drenado " in t("touch.drained", "es", name="Kára", amount=1, state="normal")


def test_variants_need_no_parameter_their_base_lacks() -> None:
    """Callers format the base message's parameters; a variant that needs another one would
    print its template instead of the sentence."""
    messages = catalogue().messages
    for locale in ("es", "en"):
        for key in messages[locale]:
            for suffix in ("_femenino", "_masculino", "_one"):
                base = key.removesuffix(suffix)
                if key.endswith(suffix) and catalogue().has(base, locale):
                    extra = catalogue().placeholders(key, locale) - catalogue().placeholders(
                        base, locale
                    )
                    assert not extra, (key, extra)


def test_every_sheet_has_an_optional_gender_field() -> None:
    for system in systems.all_systems():
        defaults = {s.key: s.default for s in system.settings()}
        assert GENDER_FIELD in sheet_fields(system, defaults)
    assert gender_of({"genero": "femenino"}) == "femenino"
    assert gender_of({"genero": "otro"}) is None and gender_of({}) is None


def test_a_sheets_state_agrees() -> None:
    """Was: «Estado: activo» on Eira's sheet."""
    assert field_display("rolweb", "estado", "activo", "es", "femenino") == "activa"
    assert field_display("rolweb", "estado", "moribundo", "es", None) == "moribundo"


def test_a_wounded_casters_circumstance_agrees() -> None:
    """Was: «Malherido: guarda el dado menor.» in Kára's cast."""
    key = "nucleo.note.malherido"
    assert t(key, "es", genero="femenino") == "Malherida: guarda el dado menor."
    assert t(key, "es") == "Malherido: guarda el dado menor."


def test_a_refusal_names_the_state_agreeing() -> None:
    """Was: «Aldara está Incapacitado y no puede actuar.»"""
    state = CombatState(
        Condition.UNCONSCIOUS, "incapacitado", "incapacitado", allowed=frozenset(),
        reason="combat.problem.cannot_act",
    )  # fmt: skip
    with pytest.raises(RulesError) as refused:
        require(state, Act.ATTACK, "Aldara", system="swc", gender="femenino")
    problem = refused.value.problems[0]
    assert problem_text(problem.key, problem.params, "es") == (
        "Aldara está incapacitada y no puede actuar."
    )
    assert "is incapacitated" in problem_text(problem.key, problem.params, "en")
    with pytest.raises(RulesError) as refused:
        require(state, Act.ATTACK, "Bram", system="swc")
    problem = refused.value.problems[0]
    # no gender on the sheet: neutral wording
    assert problem_text(problem.key, problem.params, "es") == (
        "Bram no puede actuar: su estado es «incapacitado»."
    )


def test_an_ended_fights_panel_points_at_no_next_turn() -> None:
    from bot.services.play.combat_views import CombatView

    view = CombatView(1, 9, 2, "rolweb", 2, False, (), None, (), False, False)
    footer = render_combat.panel(combat_for(view, Reader.everyone()), "es")["embed"].footer.text
    assert footer == "v9"
    live = render_combat.panel(combat_for(replace(view, active=True), Reader.everyone()), "es")[
        "embed"
    ].footer.text
    assert live == "v9 · /iniciativa siguiente"


def test_an_attacks_notes_agree_with_whom_they_speak_of() -> None:
    """Was: «Malherida: guarda el dado menor.» when a wounded Trasgo attacked Kára: every
    note took the target's gender, though the roll's notes speak of the attacker."""
    from bot.services.play.attack_record import AttackView
    from cogs.ui.render_attack import attack
    from rules.combat.attack import AttackOutcome, AttackResult

    result = AttackResult(
        AttackOutcome.HIT, "Espada corta", None, 15, None, None,
        notes=("nucleo.note.malherido",),
    )  # fmt: skip
    view = AttackView(
        log_id=7, user_name="gm", attacker="Trasgo 1", target="Kára", result=result,
        state="malherido", description="", hit_points=None,
        notes=("nucleo.note.malherido", "nucleo.note.estado_malherido"),
        secret=False, private=False, gm_channel_id=None, system="nucleo",
        target_gender="femenino", attacker_gender="masculino",
    )  # fmt: skip
    notes = attack(view, "es")["embed"].fields[0].value
    assert "• Malherido: guarda el dado menor." in notes
    assert "• Ahora está malherida: guardará el dado menor." in notes
