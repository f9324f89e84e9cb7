"""Ctrl-C for a child process under test, wherever the tests run, and for a match in this process."""

import signal

from agents.evaluation.journal import MatchJournal


def hear_ctrl_c():
    """``preexec_fn`` for a child the test will stop with SIGINT. A shell's background job (a CI
    script run with ``&``, ``nohup``) ignores SIGINT, every child inherits that, and Python keeps
    an ignored SIGINT ignored: the child would never see the test's Ctrl-C."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def stop_after(monkeypatch, games: int) -> None:
    """Ctrl-C as a match saves its ``games + 1``-th game, before that game is on disk."""
    add = MatchJournal.add

    def add_then_stop(self, number, result):
        if len(self.games) == games:
            raise KeyboardInterrupt
        add(self, number, result)

    monkeypatch.setattr(MatchJournal, "add", add_then_stop)
