"""Ctrl-C and SIGTERM for the long commands: one path for both, and worker processes that stop.

A long command (``kniffel simulate``, ``solve``, ``review``, the model fit) runs inside
:func:`interruptible`: there SIGTERM raises :class:`Terminated`, a :class:`KeyboardInterrupt`,
so an ``except KeyboardInterrupt`` handles Ctrl-C and ``kill`` alike. Worker processes leave
that decision to their parent: :func:`worker_pool` starts them with SIGINT blocked and ignored
(a Ctrl-C at the terminal reaches the whole process group, and only the parent decides what
happens), and ends them (SIGTERM) when the work is interrupted.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from multiprocessing.pool import Pool

#: The exit status of a command stopped by Ctrl-C or SIGTERM (128 + SIGINT, as shells report it).
EXIT_INTERRUPTED = 130


class Terminated(KeyboardInterrupt):
    """SIGTERM arrived inside :func:`interruptible`: handled like Ctrl-C."""


def _raise_terminated(signum: int, frame: FrameType | None) -> None:
    raise Terminated


@contextmanager
def interruptible() -> Iterator[None]:
    """Within the block SIGTERM raises :class:`Terminated` (a :class:`KeyboardInterrupt`) in the
    main thread, as Ctrl-C raises :class:`KeyboardInterrupt`; the handler before it is back
    afterwards. Outside the main thread (where Python cannot set handlers) it changes nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.signal(signal.SIGTERM, _raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


@contextmanager
def shielded() -> Iterator[None]:
    """Within the block Ctrl-C and SIGTERM are ignored (the handlers before are back
    afterwards): for the last words of an interrupted command, which a second Ctrl-C must not
    cut short. Outside the main thread it changes nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = {s: signal.signal(s, signal.SIG_IGN) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for s, handler in before.items():
            signal.signal(s, handler)


def ignore_interrupts() -> None:
    """In a worker process: Ctrl-C does nothing (the parent ends the worker when it stops)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def _blocked(*signums: int) -> Iterator[None]:
    """The signals ``signums`` held back (not lost: they arrive when the block ends) in this
    thread; processes started meanwhile inherit the mask, so a Ctrl-C while they start up does
    not reach them either. In the main thread Python's handlers are held back too: the kernel
    hands a signal to any thread that does not block it (a progress bar's), and its handler
    would then raise in the main thread in the middle of the block (between spawning a worker
    and sending it its start-up data: the worker died with a traceback)."""
    if not hasattr(signal, "pthread_sigmask"):  # pragma: no cover - Windows
        yield
        return
    pending: list[int] = []
    handlers: dict[int, Any] = {}
    if threading.current_thread() is threading.main_thread():
        for s in signums:
            handlers[s] = signal.signal(s, lambda n, _frame: pending.append(n))
    before = signal.pthread_sigmask(signal.SIG_BLOCK, set(signums))
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)
        for s, handler in handlers.items():
            if handler is not None:
                signal.signal(s, handler)
        for n in dict.fromkeys(pending):  # each held-back signal once, to its own handler
            signal.raise_signal(n)


#: What went wrong when this worker process started (its initializer raised); empty if nothing.
_START_ERROR: list[Exception] = []


def _worker_start(initializer: Callable[..., None] | None, args: tuple[Any, ...]) -> None:
    ignore_interrupts()
    if initializer is not None:
        try:
            initializer(*args)
        except Exception as e:  # kept for the first task: a worker that dies here is replaced
            _START_ERROR.append(e)  # by another, which would die the same way, for ever


def worker_ready() -> None:
    """In a task of a :func:`worker_pool` worker: raise what its initializer raised, so that
    the error reaches the parent (with the task's result) instead of a worker dying."""
    if _START_ERROR:
        raise _START_ERROR[0]


@contextmanager
def worker_pool(jobs: int, initializer: Callable[..., None] | None = None,
                initargs: tuple[Any, ...] = ()) -> Iterator[Pool]:
    """A pool of ``jobs`` spawned worker processes that ignore Ctrl-C (each first runs
    ``initializer(*initargs)``). When the block ends, normally or by an exception (Ctrl-C,
    SIGTERM through :func:`interruptible`), the workers are ended at once (SIGTERM) and waited
    for: none outlives the block, none keeps computing work nobody waits for."""
    import multiprocessing
    from multiprocessing import resource_tracker

    # the tracker first: starting it unblocks SIGINT in this thread (it blocks and unblocks
    # around its own start), which would let a Ctrl-C reach the workers as they start up
    resource_tracker.ensure_running()
    with _blocked(signal.SIGINT):
        pool = multiprocessing.get_context("spawn").Pool(
            jobs, initializer=_worker_start, initargs=(initializer, initargs))
    try:
        yield pool
    finally:
        # a second Ctrl-C must not cut the ending short and leave workers behind
        with _blocked(signal.SIGINT, signal.SIGTERM):
            pool.terminate()
            pool.join()
