"""Character creation (seed 002, «Creando Personaje», «Razas», «Ventajas»)."""

from __future__ import annotations

from rules.nucleo.creation import (
    advantages_of,
    canonical_skill,
    find_race,
    pyramid_levels,
    session_px_bonus,
    validate_advantage,
    validate_attributes,
    validate_pyramid,
    validate_race,
)

from .conftest import ARDELIA, keys

ATTRS = {"Físico": 6, "Destreza": 7, "Inteligencia": 9, "Percepción": 8, "Carisma": 7}


def _pyramid(levels: dict[int, int], names: list[str]) -> dict[str, int]:
    skills: dict[str, int] = {}
    pool = iter(names)
    for level, count in levels.items():
        for _ in range(count):
            skills[next(pool)] = level
    return skills


SKILLS = [
    "Pilotar",
    "Sigilo",
    "Buscar",
    "Labia",
    "Medicina",
    "Nadar",
    "Conducir",
    "Historia",
    "Idiomas",
    "Leyes",
    "Música",
    "Rastrear",
    "Religión",
    "Regatear",
    "Seducir",
    "Disfraz",
    "Etiqueta",
    "Comercio",
    "Callejeo",
    "Mecánica",
    "Ingeniería",
]
VERSATIL = {6: 1, 5: 2, 4: 3, 3: 4, 2: 5, 1: 6}
ESPECIALISTA = {6: 1, 5: 3, 4: 3, 3: 3, 2: 3, 1: 3}


def test_37_points_each_4_to_10_is_legal():
    """seed 002 «Atributos»: 37 puntos, mínimo 4, máximo 10."""
    assert validate_attributes(ATTRS) == []
    assert (
        validate_attributes(
            {"Físico": 10, "Destreza": 10, "Inteligencia": 9, "Percepción": 4, "Carisma": 4}
        )
        == []
    )


def test_total_other_than_37_is_refused():
    """seed 002 «Atributos»: «Tenemos 37 puntos a repartir»."""
    problems = validate_attributes({**ATTRS, "Carisma": 8})
    assert keys(problems) == ["nucleo.problem.attribute_total"]
    assert problems[0].params == {"total": 38, "expected": 37}
    assert keys(validate_attributes({**ATTRS, "Carisma": 6})) == ["nucleo.problem.attribute_total"]


def test_attribute_below_4_or_above_10_is_refused():
    """seed 002 «Atributos»: «El mínimo es 4, el máximo es 10»."""
    problems = validate_attributes(
        {"Físico": 11, "Destreza": 3, "Inteligencia": 9, "Percepción": 7, "Carisma": 7}
    )
    assert keys(problems) == ["nucleo.problem.attribute_range", "nucleo.problem.attribute_range"]
    assert {p.path for p in problems} == {"atributos.Físico", "atributos.Destreza"}


def test_missing_and_unknown_attributes():
    """seed 002 «Atributos»: exactly the five listed attributes."""
    problems = validate_attributes({"Físico": 8, "Fuerza": 8})
    found = keys(problems)
    assert "nucleo.problem.unknown_attribute" in found
    assert found.count("nucleo.problem.attribute_missing") == 4


def test_mediano_has_fisico_at_most_7():
    """seed 002 «Razas»: Mediano, «Máximo 7 en físico»."""
    mediano = find_race("Mediano")
    attrs = {"Físico": 8, "Destreza": 8, "Inteligencia": 7, "Percepción": 7, "Carisma": 7}
    assert keys(validate_attributes(attrs, mediano)) == ["nucleo.problem.attribute_race_max"]
    assert validate_attributes({**attrs, "Físico": 7, "Destreza": 9}, mediano) == []
    assert validate_attributes(attrs, find_race("Humano")) == []


def test_versatil_pyramid_exact():
    """seed 002 «Personaje Versátil»: 1×6, 2×5, 3×4, 4×3, 5×2, 6×1."""
    skills = _pyramid(VERSATIL, SKILLS)
    assert validate_pyramid("versatil", skills) == []
    assert pyramid_levels(skills) == VERSATIL


def test_especialista_pyramid_exact():
    """seed 002 «Personaje Especialista»: 1×6, 3×5, 3×4, 3×3, 3×2, 3×1."""
    assert validate_pyramid("especialista", _pyramid(ESPECIALISTA, SKILLS)) == []
    assert keys(validate_pyramid("versatil", _pyramid(ESPECIALISTA, SKILLS)))


def test_pyramid_with_one_skill_too_many_or_too_few():
    """seed 002 «Habilidades»: the counts are exact, neither more nor fewer."""
    skills = _pyramid(VERSATIL, SKILLS)
    skills["Etiqueta"] = 2  # moves one skill from level 1 to level 2
    problems = validate_pyramid("versatil", skills)
    assert keys(problems) == ["nucleo.problem.pyramid_count", "nucleo.problem.pyramid_count"]
    assert {(p.params["level"], p.params["count"], p.params["expected"]) for p in problems} == {
        (2, 6, 5),
        (1, 5, 6),
    }


def test_spells_count_in_the_pyramid():
    """seed 002 «Magia»: «Los hechizos se compran como si fuesen habilidades … en la pirámide»."""
    skills = _pyramid(VERSATIL, SKILLS)
    del skills["Ingeniería"]  # the last level-1 skill
    assert keys(validate_pyramid("versatil", skills)) == ["nucleo.problem.pyramid_count"]
    assert validate_pyramid("versatil", skills, {"Curación": 1}) == []


