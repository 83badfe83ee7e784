"""The play-by-post table: scenes, posts as characters, roll requests and the pace.

Owns: :mod:`.scenes`, :mod:`.posting` (``/post``), :mod:`.requests` (GM roll requests),
:mod:`.pace` (the pace's timers and the one entry point of its parts: :mod:`.pacing`, the
pure rules of rounds, reminders, digests, absences and returns; :mod:`.pace_rounds`, the
round of posts read from the database; :mod:`.absences`; :mod:`.npcization`),
:mod:`.typing` (posting by typing) and :mod:`.speaking` (who a typed message speaks as).

May import: :mod:`bot.services.shared`, :mod:`bot.services.campaigns`,
:mod:`bot.services.sheets`, :mod:`bot.services.play`.
"""
