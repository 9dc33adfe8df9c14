"""The harness (issue 31): every command — and the terminal game in a pseudo-terminal — under
every fault of the environment a user meets: HOME and the XDG folders missing, a file,
read-only or full; no locale, ``LANG=C``, an ASCII-only output; a terminal of 40×12 and 200×60,
no terminal, a closed pipe. Each run must end with its exit status, at most one sentence (in the
user's language) on stderr where it fails, no traceback, and every stored game and every file
byte-identical unless the command was asked to change it. Two processes on one history and on
one game are :mod:`test_one_writer`'s.

A full disk is a file size limit (``RLIMIT_FSIZE``) in the child that ignores ``SIGXFSZ`` (a
tmpfs cannot be mounted without privileges); read-only is ``chmod`` or, as root, ``chattr +i``
(:func:`test_faults.make_read_only`).
"""

from __future__ import annotations

import fcntl
import json
import os
import pty
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

import pytest

from kniffel import Game, Keep, Player, PlayerKind, Throw, preset
from kniffel.engine.dice import Roll
from kniffel.engine.game import Outcome
from kniffel.engine.history_file import HistoryEntry, encode_history
from kniffel.history import History
from kniffel.storage import save_game
from test_faults import _limit_file_size, finished, make_read_only

KNIFFEL_PY = [sys.executable, "-m", "kniffel"]
LOCALE_VARS = ("LANG", "LC_ALL", "LC_MESSAGES", "LANGUAGE")


def clean_env(tmp_path: Path, **changes: str | None) -> dict[str, str]:
    """The environment of a child: this test's (hermetic) one, with ``changes`` (None: unset)."""
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", TERM="xterm-256color",
               NO_COLOR="1")
    env.pop("FORCE_COLOR", None)
    for key, value in changes.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return env


class PtySession:
    """``argv`` run in a pseudo-terminal of ``size`` (columns, rows): what it writes is read
    as it comes, keys are written to it."""

    def __init__(self, argv: list[str], tmp_path: Path, *, size: tuple[int, int] = (80, 24),
                 env: dict[str, str] | None = None) -> None:
        self.argv = argv
        self.env = env if env is not None else clean_env(tmp_path)
        self.env.update(COLUMNS=str(size[0]), LINES=str(size[1]))
        self.size = size
        self.out = bytearray()
        self.proc: subprocess.Popen[bytes] | None = None
        self.fd = -1

    def __enter__(self) -> PtySession:
        primary, secondary = pty.openpty()
        fcntl.ioctl(secondary, termios.TIOCSWINSZ,
                    struct.pack("HHHH", self.size[1], self.size[0], 0, 0))
        self.proc = subprocess.Popen(self.argv, stdin=secondary, stdout=secondary,
                                     stderr=secondary, env=self.env, close_fds=True,
                                     start_new_session=True)
        os.close(secondary)
        self.fd = primary
        return self

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def _read(self, seconds: float, until: bytes | None = None) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end and not (until and until in self.out):
            ready, _, _ = select.select([self.fd], [], [], 0.05)
            if ready:
                try:
                    chunk = os.read(self.fd, 65536)
                except OSError:
                    return
                if not chunk:
                    return
                self.out.extend(chunk)
            elif until is None and self.proc is not None and self.proc.poll() is not None:
                return

    def read_until(self, wanted: bytes, seconds: float) -> None:
        self._read(seconds, until=wanted)
        assert wanted in self.out, f"never shown: {wanted!r}\n{self.text()[-3000:]}"

    def write(self, keys: bytes) -> None:
        os.write(self.fd, keys)
        self._read(0.3)

    def wait(self, seconds: float) -> int:
        assert self.proc is not None
        end = time.monotonic() + seconds
        while self.proc.poll() is None and time.monotonic() < end:
            self._read(0.1)
        self._read(0.3)
        if self.proc.poll() is None:
            raise AssertionError(f"still running after {seconds} s:\n{self.text()[-3000:]}")
        return self.proc.returncode

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def text(self) -> str:
        return self.out.decode("utf-8", "replace")

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.kill()
        if self.fd >= 0:
            os.close(self.fd)


# --- the scene: a user's home with a history, a save and a history file ------------------------


def unfinished_game() -> Game:
    game = Game(preset("kniffel"), [Player("Anna", PlayerKind.HUMAN),
                                    Player("Ben", PlayerKind.COMPUTER, "greedy")], seed=5)
    game.apply(Throw(Keep()))
    game.apply(Outcome(Roll((2, 2, 3, 5, 6))))
    return game


