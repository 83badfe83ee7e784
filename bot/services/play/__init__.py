"""Play at the table: rolls, checks, attacks, fights, effects, spells and abilities.

Owns: :mod:`.rolls` (``/roll`` and the roll log), :mod:`.checks`, :mod:`.attacks`,
:mod:`.combat` (the initiative tracker), :mod:`.effects`, :mod:`.spells`, :mod:`.abilities`,
:mod:`.surprise`, :mod:`.inline` (what ``[[…]]`` rolls).

May import: :mod:`bot.services.shared`, :mod:`bot.services.campaigns`,
:mod:`bot.services.sheets`.
"""
