"""The replay buffer of self-play training targets, and symmetry augmentation.

Plain numpy ring buffers: ``obs [N, C, H, W]``, ``policy [N, num_actions]`` (the
search's visit distribution) and ``value [N]`` (the return target of the seat to
move). The newest ``capacity`` positions are kept; batches are drawn uniformly
with the caller's generator and each sample is mapped by a random symmetry of
the game (:func:`augment`), so the buffer stores every position once.
"""

from __future__ import annotations

from typing import Sequence

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
        if n > self.capacity:  # only the newest fit
            obs, policy, value = obs[-self.capacity :], policy[-self.capacity :], value[-self.capacity :]
            self.total_added += n - self.capacity
            n = self.capacity
        slots = (self.next + np.arange(n)) % self.capacity
        self.obs[slots] = obs
        self.policy[slots] = policy
        self.value[slots] = value
        self.next = int((self.next + n) % self.capacity)
        self.size = min(self.capacity, self.size + n)
        self.total_added += n

    def sample(
        self, batch_size: int, rng: np.random.Generator, symmetries: Sequence[Symmetry] = ()
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """A uniform batch (with replacement), each sample under a random symmetry."""
        if self.size == 0:
            raise ValueError("cannot sample from an empty replay buffer")
        index = rng.integers(self.size, size=batch_size)
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
        return buffer


def pack_state(state: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """A :meth:`ReplayBuffer.state_dict` in its most compact lossless form, for a file:
    each of ``obs``, ``policy`` and ``value`` with at most 256 distinct values (0/1
    planes, count planes, visit shares, game outcomes) becomes ``NAME_values``
    (float32) and ``NAME_index`` (uint8 indices into them)."""
    packed = {key: state[key] for key in ("capacity", "total_added")}
    for name in ("obs", "policy", "value"):
        packed.update(_pack(name, state[name]))
    return packed


def unpack_state(packed: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The state dict of :func:`pack_state` (plain arrays pass through)."""
    state = {key: packed[key] for key in ("capacity", "total_added")}
    for name in ("obs", "policy", "value"):
        state[name] = _unpack(name, packed)
    return state


def _pack(name: str, array: np.ndarray) -> dict[str, np.ndarray]:
    # distinct bit patterns, so -0.0 and 0.0 both come back as they were
    bits, index = np.unique(np.ascontiguousarray(array, dtype=np.float32).view(np.uint32), return_inverse=True)
    if len(bits) > 256:
        return {name: array}
    return {f"{name}_values": bits.view(np.float32), f"{name}_index": index.reshape(array.shape).astype(np.uint8)}


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
