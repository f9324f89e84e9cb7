"""Stopping a run cleanly: SIGINT and SIGTERM both stop it, and never halfway through a save.

Ctrl-C sends SIGINT; schedulers, containers and ``kill`` send SIGTERM, whose
default action ends the process at once, with nothing saved. Inside
:func:`stop_on_signals` both raise :class:`Interrupted` (a KeyboardInterrupt),
so the loop's one handler writes a checkpoint for either. Inside
:meth:`Stopper.held` a signal is remembered instead: the checkpoint being
written is completed first, and the stop comes right after it.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from typing import Iterator

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Interrupted(KeyboardInterrupt):
    """A stop asked for by a signal; a process that stops for it exits with 128 + ``signum``."""

    def __init__(self, signum: int):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def exit_status(interrupt: KeyboardInterrupt) -> int:
    """The shell's exit status for a run stopped by ``interrupt`` (130 for Ctrl-C)."""
    return 128 + getattr(interrupt, "signum", signal.SIGINT)


class Stopper:
    """The signal handler: raises :class:`Interrupted`, or holds the signal during a save."""

    def __init__(self):
        self.holding = False
        self.pending: int | None = None

    def __call__(self, signum, frame) -> None:
        if self.holding:
            self.pending = signum
            return
        raise Interrupted(signum)

    @contextlib.contextmanager
    def held(self, stop_after: bool = True) -> Iterator[None]:
        """Hold signals for the block; then raise the one that came (if ``stop_after``)."""
        self.holding = True
        try:
            yield
        finally:
            self.holding = False
            pending, self.pending = self.pending, None
        if pending is not None and stop_after:
            raise Interrupted(pending)


@contextlib.contextmanager
def stop_on_signals() -> Iterator[Stopper]:
    """Install a :class:`Stopper` for SIGINT and SIGTERM; the old handlers come back after.

    Outside the main thread (where Python cannot install handlers) the stopper
    is returned uninstalled: Ctrl-C then behaves as Python's default.
    """
    stopper = Stopper()
    if threading.current_thread() is not threading.main_thread():
        yield stopper
        return
    previous = {number: signal.signal(number, stopper) for number in STOP_SIGNALS}
    try:
        yield stopper
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
