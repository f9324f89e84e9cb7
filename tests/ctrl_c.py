"""Ctrl-C for a child process under test, wherever the tests run."""

import signal


def hear_ctrl_c():
    """``preexec_fn`` for a child the test will stop with SIGINT. A shell's background job (a CI
    script run with ``&``, ``nohup``) ignores SIGINT, every child inherits that, and Python keeps
    an ignored SIGINT ignored: the child would never see the test's Ctrl-C."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
