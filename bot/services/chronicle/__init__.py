"""The chronicle: ``/campaign export`` and ``/campaign import`` of a whole campaign.

Owns: :mod:`.service` (``ChronicleService``), :mod:`.archive` (the zip's files), :mod:`.records`
(its records as strict pydantic models),
:mod:`.build` (writing it), :mod:`.check` (checking an archive before restoring it),
:mod:`.pages` (Markdown and HTML pages), :mod:`.transfer`, :mod:`.zipfiles` (the bounded zip
reader both imports share), :mod:`.umbria` (Comunidad Umbría's saved pages read into records:
pure, like ``rules/``).

May import: :mod:`bot.services.shared`, :mod:`bot.services.campaigns`,
:mod:`bot.services.sheets`, :mod:`bot.services.table`.
"""
