"""Stopping a run cleanly: SIGINT and SIGTERM both stop it, and never halfway through a save.

Ctrl-C sends SIGINT; schedulers, containers and ``kill`` send SIGTERM, whose
default action ends the process at once, with nothing saved. Once
:func:`stop_on_signals` has installed a :class:`Stopper`, both raise
:class:`Interrupted` (a KeyboardInterrupt),
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
    """The handler of SIGINT and SIGTERM while installed: raises :class:`Interrupted`,
    or, inside :meth:`held`, remembers the signal for later."""

    def __init__(self):
        self.holding = False
        self.pending: int | None = None
        self.previous: dict[int, object] = {}

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

    def restore(self) -> None:
        """Give SIGINT and SIGTERM their handlers from before :func:`stop_on_signals`."""
        for number, handler in self.previous.items():
            signal.signal(number, handler)
        self.previous = {}


def stop_on_signals() -> Stopper:
    """Install a :class:`Stopper` for SIGINT and SIGTERM until its ``restore()``.

    Outside the main thread, where Python cannot install handlers, nothing is
    installed: Ctrl-C keeps Python's default there.
    """
    stopper = Stopper()
    if threading.current_thread() is threading.main_thread():
        stopper.previous = {number: signal.signal(number, stopper) for number in STOP_SIGNALS}
    return stopper
