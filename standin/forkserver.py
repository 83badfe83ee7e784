"""A parent for the tests' bot processes that has already imported the bot.

Every ``Sandbox.start_bot`` used to run ``python -m standin.launch``: a new interpreter that
spends about 1.5 s of CPU importing discord.py, SQLAlchemy, the models, the services and the
cogs before the bot does anything — for each of the thirty-odd bots a test run starts.  The
fork server imports all of that once, with no thread and no event loop (so forking it is
safe), and forks a child per bot.  The child is a process of its own exactly as before (its own
session, its log on stdout and stderr, the environment and working folder it was given) and
runs the same :func:`standin.launch.main`, so the bot starts, migrates, connects and shuts
down along the same path; only the imports are already done.

The pytest process turns it on (``standin.client.use_fork_server``); the sandbox, the REPL
and any bot with another module or folder still start the plain way.

Protocol, one JSON object per line: requests on stdin ``{"argv", "env", "cwd", "log"}``;
answers on stdout ``{"ready": pid}`` once, ``{"pid": n}`` per request, and
``{"exited": n, "code": c}`` when a child ends (``c`` as ``Popen.returncode``: ``-N`` for
signal N).  End of stdin stops the server; its children then stop too (``standin.launch``
watches its parent).
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any, NoReturn

__all__ = ["ForkServer", "ForkedProcess", "serve"]

REPO = Path(__file__).resolve().parents[1]


def _warm() -> None:
    """Everything a bot process imports before it connects."""
    import importlib

    import alembic.command  # noqa: F401
    import discord.asset  # noqa: F401
    import discord.gateway  # noqa: F401
    import discord.http  # noqa: F401
    import discord.state  # noqa: F401
    import discord.ui.view  # noqa: F401

    import bot.__main__  # noqa: F401
    import bot.db.migrate  # noqa: F401
    import standin.launch  # noqa: F401
    from bot.app import EXTENSIONS

    for extension in EXTENSIONS:
        importlib.import_module(extension)


def _child(request: dict[str, Any]) -> NoReturn:
    """In the forked child: become the bot process ``request`` describes, run it, exit."""
    code: object = 1
    try:
        os.setsid()  # as Popen(start_new_session=True): Ctrl-C at a prompt must not reach it
        log = os.open(request["log"], os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)  # also closes the server's request pipe in the child
        os.dup2(log, 1)  # and its answer pipe
        os.dup2(log, 2)
        os.close(null)
        os.close(log)
        for stream in (sys.stdout, sys.stderr):
            stream.reconfigure(line_buffering=True, write_through=True)  # type: ignore[union-attr]
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        os.environ["ARBITRO_SANDBOX_PARENT"] = str(os.getppid())  # this server, not pytest
        if os.environ.get("PYTHONFAULTHANDLER"):
            import faulthandler

            faulthandler.enable()
        from standin import launch

        sys.argv = [launch.__file__ or "standin.launch", *request["argv"]]
        code = launch.main(request["argv"])
    except SystemExit as stop:
        code = stop.code
    except BaseException:  # noqa: BLE001 - reported in the log, as an uncaught error would be
        import traceback

        traceback.print_exc()
        code = 1
    # Unwind out of the server's loop and finalize like any interpreter (atexit, flushing).
    raise SystemExit(code)


def _send(message: dict[str, Any]) -> None:
    os.write(1, (json.dumps(message) + "\n").encode())


def _reap() -> None:
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        _send({"exited": pid, "code": os.waitstatus_to_exitcode(status)})


def serve() -> None:
    _warm()
    if threading.active_count() != 1:  # a thread would be lost in the children, mid-work
        _send({"error": f"{threading.active_count()} threads after the imports"})
        raise SystemExit(3)
    import gc

    # What the imports made lives as long as any bot: out of the collector's sight, a child
    # neither copies those pages by scanning them nor walks them all again at exit (a stop
    # took ~0.7 s, ~0.15 s frozen; the docs of gc.freeze recommend it before fork()).
    gc.freeze()
    sys.stdout.flush()
    sys.stderr.flush()
    _send({"ready": os.getpid()})
    pending = b""
    while True:
        readable, _, _ = select.select([0], [], [], 0.05)
        _reap()
        if not readable:
            continue
        chunk = os.read(0, 65536)
        if not chunk:
            return  # the tests are over (or died): the children follow
        pending += chunk
        while b"\n" in pending:
            line, pending = pending.split(b"\n", 1)
            pid = os.fork()
            if pid == 0:
                _child(json.loads(line))
            _send({"pid": pid})


# -- the pytest side ---------------------------------------------------------------------------


class ForkedProcess:
    """A bot process forked by the server, with the parts of ``Popen`` the tests use."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None
        self._ended = threading.Event()

    def _exited(self, code: int) -> None:
        self.returncode = code
        self._ended.set()

    def poll(self) -> int | None:
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if not self._ended.wait(timeout):
            raise subprocess.TimeoutExpired(f"bot process {self.pid}", timeout or 0)
        assert self.returncode is not None
        return self.returncode

    def send_signal(self, signum: int) -> None:
        if self.returncode is None:  # never signal a pid that may have been reused
            os.kill(self.pid, signum)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


class ForkServer:
    """The server process, started on first use; thread-safe."""

    def __init__(self, ready_timeout: float = 120.0) -> None:
        self._lock = threading.Lock()
        self._answers: list[ForkedProcess] = []
        self._answered = threading.Condition(self._lock)
        self._children: dict[int, ForkedProcess] = {}
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])),
        }
        self._proc = subprocess.Popen(
            [sys.executable, "-m", "standin.forkserver"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            cwd=REPO,
            env=env,
            start_new_session=True,
        )
        assert self._proc.stdout is not None
        first = self._proc.stdout.readline()
        if not first.startswith(b'{"ready"'):
            self._proc.kill()
            raise RuntimeError(f"the fork server did not start: {first!r}")
        threading.Thread(target=self._read, name="fork-server", daemon=True).start()

    def _read(self) -> None:
        assert self._proc.stdout is not None
        for line in self._proc.stdout:
            message = json.loads(line)
            with self._lock:
                if "pid" in message:
                    child = ForkedProcess(message["pid"])
                    self._children[child.pid] = child
                    self._answers.append(child)
                    self._answered.notify_all()
                elif "exited" in message:
                    ended = self._children.pop(message["exited"], None)
                    if ended is not None:
                        ended._exited(message["code"])
        with self._lock:  # the server is gone: so are its children (they watch it)
            for child in self._children.values():
                child._exited(-signal.SIGKILL)
            self._children.clear()
            self._answered.notify_all()

    def start(self, argv: list[str], env: dict[str, str], cwd: Path, log: Path) -> ForkedProcess:
        request = {"argv": argv, "env": env, "cwd": str(cwd), "log": str(log)}
        with self._lock:
            assert self._proc.stdin is not None
            self._proc.stdin.write(json.dumps(request).encode() + b"\n")
            self._proc.stdin.flush()
            while not self._answers:
                if self._proc.poll() is not None:
                    raise RuntimeError("the fork server died")
                self._answered.wait(1.0)
            return self._answers.pop(0)

    def close(self) -> None:
        if self._proc.poll() is None:
            assert self._proc.stdin is not None
            self._proc.stdin.close()
            try:
                self._proc.wait(10)
            except subprocess.TimeoutExpired:
                self._proc.kill()


if __name__ == "__main__":
    serve()
