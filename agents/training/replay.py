"""The replay buffer of self-play training targets, and symmetry augmentation.

Plain numpy ring buffers: ``obs [N, C, H, W]``, ``policy [N, num_actions]`` (the
search's visit distribution) and ``value [N]`` (the return target of the seat to
move). The newest ``capacity`` positions are kept; batches are drawn uniformly
with the caller's generator and each sample is mapped by a random symmetry of
the game (:func:`augment`), so the buffer stores every position once.

A run over several board sizes keeps one ring per size in a :class:`SizedReplay`
under one capacity (the run's newest positions, whatever their size); each
batch is of one size, the size drawn in proportion to the positions it holds,
and augmented by that size's symmetries. With one size it is exactly the one
ring.
"""

from __future__ import annotations

import re
from typing import Any, Mapping, Sequence

import numpy as np

from envs.core import Symmetry


class ReplayBuffer:
    """A fixed-capacity FIFO of (observation, policy, value) training targets."""

    def __init__(self, capacity: int, obs_shape: tuple[int, ...], num_actions: int):
        if capacity < 1:
            raise ValueError(f"replay capacity must be >= 1, got {capacity}")
        self.capacity = int(capacity)
        self.obs = np.zeros((self.capacity, *obs_shape), dtype=np.float32)
        self.policy = np.zeros((self.capacity, num_actions), dtype=np.float32)
        self.value = np.zeros(self.capacity, dtype=np.float32)
        self.size = 0  # positions held
        self.next = 0  # slot the next position goes to
        self.total_added = 0  # positions ever added

    def __len__(self) -> int:
        return self.size

    def add(self, obs: np.ndarray, policy: np.ndarray, value: np.ndarray) -> None:
        """Append a batch of positions, overwriting the oldest once full."""
        n = len(obs)
        if not len(policy) == len(value) == n:
            raise ValueError(f"batch sizes differ: obs {n}, policy {len(policy)}, value {len(value)}")
        if n > self.capacity:  # only the newest fit, in the slots they would have reached
            obs, policy, value = obs[-self.capacity :], policy[-self.capacity :], value[-self.capacity :]
            self.total_added += n - self.capacity
            self.next = int((self.next + n - self.capacity) % self.capacity)
            n = self.capacity
        slots = (self.next + np.arange(n)) % self.capacity
        self.obs[slots] = obs
        self.policy[slots] = policy
        self.value[slots] = value
        self.next = int((self.next + n) % self.capacity)
        self.size = min(self.capacity, self.size + n)
        self.total_added += n

    def drop_oldest(self, count: int) -> None:
        """Forget the ``count`` oldest positions (a :class:`SizedReplay` making room)."""
        self.size -= min(count, self.size)

    def sample(
        self, batch_size: int, rng: np.random.Generator, symmetries: Sequence[Symmetry] = ()
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """A uniform batch (with replacement), each sample under a random symmetry."""
        if self.size == 0:
            raise ValueError("cannot sample from an empty replay buffer")
        index = rng.integers(self.size, size=batch_size)
        if self.size < self.capacity:  # held slots start at the oldest (slot 0 unless some were dropped)
            index = (self.next - self.size + index) % self.capacity
        obs, policy, value = self.obs[index], self.policy[index], self.value[index]
        if len(symmetries) > 1:
            obs, policy = augment(obs, policy, symmetries, rng.integers(len(symmetries), size=batch_size))
        return obs, policy, value

    # --- persistence (files are written by agents.training.saving) ---------------------------
    def state_dict(self) -> dict[str, np.ndarray]:
        """The held positions, oldest first, plus counters: plain arrays (on disk:
        :func:`pack_state`)."""
        order = (self.next - self.size + np.arange(self.size)) % self.capacity
        return {
            "obs": self.obs[order],
            "policy": self.policy[order],
            "value": self.value[order],
            "capacity": np.array(self.capacity),
            "total_added": np.array(self.total_added),
        }

    @classmethod
    def from_state_dict(cls, state: dict[str, np.ndarray], capacity: int | None = None) -> "ReplayBuffer":
        """The buffer of :meth:`state_dict`; with ``capacity``, resized to it (a
        smaller one keeps the newest positions)."""
        obs, policy, value = (np.asarray(state[name], dtype=np.float32) for name in ("obs", "policy", "value"))
        if not len(obs) == len(policy) == len(value) or obs.ndim < 2 or policy.ndim != 2:
            raise ValueError(f"arrays do not match: obs {obs.shape}, policy {policy.shape}, value {value.shape}")
        buffer = cls(int(state["capacity"]) if capacity is None else capacity, obs.shape[1:], policy.shape[1])
        buffer.add(obs, policy, value)
        buffer.total_added = int(state["total_added"])
        if buffer.size == buffer.capacity:
            # A full buffer samples by slot: put every position back in the slot it held
            # (position k of the run in slot k mod capacity), so a resumed run draws the same batches.
            buffer.next = buffer.total_added % buffer.capacity
            for name in ("obs", "policy", "value"):
                setattr(buffer, name, np.roll(getattr(buffer, name), buffer.next, axis=0))
        return buffer


class SizedReplay:
    """One :class:`ReplayBuffer` per board size, the newest ``capacity`` positions of the
    run kept over all of them; :meth:`sample` draws a batch of one size."""

    def __init__(self, capacity: int, shapes: Mapping[Any, tuple[tuple[int, ...], int]]):
        """``shapes``: board size -> (observation shape, number of actions)."""
        if capacity < 1:
            raise ValueError(f"replay capacity must be >= 1, got {capacity}")
        self.capacity = int(capacity)
        self.buffers = {
            size: ReplayBuffer(capacity, obs_shape, actions) for size, (obs_shape, actions) in shapes.items()
        }
        self.arrivals: list[list] = []  # [size, count] runs of held positions, oldest first (several sizes only)
        self.total_added = 0  # positions ever added

    def __len__(self) -> int:
        return sum(len(buffer) for buffer in self.buffers.values())

    def held(self) -> dict[Any, int]:
        """Positions held per size."""
        return {size: len(buffer) for size, buffer in self.buffers.items()}

    def add(self, size, obs: np.ndarray, policy: np.ndarray, value: np.ndarray) -> None:
        """Append positions of board ``size``, forgetting the run's oldest once full."""
        buffer = self.buffers[size]
        if len(self.buffers) > 1 and len(obs):  # one ring overwrites its own oldest; several make room first
            kept = min(len(obs), self.capacity)
            self._make_room(kept)
            if self.arrivals and self.arrivals[-1][0] == size:
                self.arrivals[-1][1] += kept
            else:
                self.arrivals.append([size, kept])
        buffer.add(obs, policy, value)
        self.total_added += len(obs)

    def _make_room(self, count: int) -> None:
        excess = len(self) + count - self.capacity
        while excess > 0:
            run = self.arrivals[0]
            dropped = min(run[1], excess)
            self.buffers[run[0]].drop_oldest(dropped)
            run[1] -= dropped
            excess -= dropped
            if run[1] == 0:
                self.arrivals.pop(0)

    def sample(
        self, batch_size: int, rng: np.random.Generator, symmetries: Mapping[Any, Sequence[Symmetry]]
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """A batch of one size (drawn in proportion to the positions held, when several
        sizes hold some), each sample under a random symmetry of that size."""
        held = [(size, len(buffer)) for size, buffer in self.buffers.items() if len(buffer)]
        if not held:
            raise ValueError("cannot sample from an empty replay buffer")
        size = held[0][0]
        if len(held) > 1:
            pick = rng.integers(sum(n for _, n in held))
            size = held[int(np.searchsorted(np.cumsum([n for _, n in held]), pick, side="right"))][0]
        return self.buffers[size].sample(batch_size, rng, symmetries.get(size, ()))

    # --- persistence -------------------------------------------------------------------------
    def state_dict(self) -> dict[str, np.ndarray]:
        """One size: its ring's :meth:`ReplayBuffer.state_dict`. Several: each ring's
        ``obs``, ``policy`` and ``value`` as ``sizeN_obs`` ..., the run's ``capacity`` and
        ``total_added``, and ``arrivals`` (``[size, count]`` runs, oldest first)."""
        if len(self.buffers) == 1:
            (buffer,) = self.buffers.values()
            return {**buffer.state_dict(), "total_added": np.array(self.total_added)}
        state = {"capacity": np.array(self.capacity), "total_added": np.array(self.total_added)}
        state["arrivals"] = np.array(self.arrivals, dtype=np.int64).reshape(-1, 2)
        for size, buffer in self.buffers.items():
            for name, array in buffer.state_dict().items():
                if name in ("obs", "policy", "value"):
                    state[f"size{size}_{name}"] = array
        return state

    @classmethod
    def from_state_dict(
        cls, state: dict[str, np.ndarray], capacity: int | None = None, shapes: Mapping[Any, tuple] | None = None
    ) -> "SizedReplay":
        """The replay of :meth:`state_dict` (a one-size state becomes the ring of the one
        size in ``shapes``); with ``capacity``, resized to it, keeping the newest positions."""
        capacity = int(state["capacity"]) if capacity is None else capacity
        if "obs" in state:  # one size
            ring = ReplayBuffer.from_state_dict(state, capacity)
            (size,) = shapes or (None,)
            replay = cls(capacity, {size: (ring.obs.shape[1:], ring.policy.shape[1])})
            replay.buffers[size], replay.total_added = ring, ring.total_added
            return replay
        arrays: dict[int, dict[str, np.ndarray]] = {}
        for key, array in state.items():
            match = _SIZED_KEY.fullmatch(key)
            if match:
                arrays.setdefault(int(match[1]), {})[match[2]] = np.asarray(array, dtype=np.float32)
        found = {size: (a["obs"].shape[1:], a["policy"].shape[1]) for size, a in arrays.items()}
        replay = cls(capacity, {**found, **(shapes or {})})
        taken = dict.fromkeys(arrays, 0)
        for size, count in np.asarray(state["arrivals"]).reshape(-1, 2).tolist():
            rows = slice(taken[size], taken[size] + count)
            replay.add(size, arrays[size]["obs"][rows], arrays[size]["policy"][rows], arrays[size]["value"][rows])
            taken[size] += count
        if any(taken[size] != len(a["value"]) for size, a in arrays.items()):
            raise ValueError(f"arrivals {state['arrivals'].tolist()} do not account for the positions held")
        replay.total_added = int(state["total_added"])
        return replay


_SIZED_KEY = re.compile(r"size(\d+)_(obs|policy|value)")
_COUNTERS = ("capacity", "total_added", "arrivals")


def pack_state(state: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """A replay state dict in its most compact lossless form, for a file: each array of
    positions (``obs``, ``policy``, ``value``, ``sizeN_obs``, ...) with at most 256
    distinct values (0/1 planes, count planes, visit shares, game outcomes) becomes
    ``NAME_values`` (float32) and ``NAME_index`` (uint8 indices into them)."""
    packed = {key: state[key] for key in _COUNTERS if key in state}
    for name, array in state.items():
        if name not in _COUNTERS:
            packed.update(_pack(name, array))
    return packed


def unpack_state(packed: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The state dict of :func:`pack_state` (plain arrays pass through)."""
    state = {key: packed[key] for key in _COUNTERS if key in packed}
    for key in packed:
        if key in _COUNTERS or (key.endswith("_values") and key[: -len("_values")] + "_index" in packed):
            continue
        name = key[: -len("_index")] if key.endswith("_index") else key
        state[name] = _unpack(name, packed)
    return state


def _pack(name: str, array: np.ndarray) -> dict[str, np.ndarray]:
    # distinct bit patterns, so -0.0 and 0.0 both come back as they were
    bits = np.ascontiguousarray(array, dtype=np.float32).view(np.uint32).ravel()
    found = _few_distinct(bits, 256)
    if found is None:
        return {name: array}
    values, index = found
    return {f"{name}_values": values.view(np.float32), f"{name}_index": index.reshape(array.shape)}


def _few_distinct(bits: np.ndarray, most: int, chunk: int = 1 << 22) -> tuple[np.ndarray, np.ndarray] | None:
    """``np.unique(bits, return_inverse=True)`` with uint8 indices, or None past ``most``
    (<= 256) distinct values. A replay holds tens of millions of entries, which a sort
    takes seconds over at every checkpoint; a binary search per entry among the few
    distinct values gives the same arrays, one chunk at a time."""
    values = np.unique(bits[: most + 1])  # more than ``most`` here: done, without sorting them all
    for start in range(most + 1, len(bits), chunk):  # the values the first entries lack
        if len(values) > most:
            return None
        part = bits[start : start + chunk]
        missing = values[np.minimum(np.searchsorted(values, part), len(values) - 1)] != part
        if missing.any():
            values = np.union1d(values, part[missing])
    if len(values) > most:
        return None
    index = np.empty(len(bits), dtype=np.uint8)
    for start in range(0, len(bits), chunk):
        index[start : start + chunk] = np.searchsorted(values, bits[start : start + chunk])
    return values, index


def _unpack(name: str, state: dict[str, np.ndarray]) -> np.ndarray:
    if name in state:
        return np.asarray(state[name], dtype=np.float32)
    values, index = state[f"{name}_values"], state[f"{name}_index"]
    if values.dtype != np.float32 or index.dtype != np.uint8 or (index.size and index.max() >= len(values)):
        raise ValueError(f"{name}: indices do not fit the {len(values)} stored values")
    return values[index]


def augment(
    obs: np.ndarray, policy: np.ndarray, symmetries: Sequence[Symmetry], which: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Map sample ``i`` by ``symmetries[which[i]]``: planes by ``Symmetry.obs``, policy by
    its action permutation (``mapped[perm] = policy``). Returns new arrays."""
    obs, policy = obs.copy(), policy.copy()
    for s in np.unique(which):
        rows = np.flatnonzero(which == s)
        symmetry = symmetries[s]
        obs[rows] = np.stack([symmetry.obs(planes) for planes in obs[rows]])
        policy[rows] = symmetry.policy(policy[rows])
    return obs, policy
