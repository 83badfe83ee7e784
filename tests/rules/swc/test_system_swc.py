"""The swc game system through the common interface (rules.systems.get("swc"))."""

from __future__ import annotations

import random

import pytest

from rules import systems
from rules.swc.races import RACE_IDS
from rules.systems.base import CheckRequest, GameSystem, Outcome, RulesError
from tests.rules.helpers import Cells

SWC = systems.get("swc")


def sheet(**changes):
    base = SWC.new_sheet("Aldara", {})
    base.update(
        raza="humano",
        clases=["guerrero"],
        alineamiento="legal",
        atributos={
            "Fuerza": 13,
            "Destreza": 14,
            "Constitución": 12,
            "Inteligencia": 10,
            "Sabiduría": 9,
            "Carisma": 8,
        },
        pg={"max": 8, "actual": 8},
    )
    base.update(changes)
    return base


def keys(problems):
    return [p.key for p in problems]


def values(s, settings=None):
    return {d.key: d.value for d in SWC.derived(s, settings or {})}


def test_registered_and_implements_the_protocol():
    assert isinstance(SWC, GameSystem)
    assert (SWC.id, SWC.seed) == ("swc", "000_69fa394cbd22cdf4.txt")
    # seed 000 ends before the spell lists: the campaign's (data/swc/spells.json by default)
    assert [s.name for s in SWC.spells({"conjuros": '{"conjuros": []}'})] == []


def test_settings_have_the_documented_defaults():
    specs = {s.key: s.default for s in SWC.settings()}
    assert specs["ca_ascendente"] is False
    assert specs["secuencia_combate"] == "estandar"
    assert specs["minimos_originales"] is False
    assert specs["bono_fuerza_no_guerreros"] == 0


def test_new_sheet_asks_for_a_class():
    assert keys(SWC.validate(SWC.new_sheet("X", {}), {})) == ["swc.problem.no_class"]


def test_legal_sheet():
    assert SWC.validate(sheet(), {}) == []


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"clases": ["bardo"]}, ["swc.problem.unknown_class"]),
        ({"raza": "orco"}, ["swc.problem.unknown_race"]),
        (
            {"raza": "enano", "clases": ["ladron"], "alineamiento": "neutral"},
            ["swc.problem.class_not_allowed_for_race"],
        ),
        ({"clases": ["guerrero", "mago"]}, ["swc.problem.combination_not_allowed_for_race"]),
        ({"clases": ["paladin"], "alineamiento": "neutral"}, ["swc.problem.alignment_not_allowed"]),
        ({"clases": ["monje"]}, ["swc.problem.monk_not_allowed"]),
        ({"xp": -5}, ["swc.problem.xp_invalid"]),
        ({"pg": {"max": 5, "actual": 9}}, ["swc.problem.hp_current_invalid"]),
        ({"clases": ["mago"], "armadura": "Cota de malla"}, ["swc.problem.armour_not_allowed"]),
        (
            {"clases": ["ladron"], "alineamiento": "neutral", "escudo": True},
            ["swc.problem.shield_not_allowed"],
        ),
        ({"armadura": "Espada larga"}, ["swc.problem.unknown_armour"]),
    ],
)
def test_validate_names_what_is_wrong(changes, expected):
    assert keys(SWC.validate(sheet(**changes), {})) == expected


def test_attribute_problems_name_the_field():
    problems = SWC.validate(sheet(atributos={"Fuerza": 19}), {})
    assert {p.path for p in problems} == {
        f"atributos.{a}"
        for a in ("Fuerza", "Destreza", "Constitución", "Inteligencia", "Sabiduría", "Carisma")
    }


def test_multiclass_restrictions_all_at_once():
    """An elf Guerrero/Mago must satisfy both classes' alignments; either class's armour is wearable."""
    elf = sheet(raza="elfo", clases=["guerrero", "mago"], armadura="Cota de malla")
    assert SWC.validate(elf, {}) == []
    assert "no puede lanzar" in next(
        d.formula for d in SWC.derived(elf, {}) if d.key == "conjuros.mago.mago"
    )
    magic = dict(elf, armadura_magica=True)
    assert (
        next(d.formula for d in SWC.derived(magic, {}) if d.key == "conjuros.mago.mago")
        == "Tabla 16"
    )


def test_original_minimums_setting():
    """Paladín: Carisma 17 in the original game (setting ``minimos_originales``)."""
    paladin = sheet(clases=["paladin"])
    assert SWC.validate(paladin, {}) == []
    assert keys(SWC.validate(paladin, {"minimos_originales": True})) == [
        "swc.problem.below_original_minimum"
    ]


