"""The data files transcribe seed 002 faithfully and the loader refuses malformed rows."""

from __future__ import annotations

import pytest

from rules.nucleo import data
from rules.nucleo.data import ATTRIBUTES, DataError, catalogue


def test_attributes_points_and_limits():
    """seed 002 «Atributos»: 37 puntos entre 5 atributos, mínimo 4, máximo 10."""
    c = catalogue()
    assert ATTRIBUTES == ("Físico", "Destreza", "Inteligencia", "Percepción", "Carisma")
    assert (c.attribute_points, c.attribute_min, c.attribute_max) == (37, 4, 10)


def test_pyramids():
    """seed 002 «Habilidades»: Personaje Versátil 1/2/3/4/5/6 y Especialista 1/3/3/3/3/3."""
    c = catalogue()
    assert dict(c.pyramids["versatil"]) == {6: 1, 5: 2, 4: 3, 3: 4, 2: 5, 1: 6}
    assert dict(c.pyramids["especialista"]) == {6: 1, 5: 3, 4: 3, 3: 3, 2: 3, 1: 3}


def test_skill_list_and_attributes():
    """seed 002 «Lista de Habilidades»: 36 habilidades, cada una con su atributo (F/D/I/P/C)."""
    skills = catalogue().skills
    assert len(skills) == 36
    by_attribute = {
        a: sorted(s.name for s in skills.values() if s.attribute == a) for a in ATTRIBUTES
    }
    assert by_attribute["Físico"] == ["Armas cuerpo a cuerpo"]
    assert by_attribute["Carisma"] == [
        "Amenazar",
        "Interrogar",
        "Labia",
        "Liderazgo",
        "Regatear",
        "Seducir",
    ]
    assert by_attribute["Destreza"] == [
        "Armas a distancia",
        "Artillería",
        "Atletismo",
        "Conducir",
        "Esquivar",
        "Nadar",
        "Pilotar",
        "Sigilo",
    ]
    assert by_attribute["Percepción"] == [
        "Advertir/Notar",
        "Buscar",
        "Disfraz",
        "Etiqueta",
        "Música",
        "Navegación Espacial",
        "Rastrear",
        "Reflejos",
    ]
    assert len(by_attribute["Inteligencia"]) == 13
    assert skills["Supervivencia"].attribute == "Inteligencia"


def test_every_weapon_of_the_seed():
    """seed 002 «Equipo»: las 19 armas con daño, manos, distancias y requisitos."""
    weapons = catalogue().weapons
    assert len(weapons) == 19
    expected = {
        "Arco corto": ({"dos_manos": "1d6+3"}, (15, 30, 60), {}),
        "Arco largo": ({"dos_manos": "2d6"}, (25, 50, 100), {"Físico": 8}),
        "Ballesta": ({"dos_manos": "2d6+2"}, (15, 30, 60), {}),
        "Bastón": ({"una_mano": "1d6+2"}, None, {}),
        "Cimitarra": ({"una_mano": "1d6+3"}, None, {}),
        "Cuchillo": ({"una_mano": "1d6+1"}, (3, 6, 9), {}),
        "Daga": ({"una_mano": "1d6+1"}, (3, 6, 9), {}),
        "Espada corta": ({"una_mano": "1d6+3"}, None, {}),
        "Espada larga": ({"una_mano": "2d6", "dos_manos": "2d6+1"}, None, {}),
        "Hacha de combate": ({"dos_manos": "2d6+2"}, None, {}),
        "Hacha de guerra": ({"una_mano": "2d6", "dos_manos": "2d6+1"}, None, {}),
        "Honda": ({"una_mano": "1d6+1"}, (10, 20, 40), {}),
        "Lanza ligera": ({"una_mano": "1d6+2"}, (10, 20, 40), {}),
        "Lanza pesada": ({"una_mano": "3d6"}, None, {}),
        "Mandoble": ({"dos_manos": "2d6+2"}, None, {"Físico": 9}),
        "Mangual": ({"una_mano": "2d6"}, None, {}),
        "Maza": ({"una_mano": "2d6"}, None, {}),
        "Sable": ({"una_mano": "2d6", "dos_manos": "2d6+1"}, None, {}),
        "Vara": ({"una_mano": "1d6+3"}, None, {}),
    }
    for name, (damage, ranges, requires) in expected.items():
        weapon = weapons[name]
        assert (dict(weapon.damage), weapon.ranges_m, dict(weapon.requires)) == (
            damage,
            ranges,
            requires,
        ), name
    assert weapons["Ballesta"].reload and weapons["Lanza pesada"].mounted_only
    assert dict(weapons["Honda"].variants) == {"proyectiles de plomo": "1d6+2"}


