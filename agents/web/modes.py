"""``evaluate.py``'s modes that this package adds: ``serve`` (the browser board) and
``analyse`` (the JSON-lines analysis engine on stdin and stdout).

=============  ==============================================================================
``serve``      the board on http://``host``:``port``/ (127.0.0.1:8000 by default) until Ctrl-C;
               ``az:NAME`` checkpoints from ``checkpoint_dir`` only (extra ``web``)
``analyse``    one JSON query a line on stdin, one answer a line on stdout
               (:mod:`agents.web.engine`); reports go to stderr
=============  ==============================================================================
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from typing import TextIO

from omegaconf import DictConfig

from agents.config import ConfigError
from agents.evaluation.modes import MODES, evaluate
from agents.web.engine import Engine
from agents.web.players import PlayerSource, SpecError


def run_serve(cfg: DictConfig, run_dir: Path, out: TextIO) -> dict:
    try:
        import uvicorn

        from agents.web.server import make_app
    except ImportError as error:
        raise ConfigError(f"mode=serve needs the web extra (pip install -e '.[web]'): {error}") from None
    host, port = _address(cfg)
    app = make_app(_source(cfg), cfg.seed)
    print(f"the board is at http://{host}:{port}/ (Ctrl-C stops the server)", file=out)
    uvicorn.run(app, host=host, port=port, log_level="warning")
    return {"host": host, "port": port}


def run_analyse(cfg: DictConfig, run_dir: Path, out: TextIO) -> dict:
    engine = Engine(_source(cfg))
    print("analysis engine: one JSON query a line on stdin, answers on stdout", file=out)
    count = engine.run(sys.stdin, sys.stdout)
    print(f"answered {count} queries", file=out)
    return {"queries": count}


WEB_MODES = {"serve": run_serve, "analyse": run_analyse}


def evaluate_any(cfg: DictConfig, run_dir: str | Path, out: TextIO) -> dict:
    """``agents.evaluation.modes.evaluate`` with this package's modes too; ``analyse`` keeps
    stdout for its answers, so its reports (and the console log) go to stderr."""
    if cfg.get("mode") == "analyse":
        for handler in logging.getLogger().handlers:
            if isinstance(handler, logging.StreamHandler) and getattr(handler, "stream", None) is sys.stdout:
                handler.setStream(sys.stderr)
        out = sys.stderr
    return evaluate(cfg, run_dir, out, MODES | WEB_MODES)


def _source(cfg: DictConfig) -> PlayerSource:
    try:
        return PlayerSource(cfg.get("checkpoint_dir"))
    except SpecError as error:
        raise ConfigError(str(error)) from None


def _address(cfg: DictConfig) -> tuple[str, int]:
    host, port = cfg.get("host"), cfg.get("port")
    if not isinstance(host, str) or not host:
        raise ConfigError(f"host: must be an address to bind, e.g. 127.0.0.1; got {host!r}")
    if isinstance(port, bool) or not isinstance(port, int) or not 1 <= port <= 65535:
        raise ConfigError(f"port: must be an integer from 1 to 65535, got {port!r}")
    return host, port
