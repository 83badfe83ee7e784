"""Play at the table: rolls, checks, attacks, fights, effects, spells and abilities.

Owns: :mod:`.rolls` (``/roll`` and the roll log), :mod:`.checks`, :mod:`.attacks` (``/attack``
and the one entry point of its parts: :mod:`.attack_sides` who attacks whom,
:mod:`.attack_order`, :mod:`.attack_landing`, :mod:`.attack_record`, :mod:`.attack_defence`,
:mod:`.attack_touch`, :mod:`.attack_notes`), :mod:`.combat` (the initiative tracker's use
cases, with :mod:`.combat_store`, :mod:`.combat_views`, :mod:`.combat_health`,
:mod:`.combat_reminders`),
:mod:`.effects`, :mod:`.spells`, :mod:`.abilities`, :mod:`.surprise`, :mod:`.inline` (what
``[[…]]`` rolls).

May import: :mod:`bot.services.shared`, :mod:`bot.services.campaigns`,
:mod:`bot.services.sheets`.
"""
