"""The training loop, top to bottom: self-play, learn, evaluate, checkpoint.

:func:`train` takes a composed configuration (``configs/train.yaml``) and a
run directory. Each iteration plays ``agent.selfplay.games_per_iteration``
self-play games (searches batched through the network), adds their positions
to the replay buffer, and takes ``agent.learner.steps_per_iteration`` learner
steps on symmetry-augmented batches. Every ``eval.every`` iterations the
current network (searching with ``eval.simulations``) plays ``random``,
``mcts:N`` and, where the game names one (``game.reference_player``: Odoku's
exact oracle), its reference player from each seat.

``game.size`` may name several board sizes (a list, weights, or a schedule over
the iterations: :mod:`agents.sizes`). One network plays them all: each
self-play game draws its size, the replay buffer keeps a ring per size under
one capacity and each learner batch is of one size, and every evaluation
plays each size, tagged ``eval/<size>/...``.

Outputs in the run directory: TensorBoard events (``loss/*``, ``selfplay/*``,
``perf/*``, ``eval/*``, the hyperparameters and a sample game as text) and
``checkpoints/ckpt_stepNNNNNNN_iterNNNN.pt`` with its replay buffer beside it.
A checkpoint is written every ``train.checkpoint_every`` learner steps (at the
end of the iteration that reaches it), at the end, and when the run is stopped
by Ctrl-C (SIGINT) or SIGTERM (``..._interrupted.pt``: a name of its own, so the
end-of-iteration checkpoints stay as they were). The newest
``train.keep_checkpoints`` are kept, and with ``train.milestone_every=N`` the
checkpoint of every N-th iteration also stays in ``checkpoints/milestones/``
(the points of ``evaluate.py mode=curve``). Each checkpoint records the run's
wall-clock seconds so far (``wall_seconds``), counted from the start of
:func:`train` and continued from the checkpoint's figure by a resumed run.

Resuming (``resume=PATH``) takes the checkpoint's configuration, applies the
command line's ``key=value`` overrides (e.g. ``train.iterations=40``) and
continues with the saved weights, optimiser, replay buffer and generators:
from a checkpoint written at an iteration's end the run continues exactly as if
it had not stopped. An interrupted checkpoint restarts the interrupted
iteration. Every override reaches the restored state (``agent.learner.lr`` and
``weight_decay`` the optimiser, ``replay_capacity`` the buffer, keeping the
newest positions); what the checkpoint fixes (the game, the network's shape,
the seed) is refused, naming the key. The configuration saved is what ran.
``init=SOURCE`` instead starts a new run from another network's weights (a zoo
network or a checkpoint: :mod:`agents.training.init_weights`).
Evaluation (:mod:`agents.training.baseline_eval`) plays its games on
``agent.selfplay.workers`` processes of its own, each game with a generator
seeded by ``(seed, iteration, match, game)``, so evaluating never changes the
training games and its figures do not depend on the number of workers.
"""

from __future__ import annotations

import dataclasses
import logging
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

import numpy as np
import torch
from omegaconf import DictConfig, OmegaConf
from tqdm import tqdm

from agents.config import ConfigError
from agents.net.checkpoint import CheckpointError
from agents.net.inference import set_default_backend
from agents.net.inference_server import InferenceServer
from agents.net.net_estimator import NetEstimator
from agents.search.mcts import MCTS
from agents.sizes import describe
from agents.training.baseline_eval import BaselineConfig, BaselineEval
from agents.training.feeds import Feed, InlineFeed, ProcessFeed
from agents.training.init_weights import initial_weights
from agents.training.interrupts import exit_status, stop_on_signals
from agents.training.learner import Learner
from agents.training.saving import (
    checkpoint_path,
    keep_milestone,
    prune,
    remove_stale_files,
    run_start,
    save_checkpoint,
)
from agents.training.selfplay import SelfPlayBatch, first_seat_win_rate
from agents.training.selfplay_stats import entropy, outcome_scalars
from agents.training.settings import Settings, build_settings, resumed
from agents.training.workers import Chunk
from envs.core import Game
from envs.records import format_game

if TYPE_CHECKING:
    pass

log = logging.getLogger(__name__)


