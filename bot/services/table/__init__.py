"""The play-by-post table: scenes, posts as characters, roll requests and the pace.

Owns: :mod:`.scenes`, :mod:`.posting` (``/post``), :mod:`.requests` (GM roll requests),
:mod:`.pace` (rounds of posts, absences, reminders), :mod:`.typing` (posting by typing)
and :mod:`.speaking` (who a typed message speaks as).

May import: :mod:`bot.services.shared`, :mod:`bot.services.campaigns`,
:mod:`bot.services.sheets`, :mod:`bot.services.play`.
"""
