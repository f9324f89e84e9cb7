"""Where numba keeps the compiled kernels: one folder per version of the package's numba code.

numba's on-disk cache (``@njit(cache=True)``) checks only the source file of the function it
compiled, not the functions it calls. The search driver's kernels call each game's rules
through ``envs.compiled``, so after a game's kernels change (a new row layout), a cached
driver kernel would run the old machine code on the new rows: wrong results or a crash. So
the cache folder is named by a hash of every module of ``envs`` and ``agents`` that uses
numba: a changed kernel anywhere gives a fresh folder and everything compiles again once.

The folder is ``$NUMBA_CACHE_DIR/neuzero-HASH`` where that variable is set, else
``$XDG_CACHE_HOME/neuzero/numba-HASH`` (``~/.cache`` by default); where it cannot be made,
numba keeps its default (``__pycache__`` beside the sources). :func:`configure` must run
before the first ``@njit(cache=True)`` function is defined; ``envs`` and ``agents`` call it
first thing on import.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("envs", "agents")
_configured: list[str] = []  # the folder chosen, once per process


def kernel_sources(root: Path = ROOT) -> list[Path]:
    """The modules of ``PACKAGES`` under ``root`` that import numba, in a stable order."""
    found = []
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            if "numba" in path.read_text(encoding="utf-8"):
                found.append(path)
    return found


def code_hash(root: Path = ROOT) -> str:
    """A short hash of the numba modules' paths and contents under ``root``."""
    digest = hashlib.sha256()
    for path in kernel_sources(root):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def cache_folder(root: Path = ROOT, environ=os.environ) -> Path:
    """The cache folder for the code under ``root`` (module docstring)."""
    name = code_hash(root)
    if environ.get("NUMBA_CACHE_DIR"):
        return Path(environ["NUMBA_CACHE_DIR"]) / f"neuzero-{name}"
    base = Path(environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "neuzero" / f"numba-{name}"


def configure() -> str | None:
    """Point numba's cache at :func:`cache_folder` (once a process); the folder, or None where
    it cannot be made (numba then keeps its default)."""
    if _configured:
        return _configured[0]
    import numba

    folder = cache_folder()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        _configured.append(None)
        return None
    numba.config.CACHE_DIR = str(folder)
    _configured.append(str(folder))
    return str(folder)


configure()  # on import: ``envs`` and ``agents`` import this module before any kernel