@dataclass
class TrainResult:
    """What a run did: where it wrote, how far it got, and its per-iteration losses."""

    run_dir: Path
    checkpoint: Path | None
    step: int
    iteration: int
    interrupted: bool = False
    exit_status: int = 0  # 128 + the signal that stopped the run (130: Ctrl-C)
    losses: list[dict[str, float]] = field(default_factory=list)
    evaluations: list[dict[str, float]] = field(default_factory=list)
    wall_seconds: float | None = None  # the run's wall clock at its end (continued from a resumed checkpoint's)


# --- the run's parts ------------------------------------------------------------------------------
def make_feed(s: Settings, estimators: dict[object, NetEstimator]) -> Feed:
    """Where the run's self-play games come from (see :mod:`agents.training.feeds`);
    ``estimators``: board size -> the run network's estimator (for games in this process).
    Workers overlap learning when the lag that gives (one iteration's learner steps)
    is within ``agent.selfplay.max_policy_lag``."""
    overlap = s.learner.steps_per_iteration <= s.selfplay.max_policy_lag
    if s.distributed is not None:
        from agents.training.ray_backend import RayFeed  # Ray is an optional extra

        try:
            return RayFeed(
                s.distributed,
                s.sizes,
                s.games,
                s.net,
                s.search,
                s.selfplay,
                s.device,
                overlap,
                s.selfplay.max_policy_lag,
            )
        except (ImportError, ValueError) as error:
            raise ConfigError(str(error)) from None
    if s.workers == 0:
        return InlineFeed(s.sizes, estimators, s.search, s.selfplay)
    server = InferenceServer(s.game, s.net, s.device) if s.selfplay.inference_server else None
    return ProcessFeed(s.workers, s.sizes, s.games, s.net, s.search, s.selfplay, overlap, server)