class Home:
    """A user's home (``home``) with XDG folders, a history in the default place holding two
    finished games and an unfinished one, a save ``game.json`` and a history file
    ``new.json`` with a game that is not stored; ``undo`` takes every fault back."""

    def __init__(self, root: Path, undo: ExitStack) -> None:
        self.root = root
        self.undo = undo
        self.home = root / "home"
        self.xdg = {name: self.home / f".{name}" for name in ("data", "cache", "config", "state")}
        for folder in self.xdg.values():
            folder.mkdir(parents=True)
        self.db = self.xdg["data"] / "kniffel" / "history.sqlite3"
        self.db.parent.mkdir()
        with History(self.db) as h:
            for seed in (1, 2):
                h.start(finished(seed))
            h.start(unfinished_game())
        self.work = root / "work"
        self.work.mkdir()
        self.save = save_game(finished(3), self.work / "game.json")
        self.source = self.work / "new.json"
        self.source.write_text(json.dumps(encode_history([HistoryEntry(
            "new-1", "2026-05-01T10:00:00+00:00", "2026-05-01T10:30:00+00:00",
            finished(4, ("Clara",)))])), encoding="utf-8")
        self.env: dict[str, str | None] = {
            "HOME": str(self.home), "XDG_DATA_HOME": str(self.xdg["data"]),
            "XDG_CACHE_HOME": str(self.xdg["cache"]), "XDG_CONFIG_HOME": str(self.xdg["config"]),
            "XDG_STATE_HOME": str(self.xdg["state"]), "LANG": "de_DE.UTF-8", "LC_ALL": None,
            "LC_MESSAGES": None, "LANGUAGE": None, "COLUMNS": "100",
            "KNIFFEL_CACHE_DIR": None}  # the solver's tables in the XDG cache folder

    def state(self) -> dict[str, bytes]:
        """Every file under the root, by its bytes (a database's journal aside)."""
        out = {}
        for path in sorted(self.root.rglob("*")):
            if path.is_file() and not path.name.endswith("-journal"):
                out[str(path.relative_to(self.root))] = path.read_bytes()
        return out


@dataclass(frozen=True)
class Command:
    """A command: its arguments in the home, and the files it is asked to change (parts of
    their paths: the default history and the solver's cache are wherever the environment puts
    them)."""

    id: str
    args: Callable[[Home], list[str]]
    changes: tuple[str, ...] = ()
    #: Whether it needs to write (the history, a file) to do its job.
    writes: bool = False


COMMANDS = [
    Command("score", lambda h: ["score", "5", "5", "5", "6", "6", "6"]),
    Command("rules", lambda h: ["rules", "--rules", "kniffel"]),
    Command("show", lambda h: ["show", str(h.save)]),
    Command("history", lambda h: ["history"]),
    Command("stats", lambda h: ["stats"]),
    Command("simulate", lambda h: ["simulate", "--rules", "kniffel", "--strategy", "greedy",
                                   "--games", "3", "--seed", "1"]),
    Command("export", lambda h: ["export", str(h.work / "out.json")], ("work/out.json",),
            writes=True),
    Command("import", lambda h: ["import", str(h.source)], ("kniffel/history.sqlite3",),
            writes=True),
    Command("play", lambda h: ["play"]),  # without a terminal: refused at once
    Command("solve", lambda h: ["solve", "--rules", "kniffel"], ("kniffel/solver/",),
            writes=True),
    Command("simulate-optimal", lambda h: ["simulate", "--rules", "kniffel", "--strategy",
                                           "optimal", "--games", "2", "--seed", "1"],
            ("kniffel/solver/",)),
    Command("help", lambda h: ["--help"]),
]


#: The commands that solve a table into the cache (a second or two each): run where the
#: cache folder is at fault.
SOLVING = frozenset({"solve", "simulate-optimal"})
ALL = frozenset(c.id for c in COMMANDS) - SOLVING
#: The commands that use the history (and play, refused without a terminal).
HISTORY = frozenset({"history", "stats", "export", "import", "play", "simulate"})


@dataclass(frozen=True)
class Fault:
    """A fault of the environment: ``setup`` brings it (changing the home's ``env``) and
    returns how much a file may grow (0: no limit)."""

    id: str
    setup: Callable[[Home], int]
    #: The commands run under it.
    commands: frozenset[str] = ALL
    #: The commands that cannot do their job under it (they end with status 2).
    fails: frozenset[str] = frozenset()


def _home_missing(h: Home) -> int:
    h.env.update(HOME=str(h.root / "nobody"), XDG_DATA_HOME=None, XDG_CACHE_HOME=None,
                 XDG_CONFIG_HOME=None, XDG_STATE_HOME=None)
    return 0


def _home_a_file(h: Home) -> int:
    fake = h.root / "home-file"
    fake.write_text("not a folder\n", encoding="utf-8")
    h.env.update(HOME=str(fake), XDG_DATA_HOME=None, XDG_CACHE_HOME=None,
                 XDG_CONFIG_HOME=None, XDG_STATE_HOME=None)
    return 0


