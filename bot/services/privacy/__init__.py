"""Members' data: ``/privacy`` (export, delete) and what is kept after the bot leaves a server.

Owns: :mod:`.privacy` (``PrivacyService``), :mod:`.retention` (guild departures).

May import: :mod:`bot.services.shared`.
"""
