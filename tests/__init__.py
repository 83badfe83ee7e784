"""The test suite is a package, so pytest imports its modules under ``tests.…`` with the
repository root on ``sys.path``.

Without this file, pytest (``rootdir`` import mode) put ``tests/`` itself first on
``sys.path``, where ``tests/standin/`` hid the real ``standin`` package and ``tests/bot/``
stood in for ``bot``: the suite then ran only where the editable install (``make``) happened
to paper over it, never from a fresh clone with the dependencies installed by hand
(``tests/bot/test_dev_setup.py`` runs it that way).
"""
