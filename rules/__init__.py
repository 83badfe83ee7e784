"""Árbitro's pure rules library.

No Discord, no database, no asyncio, no global random state: every function that rolls
takes a :class:`random.Random`.  Usable on its own::

    >>> import random
    >>> from rules import dice, systems
    >>> dice.roll("1o3d10+5", rng=random.Random(1)).total  # doctest: +SKIP
    >>> systems.get("nucleo")
"""
