"""Characters and their sheets: creation, the one write path, imports, profiles, NPCs, XP.

Owns: :mod:`.access` (finding a character and who may read, act with or edit it),
:mod:`.writes` and :mod:`.changes` (every sheet change: one versioned write with its audit
row), :mod:`.characters`, :mod:`.creation` (the wizard), :mod:`.imports` and :mod:`.exchange`
(sheet files), :mod:`.profiles`, :mod:`.approvals`, :mod:`.npcs`, :mod:`.xp`,
:mod:`.levelup`, :mod:`.undo`, :mod:`.dead`, :mod:`.effect_syntax`, :mod:`.options`,
:mod:`.schema`, :mod:`.proxy_tags` (``/proxy``), :mod:`.macros` (``/macro``), :mod:`.use_case`
(the constructor the use cases acting with characters share), :mod:`.cached_reads` (the
active characters and sheets every roll reads, from the per-process cache).

May import: :mod:`bot.services.shared`, :mod:`bot.services.campaigns`.
"""