def test_zero_level_skills_do_not_count_and_bad_levels_are_refused():
    """seed 002 «Circunstancias especiales»: a skill with no points is simply unknown."""
    skills = _pyramid(VERSATIL, SKILLS) | {"Astrofísica": 0}
    assert validate_pyramid("versatil", skills) == []
    found = keys(
        validate_pyramid("versatil", skills | {"Astrofísica": 7, "Volar": 1, "Pilotar": "6"})
    )
    assert (
        "nucleo.problem.unknown_skill" in found and found.count("nucleo.problem.skill_level") == 2
    )


def test_unknown_pyramid_and_spell():
    """seed 002 «Habilidades» (two pyramids) and «Magia» (the printed spell list)."""
    assert keys(validate_pyramid("maestro", {})) == ["nucleo.problem.pyramid_unknown"]
    assert "nucleo.problem.unknown_spell" in keys(validate_pyramid("versatil", {}, {"Volar": 1}))


def test_artificial_only_especialista():
    """seed 002 «Razas»: Artificial «Solo puede usar pirámide especialista»."""
    artificial = find_race("Androide")
    assert artificial is not None and artificial.name == "Artificial"
    assert keys(validate_pyramid("versatil", _pyramid(VERSATIL, SKILLS), race=artificial)) == [
        "nucleo.problem.pyramid_race"
    ]
    assert validate_pyramid("especialista", _pyramid(ESPECIALISTA, SKILLS), race=artificial) == []


def test_ardelia_printed_skill_list_fails_because_atletismo_is_listed_twice():
    """seed 002 «Ejemplo»: «Atletismo 1» twice leaves five distinct level-1 skills, not six."""
    printed = {k: v for k, v in ARDELIA["habilidades"].items() if k != "Sigilo"}
    assert keys(validate_pyramid("versatil", printed)) == ["nucleo.problem.pyramid_count"]
    assert validate_pyramid("versatil", ARDELIA["habilidades"]) == []


def test_advantage_requirement():
    """seed 002 «Ventajas»: «siempre y cuando cumpla los requisitos» (Rápido P8+, Arcano I8+)."""
    assert validate_advantage("Rápido", ATTRS) == []
    assert validate_advantage("Arcano", ATTRS) == []
    problems = validate_advantage("Muro", ATTRS)
    assert keys(problems) == ["nucleo.problem.advantage_requirement"]
    assert problems[0].params == {
        "advantage": "Muro",
        "attribute": "Físico",
        "value": 6,
        "required": 8,
    }
    assert validate_advantage("Suerte", {k: 4 for k in ATTRS}) == []


def test_exactly_one_known_advantage():
    """seed 002 «Ventajas»: «tan sólo una de las siguientes ventajas»."""
    assert keys(validate_advantage(None, ATTRS)) == ["nucleo.problem.advantage_missing"]
    assert keys(validate_advantage("Vuelo", ATTRS)) == ["nucleo.problem.advantage_unknown"]


def test_artificial_has_no_advantage():
    """seed 002 «Razas»: Artificial «No tiene ventaja»."""
    artificial = find_race("Robot")
    assert validate_advantage(None, ATTRS, artificial) == []
    assert keys(validate_advantage("Suerte", ATTRS, artificial)) == [
        "nucleo.problem.advantage_race_forbidden"
    ]


def test_racial_free_advantage_cannot_be_chosen_again():
    """seed 002 «Razas»: Enano «Recibe la ventaja Muro de forma gratuita»."""
    strong = {**ATTRS, "Físico": 8, "Inteligencia": 7}
    assert keys(validate_advantage("Muro", strong, find_race("Enano"))) == [
        "nucleo.problem.advantage_duplicate"
    ]


def test_races_and_the_wood_elf_choice():
    """seed 002 «Razas»: Elfo del bosque «Recibe la ventaja Punteria o Certero»."""
    assert validate_race("Humano", None) == []
    assert keys(validate_race(None, None)) == ["nucleo.problem.race_missing"]
    assert keys(validate_race("Orco", None)) == ["nucleo.problem.race_unknown"]
    assert keys(validate_race("Elfo del bosque", None)) == [
        "nucleo.problem.racial_advantage_choice"
    ]
    assert validate_race("Elfo del bosque", "Certero") == []


def test_advantages_of_combines_chosen_and_racial():
    """seed 002 «Razas»: free racial advantages need no requirement and add to the chosen one."""
    assert advantages_of("Rápido", "Alto Elfo") == {"Rápido", "Arcano"}
    assert advantages_of("Rápido", "Elfo del bosque", "Puntería") == {"Rápido", "Puntería"}
    assert advantages_of("Suerte", "Enano", races_module=False) == {"Suerte"}
    assert advantages_of("Suerte", "Mediano", advantages_module=False) == {"Suerte"}
    assert advantages_of("Rápido", "Humano", advantages_module=False) == frozenset()


def test_cuerpo_a_cuerpo_is_an_alias():
    """seed 002 «Ataque cuerpo a cuerpo» says «Cuerpo a Cuerpo»; the list says «Armas cuerpo a cuerpo»."""
    assert canonical_skill("Cuerpo a Cuerpo") == "Armas cuerpo a cuerpo"
    assert canonical_skill("Armas cuerpo a cuerpo") == "Armas cuerpo a cuerpo"
    assert canonical_skill("Volar") is None


def test_session_px_by_race():
    """seed 002 «Razas»: Humano «Recibe 1px más por partida»; Artificial «Gana 1px menos»."""
    assert [session_px_bonus(r) for r in ("Humano", "Golem", "Enano", None)] == [1, -1, 0, 0]