# --- the run -----------------------------------------------------------------------------------
def train(cfg: DictConfig, run_dir: str | Path, overrides: Sequence[str] = ()) -> TrainResult:
    """Run (or resume) training as ``cfg`` says; outputs go to ``run_dir``."""
    started_at = time.perf_counter()
    run_dir = Path(run_dir)
    cfg, checkpoint, path = resumed(cfg, overrides)
    s = build_settings(cfg)
    info = s.game.info
    if s.torch_threads:
        torch.set_num_threads(s.torch_threads)
    set_default_backend(s.inference)  # before the workers start: they inherit it
    weights = None
    if s.init and checkpoint is None:
        weights, cfg.init = initial_weights(s.init, s.game, s.net)  # the run records the file it started from
        log.info("the network starts from the weights of init=%s", cfg.init)
    start = run_start(s, checkpoint, path, weights)
    net, replay, rng, step, iteration = start.net, start.replay, start.rng, start.step, start.iteration
    if start.wall_seconds is None:
        started_at = None
        log.warning("checkpoint %s records no wall-clock time: this run's checkpoints will not either", path)
    else:  # the run's clock continues from the checkpoint's
        started_at -= start.wall_seconds
    net.to(s.device)
    learner = Learner(net, s.learner, s.device, s.iterations * s.learner.steps_per_iteration, step)
    if start.optimizer is not None:
        try:
            learner.load_optimizer_state(start.optimizer)
        except (KeyError, TypeError, ValueError, RuntimeError) as error:
            raise CheckpointError(f"checkpoint {path}: field 'optimizer' does not fit the network ({error})") from None
    estimators = {size: NetEstimator(g, net, s.device) for size, g in s.games.items()}
    symmetries = {size: g.symmetries() for size, g in s.games.items()}
    config_yaml = OmegaConf.to_yaml(cfg, resolve=True)
    checkpoint_dir = run_dir / "checkpoints"
    for stale in remove_stale_files(checkpoint_dir):
        log.info("removed %s, left by a run that was killed while saving", stale)
    if checkpoint is not None and (run_dir / ".hydra").is_dir():
        (run_dir / ".hydra" / "config.yaml").write_text(config_yaml)  # what runs now, overrides applied
    feed = make_feed(s, estimators)
    baselines = make_baseline_eval(s)

    from torch.utils.tensorboard import SummaryWriter  # slow import, only for real runs

    result = TrainResult(run_dir, None, step, iteration)
    last_checkpoint_step = step
    saved = None  # (what the newest checkpoint written holds, its path)
    reasons_seen: dict[str, None] = {}  # the games' end reasons so far, each logged every iteration after

    def checkpoint_now(interrupted: bool = False) -> Path:
        nonlocal saved
        holds = (step, iteration, replay.total_added, rng.bit_generator.state, torch.get_rng_state().numpy().tobytes())
        if saved is not None and saved[0] == holds:
            return saved[1]  # nothing has changed since it was written
        same_replay = saved[1] if saved is not None and saved[0][2] == replay.total_added else None
        with stopper.held(stop_after=not interrupted):  # a signal now stops the run after the save
            path = save_checkpoint(
                checkpoint_path(checkpoint_dir, step, iteration, interrupted),
                game_info=info,
                net=net,
                optimizer=learner.optimizer,
                step=step,
                iteration=iteration,
                rng=rng,
                config_yaml=config_yaml,
                replay=replay,
                same_replay_as=same_replay,
                wall_seconds=None if started_at is None else time.perf_counter() - started_at,
            )
            prune(checkpoint_dir, s.keep_checkpoints)
            saved = (holds, path)
        log.info("checkpoint: %s", path)
        return path

    stopper = stop_on_signals()  # SIGINT and SIGTERM: a checkpoint, then the end
    writer = bar = None
    try:
        # a resumed run continues its curves: steps after the checkpoint's iteration are rewritten
        writer = SummaryWriter(str(run_dir), purge_step=iteration + 1 if checkpoint is not None else None)
        if checkpoint is None:
            writer.add_text("hparams", _code_block(config_yaml), 0)
        _announce("run directory", run_dir, resumed_from=cfg.get("resume"))
        log.info(
            "training %s %s on %s, seed %d: iterations %d..%d, %d games and %d learner steps each, "
            "%d simulations per move, net %d blocks x %d channels%s",
            info.name,
            info.params,
            s.device,
            s.seed,
            iteration + 1,
            s.iterations,
            s.selfplay.games_per_iteration,
            s.learner.steps_per_iteration,
            s.search.num_simulations,
            s.net.blocks,
            s.net.channels,
            f", board {describe(s.sizes)}" if s.sizes.mixed else "",
        )
        show_bar = bool(cfg.get("progress", True)) and sys.stderr.isatty()  # no bar in redirected output
        for size, g in s.games.items():  # compile the kernels before the first iteration is timed
            _warm_up(g, MCTS(g, s.search), estimators[size])
        bar = tqdm(
            total=s.iterations, initial=iteration, desc=info.name, unit="it", dynamic_ncols=True, disable=not show_bar
        )
        while iteration < s.iterations:
            # 1. self-play: this iteration's games (the feed may have played them while the learner stepped)
            started = time.perf_counter()
            chunks = feed.collect(net, step, rng, iteration + 1, more=iteration + 1 < s.iterations)
            selfplay_seconds = time.perf_counter() - started
            batches = by_size(chunks)
            for size, batch in batches.items():
                replay.add(size, batch.obs, batch.policy, batch.value)
            played = [g for batch in batches.values() for g in zip(batch.game_lengths, batch.returns)]
            reasons = [r for batch in batches.values() for r in batch.reasons]
            num_positions = sum(batch.num_positions for batch in batches.values())
            policy_lag = float(np.mean([step - chunk.version for chunk in chunks]))

            # 2. learning
            losses = []
            if len(replay) >= s.learner.min_replay:
                for _ in range(s.learner.steps_per_iteration):
                    losses.append(learner.step(*replay.sample(s.learner.batch_size, rng, symmetries)))
                    step += 1
            iteration += 1
            loop_seconds = time.perf_counter() - started
            mean_losses = {k: float(np.mean([x[k] for x in losses])) for k in losses[0]} if losses else {}
            result.losses.append(mean_losses)

            # 3. logging
            scalars = {
                **mean_losses,
                "selfplay/game_length": float(np.mean([length for length, _ in played])),
                "selfplay/first_seat_win_rate": first_seat_win_rate([returns for _, returns in played]),
                **outcome_scalars([r for _, r in played], [n for n, _ in played], reasons, reasons_seen),
                "selfplay/target_entropy": float(
                    np.mean(np.concatenate([entropy(b.policy) for b in batches.values()]))
                ),
                "selfplay/replay_size": float(len(replay)),
                "selfplay/stale_games": float(feed.stale_games),
                "perf/positions_per_s": num_positions / loop_seconds,
                "perf/actor_positions_per_s": float(np.mean([c.num_positions / c.seconds for c in chunks])),
                "perf/policy_lag": policy_lag,
                "perf/replay_ratio": len(losses) * s.learner.batch_size / max(num_positions, 1),
                "perf/selfplay_seconds": selfplay_seconds,
                "perf/learner_steps": float(step),
                "learner/lr": s.learner.lr_at(max(step - 1, 0), learner.total_steps),  # the rate of the last step
            }
            reasons_seen.update(dict.fromkeys(r for r in reasons if r))
            if s.sizes.mixed:  # the games each board size got this iteration
                for size in s.sizes.sizes:
                    scalars[f"selfplay/{size}/games"] = float(len(batches[size].game_lengths) if size in batches else 0)
            if s.eval_every and (iteration % s.eval_every == 0 or iteration == s.iterations):
                evaluation = baselines.evaluate(net, iteration)
                result.evaluations.append(evaluation)
                scalars.update(evaluation)
                size, batch = next(iter(batches.items()))  # the sample: a game of the first size played
                writer.add_text("selfplay/sample_game", _sample_game(s.games[size], batch), iteration)
                picture = _sample_picture(s.games[size], batch)
                if picture is not None:
                    writer.add_image("selfplay/sample_position", picture, iteration, dataformats="HWC")
            for tag, value in scalars.items():
                writer.add_scalar(tag, value, iteration)
            writer.flush()
            bar.update(1)
            log.info(_summary(iteration, s.iterations, step, scalars))

            # 4. checkpoint, and a milestone every train.milestone_every iterations
            milestone = s.milestone_every and iteration % s.milestone_every == 0
            if step - last_checkpoint_step >= s.checkpoint_every or iteration == s.iterations or milestone:
                result.checkpoint = checkpoint_now()
                last_checkpoint_step = step
            if milestone:
                log.info("milestone: %s", keep_milestone(result.checkpoint))
    except KeyboardInterrupt as stop:
        result.interrupted, result.exit_status = True, exit_status(stop)
        result.checkpoint = checkpoint_now(interrupted=True)
        log.warning("interrupted: checkpoint written; continue with\n  python train.py resume=%s", result.checkpoint)
    finally:
        stopper.restore()
        if bar is not None:
            bar.close()
        if writer is not None:
            _hparams(writer, config_yaml, result, iteration)
            writer.close()
        feed.close()
        if baselines is not None:
            baselines.close()
    result.step, result.iteration = step, iteration
    result.wall_seconds = None if started_at is None else time.perf_counter() - started_at
    _announce("finished; run directory", run_dir, checkpoint=result.checkpoint)
    return result


