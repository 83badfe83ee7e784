"""Comunidad Umbría's saved pages, read into plain records (issue 27, «Mudarse desde Umbría»).

Pure: no database, no Discord, no event loop — it runs in the bot's worker process and is
tested without a database (``tests/bot/test_umbria_*.py``; ``test_umbria_purity`` walks these
modules' imports).  The import service that writes the records is
:mod:`bot.services.chronicle.umbria_import`.

Owns: :mod:`.markup` (every assumption about Umbría's markup and visible text, in one place),
:mod:`.records` (the records), :mod:`.markdown` (a post's HTML as Discord Markdown),
:mod:`.pages` (one page → records), :mod:`.reader` (the zip → one game, budgets first).
"""
