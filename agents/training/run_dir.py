"""Where a training run writes: one run directory per run, also across resumes.

``hydra.run.dir`` (``configs/train.yaml``) calls :func:`run_directory`: a new
run gets ``runs/GAME/TIME``; a resumed one (``resume=PATH``) continues in the
run directory its checkpoint lives in (``RUN/checkpoints/NAME.pt``), so one run
keeps one set of TensorBoard curves, one ``train.log`` and one
``.hydra/config.yaml`` (what ran last). A run that stops at a configuration
error removes the directory Hydra made for it (:func:`remove_unused_run_dir`).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from agents.net.checkpoint import CheckpointError, latest_checkpoint, load_checkpoint


def run_directory(resume, game: str, time: str) -> str:
    """``runs/GAME/TIME``, or the run directory of checkpoint ``resume``; a lone
    checkpoint file gets a new directory under the game it was trained on."""
    if resume:
        path = Path(str(resume))
        try:
            checkpoint = latest_checkpoint(path) if path.is_dir() else path
            if checkpoint.parent.name == "checkpoints" and checkpoint.is_file():
                return str(checkpoint.parent.parent)
            game = load_checkpoint(checkpoint)["game"]["name"]
        except CheckpointError:
            pass  # the run reports the problem, then removes the directory it did not use
    return f"runs/{game}/{time}"


def remove_unused_run_dir(run_dir: str | Path) -> bool:
    """Delete ``run_dir`` if it holds only what Hydra writes at the start (``.hydra/``,
    ``*.log``), then its parents that are left empty inside the working directory. The
    working directory itself (``hydra.run.dir=.``) and any folder above it stay."""
    run_dir, cwd = Path(run_dir).resolve(), Path.cwd().resolve()
    if run_dir == cwd or run_dir in cwd.parents:
        return False
    if not run_dir.is_dir() or any(p.name != ".hydra" and p.suffix != ".log" for p in run_dir.iterdir()):
        return False
    shutil.rmtree(run_dir)
    for parent in run_dir.parents:
        if parent == cwd or cwd not in parent.parents or any(parent.iterdir()):
            break
        parent.rmdir()
    return True