def by_size(chunks: list[Chunk]) -> dict[object, SelfPlayBatch]:
    """The chunks' games joined per board size (sizes in the order first played, games in chunk order)."""
    sizes = dict.fromkeys(size for chunk in chunks for size in chunk.batches)
    return {
        size: SelfPlayBatch.concatenate([chunk.batches[size] for chunk in chunks if size in chunk.batches])
        for size in sizes
    }


# --- evaluation --------------------------------------------------------------------------------
def make_baseline_eval(s: Settings) -> BaselineEval | None:
    """The run's evaluation against the baselines at each board size (None when ``eval.every=0``)."""
    if not s.eval_every:
        return None
    search = None
    if s.eval_simulations:  # the candidate plays as az:CHECKPOINT does, without the playout mix
        search = dataclasses.replace(s.search, num_simulations=s.eval_simulations, playout_mix=0.0)
    config = BaselineConfig(s.eval_games, s.eval_mcts_simulations, s.eval_oracle_games, s.eval_opponents)
    return BaselineEval(s.workers, s.games, s.net, search, config, s.seed, s.device)


# --- small helpers -----------------------------------------------------------------------------
def _summary(iteration: int, iterations: int, step: int, scalars: dict[str, float]) -> str:
    parts = [f"iter {iteration}/{iterations}", f"step {step}"]
    if "loss/policy" in scalars:
        parts.append(f"loss p {scalars['loss/policy']:.3f} v {scalars['loss/value']:.3f}")
    parts.append(f"len {scalars['selfplay/game_length']:.1f}")
    won = [value for tag, value in scalars.items() if tag.startswith("selfplay/won_by_seat")]
    if won:
        parts.append("won " + "/".join(f"{w:.2f}" for w in won) + f" draws {scalars['selfplay/draws']:.2f}")
    ends = [f"{tag[13:]} {value:.2f}" for tag, value in scalars.items() if tag.startswith("selfplay/end/") and value]
    if ends:
        parts.append("ended by " + ", ".join(ends))
    if "learner/net_entropy" in scalars:
        parts.append(
            f"entropy target {scalars['selfplay/target_entropy']:.2f} net {scalars['learner/net_entropy']:.2f}"
        )
    parts.append(f"{scalars['perf/positions_per_s']:.0f} pos/s")
    parts += [f"{tag[5:]} {value:.3f}" for tag, value in scalars.items() if tag.startswith("eval/")]
    return " | ".join(parts)


