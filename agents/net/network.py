"""One residual policy/value network family for every game (PyTorch).

The network is fully convolutional and its weights do not depend on the board
size: one network plays every size of a game (it checks only that the game has
its input planes and head layout, :meth:`PolicyValueNet.check_fits`):

===============  ==================================================================
Input            ``game.info.obs_shape`` planes ``(C, rows, cols)``
Trunk            3x3 conv stem, then ``blocks`` residual blocks of two 3x3 convs,
                 ``channels`` wide, batch norm and ReLU; zero padding, or circular
                 padding on a board that wraps round (``GameInfo.torus``, Biversi),
                 so that every cell of a torus sees the same neighbourhood
Policy head      ``k`` logits per cell (1x1 conv) plus ``m`` global logits (a linear
                 layer on the board-pooled trunk), laid out as the game's actions:
                 action ``cell * k + j`` for ``j < k``, then the ``m`` global actions.
                 ``k = num_actions // cells``, ``m = num_actions % cells``; so the
                 neutral games (``n*n + 2`` actions) get k=1 and m=2 (PASS,
                 SWAP_SIDES), Odoku (50 actions, ``2 * cell + colour``) k=2 and m=0.
Value head       1x1 conv, mean- and max-pooled over the board, an MLP, ``tanh``:
                 the expected return of the seat to move (Odoku: its normalised
                 score return, ``(score - 7.5) / 7.5`` from B's side, negated for A).
===============  ==================================================================

``cell = row * cols + col`` with ``row``/``col`` indexing the observation
planes, as every engine lays out its cell actions.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import torch
from torch import nn
from torch.nn import functional as F

from agents.config import check
from envs.core import GameInfo


@dataclass(frozen=True)
class NetConfig:
    """Depth and width of the network; the values come from the ``net/`` config group
    (``tiny``, ``small``: the CPU default, ``medium``), which is why no field has a default."""

    channels: int
    blocks: int
    value_hidden: int

    def __post_init__(self):
        check("net.channels", self.channels, "integer", low=1)
        check("net.blocks", self.blocks, "integer", low=0)
        check("net.value_hidden", self.value_hidden, "integer", low=1)

    def to_dict(self) -> dict:
        return asdict(self)


def head_layout(num_actions: int, board_shape: tuple[int, int]) -> tuple[int, int]:
    """``(k, m)``: logits per cell and global logits for an action space over a board."""
    cells = board_shape[0] * board_shape[1]
    per_cell, extra = divmod(num_actions, cells)
    if per_cell == 0:
        raise ValueError(f"{num_actions} actions cannot give every one of the {cells} cells a logit")
    return per_cell, extra


def conv3x3(in_channels: int, out_channels: int, torus: bool) -> nn.Conv2d:
    """A 3x3 convolution that keeps the board's shape, wrapping round its edges on a torus."""
    padding_mode = "circular" if torus else "zeros"
    return nn.Conv2d(in_channels, out_channels, 3, padding=1, padding_mode=padding_mode, bias=False)


class ResidualBlock(nn.Module):
    def __init__(self, channels: int, torus: bool = False):
        super().__init__()
        self.conv1 = conv3x3(channels, channels, torus)
        self.bn1 = nn.BatchNorm2d(channels)
        self.conv2 = conv3x3(channels, channels, torus)
        self.bn2 = nn.BatchNorm2d(channels)

    def forward(self, x):
        y = F.relu(self.bn1(self.conv1(x)))
        y = self.bn2(self.conv2(y))
        return F.relu(x + y)


