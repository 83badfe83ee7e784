"""One contract for every registered rule system (``rules.systems.ids()``).

A system registered in ``rules/systems/__init__.py`` is picked up here with no edit: its
wizard builds a character and an NPC, and each is held to the same checks (derived values,
JSON round trip, checks, combat policy, spellbook, advancement, belongings, display names).
See ``tests/system_contract.py`` for the checks and ``docs/architecture.md`` for adding a
system.
"""

from __future__ import annotations

import pytest

from rules import systems
from tests import system_contract as contract

IDS = systems.ids()


def test_the_registry_lists_the_three_seed_systems():
    assert set(IDS) >= {"swc", "rolweb", "nucleo"}
    assert len(set(IDS)) == len(IDS)
    with pytest.raises(systems.UnknownSystem):
        systems.get("no_existe")


@pytest.fixture(params=IDS)
def system_id(request) -> str:
    return request.param


@pytest.fixture
def system(system_id):
    return systems.get(system_id)


@pytest.fixture
def settings(system):
    return contract.default_settings(system)


@pytest.fixture(params=["character", "npc"])
def kind(request) -> str:
    return request.param


@pytest.fixture
def sheet(kind, system, system_id, settings):
    answers = contract.answers_for(system_id).get(kind, {})
    built = contract.build(system, settings, answers, npc=kind == "npc")
    contract.check_built(system, built, settings)
    return built


def test_identity_and_display_name(system, system_id):
    contract.check_identity(system, system_id)


def test_settings_defaults_are_legal(system):
    contract.check_settings(system)


def test_fields(system, settings):
    contract.check_fields(system, settings)


def test_derived_values(system, sheet, settings):
    contract.check_derived(system, sheet, settings)


def test_export_import_round_trip(system, sheet, settings):
    contract.check_round_trip(system, sheet, settings)


def test_checks_name_their_options_and_repeat_with_the_same_seed(system, sheet, settings):
    contract.check_checks(system, sheet, settings)


def test_combat_policy_initiative_and_health(system, sheet, settings):
    contract.check_combat(system, sheet, settings)


def test_spellbook(system, sheet, settings):
    contract.check_spellbook(system, sheet, settings)


def test_advancement(system, sheet, settings, kind):
    contract.check_advancement(system, sheet, settings, npc=kind == "npc")


def test_belongings_and_catalogue_names(system, sheet, settings):
    contract.check_belongings(system, sheet, settings)


def test_attacks_health_states_and_effects(system, sheet, settings):
    """Issue 11: every seed system resolves attacks, reads health states and applies effects."""
    contract.check_fights(system, sheet, settings)