def test_monks_when_the_referee_allows_them():
    assert SWC.validate(sheet(clases=["monje"]), {"monjes_permitidos": True}) == []


def test_dwarf_fighter_cleric_setting():
    dwarf = sheet(raza="enano", clases=["guerrero", "clerigo"])
    assert keys(SWC.validate(dwarf, {})) == ["swc.problem.combination_not_allowed_for_race"]
    assert SWC.validate(dwarf, {"enano_guerrero_clerigo": True}) == []


def test_derived_single_class_fighter():
    v = values(sheet(xp=16_000, armadura="Cota de malla", escudo=True))
    assert v["nivel.guerrero"] == 5
    assert v["dados_golpe"] == "5 DG"
    assert v["salvacion"] == 10
    assert v["bono_px"] == "5 %"
    assert v["parada"] == -1  # Tabla 12, Destreza 14
    assert v["ca"] == 9 - 4 - 1 - 1  # Tabla 22: Cota de malla -4, Escudo -1; Destreza 14 -1
    assert v["impactar.guerrero"].startswith("9:")


def test_ascending_armour_class_setting():
    desc = values(sheet(armadura="Cota de malla"))["ca"]
    asc = values(sheet(armadura="Cota de malla"), {"ca_ascendente": True})["ca"]
    assert asc == 19 - desc


def test_derived_multiclass_elf_worked_example():
    """20,000 XP per class (40,000 in all): Guerrero 4 (limit), Mago 5, 5 hit dice, no XP bonus."""
    v = values(
        sheet(
            raza="elfo",
            clases=["guerrero", "mago"],
            xp=40_000,
            atributos=dict(sheet()["atributos"], Carisma=15),
        )
    )
    assert (v["nivel.guerrero"], v["nivel.mago"]) == (4, 5)
    assert v["dados_golpe"] == "5 DG"
    assert v["bono_px"] == "0 %"
    assert v["conjuros.mago.mago"] == "1º: 4 · 2º: 2 · 3º: 1"


def test_derived_thief_skills_with_race_bonus():
    v = values(sheet(raza="mediano", clases=["ladron"], alineamiento="neutral"))
    assert v["ladron.ocultarse_en_las_sombras"] == "20 %"  # Tabla 13 10 % + Tabla 14 +10 %
    assert v["ladron.escuchar_ruidos"] == "3 en 6"
    assert v["proyectiles"] == "+2"  # Mediano +1, Destreza 14 +1 (Tabla 2), no Fuerza bonus


def test_derived_cleric_extra_spell_setting():
    """Sabiduría 15+: one more first-level spell, even at level 1 (setting on by default)."""
    wise = dict(sheet()["atributos"], Sabiduría=15)
    cleric = sheet(clases=["clerigo"], atributos=wise)
    assert values(cleric)["conjuros.clerigo.clerigo"] == "1º: 1"
    assert "conjuros.clerigo.clerigo" not in values(cleric, {"conjuro_extra_sabiduria": False})


def test_derived_monk_uses_table_18():
    v = values(
        sheet(clases=["monje"], alineamiento="neutral", xp=20_000), {"monjes_permitidos": True}
    )
    assert v["movimiento"] == 16
    assert v["ca"] == 5 - 1  # Tabla 18 level 5, Destreza 14
    assert v["monje.desarmado"] == "1d10 (1 atq/asalto)"


def test_derived_alternative_saves_setting():
    v = values(sheet(), {"salvaciones_alternativas": True})
    assert {k for k in v if k.startswith("salvacion.")} == {
        "salvacion.veneno_muerte",
        "salvacion.varitas",
        "salvacion.petrificacion",
        "salvacion.aliento",
        "salvacion.conjuros",
    }


def test_derived_refuses_an_illegal_sheet():
    with pytest.raises(RulesError):
        SWC.derived(sheet(clases=[]), {})


def test_check_options():
    options = {o.key for o in SWC.check_options(sheet(), {})}
    assert "salvacion" in options and "atributo:Fuerza" in options and "puertas" in options
    assert not any(k.startswith("ladron:") for k in options)
    thief = sheet(clases=["ladron"], alineamiento="neutral")
    assert "ladron:forzar_cerraduras" in {o.key for o in SWC.check_options(thief, {})}


