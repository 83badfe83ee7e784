"""The suggestion lists of cogs/ui/options.py: one filter for every list of options."""

from __future__ import annotations

from cogs.ui.options import _check_choices, _choices
from rules.systems.base import CheckOption, StepOption


def test_choices_filter_by_label_ignoring_case_and_keep_the_order() -> None:
    options = [
        StepOption("espada", "Espada larga"),
        StepOption("arco", "Arco"),
        StepOption("daga", "Daga"),
    ]
    chosen = _choices(options, "zz")
    assert chosen == []
    chosen = _choices(options, "DA")
    assert [(c.name, c.value) for c in chosen] == [("Espada larga", "espada"), ("Daga", "daga")]


def test_choices_respect_discords_limits() -> None:
    options = [StepOption(f"v{i}" + "x" * 120, f"Opción {i} " + "y" * 120) for i in range(40)]
    chosen = _choices(options, "")
    assert len(chosen) == 25
    assert all(len(c.name) == 100 and len(c.value) == 100 for c in chosen)


def test_described_choices_show_the_description_but_match_the_label() -> None:
    options = [StepOption("espada", "Espada", "1d8"), StepOption("arco", "Arco", "1d6")]
    assert [c.name for c in _choices(options, "", described=True)] == ["Espada (1d8)", "Arco (1d6)"]
    assert _choices(options, "1d8", described=True) == []


def test_check_choices_match_label_or_key_and_rank_prefixes_first() -> None:
    options = [
        CheckOption("habilidad:Sigilo", "Sigilo", "habilidad"),
        CheckOption("atributo:Ágil", "Ágil", "atributo"),
        CheckOption("habilidad:Esgrima", "Esgrima", "habilidad"),
        CheckOption("salvacion", "Tirada de salvación", "salvacion"),
    ]
    assert [c.value for c in _check_choices(options, "habilidad")] == [
        "habilidad:Esgrima",
        "habilidad:Sigilo",
    ]
    assert [c.name for c in _check_choices(options, "s")] == [
        "Sigilo",
        "Esgrima",
        "Tirada de salvación",
    ]


def test_choices_ignore_accents_both_ways() -> None:
    options = [StepOption("curar", "Curación"), StepOption("agil", "Ágil")]
    assert [c.value for c in _choices(options, "curacion")] == ["curar"]
    assert [c.value for c in _choices(options, "ÁG")] == ["agil"]
    checks = [CheckOption("atributo:Ágil", "Ágil", "atributo")]
    assert [c.value for c in _check_choices(checks, "agil")] == ["atributo:Ágil"]
