"""rolweb's SpellBook refuses: seed 001 has mystical powers (abilities), not spells."""

from __future__ import annotations

import random

import pytest

from rules import systems
from rules.systems.base import RulesError, SpellBook, SpellRequest

ROLWEB = systems.get("rolweb")


def test_no_list_and_every_cast_or_rest_points_to_the_abilities():
    assert isinstance(ROLWEB, SpellBook)
    assert ROLWEB.spell_list({}).spells == ()
    assert ROLWEB.spell_list({}).notice == "rolweb.note.no_spells"
    sheet = ROLWEB.new_sheet("Elda", {})
    assert ROLWEB.spell_state(sheet, {}).pools == ()
    for attempt in (
        lambda: ROLWEB.cast(sheet, SpellRequest("Imposición de manos"), {}, random.Random(1)),
        lambda: ROLWEB.rest(sheet, {}),
    ):
        with pytest.raises(RulesError) as error:
            attempt()
        assert error.value.problems[0].key == "rolweb.note.no_spells"