def test_save_check_with_threat_bonuses():
    """Enano Guerrero 1 against a spell: 14 - 4 (race) = 10."""
    dwarf = sheet(raza="enano")
    result = SWC.check(
        dwarf,
        CheckRequest("salvacion", circumstances=frozenset({"amenaza:conjuro"})),
        {},
        random.Random(1),
    )
    assert result.target == 10
    assert result.probability == (11, 20)
    assert result.outcome is (Outcome.SUCCESS if result.total >= 10 else Outcome.FAILURE)
    plain = SWC.check(dwarf, CheckRequest("salvacion"), {}, random.Random(1))
    assert plain.target == 14


def test_thief_skill_check_is_roll_under():
    thief = sheet(clases=["ladron"], alineamiento="neutral")
    for seed in range(20):
        r = SWC.check(thief, CheckRequest("ladron:forzar_cerraduras"), {}, random.Random(seed))
        assert r.expression == "1d100" and r.target == 10
        assert (r.outcome is Outcome.SUCCESS) == (r.total <= 10)
    hear = SWC.check(
        thief, CheckRequest("ladron:escuchar_ruidos", modifier=1), {}, random.Random(0)
    )
    assert (hear.expression, hear.target, hear.probability) == ("1d6", 4, (2, 3))


def test_attribute_and_door_checks():
    r = SWC.check(sheet(), CheckRequest("atributo:Fuerza"), {}, random.Random(5))
    assert (r.expression, r.target, r.probability) == ("1d20", 13, (13, 20))
    door = SWC.check(sheet(), CheckRequest("puertas"), {}, random.Random(5))
    assert (door.target, door.probability) == (2, (1, 3))  # Tabla 1: Fuerza 13 opens on 1-2
    elf = sheet(raza="elfo", clases=["ladron"], alineamiento="neutral")
    assert SWC.check(elf, CheckRequest("puertas_secretas"), {}, random.Random(5)).target == 4


def test_unknown_check():
    with pytest.raises(RulesError):
        SWC.check(sheet(), CheckRequest("ladron:forzar_cerraduras"), {}, random.Random(0))
    with pytest.raises(RulesError):
        SWC.check(sheet(), CheckRequest("salvacion:aliento"), {}, random.Random(0))


def test_initiative_by_sequence():
    s = sheet()
    std = SWC.initiative(s, {}, random.Random(2))
    # the side's d6 is the combat's (Combat._roll_sides); Destreza orders inside the side
    assert (std.total, std.sort_key, std.breakdown) == (14, (14,), "Destreza 14")
    holmes = SWC.initiative(s, {"secuencia_combate": "B"}, random.Random(2))
    assert (holmes.total, holmes.sort_key) == (14, (14,))
    c = SWC.initiative(s, {"secuencia_combate": "C"}, random.Random(2))
    assert 1 <= c.total <= 10 and c.sort_key[0] == -c.total
    assert c.breakdown.endswith("+5 segmentos")  # 6 segments, Destreza 14 (alternative C)


def test_damage_and_healing():
    hurt = SWC.apply_damage(sheet(), 5, {})
    assert hurt.sheet["pg"]["actual"] == 3 and hurt.state == "normal"
    down = SWC.apply_damage(hurt.sheet, 4, {})
    assert down.sheet["pg"]["actual"] == -1 and down.state == "incapacitado"
    healed = SWC.heal(down.sheet, 20, {})
    assert healed.sheet["pg"]["actual"] == 8 and healed.amount == 9
    assert sheet()["pg"]["actual"] == 8  # never mutates its input


def test_grant_xp_single_class_bonus():
    """Guerrero with Fuerza 13: +5 %; 2,000 XP → 2,100 → level 2, a hit die to roll."""
    result = SWC.grant_xp(sheet(), 2_000, {})
    assert (result.xp_before, result.xp_after) == (0, 2_100)
    assert result.levels == {"guerrero": (1, 2)}
    assert "swc.note.roll_hit_die" in result.notes and "swc.note.xp_bonus_applied" in result.notes


def test_grant_xp_multiclass_split_and_hit_die_rule():
    elf = sheet(
        raza="elfo",
        clases=["guerrero", "mago"],
        xp=20_000,
        atributos=dict(sheet()["atributos"], Carisma=15),
    )
    to_16k = SWC.grant_xp(elf, 12_000, {})  # 16,000 each: Guerrero capped at 4, no new die
    assert to_16k.xp_after == 32_000
    assert to_16k.levels == {"guerrero": (4, 4), "mago": (4, 4)}
    assert "swc.note.roll_hit_die" not in to_16k.notes
    to_20k = SWC.grant_xp(to_16k.sheet, 8_000, {})
    assert to_20k.levels == {"guerrero": (4, 4), "mago": (4, 5)}
    assert "swc.note.roll_hit_die" in to_20k.notes


