"""The network family: shapes for every game and size, head layout, estimator, augmentation."""

import numpy as np
import pytest
import torch

import envs
from agents.config import game_from_config
from agents.net.net_estimator import NetEstimator
from agents.net.network import NetConfig, PolicyValueNet, head_layout, resolve_device
from agents.training.replay import ReplayBuffer, augment
from envs.games.odoku.game import optimal_actions

GAME_CONFIGS = {name: envs.game_defaults(name) for name in sorted(envs.GAMES)}
SMALL_SIZES = {
    "hex": 3,
    "nex": 3,
    "gomoku": 5,
    "neumoku": 5,
    "reversi": 4,
    "neuversi": 4,
    "adneuversi": 4,
    "amazons": 5,
    "progressive_amazons": 5,
    "hexxagon": 3,
    "hexxagon_1344": 5,
    "send_it": 5,
}
TINY = NetConfig(channels=8, blocks=1, value_hidden=8)


def game_variants():
    """(id, kwargs) for every game config at its own size and, where sized, a small size."""
    for stem, cfg in GAME_CONFIGS.items():
        yield pytest.param(cfg, id=stem)
        if "size" in cfg and stem in SMALL_SIZES:
            yield pytest.param({**cfg, "size": SMALL_SIZES[stem]}, id=f"{stem}-{SMALL_SIZES[stem]}")


def build(cfg):
    return game_from_config(cfg)


def random_states(game, rng, count):
    """Decision states from random play (chance resolved), including the start."""
    states = []
    while len(states) < count:
        state = game.initial_state()
        while not game.is_terminal(state) and len(states) < count:
            if game.is_chance(state):
                game.apply(state, game.sample_chance(state, rng))
                continue
            states.append(state.copy())
            actions = game.legal_actions(state)
            game.apply(state, actions[rng.integers(len(actions))])
    return states


@pytest.mark.parametrize("cfg", list(game_variants()))
def test_shapes_and_estimator_for_every_game(cfg):
    game = build(cfg)
    info = game.info
    torch.manual_seed(0)
    net = PolicyValueNet.for_game(info, TINY)
    states = random_states(game, np.random.default_rng(0), 6)
    obs = torch.from_numpy(np.stack([game.observe(s) for s in states]))
    logits, value = net.eval()(obs)
    assert logits.shape == (6, info.num_actions)
    assert value.shape == (6,)
    assert torch.all(value.abs() < 1)
    priors, values = NetEstimator(game, net).estimate(states)
    assert priors.shape == (6, info.num_actions) and values.shape == (6, info.num_seats)
    for state, prior, seat_values, v in zip(states, priors, values, value.detach().double().numpy()):
        mask = game.legal_mask(state)
        assert np.all(prior[~mask] == 0) and prior.sum() == pytest.approx(1.0)
        mover = game.to_play(state)
        assert seat_values[mover] == pytest.approx(v, abs=1e-6)
        assert seat_values[1 - mover] == pytest.approx(-v, abs=1e-6)