def _xdg_missing(h: Home) -> int:
    for name in ("XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME"):
        h.env[name] = str(h.root / "gone" / name.lower())
    return 0


def _xdg_files(h: Home) -> int:
    for name in ("XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME"):
        fake = h.root / f"{name.lower()}-file"
        fake.write_text("not a folder\n", encoding="utf-8")
        h.env[name] = str(fake)
    return 0


def _data_read_only(h: Home) -> int:
    make_read_only(h.db, h.undo)
    make_read_only(h.db.parent, h.undo)
    return 0


def _home_read_only(h: Home) -> int:
    make_read_only(h.home, h.undo)
    return 0


def _full(h: Home) -> int:
    return 4096  # no file may grow past 4 KiB: the history (more) and every new file


def _env(**changes: str | None) -> Callable[[Home], int]:
    def setup(h: Home) -> int:
        h.env.update(changes)
        return 0
    return setup


#: Where the history cannot be: every command that needs it says why.
NO_HISTORY = frozenset({"history", "stats", "export", "import"})

FAULTS = [
    Fault("normal", _env(), ALL | SOLVING),
    Fault("home-missing", _home_missing, HISTORY | SOLVING | {"score"}),
    Fault("home-a-file", _home_a_file, HISTORY | SOLVING | {"score"}, fails=NO_HISTORY),
    Fault("xdg-missing", _xdg_missing, HISTORY | SOLVING),
    Fault("xdg-a-file", _xdg_files, HISTORY | SOLVING | {"score"}, fails=NO_HISTORY),
    Fault("data-read-only", _data_read_only, HISTORY | {"show"}, fails=frozenset({"import"})),
    Fault("home-read-only", _home_read_only, HISTORY | SOLVING),
    Fault("full", _full, HISTORY | SOLVING | {"score"}, fails=frozenset({"import", "export"})),
    Fault("lang-c", _env(LANG="C"), frozenset({"score", "history", "play", "help"})),
    Fault("no-locale", _env(LANG=None), frozenset({"score", "history", "play", "help"})),
    Fault("ascii-only", _env(PYTHONIOENCODING="ascii")),
    Fault("terminal-40x12", _env(COLUMNS="40", LINES="12"),
          frozenset({"score", "rules", "history", "stats", "simulate", "help"})),
    Fault("terminal-200x60", _env(COLUMNS="200", LINES="60"),
          frozenset({"score", "rules", "history", "stats", "simulate", "help"})),
]


def _run(h: Home, args: list[str], limit: int, *, pipe_closed: bool = False,
         ) -> tuple[int, str, str]:
    env = clean_env(h.root, **h.env)
    preexec = _limit_file_size(limit) if limit else None
    if pipe_closed:
        read, write = os.pipe()
        os.close(read)  # nobody reads what it prints
        try:
            proc = subprocess.run(KNIFFEL_PY + args, stdin=subprocess.DEVNULL, stdout=write,
                                  stderr=subprocess.PIPE, env=env, cwd=h.work,
                                  preexec_fn=preexec, timeout=120)
        finally:
            os.close(write)
        return proc.returncode, "", proc.stderr.decode("utf-8", "replace")
    proc = subprocess.run(KNIFFEL_PY + args, stdin=subprocess.DEVNULL, capture_output=True,
                          env=env, cwd=h.work, preexec_fn=preexec, timeout=120)
    return (proc.returncode, proc.stdout.decode("utf-8", "replace"),
            proc.stderr.decode("utf-8", "replace"))


def _one_sentence(command: str, stderr: str) -> None:
    """A failure says so in one line: "kniffel COMMAND: sentence", no traceback."""
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1, stderr
    assert lines[0].startswith(f"kniffel {command}: "), stderr
    assert lines[0].rstrip().endswith((".", "!", ")")), stderr


CASES = [pytest.param(command, fault, id=f"{command.id}-{fault.id}")
         for fault in FAULTS for command in COMMANDS if command.id in fault.commands]


@pytest.mark.parametrize(("command", "fault"), CASES)
@pytest.mark.solve
def test_every_command_under_every_fault_ends_clean(tmp_path: Path, command: Command,
                                                    fault: Fault) -> None:
    with ExitStack() as undo:
        h = Home(tmp_path, undo)
        limit = fault.setup(h)
        before = h.state()
        status, stdout, stderr = _run(h, command.args(h), limit)
        after = h.state()
    assert "Traceback" not in stderr + stdout
    failing = command.id in fault.fails or command.id == "play"
    if failing:
        assert status == 2, (status, stderr)
        _one_sentence(command.id, stderr)
        if h.env.get("LANG") != "en_US.UTF-8":  # German: the locale's, or where none is known
            assert any(word in stderr for word in (" der ", " die ", " das ", " ein", " ist ",
                                                   " braucht ")), stderr
    else:
        assert status == 0, (status, stderr)
    changed = {name for name in set(before) | set(after) if before.get(name) != after.get(name)}
    allowed = command.changes if not failing else ()
    assert not {name for name in changed if not any(part in name for part in allowed)}, changed


