"""Seed 002's weapon limits are shown where a weapon is chosen (issue 11 §3)."""

from __future__ import annotations

from rules.nucleo import belongings
from rules.nucleo.data import catalogue
from rules.nucleo.equipment import restriction


def test_lanza_pesada_and_ballesta_carry_their_limits_in_the_catalogue():
    options = {o.label: o.description for o in belongings.catalogue("equipo", {"magia": True})}
    assert options["Lanza pesada"] == "3d6 · solo a caballo"
    assert options["Ballesta"] == "2d6+2 · recarga tras cada disparo"
    assert (
        restriction(
            next(iter(w for w in catalogue().weapons.values() if not (w.reload or w.mounted_only)))
        )
        == ""
    )
