"""Training longer than one machine stays up: ``export --progress`` keeps a run's network in
``agents/net/zoo/training/``, ``init=`` of that file goes on from exactly its weights, and the
final card counts every run of the chain once."""

import json
import shlex

import pytest
import torch
import yaml
from test_init_weights import FROZEN, assert_same_weights, source, train  # noqa: F401 (a fixture)

from agents.config import ConfigError
from agents.net.checkpoint import CheckpointError, load_checkpoint
from agents.net.zoo import file_digest, is_zoo_file
from agents.net.zoo.export import CHAIN_FIELDS, export_network, main


def wall(run) -> float:
    return load_checkpoint(run.checkpoint)["wall_seconds"]


def test_a_chain_of_runs_through_a_progress_file_counts_each_run_once(tmp_path, source):  # noqa: F811
    zoo = tmp_path / "zoo"
    # run A (the source: 2 iterations, 6 learner steps) keeps its progress, with the documented command
    argv = [str(source.run_dir), "--progress", "--name", "long", "--command", "python train.py A"]
    argv += ["--commit", "c1", "--machine", "machine A", "--directory", str(zoo)]
    assert main(argv) == 0
    weights, record = zoo / "training" / "long.pt", zoo / "training" / "long.json"
    assert is_zoo_file(weights) and not (zoo / "long.pt").exists()  # not a shipped network
    progress = json.loads(record.read_text())
    assert progress["progress"] == {"init": None, "before": None, "sha256": file_digest(weights)}
    export_command = "python -m agents.net.zoo.export " + shlex.join(argv)
    assert progress["training"]["commands"] == ["python train.py A", export_command]
    assert "figures" not in progress
    first_digest = file_digest(weights)

    # run B, on a fresh clone: init= the file starts from exactly its weights, recorded with its digest
    b = train(tmp_path / "b", *FROZEN, "train.iterations=1", f"init={weights}")
    assert_same_weights(load_checkpoint(b.checkpoint)["model"], load_checkpoint(source.checkpoint)["model"])
    assert_same_weights(load_checkpoint(b.checkpoint)["model"], torch.load(weights, weights_only=True)["model"])
    assert yaml.safe_load(load_checkpoint(b.checkpoint)["config"])["init"] == f"{weights}@sha256:{first_digest}"

    # B's progress, written twice (refreshed): A is counted once
    for _ in range(2):
        export_network(
            b.checkpoint, ["python train.py B"], "c2", "machine B", name="long", directory=zoo, progress=True
        )
    training = json.loads(record.read_text())["training"]
    # the same weights (B did not learn), yet another version of the file: it carries the chain
    assert file_digest(weights) != first_digest
    assert torch.load(weights, weights_only=True)["progress"] == {key: training[key] for key in CHAIN_FIELDS}
    assert training["commands"] == [*progress["training"]["commands"], "python train.py B"]
    assert (training["steps"], training["iterations"]) == (6 + 0, 2 + 1)
    assert training["wall_seconds"] == round(round(wall(source), 1) + wall(b), 1)
    assert training["machine"] == f"machine A; then (init={weights}) machine B"
    assert training["commit"] == "c2"

    # run C from B's progress; its final export into the zoo counts A, B and C
    c = train(tmp_path / "c", *FROZEN, "train.iterations=1", f"init={weights}")
    _, card = export_network(c.checkpoint, ["python train.py C"], "c3", "machine C", name="odoku", directory=zoo)
    final = json.loads(card.read_text())["training"]
    assert final["commands"] == [*training["commands"], "python train.py C"]
    assert (final["steps"], final["iterations"]) == (6, 2 + 1 + 1)
    assert final["wall_seconds"] == round(training["wall_seconds"] + wall(c), 1)
    assert final["machine"] == f"machine A; then (init={weights}) machine B; then (init={weights}) machine C"

    # C's progress replaces B's; then B's checkpoint can no longer find the training before it
    export_network(c.checkpoint, ["python train.py C"], "c3", "machine C", name="long", directory=zoo, progress=True)
    assert json.loads(record.read_text())["training"]["iterations"] == 2 + 1 + 1
    with pytest.raises(CheckpointError, match="has since been replaced by another run's"):
        export_network(b.checkpoint, ["python train.py B"], "c2", "machine B", name="b", directory=zoo)


def test_a_progress_file_is_not_overwritten_by_another_run(tmp_path, source):  # noqa: F811
    zoo = tmp_path / "zoo"
    export_network(source.checkpoint, ["python train.py A"], "c", "m", name="long", directory=zoo, progress=True)
    other = train(tmp_path / "other", *FROZEN, "train.iterations=1", f"init={source.checkpoint}")
    with pytest.raises(CheckpointError, match=r"long.json holds the progress of another run \(started from init=None"):
        export_network(other.checkpoint, ["python train.py"], "c", "m", name="long", directory=zoo, progress=True)
    with pytest.raises(ValueError, match="--half: a progress file keeps float32 weights"):
        export_network(source.checkpoint, ["x"], "c", "m", name="long", directory=zoo, progress=True, half=True)


def test_init_refuses_a_progress_file_that_no_longer_holds_the_weights_recorded(tmp_path, source):  # noqa: F811
    weights, _ = export_network(source.checkpoint, ["A"], "c", "m", name="long", directory=tmp_path, progress=True)
    with pytest.raises(ConfigError, match=r"init=.*long.pt@sha256:0123456789abcdef: .*long.pt no longer holds"):
        train(tmp_path / "run", *FROZEN, f"init={weights}@sha256:0123456789abcdef")