@pytest.mark.parametrize("command", COMMANDS, ids=[c.id for c in COMMANDS])
@pytest.mark.solve
def test_every_command_into_a_closed_pipe_ends_quietly(tmp_path: Path, command: Command) -> None:
    """``kniffel ... | head -c0``: what it prints goes nowhere; it ends without a traceback,
    with status 1 and nothing said where it had output to print (click's way), with the
    command's own status and sentence where it failed anyway (play without a terminal); a
    report on stderr (export's) is still made."""
    with ExitStack() as undo:
        h = Home(tmp_path, undo)
        before = h.state()
        status, _, stderr = _run(h, command.args(h), 0, pipe_closed=True)
        after = h.state()
    assert "Traceback" not in stderr
    if command.id == "play":
        assert status == 2
        _one_sentence("play", stderr)
    else:
        assert status in (0, 1), (status, stderr)
        if command.id == "export":  # its report goes to stderr: one line
            assert stderr.count("\n") == 1
            assert "out.json" in stderr
        else:
            assert stderr == ""
    changed = {name for name in set(before) | set(after) if before.get(name) != after.get(name)}
    assert not {name for name in changed if not any(part in name for part in command.changes)}


# --- the terminal game in a pseudo-terminal ----------------------------------------------------


@dataclass(frozen=True)
class Screen:
    """``kniffel play`` in a terminal of ``size`` under fault ``fault``: ``shown`` is what the
    first screen shows."""

    id: str
    fault: Callable[[Home], int]
    size: tuple[int, int] = (80, 24)
    shown: bytes = b"Anna"


SCREENS = [
    Screen("80x24", _env()),
    Screen("40x12", _env(), (40, 12), b"zu klein"),
    Screen("200x60", _env(), (200, 60)),
    Screen("lang-c", _env(LANG="C"), shown="würfeln".encode()),
    Screen("no-locale", _env(LANG=None), shown="würfeln".encode()),
    Screen("english", _env(LANG="en_GB.UTF-8"), shown=b"[r] roll"),
    Screen("home-missing", _home_missing),
    Screen("xdg-a-file", _xdg_files, shown=b"kniffel play: "),
    Screen("full", _full),
    Screen("ascii-only", _env(PYTHONIOENCODING="ascii")),
]


@pytest.mark.parametrize("screen", SCREENS, ids=[s.id for s in SCREENS])
@pytest.mark.tmux
def test_the_terminal_game_opens_and_quits_clean_under_every_fault(tmp_path: Path,
                                                                 screen: Screen) -> None:
    """The game opens (or refuses in one sentence where its history cannot be), shows its
    first screen in the user's language, and q ends it with status 0: a game nobody moved
    in is not stored, so no file changes (but a history created where there was none, and the
    solver's cache)."""
    with ExitStack() as undo:
        h = Home(tmp_path, undo)
        limit = screen.fault(h)
        before = h.state()
        env = clean_env(h.root, **h.env)
        argv = [*KNIFFEL_PY, "play", "--player", "Anna", "--player", "Ben:greedy", "--rules",
                "kniffel", "--seed", "1", "--start", "1"]
        if limit:
            argv = [sys.executable, "-c", "import resource, signal, sys, runpy; "
                    "signal.signal(signal.SIGXFSZ, signal.SIG_IGN); "
                    f"resource.setrlimit(resource.RLIMIT_FSIZE, ({limit}, {limit})); "
                    "sys.argv = ['kniffel', *sys.argv[1:]]; "
                    "runpy.run_module('kniffel', run_name='__main__')", *argv[3:]]
        with PtySession(argv, h.root, size=screen.size, env=env) as game:
            game.read_until(screen.shown, 30)
            if screen.shown == b"kniffel play: ":
                status = game.wait(20)
                assert status == 2
            else:
                time.sleep(0.5)
                game.write(b"q")
                status = game.wait(20)
                assert status == 0, game.text()[-2000:]
            said = game.text()
        after = h.state()
    assert "Traceback" not in said
    # the solver's cache is kniffel's own (the win chances build a classic table there)
    new = {name for name in set(after) - set(before) if "kniffel/solver/" not in name}
    assert {name: after[name] for name in before} == before
    for name in new:  # a history created where there was none (the game keeps it): no game
        assert name.endswith("kniffel/history.sqlite3")
        with History(h.root / name, create=False) as created:
            assert created.games() == []
