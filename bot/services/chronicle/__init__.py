"""The chronicle: ``/campaign export`` and ``/campaign import`` of a whole campaign.

Owns: :mod:`.service` (``ChronicleService``), :mod:`.archive` (the zip's records),
:mod:`.build` (writing it), :mod:`.check` (checking an archive before restoring it),
:mod:`.pages` (Markdown and HTML pages), :mod:`.transfer`.

May import: :mod:`bot.services.shared`, :mod:`bot.services.campaigns`,
:mod:`bot.services.sheets`, :mod:`bot.services.table`.
"""
