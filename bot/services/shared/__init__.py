"""Plumbing every service shares: who acts where, errors, retries, the audit log and timers.

Owns: :mod:`.context` (:class:`Place`, :class:`Actor`), :mod:`.errors` (``DomainError``),
:mod:`.retry` (the one retry policy of compare-and-set writes), :mod:`.write_batch` (group
commit), :mod:`.audit` (audit-log rows), :mod:`.audience` (who sees what: the one rule every
output renders through) and :mod:`.reveals`, :mod:`.labels` (typed labels), :mod:`.timers` (the
durable scheduler), :mod:`.post_text` (pure text rules of posts: webhook names, splitting,
avatars), :mod:`.typed_text` (pure text rules of typed posts: proxy tags, ``[[…]]``, notes).

May import: ``rules``, ``bot.db`` and the bot's top-level helpers; no other service package
(every other package builds on this one).
"""