def _sample_game(game: Game, batch: SelfPlayBatch) -> str:
    actions = batch.games[0]
    lines = format_game(game, actions)
    return _code_block("\n".join([*lines, "", game.render_text(_position_after(game, actions))]))


def _sample_picture(game: Game, batch: SelfPlayBatch) -> np.ndarray | None:
    """The middle position of the batch's first game, drawn (None for a game without pictures)."""
    actions = batch.games[0]
    try:
        return game.render_rgb(_position_after(game, actions[: len(actions) // 2]))
    except NotImplementedError:
        return None


def _position_after(game: Game, actions) -> object:
    state = game.initial_state()
    for action in actions:
        game.apply(state, action)
    return state


def _warm_up(game: Game, mcts: MCTS, estimator: NetEstimator) -> None:
    """One small search and one playout, so that compiling the numba kernels (or loading
    them from numba's cache) and torch's first forward pass do not count as self-play time.
    Its own generator leaves the run's random numbers untouched."""
    rng = np.random.default_rng(0)
    state = game.initial_state()
    while game.is_chance(state):  # search starts at a decision (Sudoku Moyo's puzzle draw is not searched)
        game.apply(state, game.sample_chance(state, rng))
    mcts.search(state, estimator, rng)
    game.random_playout(state, rng)


def _hparams(writer, config_yaml: str, result: TrainResult, iteration: int) -> None:
    """The configuration and the final losses and evaluations for TensorBoard's HParams dashboard."""
    flat = _flatten(OmegaConf.to_container(OmegaConf.create(config_yaml), resolve=True))
    hparams = {key: value if isinstance(value, (int, float, str, bool)) else str(value) for key, value in flat.items()}
    metrics = {}
    if result.losses and result.losses[-1]:
        metrics.update({f"hparam/{tag}": value for tag, value in result.losses[-1].items()})
    if result.evaluations:
        metrics.update({f"hparam/{tag}": value for tag, value in result.evaluations[-1].items()})
    if metrics:
        writer.add_hparams(hparams, metrics, run_name=".", global_step=iteration)


def _flatten(tree: dict, prefix: str = "") -> dict:
    """``{"a": {"b": 1}}`` -> ``{"a.b": 1}``."""
    flat = {}
    for key, value in tree.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            flat.update(_flatten(value, f"{name}."))
        else:
            flat[name] = value
    return flat


def _code_block(text: str) -> str:
    """TensorBoard renders text as Markdown; indented lines keep their layout."""
    return "\n".join("    " + line for line in text.splitlines())


def _announce(what: str, run_dir: Path, **extra) -> None:
    lines = [f"{what}: {run_dir}", f"  tensorboard --logdir {run_dir}"]
    lines += [f"  {key.replace('_', ' ')}: {value}" for key, value in extra.items() if value]
    log.info("\n".join(lines))


__all__ = ["TrainResult", "by_size", "make_baseline_eval", "make_feed", "train"]
