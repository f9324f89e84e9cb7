"""Load a script of the checkout (an example, a benchmark) as a module, to call its functions."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def load_script(relative: str):
    """The module of the script at ``relative`` (from the checkout's root), freshly executed."""
    path = ROOT / relative
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
