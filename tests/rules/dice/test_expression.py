"""The expression tree: every die keeps its history and kept flag; the dict is JSON-able."""

from __future__ import annotations

import json
import random

from rules.dice import roll
from rules.dice.expression import DiceTerm, Die, KeepOneTerm, Operation, Throw


def test_dice_history_and_flags(scripted):
    result = roll("4d6ro1!kh3", scripted([1, 3, 6, 2, 5, 4]))
    term = result.tree
    assert isinstance(term, DiceTerm)
    assert term.dice == (
        Die(6, (1, 3), kept=False),
        Die(6, (6,), kept=True, exploded=True),
        Die(6, (2,), kept=False, from_explosion=True),
        Die(6, (5,), kept=True),
        Die(6, (4,), kept=True),
    )
    assert term.value == result.total == 15


def test_keep_one_throws(scripted):
    result = roll("1o3d10 + 2", scripted([10, 7, 10, 3, 8, 5]))
    tree = result.tree
    assert isinstance(tree, Operation)
    keep_one = tree.left
    assert isinstance(keep_one, KeepOneTerm)
    assert keep_one.throws == (Throw((10, 7, 10), 0), Throw((3, 8, 5), 2))
    assert [t.value for t in keep_one.throws] == [10, 5]
    assert tree.value == result.total == 17


def test_tied_kept_die_is_stable(scripted):
    throw = roll("1o3d10", scripted([5, 5, 5])).tree.throws[0]
    assert throw.kept_index == 1


def test_pool_successes(scripted):
    term = roll("4d10>=7", scripted([7, 2, 10, 6])).tree
    assert term.successes() == (True, False, True, False)


def test_tree_values_match_totals_for_many_rolls():
    rng = random.Random(7)
    for text in ["4d6kh3+2", "(1d6+1)*2-1o3d10a", "3d6!/2", "5d10!10>=7", "1d20<=12", "-2d4r1"]:
        for _ in range(200):
            result = roll(text, rng)
            assert result.tree.value == result.total


def test_to_dict_is_json_and_complete(scripted):
    result = roll("1o3d10b+12 [sigilo] # de noche", scripted([9, 1, 8]))
    data = json.loads(json.dumps(result.to_dict()))
    assert data["expression"] == "1o3d10b + 12 [sigilo]"
    assert data["total"] == 13
    assert data["comment"] == "de noche"
    assert data["label"] == "sigilo"
    assert data["fumble"] is False
    assert data["tree"]["left"] == {
        "type": "keep_one",
        "notation": "1o3d10b",
        "label": None,
        "position": "b",
        "value": 1,
        "fumble": False,
        "throws": [{"faces": [9, 1, 8], "kept_index": 1}],
    }
    assert data["tree"]["right"] == {"type": "number", "value": 12, "label": "sigilo"}


def test_to_dict_dice(scripted):
    data = roll("2d6!", scripted([6, 2, 3])).to_dict()["tree"]
    assert data["type"] == "dice" and data["value"] == 11
    assert [d["rolls"] for d in data["dice"]] == [[6], [2], [3]]
    assert [d["exploded"] for d in data["dice"]] == [True, False, False]
    assert [d["from_explosion"] for d in data["dice"]] == [False, True, False]
