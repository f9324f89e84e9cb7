"""numba's cache folder follows the package's numba code (envs/numba_cache.py): a changed kernel
anywhere gives a fresh folder, so no cached caller runs on another version's rows."""

from __future__ import annotations

import subprocess
import sys

from envs.numba_cache import cache_folder, code_hash, kernel_sources


def tree(root, kernel: str, plain: str) -> None:
    (root / "envs" / "games").mkdir(parents=True)
    (root / "agents").mkdir()
    (root / "envs" / "games" / "rules.py").write_text(f"from numba import njit\n{kernel}\n")
    (root / "agents" / "driver.py").write_text("import numba\n")
    (root / "envs" / "text.py").write_text(plain)


def test_the_hash_changes_with_any_numba_module_and_only_with_those(tmp_path):
    first, second, third = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    tree(first, "ROW = 3", "NAME = 'x'")
    tree(second, "ROW = 4", "NAME = 'x'")  # a kernel module changed
    tree(third, "ROW = 3", "NAME = 'y'")  # a module without numba changed
    assert [p.relative_to(first).as_posix() for p in kernel_sources(first)] == [
        "envs/games/rules.py",
        "agents/driver.py",
    ]
    assert code_hash(first) != code_hash(second)
    assert code_hash(first) == code_hash(third)


def test_the_folder_honours_numba_cache_dir_and_xdg(tmp_path):
    tree(tmp_path, "ROW = 3", "")
    name = code_hash(tmp_path)
    assert cache_folder(tmp_path, {"NUMBA_CACHE_DIR": "/n"}).as_posix() == f"/n/neuzero-{name}"
    assert cache_folder(tmp_path, {"XDG_CACHE_HOME": "/x"}).as_posix() == f"/x/neuzero/numba-{name}"


def test_importing_agents_or_envs_points_numba_at_this_codes_folder(tmp_path):
    for package in ("agents", "envs"):
        script = f"import {package}, numba; print(numba.config.CACHE_DIR)"
        environ = {"NUMBA_CACHE_DIR": str(tmp_path), "PATH": "/usr/bin:/bin"}
        out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=environ, check=True)
        assert out.stdout.strip() == str(tmp_path / f"neuzero-{code_hash()}")