def test_grant_xp_fixed_hit_points_after_the_cap():
    """Guerrero 9 → 10: "9 + 2 pg", added to the sheet."""
    fighter = sheet(
        xp=256_000, atributos=dict(sheet()["atributos"], Fuerza=10), pg={"max": 40, "actual": 30}
    )
    result = SWC.grant_xp(fighter, 94_000, {})
    assert result.levels == {"guerrero": (9, 10)}
    assert result.sheet["pg"] == {"max": 42, "actual": 32}
    assert "swc.note.roll_hit_die" not in result.notes


def test_slow_advancement_past_the_race_limit():
    """Mediano Guerrero limited to 4; with the option, XP past it counts 50 %."""
    halfling = sheet(raza="mediano", xp=8_000, atributos=dict(sheet()["atributos"], Fuerza=10))
    capped = SWC.grant_xp(halfling, 8_000, {})
    assert capped.levels == {"guerrero": (4, 4)}
    slow = SWC.grant_xp(halfling, 16_000, {"avance_lento_tras_limite": True})
    assert slow.xp_after == 16_000 and slow.levels == {"guerrero": (4, 5)}
    assert "swc.note.slow_advancement" in slow.notes


@pytest.mark.parametrize(
    ("seed", "a_total", "b_total", "winner"),
    [
        (1, 5, 19, "a"),  # Fuerza 13 passes, Destreza 14 fails: only one side succeeds
        (5, 20, 9, "b"),
        (4, 8, 10, "tie"),  # both succeed
        (9, 15, 20, "tie"),  # both fail
    ],
)
def test_opposed_rolls_both_sides_and_only_a_lone_success_wins(seed, a_total, b_total, winner):
    result = SWC.opposed(
        sheet(),
        CheckRequest("atributo:Fuerza"),
        sheet(),
        CheckRequest("atributo:Destreza"),
        {},
        random.Random(seed),
    )
    assert result.b is not None
    assert (result.a.target, result.b.target) == (13, 14)
    assert (result.a.total, result.b.total, result.winner) == (a_total, b_total, winner)


def _catalogue(lang):
    import tomllib
    from pathlib import Path

    path = Path(__file__).resolve().parents[3] / "bot" / "locales" / lang / "swc.toml"
    return tomllib.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("lang", ["es", "en"])
def test_every_emitted_key_is_in_the_catalogue(lang):
    """Each swc.problem/swc.note key in rules/swc has a message in both languages."""
    import re
    from pathlib import Path

    from rules.swc.advancement import THREATS

    source = "\n".join(
        p.read_text(encoding="utf-8")
        for p in (Path(__file__).resolve().parents[3] / "rules" / "swc").glob("*.py")
    )
    found = set(re.findall(r"swc\.(problem|note)\.([a-z_]+)\b", source))
    found |= {
        ("problem", "class_not_allowed_for_race"),
        ("problem", "combination_not_allowed_for_race"),
    }
    found |= {("note", f"amenaza_{t}") for t in THREATS}
    found.discard(("note", "amenaza_"))
    cat = _catalogue(lang)
    assert {(table, key) for table, key in found if key not in cat[table]} == set()
    assert {s.key for s in SWC.settings()} <= set(cat["setting"])


@pytest.mark.parametrize("lang", ["es", "en"])
def test_problem_params_fill_the_messages(lang):
    cat = _catalogue(lang)["problem"]
    bad = [
        sheet(clases=["bardo"]),
        sheet(
            raza="elfo",
            clases=["paladin"],
            alineamiento="neutral",
            atributos={"Fuerza": 1},
            xp=-1,
            pg={"max": 1, "actual": 5},
        ),
        sheet(clases=["mago"], armadura="Coraza", escudo=True, monedas={"mo": -1}),
        sheet(clases=["paladin"], alineamiento="caotico"),
    ]
    for s in bad:
        for p in SWC.validate(s, {"minimos_originales": True}):
            assert cat[p.key.rsplit(".", 1)[1]].format(**p.params)


def _legal_characters(raza):
    """Every class combination ``raza`` allows, with an alignment all its classes accept."""
    from rules.swc.classes import ALIGNMENTS, get_class
    from rules.swc.races import allowed_combinations

    for combo in allowed_combinations(raza, enano_guerrero_clerigo=True):
        align = next(a for a in ALIGNMENTS if all(a in get_class(c).alineamientos for c in combo))
        yield combo, align


