"""Ctrl-C and SIGTERM stop the long commands at once, end their workers and say what was done;
targets are checked before the work starts.

The signal tests run ``python -m kniffel`` in its own process group: SIGINT to the whole group is
what a terminal's Ctrl-C sends (the workers get it too, and must leave the decision to their
parent); SIGTERM goes to the command's process alone, as ``kill PID`` sends it. The promise is
2 seconds from the signal to the exit; the assertions allow 5 on this shared, loaded machine
(measured: about 0.1–0.7 s).
"""

from __future__ import annotations

import json
import os
import pty
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from kniffel import preset
from kniffel.cli import main
from kniffel.cli.simulate import plot_target_problem
from kniffel.engine.strategy import get_strategy
from kniffel.interrupt import EXIT_INTERRUPTED, Terminated, _blocked, interruptible, worker_pool
from kniffel.simulate import SimulationInterrupted, simulate

#: Seconds from the signal to the exit that the tests accept (the promise is 2).
EXIT_WITHIN = 5.0

ENV = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANG")}
ENV |= {"COLUMNS": "120", "NO_COLOR": "1", "TERM": "xterm"}


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="utf-8") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry))
    return found


def _alive(pid: int) -> bool:
    """Whether ``pid`` still runs (a zombie, already ended, does not)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


class Run:
    """``python -m kniffel ARGS`` in its own process group; stdout to a file, stderr to a file
    or (``terminal=True``) to a pseudo-terminal, so that the progress bar is drawn."""

    def __init__(self, *args: str, lang: str = "de", terminal: bool = False,
                 env: dict[str, str] | None = None) -> None:
        # closed by close()
        self.out = tempfile.TemporaryFile()  # noqa: SIM115
        self.err_file = tempfile.TemporaryFile()  # noqa: SIM115
        self.leader = -1
        err: Any = self.err_file
        if terminal:
            self.leader, follower = pty.openpty()
            err = follower
        environ = ENV | {"LANG": "de_DE.UTF-8" if lang == "de" else "en_US.UTF-8"} | (env or {})
        self.proc = subprocess.Popen([sys.executable, "-m", "kniffel", *args], stdout=self.out,
                                     stderr=err, env=environ, start_new_session=True)
        if terminal:
            os.close(follower)
        self.seen = b""

    def read_terminal(self, pattern: str, timeout: float) -> re.Match[str]:
        """Read the terminal until ``pattern`` appears in it (at most ``timeout`` seconds)."""
        import select

        end = time.monotonic() + timeout
        while time.monotonic() < end:
            ready, _, _ = select.select([self.leader], [], [], 0.2)
            if ready:
                try:
                    self.seen += os.read(self.leader, 65536)
                except OSError:
                    break
            found = re.search(pattern, self.seen.decode("utf-8", "replace"))
            if found:
                return found
        raise AssertionError(f"{pattern!r} not seen in {self.seen[-500:]!r}")

    def wait_for_workers(self, count: int, timeout: float = 30) -> list[int]:
        """Wait until the command has ``count`` children (its worker processes are started)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            kids = _children(self.proc.pid)
            if len(kids) >= count:
                return kids
            time.sleep(0.05)
        raise AssertionError(f"no {count} worker processes after {timeout} s")

    def stop(self, signum: int, *, group: bool) -> tuple[float, list[int]]:
        """Send ``signum`` (to the whole group: Ctrl-C); the seconds until the command exited,
        and its children (recorded before the signal) that still run a moment later."""
        kids = _children(self.proc.pid)
        sent = time.monotonic()
        (os.killpg if group else os.kill)(self.proc.pid, signum)
        try:
            self.proc.wait(timeout=60)
        finally:
            if self.proc.poll() is None:
                os.killpg(self.proc.pid, signal.SIGKILL)
        took = time.monotonic() - sent
        end = time.monotonic() + 2
        while any(_alive(k) for k in kids) and time.monotonic() < end:
            time.sleep(0.05)
        survivors = [k for k in kids if _alive(k)]
        for k in survivors:
            os.kill(k, signal.SIGKILL)
        return took, survivors

    @property
    def stdout(self) -> str:
        self.out.seek(0)
        return self.out.read().decode("utf-8")

    @property
    def stderr(self) -> str:
        if self.leader >= 0:
            try:
                while chunk := os.read(self.leader, 65536):
                    self.seen += chunk
            except OSError:
                pass
            return self.seen.decode("utf-8", "replace")
        self.err_file.seek(0)
        return self.err_file.read().decode("utf-8")

    def close(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        if self.leader >= 0:
            os.close(self.leader)
        self.out.close()
        self.err_file.close()


@contextmanager
def running(*args: str, lang: str = "de", terminal: bool = False,
            env: dict[str, str] | None = None) -> Iterator[Run]:
    run = Run(*args, lang=lang, terminal=terminal, env=env)
    try:
        yield run
    finally:
        run.close()


def _no_noise(text: str) -> None:
    assert "Aborted!" not in text
    assert "Traceback" not in text


# --- kniffel simulate ---------------------------------------------------------------------------


@pytest.mark.solve
def test_ctrl_c_ends_a_parallel_simulation_at_once_with_the_games_so_far_in_german() -> None:
    """The bar moves as games finish (it used to sit at 1/N); Ctrl-C (SIGINT to the group)
    ends the command and both workers within seconds and prints the partial result."""
    with running("simulate", "--rules", "kniffel", "--games", "100000", "--jobs", "2",
                 terminal=True) as run:
        # the parent plays games 0 and 1; 10 and more have come back from the workers
        run.read_terminal(r"\b\d[\d.,]*\d/100[.,]000", timeout=40)
        took, survivors = run.stop(signal.SIGINT, group=True)
        err, out = run.stderr, run.stdout
    assert run.proc.returncode == EXIT_INTERRUPTED, err
    assert took < EXIT_WITHIN, took
    assert survivors == []
    found = re.search(r"abgebrochen nach ([\d.]+) von 100\.000 Spielen\.", err)
    assert found, err
    done = found.group(1)
    assert f"{done} von 100.000 Spielen (abgebrochen)" in out
    assert "Mittelwert" in out
    _no_noise(err + out)


def test_ctrl_c_while_the_workers_start_reaches_none_of_them() -> None:
    """Right after the parent's own games 0 and 1 the workers are starting: a Ctrl-C then
    must not hit one in its start-up (a traceback from the worker) — they start with SIGINT
    held back."""
    with running("simulate", "--rules", "kniffel", "--games", "100000", "--jobs", "2",
                 terminal=True) as run:
        run.read_terminal(r"\b2/100[.,]000", timeout=40)
        took, survivors = run.stop(signal.SIGINT, group=True)
        err, out = run.stderr, run.stdout
    assert run.proc.returncode == EXIT_INTERRUPTED, err
    assert took < EXIT_WITHIN, took
    assert survivors == []
    assert "abgebrochen nach" in err
    _no_noise(err + out)


@pytest.mark.solve
def test_sigterm_ends_a_parallel_simulation_with_a_reproducible_partial_json_in_english() -> None:
    """SIGTERM to the command alone takes the same path: the workers end, the JSON says
    ``partial`` and holds games 0…N-1, exactly what ``--games N`` gives."""
    with running("simulate", "--rules", "kniffel", "--games", "100000", "--jobs", "2",
                 "--seed", "5", "--json", lang="en", terminal=True) as run:
        run.read_terminal(r"\b\d[\d.,]*\d/100[.,]000", timeout=40)
        took, survivors = run.stop(signal.SIGTERM, group=False)
        err, out = run.stderr, run.stdout
    assert run.proc.returncode == EXIT_INTERRUPTED, err
    assert took < EXIT_WITHIN, took
    assert survivors == []
    data = json.loads(out)
    assert data["partial"] is True
    assert data["games_requested"] == 100000
    n = data["games"]
    assert 1 <= n == len(data["totals"])
    assert f"interrupted after {n:,} of 100,000 games." in err
    _no_noise(err + out)
    again = CliRunner().invoke(main, ["simulate", "--rules", "kniffel", "--games", str(n),
                                      "--seed", "5", "--json", "--jobs", "1"])
    full = json.loads(again.stdout)
    assert full["totals"] == data["totals"]
    assert full["partial"] is False
    assert full["games_requested"] == n


def test_sigterm_ends_a_head_to_head_run_with_a_reproducible_partial_result() -> None:
    """Issue 41: a head-to-head run (a strategy per seat) stops as a solitaire run does: the
    workers end, the JSON holds games 0…N-1 of every seat, exactly what ``--games N`` gives."""
    with running("simulate", "--rules", "kniffel", "--strategy", "greedy", "--strategy",
                 "random", "--games", "100000", "--jobs", "2", "--seed", "5", "--json",
                 lang="en", terminal=True) as run:
        run.read_terminal(r"\b\d[\d.,]*\d/100[.,]000", timeout=40)
        took, survivors = run.stop(signal.SIGTERM, group=False)
        err, out = run.stderr, run.stdout
    assert run.proc.returncode == EXIT_INTERRUPTED, err
    assert took < EXIT_WITHIN, took
    assert survivors == []
    data = json.loads(out)
    assert data["partial"] is True
    assert data["games_requested"] == 100000
    n = data["games"]
    assert all(1 <= n == len(seat["totals"]) for seat in data["seats"])
    assert f"interrupted after {n:,} of 100,000 games." in err
    _no_noise(err + out)
    again = CliRunner().invoke(main, ["simulate", "--rules", "kniffel", "--strategy", "greedy",
                                      "--strategy", "random", "--games", str(n), "--seed", "5",
                                      "--json", "--jobs", "1"])
    full = json.loads(again.stdout)
    assert [s["totals"] for s in full["seats"]] == [s["totals"] for s in data["seats"]]
    assert [s["wins"] for s in full["seats"]] == [s["wins"] for s in data["seats"]]
    assert full["partial"] is False


def test_ctrl_c_ends_a_simulation_in_one_process_in_german() -> None:
    with running("simulate", "--rules", "kniffel", "--games", "100000", "--jobs", "1",
                 terminal=True) as run:
        run.read_terminal(r"\b\d[\d.,]*\d/100[.,]000", timeout=40)
        took, _ = run.stop(signal.SIGINT, group=True)
        err, out = run.stderr, run.stdout
    assert run.proc.returncode == EXIT_INTERRUPTED, err
    assert took < EXIT_WITHIN, took
    assert re.search(r"abgebrochen nach [\d.]+ von 100\.000 Spielen\.", err), err
    _no_noise(err + out)


def test_an_interrupted_simulation_keeps_the_games_finished_without_a_gap() -> None:
    """Whatever finished after a gap is left out: the partial result is that of games 0…N-1,
    equal to a run of N games, in one process and in several."""
    rules = preset("kniffel")
    strategy = get_strategy("greedy", rules)
    for jobs, stop_at in ((1, 7), (2, 9)):
        def progress(done: int, _games: int, stop_at: int = stop_at) -> None:
            if done >= stop_at:
                raise KeyboardInterrupt

        with pytest.raises(SimulationInterrupted) as caught:
            simulate(rules, strategy, 400, seed=3, jobs=jobs, progress=progress)
        partial = caught.value.partial
        assert partial is not None
        assert caught.value.requested == 400
        assert partial.partial
        assert partial.requested == 400
        assert 1 <= partial.games <= 400
        assert partial == simulate(rules, strategy, partial.games, seed=3)
        if jobs == 1:
            assert partial.games == stop_at


# --- kniffel solve ------------------------------------------------------------------------------


def _wait_for(path_glob: str, folder: Path, timeout: float = 40) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if list(folder.glob(path_glob)):
            return
        time.sleep(0.05)
    raise AssertionError(f"no {path_glob} in {folder} after {timeout} s")


@pytest.mark.solve
def test_ctrl_c_and_sigterm_stop_a_solve_and_the_same_command_completes_it(
        tmp_path: Path) -> None:
    """Mid-solve (its .partial file is there) both signals stop it with the catalog's
    sentence and 130; the same command then finishes the table."""
    args = ("solve", "--rules", "extreme", "--max-open", "4", "--cache-dir", str(tmp_path))
    for signum, group, lang, sentence in (
            (signal.SIGINT, True, "de", "unterbrochen — was bis zur letzten Sicherung"),
            (signal.SIGTERM, False, "en", "interrupted — the work up to the last checkpoint")):
        for leftover in tmp_path.glob("*.partial"):  # the round before's checkpoint: wait for
            leftover.unlink()                        # this process's own, not start-up
        with running(*args, "--force", lang=lang) as run:
            _wait_for("*.partial", tmp_path)
            time.sleep(0.3)
            took, _ = run.stop(signum, group=group)
            err, out = run.stderr, run.stdout
        assert run.proc.returncode == EXIT_INTERRUPTED, err
        assert took < EXIT_WITHIN, took
        assert f"kniffel solve: {sentence}" in err
        _no_noise(err + out)
        assert not (tmp_path / "extreme-open4.table").exists()
    done = subprocess.run([sys.executable, "-m", "kniffel", *args], capture_output=True,
                          text=True, env=ENV | {"LANG": "de_DE.UTF-8"}, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "Endspiele mit höchstens 4 offenen Kästchen" in done.stdout
    assert (tmp_path / "extreme-open4.table").exists()


# --- the signal plumbing ------------------------------------------------------------------------


def test_sigterm_inside_interruptible_is_a_keyboard_interrupt_and_the_old_handler_returns(
        ) -> None:
    def terminated_inside() -> None:
        with interruptible():
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(5)

    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(KeyboardInterrupt) as caught:
        terminated_inside()
    assert isinstance(caught.value, Terminated)
    assert signal.getsignal(signal.SIGTERM) == before


def _sleep(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


def test_a_worker_pool_ends_its_workers_when_its_block_is_interrupted() -> None:
    kids: list[int] = []

    def interrupted_while_working() -> None:
        with worker_pool(2) as pool:
            pool.map_async(_sleep, [30.0, 30.0])
            time.sleep(0.5)
            kids.extend(p.pid for p in pool._pool)  # type: ignore[attr-defined]
            raise KeyboardInterrupt

    began = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        interrupted_while_working()
    assert time.monotonic() - began < 10  # not the 30 s the tasks would take
    assert len(kids) == 2
    assert not any(_alive(k) for k in kids)


# --- targets checked before the work ------------------------------------------------------------


@pytest.mark.parametrize(("where", "sentence"), [
    ("missing/totals.png", "kann nicht geschrieben werden: den Ordner gibt es nicht"),
    ("folder", "ist ein Ordner, keine Datei"),
    ("file.txt/totals.png", "ein Teil des Pfades ist kein Ordner"),
])
def test_simulate_refuses_a_plot_target_before_any_game(tmp_path: Path, where: str,
                                                         sentence: str) -> None:
    (tmp_path / "folder").mkdir()
    (tmp_path / "file.txt").write_text("mine", encoding="utf-8")
    began = time.monotonic()
    result = CliRunner().invoke(main, ["simulate", "--games", "1000000", "--plot",
                                       str(tmp_path / where)], env={"LANG": "de_DE.UTF-8"})
    assert time.monotonic() - began < 10  # a million games would take hours
    assert result.exit_code == 2
    assert sentence in result.stderr, result.stderr
    assert "Traceback" not in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file.txt", "folder"]
    assert (tmp_path / "file.txt").read_text(encoding="utf-8") == "mine"


def test_simulate_names_the_folder_that_takes_no_files_for_a_plot_in_proc() -> None:
    """/proc exists and looks writable, but makes no files: ENOENT, not "no such folder"."""
    result = CliRunner().invoke(main, ["simulate", "--games", "1000000", "--plot",
                                       "/proc/x.png", "--lang", "en"])
    assert result.exit_code == 2
    assert ("/proc/x.png cannot be written: the folder /proc does not take new files."
            in result.stderr), result.stderr
    assert "does not exist" not in result.stderr


def test_the_plot_check_leaves_no_file_behind_and_keeps_an_existing_one(tmp_path: Path) -> None:
    new = tmp_path / "new.png"
    assert plot_target_problem(str(new), "de") is None
    assert not new.exists()
    old = tmp_path / "old.png"
    old.write_bytes(b"earlier plot")
    assert plot_target_problem(str(old), "en") is None
    assert old.read_bytes() == b"earlier plot"


# --- kniffel web --------------------------------------------------------------------------------


def test_web_on_a_busy_port_names_it_and_suggests_another_before_building() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        for lang, sentence in (
                ("de", f"127.0.0.1:{port} ist schon belegt"),
                ("en", f"127.0.0.1:{port} is already in use")):
            began = time.monotonic()
            result = CliRunner().invoke(main, ["web", "--port", str(port), "--no-browser",
                                               "--lang", lang])
            assert time.monotonic() - began < 5  # refused before the site is built
            assert result.exit_code == 2
            assert f"kniffel web: {sentence}" in result.stderr
            assert "--port 0" in result.stderr
            assert "?" not in result.stderr


def test_web_export_refuses_a_foreign_folder_and_accepts_its_own_earlier_site(
        tmp_path: Path) -> None:
    from kniffel.web.server import WebSetupError, build_site

    foreign = tmp_path / "notes"
    foreign.mkdir()
    (foreign / "todo.txt").write_text("mine", encoding="utf-8")
    result = CliRunner().invoke(main, ["web", "--export", str(foreign), "--lang", "en"])
    assert result.exit_code == 2
    assert "is not empty and holds no earlier kniffel site; nothing was written" in result.stderr
    assert [p.name for p in foreign.iterdir()] == ["todo.txt"]
    # an earlier export (its meta.json and kniffel.zip), or --force, gets past the check: to
    # the next one, Pyodide (here a folder without it)
    site = tmp_path / "site"
    site.mkdir()
    (site / "meta.json").write_text('{"build": "0123456789abcdef"}', encoding="utf-8")
    (site / "kniffel.zip").write_bytes(b"PK")
    for target, force in ((site, False), (foreign, True)):
        with pytest.raises(WebSetupError) as caught:
            build_site(target, pyodide_dir=tmp_path / "no-pyodide", force=force)
        assert caught.value.code == "web.pyodide_incomplete"


# --- kniffel review -----------------------------------------------------------------------------


def test_an_interrupted_review_says_so_in_one_sentence_and_exits_130(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from kniffel.engine.game import Game, Player, PlayerKind
    from kniffel.solver import review as review_module
    from kniffel.storage import save_game

    save = save_game(Game(preset("kniffel"), [Player("Anna", PlayerKind.HUMAN)], seed=1),
                     tmp_path / "game.json")

    def interrupted(*_args: object, **_kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(review_module, "review", interrupted)
    for lang, sentence in (("de", "abgebrochen – die Auswertung wurde nicht fertig"),
                           ("en", "interrupted – the review did not finish")):
        result = CliRunner().invoke(main, ["review", str(save), "--lang", lang])
        assert result.exit_code == EXIT_INTERRUPTED
        assert f"kniffel review: {sentence}" in result.stderr
        _no_noise(result.output)


@pytest.mark.solve
def test_sigterm_stops_the_web_server_and_removes_its_temporary_site(tmp_path: Path) -> None:
    with running("web", "--port", "0", "--no-browser", "--lang", "en",
                 env={"TMPDIR": str(tmp_path)}) as run:
        end = time.monotonic() + 120
        while "kniffel web: http://" not in run.stdout and time.monotonic() < end:
            time.sleep(0.1)
        assert "(Ctrl+C stops)" in run.stdout
        assert [p.name[:12] for p in tmp_path.iterdir()] == ["kniffel-web-"]
        took, _ = run.stop(signal.SIGTERM, group=False)
    assert run.proc.returncode == 0
    assert took < EXIT_WITHIN
    assert list(tmp_path.iterdir()) == []


def _refuse_to_start() -> None:
    raise ValueError("no table here")


def _worker_task(x: int) -> int:
    from kniffel.interrupt import worker_ready

    worker_ready()
    return x


def test_a_worker_whose_start_fails_hands_the_error_to_the_parent() -> None:
    """A worker whose initializer raises would be replaced by another for ever (the pool's
    way); the error comes back with the first task instead."""
    with worker_pool(1, _refuse_to_start) as pool:
        answer = pool.apply_async(_worker_task, (1,))
        with pytest.raises(ValueError, match="no table here"):
            answer.get(timeout=60)


def test_a_ctrl_c_that_another_thread_receives_waits_until_the_workers_have_started() -> None:
    """The kernel hands a Ctrl-C to any thread that does not block it (a progress bar's); its
    handler must still wait until the workers' start is over, not raise in the middle of it
    (CI saw a worker spawned, its start-up data never sent: a traceback from the worker)."""
    reached_the_end = False
    go = threading.Event()

    def bar() -> None:  # started before the block, so SIGINT is not blocked in it
        go.wait()
        os.kill(os.getpid(), signal.SIGINT)

    other = threading.Thread(target=bar)
    other.start()
    # the block itself is what is tested
    with pytest.raises(KeyboardInterrupt), _blocked(signal.SIGINT):  # noqa: PT012
        go.set()
        other.join()
        for _ in range(200_000):  # Python code, where the main thread would run a handler
            pass
        reached_the_end = True
    assert reached_the_end