def test_unarmed_and_improvised_damage():
    """seed 002 «Combate» 5 (sin armas 1d6) y «Armas a distancia en cuerpo a cuerpo» (1d6+1)."""
    assert catalogue().unarmed_damage == "1d6"
    assert catalogue().improvised_damage == "1d6+1"


def test_every_armour_and_the_shield():
    """seed 002 «Equipo» y «Módulo de reglas: Armaduras especiales»: absorción, estorbo, requisitos."""
    armour = {
        a.name: (a.absorption, a.estorbo, dict(a.requires), a.special)
        for a in catalogue().armour.values()
    }
    assert armour == {
        "Armadura ligera": (2, 1, {}, False),
        "Cota de mallas": (4, 2, {"Físico": 7}, False),
        "Armadura placas": (6, 3, {"Físico": 8}, False),
        "Túnica de archimago": (1, 0, {}, True),
        "Armadura élfica": (3, 1, {}, True),
        "Cota de Mithril": (5, 2, {}, True),
        "Escamas de dragón": (7, 3, {}, True),
    }
    shield = catalogue().shields["Escudo"]
    assert (shield.defensa, shield.cover) == (1, 2)


def test_fourteen_advantages_with_requirements():
    """seed 002 «Módulo de reglas: Ventajas»: catorce ventajas y su requisito entre paréntesis."""
    advantages = catalogue().advantages
    assert len(advantages) == 14
    requires = {name: dict(a.requires) for name, a in advantages.items()}
    assert requires["Arcano"] == {"Inteligencia": 8}
    assert requires["Defensor"] == {"Destreza": 8}
    assert requires["Rápido"] == {"Percepción": 8}
    assert requires["Certero"] == {"Percepción": 8}
    assert requires["Puntería"] == {"Destreza": 8}
    assert requires["Suerte"] == {}
    strength = [
        "Berseker",
        "Despiadado",
        "Golpe Duro",
        "Mula de carga",
        "Muro",
        "Piel de Piedra",
        "Recuperación",
    ]
    assert all(requires[name] == {"Físico": 8} for name in strength)


def test_races():
    """seed 002 «Módulo de reglas: Razas»: seis razas y sus efectos."""
    races = catalogue().races
    assert set(races) == {
        "Artificial",
        "Alto Elfo",
        "Elfo del bosque",
        "Enano",
        "Humano",
        "Mediano",
    }
    artificial = races["Artificial"]
    assert artificial.aliases == ("Androide", "Robot", "Forjado", "Golem")
    assert (artificial.natural_absorption, artificial.can_wear_armour, artificial.no_advantage) == (
        5,
        False,
        True,
    )
    assert artificial.pyramids == ("especialista",) and artificial.px_per_session == -1
    assert races["Alto Elfo"].free_advantages == ("Arcano",) and races["Alto Elfo"].infravision
    assert races["Elfo del bosque"].free_advantage_choice == ("Puntería", "Certero")
    assert races["Enano"].free_advantages == ("Muro",)
    assert races["Humano"].px_per_session == 1 and not races["Humano"].infravision
    assert dict(races["Mediano"].attribute_max) == {"Físico": 7} and races[
        "Mediano"
    ].free_advantages == ("Suerte",)


