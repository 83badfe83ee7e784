"""Surprise, side initiative and sequences A, B and C (seed 000, "Iniciativa y secuencia de
combate" and "Secuencias alternativas": sections without a table number)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rules.swc.data import load
from rules.swc.sequence import (
    SegmentInterval,
    SequenceKind,
    SideInitiative,
    actions_in_round,
    combat_sequence,
    dexterity_order,
    drops_held_item,
    encounter_distance,
    monster_interval,
    reroll_ties,
    roll_monster_dexterity,
    segment_position,
    sequence_c_initiative,
    sequence_c_interval,
    side_initiative,
    side_is_watchful,
    surprise,
    surprise_check,
)
from tests.rules.helpers import Cells


class Scripted(random.Random):
    """A Random whose randint returns scripted values (checked to be in range)."""

    def __init__(self, values):
        super().__init__(0)
        self.values = list(values)

    def randint(self, a, b):
        value = self.values.pop(0)
        assert a <= value <= b
        return value


@pytest.mark.parametrize(
    ("roll", "watchful", "surprised"),
    [
        (1, False, True),
        (2, False, True),
        (3, False, False),
        (6, False, False),
        (1, True, True),
        (2, True, False),
        (3, True, False),
    ],
)
def test_surprise_on_1_2_or_only_1_with_explorador_or_monje(roll, watchful, surprised):
    result = surprise(Scripted([roll]), watchful)
    assert result.roll == roll and result.surprised is surprised


def test_surprise_frequencies():
    rng = random.Random(2)
    plain = Counter(surprise(rng, False).surprised for _ in range(6000))
    watch = Counter(surprise(rng, True).surprised for _ in range(6000))
    assert 1700 < plain[True] < 2300 and 800 < watch[True] < 1200


def test_side_is_watchful():
    assert side_is_watchful(["guerrero", "Explorador"]) and side_is_watchful(["Monje"])
    assert not side_is_watchful(["guerrero", "mago"]) and not side_is_watchful([])


def test_mutual_surprise_cancels():
    both = surprise_check(Scripted([1, 2]), {"grupo": False, "orcos": False})
    assert both.cancelled and both.surprised == frozenset()
    one = surprise_check(Scripted([2, 1]), {"grupo": True, "orcos": False})
    assert not one.cancelled and one.surprised == frozenset({"orcos"})
    none = surprise_check(Scripted([5, 6]), {"grupo": False, "orcos": False})
    assert none.surprised == frozenset() and not none.cancelled


@pytest.mark.parametrize(("roll", "drops"), [(1, True), (2, False), (3, False), (4, False)])
def test_surprised_drop_held_items_1_in_4(roll, drops):
    assert drops_held_item(Scripted([roll])) is drops


@pytest.mark.parametrize(
    ("lugar", "roll", "feet"),
    [
        ("subterraneo", 3, 30),
        ("exterior", 3, 300),
        ("exterior_mala_visibilidad", 3, 90),
        ("subterraneo", 6, 60),
    ],
)
def test_encounter_distance(lugar, roll, feet):
    assert encounter_distance(Scripted([roll]), lugar) == feet
    with pytest.raises(ValueError):
        encounter_distance(Scripted([1]), "luna")


def test_side_initiative_highest_d6_wins():
    result = side_initiative(Scripted([2, 5]), ["grupo", "orcos"])
    assert result.rolls == (("grupo", 2), ("orcos", 5))
    assert (
        result.order == (("orcos",), ("grupo",)) and result.winner == "orcos" and result.ties == ()
    )


def test_side_initiative_ties_are_reported_not_broken():
    result = side_initiative(Scripted([4, 4, 1]), ["grupo", "orcos", "lobos"])
    assert result.winner is None and result.ties == (("grupo", "orcos"),)
    again = reroll_ties(Scripted([2, 6]), result)
    assert again.order == (("orcos",), ("grupo",), ("lobos",)) and again.winner == "orcos"
    assert dict(again.rolls) == {"grupo": 2, "orcos": 6, "lobos": 1}


def test_side_initiative_after_surprise_is_automatic():
    """Secuencia paso 3: the side that was not surprised wins the first round without rolling."""
    result = side_initiative(Scripted([]), ["grupo", "orcos"], surprised={"orcos"})
    assert result.automatic and result.rolls == () and result.winner == "grupo"
    three = side_initiative(Scripted([3, 5]), ["grupo", "elfos", "orcos"], surprised={"orcos"})
    assert three.order == (("elfos",), ("grupo",), ("orcos",))
    everyone = side_initiative(Scripted([1, 2]), ["grupo", "orcos"], surprised={"grupo", "orcos"})
    assert not everyone.automatic and everyone.winner == "orcos"


def test_side_initiative_needs_two_distinct_sides():
    with pytest.raises(ValueError):
        side_initiative(random.Random(1), ["grupo"])
    with pytest.raises(ValueError):
        side_initiative(random.Random(1), ["grupo", "grupo"])


def test_side_initiative_rolls_are_d6():
    rng = random.Random(9)
    seen = Counter(v for _ in range(600) for _, v in side_initiative(rng, ["a", "b"]).rolls)
    assert set(seen) == {1, 2, 3, 4, 5, 6}


@pytest.mark.parametrize(
    ("kind", "keys"),
    [
        (
            SequenceKind.STANDARD,
            [
                "sorpresa",
                "declarar_conjuros",
                "iniciativa",
                "movimiento_y_proyectiles",
                "cuerpo_a_cuerpo_y_conjuros",
                "fin_del_asalto",
            ],
        ),
        (SequenceKind.A, ["ganador", "perdedor", "a_la_espera"]),
        (
            SequenceKind.B,
            [
                "sorpresa_y_distancia",
                "iniciativa_destreza",
                "conjuros",
                "proyectiles",
                "cuerpo_a_cuerpo",
                "movimiento",
            ],
        ),
        (SequenceKind.C, ["iniciativa_d10", "segmentos"]),
    ],
)
def test_sequences_have_the_books_phases_in_order(kind, keys):
    sequence = combat_sequence(kind)
    assert [p.key for p in sequence.phases] == keys
    assert all(p.text for p in sequence.phases)


def test_sequence_b_dexterity_order_with_the_books_example():
    """Alternative B: Barzoom (DES 18) before the red dragon (17) before Simón el Lento (16)."""
    order = dexterity_order({"Simón el Lento": 16, "Barzoom el Místico": 18, "dragón rojo": 17})
    assert order == (("Barzoom el Místico",), ("dragón rojo",), ("Simón el Lento",))
    assert dexterity_order({"a": 12, "b": 12, "c": 3}) == (("a", "b"), ("c",))


def test_sequence_b_monster_dexterity_is_3d6():
    assert roll_monster_dexterity(Scripted([6, 5, 1])) == 12


def test_sequence_c_initiative_is_d10():
    assert sequence_c_initiative(Scripted([7])) == 7
    assert {sequence_c_initiative(random.Random(s)) for s in range(200)} == set(range(1, 11))


# Alternative C modifiers, as printed: armour, spell level, "otros".
ARMOUR_C = [
    (None, False, 0),
    (None, True, 1),
    ("Peto de cuero", False, 2),
    ("Cota de anillos", False, 3),
    ("Cota de malla", False, 4),
    ("Coraza", False, 6),
    ("Coraza", True, 7),
]
SPELL_C = [(level, level - 1) for level in range(1, 10)]
DEX_C = (
    [(d, 1) for d in range(3, 7)]
    + [(d, 0) for d in range(7, 11)]
    + [(d, -1) for d in range(11, 15)]
    + [(d, -2) for d in range(15, 19)]
)


@pytest.mark.parametrize(("armadura", "escudo", "mod"), ARMOUR_C)
def test_sequence_c_armour_modifiers(armadura, escudo, mod):
    interval = sequence_c_interval(destreza=9, armadura=armadura, escudo=escudo)
    assert interval.armour == mod and interval.total == 6 + mod


def test_sequence_c_spell_level_modifiers():
    """Alternative C (seed 000), spell level as printed, at every level 1-9; lists every wrong one."""
    cells = Cells()
    for level, mod in SPELL_C:
        got = sequence_c_interval(destreza=9, nivel_conjuro=level).spell
        cells.check(f"Secuencia C conjuro de nivel {level}", got, mod)
    cells.assert_all_match()


def test_sequence_c_dexterity_modifiers():
    """Alternative C (seed 000), Destreza as printed, at every score 3-18; lists every wrong one."""
    cells = Cells()
    for destreza, mod in DEX_C:
        got = sequence_c_interval(destreza=destreza).dexterity
        cells.check(f"Secuencia C Destreza {destreza}", got, mod)
    cells.assert_all_match()


@pytest.mark.parametrize(
    ("pg", "pg_max", "mod"),
    [(10, 10, 0), (6, 10, 0), (5, 10, 4), (3, 10, 4), (2, 8, 6), (1, 10, 6), (0, 10, 6)],
)
def test_sequence_c_wound_modifiers_take_the_larger(pg, pg_max, mod):
    assert sequence_c_interval(destreza=9, pg=pg, pg_max=pg_max).wounds == mod


@pytest.mark.parametrize(("mov", "mod"), [(3, 6), (2, 6), (6, 0), (12, 0)])
def test_sequence_c_slow_movement(mov, mod):
    assert sequence_c_interval(destreza=9, movimiento=mov).movement == mod


def test_sequence_c_the_books_wish_example():
    """A Mago without armour, DES 9, casting Deseo (level 9): 6 + 8 = 14 segments."""
    assert sequence_c_interval(destreza=9, nivel_conjuro=9) == SegmentInterval(
        6, 0, 8, 0, 0, 0, 0, 14
    )


def test_sequence_c_unarmoured_fighter_with_dex_11_attacks_twice():
    """The book: "un Guerrero sin armadura y con una Destreza de 11+ atacaría dos veces por asalto"."""
    interval = sequence_c_interval(destreza=11).total
    assert interval == 5
    for first in range(1, 6):
        assert len(actions_in_round(first, interval, 1)) == 2
        assert len(actions_in_round(first, interval, 2)) == 2


def test_sequence_c_fighter_variant_and_floor():
    assert sequence_c_interval(destreza=9, nivel_guerrero=1).fighter == 0
    assert sequence_c_interval(destreza=9, nivel_guerrero=9).fighter == -4
    assert sequence_c_interval(destreza=18, nivel_guerrero=20).total == 1


def test_sequence_c_bad_input():
    for kwargs in (
        {"destreza": 2},
        {"destreza": 9, "nivel_conjuro": 10},
        {"destreza": 9, "pg": 3},
        {"destreza": 9, "armadura": "Escudo"},
        {"destreza": 9, "pg": 1, "pg_max": 0},
    ):
        with pytest.raises(ValueError):
            sequence_c_interval(**kwargs)


@pytest.mark.parametrize(("speed", "segments"), [("normal", 10), ("lento", 13), ("rapido", 7)])
def test_sequence_c_monsters(speed, segments):
    assert monster_interval(speed) == segments


@pytest.mark.parametrize(
    ("absolute", "position"), [(1, (1, 1)), (10, (1, 10)), (11, (2, 1)), (25, (3, 5))]
)
def test_segment_position(absolute, position):
    assert segment_position(absolute) == position


@pytest.mark.parametrize(
    ("first", "interval", "round_number", "segments"),
    [
        (3, 6, 1, (3, 9)),
        (3, 6, 2, (5,)),
        (3, 6, 3, (1, 7)),
        (1, 14, 1, (1,)),
        (1, 14, 2, (5,)),
        (7, 10, 4, (7,)),
        (1, 1, 1, tuple(range(1, 11))),
    ],
)
def test_actions_in_round(first, interval, round_number, segments):
    assert actions_in_round(first, interval, round_number) == segments


def test_data_cites_the_seed():
    data = load("combat_sequence")
    assert data["source"]["seed"] == "000_69fa394cbd22cdf4.txt"
    assert "Secuencias alternativas para resolver los combates" in data["source"]["secciones"]


def test_side_initiative_result_is_frozen():
    result = SideInitiative((("a", 1),), (("a",),))
    with pytest.raises(AttributeError):
        result.automatic = True  # type: ignore[misc]