@pytest.mark.parametrize("cfg", list(game_variants()))
def test_each_cell_logit_sees_its_own_cell(cfg):
    """With no residual blocks, a cell's logits depend only on the 3x3 around that cell
    (the stem's receptive field, wrapping round a torus): the logits are laid out as ``cell * k + j``."""
    game = build(cfg)
    info = game.info
    rows, cols = info.board_shape
    k, m = head_layout(info.num_actions, info.board_shape)
    torch.manual_seed(0)  # 16 channels: a cell whose channels all stay below zero (no gradient) is unlikely
    net = PolicyValueNet.for_game(info, NetConfig(channels=16, blocks=0, value_hidden=4)).eval()
    obs = torch.rand(1, *info.obs_shape, requires_grad=True)
    logits, _ = net(obs)
    for action in {0, k * (rows * cols) // 2 + (k - 1), k * rows * cols - 1}:
        (grad,) = torch.autograd.grad(logits[0, action], obs, retain_graph=True)
        touched = grad[0].abs().sum(dim=0) > 0
        r, c = divmod(action // k, cols)
        window = torch.zeros(rows, cols, dtype=torch.bool)
        if info.torus:
            window[np.ix_([(r + d) % rows for d in (-1, 0, 1)], [(c + d) % cols for d in (-1, 0, 1)])] = True
        else:
            window[max(r - 1, 0) : r + 2, max(c - 1, 0) : c + 2] = True
        assert touched.any() and not (touched & ~window).any(), f"action {action}"
    for action in range(k * rows * cols, info.num_actions):  # global actions see the whole board
        (grad,) = torch.autograd.grad(logits[0, action], obs, retain_graph=True)
        assert (grad[0].abs().sum(dim=0) > 0).all()


def test_head_layout():
    assert head_layout(50, (5, 5)) == (2, 0)  # Odoku: 2 * cell + colour
    assert head_layout(11 * 11 + 2, (11, 11)) == (1, 2)  # neutral games: cells, PASS, SWAP_SIDES
    assert head_layout(64, (8, 8)) == (1, 0)
    with pytest.raises(ValueError, match="cannot give every one of the 25 cells"):
        head_layout(20, (5, 5))


def test_one_network_serves_every_board_size():
    """The weights do not depend on the board: a network built for Nex 5 is the one for
    Nex 9 (same state dict), plays 9x9 observations, and refuses another game's planes."""
    small, large = envs.make_game("nex", size=5), envs.make_game("nex", size=9)
    torch.manual_seed(0)
    net = PolicyValueNet.for_game(small.info, TINY).eval()
    torch.manual_seed(0)
    other = PolicyValueNet.for_game(large.info, TINY)
    assert all(torch.equal(a, b) for a, b in zip(net.state_dict().values(), other.state_dict().values()))
    logits, value = net(torch.zeros(2, small.info.obs_shape[0], 9, 9))
    assert logits.shape == (2, large.info.num_actions) and value.shape == (2,)
    states = random_states(large, np.random.default_rng(0), 4)
    priors, _ = NetEstimator(large, net).estimate(states)
    assert priors.shape == (4, 83) and np.allclose(priors.sum(axis=1), 1)
    with pytest.raises(ValueError, match=r"expected observations of shape \[batch, 9, rows, cols\]"):
        net(torch.zeros(1, 4, 9, 9))
    with pytest.raises(ValueError, match="does not fit odoku"):
        NetEstimator(envs.make_game("odoku"), net)


@pytest.mark.parametrize(
    "kwargs, key",
    [({"channels": 0}, "net.channels"), ({"blocks": -1}, "net.blocks"), ({"value_hidden": 2.5}, "net.value_hidden")],
)
def test_net_config_rejects_bad_values(kwargs, key):
    with pytest.raises(ValueError, match=key):
        NetConfig(**{**TINY.to_dict(), **kwargs})


def test_resolve_device():
    assert resolve_device("cpu") == torch.device("cpu")
    assert resolve_device("auto") == torch.device("cuda" if torch.cuda.is_available() else "cpu")
    with pytest.raises(ValueError, match="device must be"):
        resolve_device("abacus")
    if not torch.cuda.is_available():
        with pytest.raises(ValueError, match="CUDA is not available"):
            resolve_device("cuda")


# --- symmetry augmentation ---------------------------------------------------------------------
def mapped_game(game, actions, symmetry):
    """Replay ``actions`` with each decision mapped by the symmetry (chance outcomes kept)."""
    state = game.initial_state()
    for action in actions:
        chance = game.is_chance(state)
        game.apply(state, action if chance else int(symmetry.action_perm[action]))
    return state


def test_augmentation_maps_odoku_oracle_policy_consistently():
    """The oracle's policy in a mapped position is the mapped policy, and the planes agree."""
    game = envs.make_game("odoku")
    rng = np.random.default_rng(4)
    symmetries = game.symmetries()
    for _ in range(10):
        actions, state = random_prefix(game, rng, int(rng.integers(2, 30)))
        if not game.is_chance(state) and not game.is_terminal(state):
            check_augmentation(game, state, actions, symmetries, oracle_policy)


def random_prefix(game, rng, length):
    """Up to ``length`` random actions (chance outcomes included) from the start."""
    actions, state = [], game.initial_state()
    for _ in range(length):
        if game.is_terminal(state):
            break
        legal = [o for o, _ in game.chance_outcomes(state)] or game.legal_actions(state)
        actions.append(int(legal[rng.integers(len(legal))]))
        game.apply(state, actions[-1])
    return actions, state


def oracle_policy(game, state):
    policy = np.zeros(game.info.num_actions, dtype=np.float32)
    best = optimal_actions(state)
    policy[best] = 1.0 / len(best)
    return policy


def legal_policy(game, state):
    mask = game.legal_mask(state).astype(np.float32)
    return mask / mask.sum()


def check_augmentation(game, state, actions, symmetries, policy_of):
    """For each symmetry that fixes the start (Reversi's rot90 does not: the mapped
    game is not reachable by replay), augmenting the position's planes and policy
    gives exactly the planes and policy of the mapped game."""
    obs, policy = game.observe(state)[None], policy_of(game, state)[None]
    start = game.observe(game.initial_state())
    fixing = [i for i, sym in enumerate(symmetries) if np.array_equal(sym.obs(start), start)]
    assert len(fixing) >= 2, "only the identity fixes the start: nothing is tested"
    for index in fixing:
        symmetry = symmetries[index]
        image = mapped_game(game, actions, symmetry)
        aug_obs, aug_policy = augment(obs, policy, symmetries, np.array([index]))
        np.testing.assert_array_equal(aug_obs[0], game.observe(image), err_msg=symmetry.name)
        np.testing.assert_allclose(aug_policy[0], policy_of(game, image), err_msg=symmetry.name)


@pytest.mark.parametrize("cfg", list(game_variants()))
def test_augmentation_maps_legal_policies_for_every_game(cfg):
    if cfg["name"] == "sudoku_moyo":
        pytest.skip(
            "the drawn puzzle is not mapped by replaying mapped actions; test_sudoku_moyo maps whole positions instead"
        )
    if cfg["name"] == "progressive_amazons" and cfg["size"] == 19:
        pytest.skip(
            "the text's 19x19 start is fixed by no map but the identity, so no mapped game is reached by "
            "replay; the 5x5 variant (the standard start, mirror-symmetric) checks the same maps"
        )
    if cfg["name"] == "biversi":
        pytest.skip(
            "Biversi's start (a crossed and a parallel pattern) is fixed by no map but the identity; "
            "test_biversi checks that the 8 maps carry positions and legal placements to each other"
        )
    game = build(cfg)
    symmetries = game.symmetries()
    if len(symmetries) == 1:
        pytest.skip(f"{cfg['name']} has no symmetry but the identity: nothing to map")
    rng = np.random.default_rng(2)
    for _ in range(3):
        actions, state = random_prefix(game, rng, int(rng.integers(1, 12)))
        if not game.is_chance(state) and not game.is_terminal(state):
            check_augmentation(game, state, actions, symmetries, legal_policy)


def test_replay_buffer_keeps_the_newest_and_samples_augmented():
    game = envs.make_game("odoku")
    buffer = ReplayBuffer(5, game.info.obs_shape, game.info.num_actions)
    obs = np.zeros((7, *game.info.obs_shape), dtype=np.float32)
    obs[:, 0, 0, 0] = np.arange(7)  # blue plane at a1 tags each sample
    policy = np.zeros((7, 50), dtype=np.float32)
    policy[:, 0] = 1.0  # all mass on Xa1
    buffer.add(obs[:3], policy[:3], np.arange(3, dtype=np.float32))
    buffer.add(obs[3:], policy[3:], np.arange(3, 7, dtype=np.float32))
    assert len(buffer) == 5 and buffer.total_added == 7
    state = buffer.state_dict()
    np.testing.assert_array_equal(state["value"], [2, 3, 4, 5, 6])  # oldest first
    again = ReplayBuffer.from_state_dict(state)
    np.testing.assert_array_equal(again.state_dict()["obs"], state["obs"])
    rng = np.random.default_rng(0)
    sample_obs, sample_policy, sample_value = buffer.sample(64, rng, game.symmetries())
    for planes, pi, value in zip(sample_obs, sample_policy, sample_value):
        # the tagged a1 stone and the policy's action moved together to the same corner and colour
        plane, row, col = np.argwhere(planes[:2] != 0)[0] if value else (None, None, None)
        action = int(np.argmax(pi))
        if value:
            assert action == 2 * (row * 5 + col) + plane
        assert pi.sum() == pytest.approx(1.0)
    with pytest.raises(ValueError, match="empty"):
        ReplayBuffer(3, (1, 2, 2), 4).sample(1, rng)


@pytest.mark.parametrize("batches", [[4, 4, 4], [3, 13], [10, 7]])
def test_a_reloaded_full_replay_buffer_draws_the_same_batches(batches):
    """A full buffer samples by slot: reloaded, each position must sit in its old slot."""
    buffer = ReplayBuffer(10, (1, 1, 1), 2)
    start = 0
    for n in batches:
        tags = np.arange(start, start + n, dtype=np.float32)
        buffer.add(tags.reshape(n, 1, 1, 1), np.zeros((n, 2), dtype=np.float32), tags)
        start += n
    again = ReplayBuffer.from_state_dict(buffer.state_dict())
    assert again.next == buffer.next
    for seed in range(3):
        first = buffer.sample(16, np.random.default_rng(seed))[2]
        second = again.sample(16, np.random.default_rng(seed))[2]
        np.testing.assert_array_equal(first, second)


def test_a_torus_network_sees_every_cell_alike_and_a_flat_one_does_not():
    """Biversi's board wraps round: its network pads circularly, so rolling the observation
    along the torus rolls the cell logits the same way and keeps the value; zero padding
    (the flat boards) tells the edge cells apart. A torus network refuses a flat board."""
    game = envs.make_game("biversi", size=6)
    assert game.info.torus and not envs.make_game("reversi", size=6).info.torus
    obs = torch.from_numpy(np.stack([game.observe(s) for s in random_states(game, np.random.default_rng(1), 3)]))
    rolled = torch.roll(obs, shifts=(2, 5), dims=(2, 3))
    for torus in (True, False):
        torch.manual_seed(0)
        net = PolicyValueNet(obs.shape[1], 1, 1, TINY, torus=torus).eval()
        with torch.no_grad():
            (logits, value), (logits_rolled, value_rolled) = net(obs), net(rolled)
        cells = logits[:, :-1].reshape(-1, 6, 6)
        cells_rolled = logits_rolled[:, :-1].reshape(-1, 6, 6)
        same = torch.allclose(torch.roll(cells, shifts=(2, 5), dims=(1, 2)), cells_rolled, atol=1e-5)
        assert same == torus
        assert torch.allclose(value, value_rolled, atol=1e-5) == torus
    with pytest.raises(ValueError, match="on a torus does not fit reversi .* a flat board"):
        NetEstimator(envs.make_game("reversi", size=6), PolicyValueNet.for_game(game.info, TINY))