def test_every_spell_with_difficulty_and_cost():
    """seed 002 «Módulo de reglas: Magia»: cada bloque «Dif N – Coste Maná: M» y sus hechizos."""
    spells = catalogue().spells
    tiers: dict[tuple[int | None, int | None], int] = {}
    for spell in spells.values():
        tiers[(spell.difficulty, spell.mana_cost)] = (
            tiers.get((spell.difficulty, spell.mana_cost), 0) + 1
        )
    assert tiers == {
        (None, None): 1,
        (12, 1): 5,
        (14, 1): 7,
        (16, 2): 11,
        (18, 3): 16,
        (20, 4): 8,
        (22, 5): 5,
        (24, 6): 2,
    }
    assert spells["Disipar Magia"].dispel and spells["Disipar Magia"].range == "distancia"
    assert (spells["Bola de fuego"].difficulty, spells["Bola de fuego"].damage) == (20, "3d6")
    assert spells["Relámpago"].ignores_armour and spells["Relámpago"].damage == "2d6"
    assert spells["Toque eléctrico"].melee_attack and spells["Toque eléctrico"].range == "toque"
    assert spells["Curación"].healing == "1d6" and spells["Curación"].healing_per_mana_max == 3
    assert spells["Tormenta de fuego"].damage == "4d6" and spells["Teleportarse"].mana_cost == 6
    assert all(s.range in {"personal", "toque", "distancia"} for s in spells.values())


def test_spell_saves():
    """seed 002 «Magia»: las salvaciones impresas (Salv: PER 10, FIS 18, DES 15, INT 15/16, Olvido 8/10/12)."""
    saves = {name: s.save for name, s in catalogue().spells.items() if s.save}
    printed = {(n, s.attribute, s.difficulty) for n, s in saves.items()}
    assert printed == {
        ("Luz", "Percepción", 10),
        ("Amistad", "Inteligencia", 15),
        ("Atar demonio", "Físico", 18),
        ("Tentáculos Negros", "Destreza", 15),
        ("Infundir terror", "Inteligencia", 15),
        ("Caminar entre sueños", "Inteligencia", 16),
        ("Terremoto", "Destreza", 15),
        ("Posesión mental", "Inteligencia", 16),
        ("Olvido", "Inteligencia", None),
    }
    assert saves["Olvido"].difficulty_choices == (8, 10, 12) and saves["Olvido"].plus_level


def test_difficulty_tables():
    """seed 002 «Tiradas de Atributo» 9/12/15/18/21 y «Tiradas de Habilidad» 10/15/20/25/30."""
    c = catalogue()
    assert list(c.attribute_difficulties.values()) == [9, 12, 15, 18, 21]
    assert list(c.skill_difficulties.values()) == [10, 15, 20, 25, 30]
    assert c.critical_margin == 10


def test_loader_refuses_a_bad_dice_expression():
    """seed 002 «Equipo»: a typo in a damage column must fail at load time, not mid-combat."""
    with pytest.raises(DataError):
        data._weapon({"name": "Roto", "kind": "cuerpo_a_cuerpo", "damage": {"una_mano": "2x6"}})
    with pytest.raises(DataError):
        data._weapon({"name": "Roto", "kind": "distancia", "damage": {"una_mano": "1d6"}})


def test_loader_refuses_an_unknown_advantage_effect():
    """seed 002 «Ventajas»: only effects the rules know how to apply are accepted."""
    with pytest.raises(DataError):
        data._advantage({"name": "X", "requires": {}, "text": "", "effects": {"vuelo": 1}})


def test_loader_refuses_a_file_without_its_seed_citation(tmp_path, monkeypatch):
    """Every data file cites its seed 002 section, or it is refused."""
    (tmp_path / "weapons.json").write_text('{"weapons": []}', encoding="utf-8")
    monkeypatch.setattr(data, "DATA_DIR", tmp_path)
    data.load.cache_clear()
    try:
        with pytest.raises(DataError):
            data.load("weapons")
    finally:
        data.load.cache_clear()