SETTINGS_SETS = [
    {"monjes_permitidos": True, "enano_guerrero_clerigo": True},
    {
        "monjes_permitidos": True,
        "enano_guerrero_clerigo": True,
        "ca_ascendente": True,
        "salvaciones_alternativas": True,
        "avance_lento_tras_limite": True,
        "asesino_tabla_6": True,
        "secuencia_combate": "C",
    },
]


@pytest.mark.parametrize("raza", RACE_IDS)
@pytest.mark.parametrize("settings", SETTINGS_SETS, ids=["defaults", "options"])
def test_every_legal_combination_works_end_to_end(raza, settings):
    """Every race × allowed combination validates, derives, rolls every option and levels up;
    one item per race and settings, a failure lists every combination and step that fails."""
    cells = Cells()
    for clases, alineamiento in _legal_characters(raza):
        where = f"{raza} {'/'.join(clases)} {alineamiento}"
        s = sheet(raza=raza, clases=list(clases), alineamiento=alineamiento)
        problems = SWC.validate(s, settings)
        if problems != []:
            cells.fail(f"{where} validate", repr(problems))
            continue
        rng = random.Random(7)
        for xp in (0, 150_000, 3_000_000):
            s = dict(s, xp=xp)
            if not SWC.derived(s, settings):
                cells.fail(f"{where} xp {xp}", "no derived values")
            for option in SWC.check_options(s, settings):
                result = SWC.check(s, CheckRequest(option.key), settings, rng)
                if result.outcome not in (Outcome.SUCCESS, Outcome.FAILURE):
                    cells.fail(f"{where} xp {xp} check {option.key}", repr(result.outcome))
            xp_after = SWC.grant_xp(s, 10_000, settings).xp_after
            if xp_after < xp + 5_000:
                cells.fail(f"{where} xp {xp} + 10000 (at least half)", f"xp_after {xp_after}")
            if not SWC.initiative(s, settings, rng).sort_key:
                cells.fail(f"{where} xp {xp} initiative", "empty sort key")
    cells.assert_all_match()


def test_derived_class_extras():
    """Guerrero's Ataques Múltiples, Apuñalar, the Druida's position, the Elfo's passive search."""
    assert values(sheet(xp=8_000))["ataques_multiples"] == 4
    thief = values(sheet(clases=["ladron"], alineamiento="neutral", xp=10_000))
    assert thief["apunalar"] == "+4 para impactar, daño x3"
    druid = values(sheet(clases=["druida"], alineamiento="neutral", xp=200_000))
    assert druid["druida.posicion"] == "Druida"
    elf = SWC.derived(sheet(raza="elfo", clases=["ladron"], alineamiento="neutral"), {})
    assert next(d.formula for d in elf if d.key == "puertas_secretas") == "Elfo; sin buscar 1 en 6"


def test_multiclass_slow_advancement_needs_a_chosen_class():
    """Semielfo Guerrero/Mago at 6/6 (both limits): the chosen class goes on with XP at half."""
    half_elf = sheet(
        raza="semielfo",
        clases=["guerrero", "mago"],
        xp=70_000,
        atributos=dict(sheet()["atributos"], Fuerza=12),
    )
    slow = {"avance_lento_tras_limite": True}
    stuck = SWC.grant_xp(half_elf, 30_000, slow)
    assert stuck.xp_after == 100_000 and stuck.levels == {"guerrero": (6, 6), "mago": (6, 6)}
    chosen = dict(half_elf, clase_tras_limite="mago")
    assert SWC.validate(chosen, slow) == []
    moving = SWC.grant_xp(chosen, 30_000, slow)
    assert moving.xp_after == 85_000 and moving.levels == {"guerrero": (6, 6), "mago": (6, 6)}
    further = SWC.grant_xp(moving.sheet, 30_000, slow)
    assert further.xp_after == 100_000 and further.levels == {"guerrero": (6, 6), "mago": (6, 7)}
    assert keys(SWC.validate(dict(half_elf, clase_tras_limite="ladron"), slow)) == [
        "swc.problem.slow_class_not_taken"
    ]


def test_classes_as_text_from_sheet_set():
    """`/sheet set clases guerrero/mago` stores text; it means the same as the list."""
    elf = sheet(raza="elfo", clases="guerrero/mago")
    assert SWC.validate(elf, {}) == []
    assert values(elf)["nivel.mago"] == 1