class PolicyValueNet(nn.Module):
    """``forward(obs[B, C, H, W]) -> (policy logits [B, H * W * per_cell + extra], value [B])``
    for any board ``H x W``."""

    def __init__(self, in_planes: int, per_cell: int, extra: int, config: NetConfig, torus: bool = False):
        super().__init__()
        self.in_planes = in_planes
        self.config = config
        self.per_cell, self.extra = per_cell, extra
        self.torus = torus
        c = config.channels
        self.stem = nn.Sequential(conv3x3(in_planes, c, torus), nn.BatchNorm2d(c), nn.ReLU())
        self.blocks = nn.Sequential(*(ResidualBlock(c, torus) for _ in range(config.blocks)))
        self.policy_conv = nn.Conv2d(c, self.per_cell, 1)
        self.policy_global = nn.Linear(2 * c, self.extra) if self.extra else None
        self.value_conv = nn.Sequential(nn.Conv2d(c, c, 1, bias=False), nn.BatchNorm2d(c), nn.ReLU())
        self.value_mlp = nn.Sequential(
            nn.Linear(2 * c, config.value_hidden), nn.ReLU(), nn.Linear(config.value_hidden, 1)
        )

    @classmethod
    def for_game(cls, info: GameInfo, config: NetConfig) -> "PolicyValueNet":
        return cls(info.obs_shape[0], *head_layout(info.num_actions, info.board_shape), config, info.torus)

    def zero_value_output(self) -> None:
        """Zero the value head's last layer, so that the network values every position 0 until it
        learns. A randomly initialised head gives nearly every position one value ``c``, which
        a search reads as a preference: for a move that keeps the turn (``c``) against one that
        hands it over (``-c``) or a drawn end (exactly 0). The first gradient step makes the layer
        nonzero (its gradient is the hidden layer's activations)."""
        last = self.value_mlp[-1]
        with torch.no_grad():
            last.weight.zero_()
            last.bias.zero_()

    def check_fits(self, info: GameInfo) -> None:
        """Raise ValueError unless this network plays ``info``'s game (any board size):
        the same input planes, the same logits per cell and global logits, and the same
        padding (a torus or not)."""
        wanted = (info.obs_shape[0], *head_layout(info.num_actions, info.board_shape), info.torus)
        if wanted != (self.in_planes, self.per_cell, self.extra, self.torus):
            shape = "a torus" if self.torus else "a flat board"
            raise ValueError(
                f"a network for {self.in_planes} input planes, {self.per_cell} logits per cell and "
                f"{self.extra} global logits on {shape} does not fit {info.name} {info.params} ({wanted[0]} planes, "
                f"{wanted[1]} per cell, {wanted[2]} global, {'a torus' if info.torus else 'a flat board'})"
            )

    def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        if obs.dim() != 4 or obs.shape[1] != self.in_planes:
            raise ValueError(
                f"expected observations of shape [batch, {self.in_planes}, rows, cols], got {list(obs.shape)}"
            )
        x = self.blocks(self.stem(obs))
        cell_logits = self.policy_conv(x).permute(0, 2, 3, 1).reshape(obs.shape[0], -1)
        if self.policy_global is not None:
            cell_logits = torch.cat([cell_logits, self.policy_global(_pool(x))], dim=1)
        value = torch.tanh(self.value_mlp(_pool(self.value_conv(x)))).squeeze(1)
        return cell_logits, value


def _pool(x: torch.Tensor) -> torch.Tensor:
    """Mean and max over the board: [B, C, H, W] -> [B, 2C], independent of the board size."""
    return torch.cat([x.mean(dim=(2, 3)), x.amax(dim=(2, 3))], dim=1)


def resolve_device(spec: str) -> torch.device:
    """``"auto"`` -> CUDA when present, else the CPU; otherwise a torch device string."""
    if spec == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    try:
        device = torch.device(spec)
    except (RuntimeError, TypeError):
        raise ValueError(f"device must be 'auto', 'cpu' or 'cuda[:N]', got {spec!r}") from None
    if device.type == "cuda" and not torch.cuda.is_available():
        raise ValueError(f"device {spec!r} was asked for but CUDA is not available; use device=auto or cpu")
    if device.type not in ("cpu", "cuda"):
        raise ValueError(f"device must be 'auto', 'cpu' or 'cuda[:N]', got {spec!r}")
    return device
