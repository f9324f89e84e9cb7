"""The browser board's server without a browser (Starlette's TestClient): every bad request
gets a clear 4xx answer, sessions stay apart, clicks are judged by the engine, undo, swap,
watching, records and replays, analysis equal to the search's own output, checkpoints only
from the directory named on the command line."""

from __future__ import annotations

import json
import shutil
import warnings
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import envs
from agents.search.estimators import RolloutEstimator
from agents.search.mcts import MCTS, SearchConfig
from agents.web.players import PlayerSource

pytest.importorskip("starlette", reason="the web extra is not installed: pip install -e '.[web]'")

from agents.web.server import MAX_BODY, make_app  # noqa: E402
from envs.records import replay_record

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note on httpx versions
    from starlette.testclient import TestClient


@pytest.fixture(scope="module")
def client():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        yield TestClient(make_app(), raise_server_exceptions=False)


def new(client, game="hex", params=None, seats=("human", "random"), seed=0) -> dict:
    answer = client.post(
        "/api/new",
        json={"game": game, "params": {"size": 3} if params is None else params, "seats": list(seats), "seed": seed},
    )
    assert answer.status_code == 200, answer.text
    return answer.json()


def post(client, path, **data):
    return client.post(path, json=data)


def owners(view) -> dict[str, str]:
    return {cell["name"]: cell["owner"] for cell in view["board"]["cells"]}


def error(answer, status: int) -> str:
    assert answer.status_code == status, answer.text
    return answer.json()["error"]


# --- bad requests -------------------------------------------------------------------------------
def test_malformed_bodies_get_400_with_the_reason(client):
    assert "not JSON" in error(client.post("/api/new", content=b"{game: hex"), 400)
    assert error(client.post("/api/new", content=b"[1, 2]"), 400) == "the request body must be a JSON object"
    assert "not JSON" in error(client.post("/api/play", content=b"\xff\xfe"), 400)


def test_oversized_bodies_get_413_with_or_without_a_length(client):
    big = b'{"record": "' + b"x" * MAX_BODY + b'"}'
    assert "over" in error(client.post("/api/replay", content=big), 413)

    def chunks():
        for _ in range(MAX_BODY // 1024 + 2):
            yield b"x" * 1024

    assert "over" in error(client.post("/api/replay", content=chunks()), 413)  # chunked: no Content-Length


def test_unknown_games_players_and_parameters_get_400(client):
    assert error(post(client, "/api/new", game="chess"), 400).startswith("unknown game 'chess'; the games are odoku")
    assert client.get("/play/chess").status_code == 404
    assert "unknown player spec 'bogus'" in error(post(client, "/api/new", game="hex", seats=["human", "bogus"]), 400)
    assert "'human' is the person" in error(post(client, "/api/new", game="hex", seats=["random", "human:x"]), 400)
    assert "seats must be a list of two" in error(post(client, "/api/new", game="hex", seats=["human"]), 400)
    assert "size must be" in error(post(client, "/api/new", game="hex", params={"size": 1000}), 400)
    assert "unexpected keyword argument 'colour'" in error(
        post(client, "/api/new", game="hex", params={"colour": 1}), 400
    )
    assert "mcts:N" in error(post(client, "/api/new", game="hex", seats=["human", "mcts:-3"]), 400)
    assert "at most 100000 simulations" in error(
        post(client, "/api/new", game="hex", seats=["human", "mcts:10000000"]), 400
    )
    assert "seed must be an integer" in error(post(client, "/api/new", game="hex", seed="x"), 400)


def test_illegal_and_out_of_range_moves_get_422_with_the_engines_message(client):
    session = new(client)["session"]
    assert post(client, "/api/play", session=session, action=4).status_code == 200  # b2; random answers
    assert error(post(client, "/api/play", session=session, action=4), 422) == "b2: cell b2 is occupied"
    assert error(post(client, "/api/play", session=session, action=99), 422) == "action 99 is out of range 0..10"
    for odd in ("b2", 1.5, True, None, [1]):
        assert "action must be an integer" in error(post(client, "/api/play", session=session, action=odd), 422)


def test_unknown_sessions_get_404(client):
    assert "no such session" in error(post(client, "/api/play", session="nope", action=0), 404)
    assert "no such session" in error(post(client, "/api/undo", session=["a list"]), 404)
    assert "no such session" in error(client.get("/api/record/nope"), 404)
    assert "no such replay" in error(post(client, "/api/replay/position", replay="nope", turn=0), 404)
    assert client.get("/api/nothing").status_code == 404


def json_values():
    scalars = (
        st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.floats(allow_nan=False) | st.text(max_size=8)
    )
    return st.recursive(
        scalars,
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
        max_leaves=8,
    )


@pytest.fixture(scope="module")
def live(client) -> str:
    return new(client, game="nex", params={"size": 3})["session"]


FIELDS = ["game", "params", "seats", "seed", "session", "action", "player", "record", "simulations", "turn"]
PATHS = ["/api/new", "/api/play", "/api/step", "/api/undo", "/api/swap", "/api/analyse", "/api/replay"]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    path=st.sampled_from(PATHS),
    body=st.dictionaries(st.sampled_from(FIELDS), json_values(), max_size=5),
    with_session=st.booleans(),
    game=st.sampled_from(sorted(envs.GAMES)) | json_values(),
)
def test_no_request_body_gets_a_server_error(client, live, path, body, with_session, game):
    if with_session:
        body["session"] = live
    if path == "/api/new":
        body = {"game": game, "params": {"size": 3}} | body
    answer = client.post(path, content=json.dumps(body).encode())
    assert answer.status_code < 500, (body, answer.text)
    if answer.status_code != 200:
        assert answer.json()["error"]


# --- sessions -------------------------------------------------------------------------------------
def test_two_sessions_stay_apart_even_at_once(client):
    one, two = new(client, seed=1)["session"], new(client, seed=2)["session"]
    view = post(client, "/api/play", session=one, action=0).json()
    assert owners(view)["a1"] == "black"
    assert owners(post(client, "/api/view", session=two).json()) == {name: "" for name in owners(view)}

    def play_out(session):  # clicks the first legal cell until the game ends
        view = post(client, "/api/view", session=session).json()
        while not view["over"]:
            action = next(m["action"] for c in view["board"]["cells"] for m in c["moves"] if m["legal"])
            view = post(client, "/api/play", session=session, action=action).json()
        return view

    sessions = [new(client, game="hex", params={"size": 4}, seed=seed)["session"] for seed in range(4)]
    with ThreadPoolExecutor(4) as pool:
        ends = list(pool.map(play_out, sessions))
    for session, end in zip(sessions, ends):
        game, state = replay_record(client.get(f"/api/record/{session}").text)
        assert game.result_text(state) == end["result"]
        assert {c.name: c.owner for c in game.board_view(state).cells} == owners(end)


def test_undo_takes_back_the_persons_turn_and_the_reply(client):
    start = new(client, game="nex", params={"size": 4})
    session = start["session"]
    assert not start["can_undo"]
    assert error(post(client, "/api/undo", session=session), 400) == "nothing to undo yet"
    middle = post(client, "/api/play", session=session, action=0).json()  # a1, the drop's stone
    assert middle["your_turn"] and owners(middle)["a1"] == "black" and middle["can_undo"]
    back = post(client, "/api/undo", session=session).json()  # the turn in progress
    assert owners(back) == owners(start) and back["turns"] == []
    post(client, "/api/play", session=session, action=0)
    after = post(client, "/api/play", session=session, action=5).json()  # b2: the neutral; random answers
    assert len(after["turns"]) == 2 and after["turns"][0] == "a1 b2"
    assert owners(post(client, "/api/undo", session=session).json()) == owners(start)


def test_swap_seats_gives_the_agent_the_first_move(client):
    session = new(client, game="hex", params={"size": 3})["session"]
    view = post(client, "/api/swap", session=session).json()
    assert view["seats"] == ["random", "human"] and view["to_play"] == 1 and view["your_turn"]
    assert sum(owner == "black" for owner in owners(view).values()) == 1 and len(view["turns"]) == 1


def test_watching_two_agents_plays_one_turn_a_step(client):
    view = new(client, game="odoku", params={}, seats=("random", "oracle"))
    session = view["session"]
    assert view["watching"] and not view["your_turn"] and view["turns"] == []
    assert "not your turn" in error(post(client, "/api/play", session=session, action=0), 400)
    for turn in range(1, 26):
        view = post(client, "/api/step", session=session).json()
        assert len(view["turns"]) == turn
    assert view["over"] and view["result"].startswith("final score")
    assert "the game is over" in error(post(client, "/api/step", session=session), 400)


def test_odoku_offers_both_colours_and_sudoku_moyo_nine_digits_a_cell(client):
    odoku = new(client, game="odoku", params={})
    cell = next(c for c in odoku["board"]["cells"] if c["name"] == "c3")
    seat = odoku["seat_names"][odoku["to_play"]]
    assert [m["text"] for m in cell["moves"]] == ["Xc3", "Oc3"] and odoku["board"]["notes"][0].startswith(
        f"the coin chose {seat}"
    )
    sudoku = new(client, game="sudoku_moyo", params={})
    cell = next(c for c in sudoku["board"]["cells"] if c["name"] == "e5")
    assert [m["text"] for m in cell["moves"]] == [f"e5={d}" for d in range(1, 10)]
    given = [c for c in sudoku["board"]["cells"] if "given" in c["tags"]]
    assert len(given) == 26 and all(c["text"].isdigit() and c["owner"] == "" for c in given)


def test_the_record_downloads_and_replays_on_the_slider(client):
    session = new(client, game="reversi", params={"size": 4}, seats=("random", "random"))["session"]
    while not (view := post(client, "/api/step", session=session).json())["over"]:
        pass
    answer = client.get(f"/api/record/{session}")
    assert answer.headers["content-disposition"] == 'attachment; filename="reversi.txt"'
    assert "# seat 0: random" in answer.text and "[game: reversi]" in answer.text
    opened = post(client, "/api/replay", record=answer.text).json()
    assert opened["positions"] == len(view["turns"]) + 1 and opened["result"] == view["result"]
    assert owners(opened) == owners(view)
    first = post(client, "/api/replay/position", replay=opened["replay"], turn=0).json()
    assert sorted(owners(first).values()).count("") == 12 and first["turns"] == view["turns"]
    assert "turn must be an integer from 0" in error(
        post(client, "/api/replay/position", replay=opened["replay"], turn=99), 400
    )
    assert "turn 1 'z9'" in error(post(client, "/api/replay", record="game: reversi\nsize: 4\nz9\n"), 422)
    assert "no 'game' header" in error(post(client, "/api/replay", record="c4\n"), 400)
    assert "not a plain value" in error(post(client, "/api/replay", record="game: !!python/object:os.system x\n"), 422)


# --- analysis ------------------------------------------------------------------------------------
def test_analysis_equals_the_searchs_own_output_for_the_same_seed(client):
    session = new(client, game="nex", params={"size": 4})["session"]
    post(client, "/api/play", session=session, action=5)
    answer = post(client, "/api/analyse", session=session, player="mcts:80", seed=7).json()
    game = envs.make_game("nex", size=4)
    state = game.initial_state()
    game.apply(state, 5)
    rng = np.random.default_rng(7)
    result = MCTS(game, SearchConfig(num_simulations=80)).search(state, RolloutEstimator(game, rng), rng)
    assert {m["action"]: m["visits"] for m in answer["moves"]} == {
        a: int(result.visit_counts[a]) for a in game.legal_actions(state)
    }
    assert answer["pv_actions"] == result.principal_variation and answer["values"] == list(result.root_values)
    assert sum(m["share"] for m in answer["moves"]) == pytest.approx(1.0)
    assert answer["to_play"] == "Vertical" and answer["value_text"].startswith(f"{result.root_values[0]:+.2f}")
    again = post(client, "/api/analyse", session=session, player="mcts:80", seed=7).json()
    assert again == answer


def test_analysis_refuses_what_it_cannot_show(client):
    session = new(client)["session"]
    assert "no search or values" in error(post(client, "/api/analyse", session=session, player="random"), 400)
    assert "simulations must be an integer" in error(post(client, "/api/analyse", session=session, simulations=0), 400)
    exact = post(client, "/api/analyse", session=session, player="solver").json()
    assert exact["kind"] == "exact" and exact["values"] == [1.0, -1.0]  # the first player wins 3x3 Hex
    assert {m["move"]: m["value"] for m in exact["moves"]}["b2"] == 1.0


# --- checkpoints --------------------------------------------------------------------------------
def test_odoku_against_the_zoo_agent_by_clicks(client):
    """The shipped network takes a seat with no checkpoint directory; its budget is capped like mcts's."""
    assert "zoo" in client.get("/api/games").json()["players"]
    view = new(client, game="odoku", params={}, seats=("human", "zoo:odoku:4"), seed=3)
    session = view["session"]
    while not view["over"]:
        if view["your_turn"]:
            action = next(m["action"] for c in view["board"]["cells"] for m in c["moves"] if m["legal"])
            view = post(client, "/api/play", session=session, action=action).json()
        else:
            view = post(client, "/api/view", session=session).json()
    game, state = replay_record(client.get(f"/api/record/{session}").text)
    assert game.is_terminal(state) and game.result_text(state) == view["result"]
    with pytest.raises(ValueError, match="at most 100000 simulations"):
        PlayerSource().make("zoo:odoku:1000000", envs.make_game("odoku"))


def test_a_damaged_card_leaves_its_network_out_and_the_server_starts(tmp_path, monkeypatch, caplog):
    from agents.net.zoo import card_path, weights_path, zoo_boards

    for name in ("odoku", "nex"):
        shutil.copy(weights_path(name), weights_path(name, tmp_path))
        shutil.copy(card_path(name), card_path(name, tmp_path))
    card_path("nex", tmp_path).write_text('{"name": "nex"')  # cut off mid-write
    monkeypatch.setattr("agents.web.opponent.zoo_boards", lambda: zoo_boards(tmp_path))
    with TestClient(make_app()) as damaged:
        games = {game["name"]: game["zoo"] for game in damaged.get("/api/games").json()["games"]}
        assert {name: zoo for name, zoo in games.items() if zoo} == {
            "odoku": {"board": {}, "sizes": [], "strength": "49.5% vs mcts:1600"}
        }
        assert damaged.post("/api/new", json={"game": "nex", "params": {"size": 11}}).json()["seats"][1] == "mcts:400"
    assert "nex.json: not readable JSON" in caplog.text and "zoo:nex is left out" in caplog.text


def test_the_games_list_names_the_board_each_zoo_network_plays(client):
    zoo = {game["name"]: game["zoo"] for game in client.get("/api/games").json()["games"]}
    assert zoo["odoku"] == {"board": {}, "sizes": [], "strength": "49.5% vs mcts:1600"}
    assert zoo["nex"] == {"board": {"size": 11}, "sizes": [11], "strength": "100.0% vs mcts:1600"}
    assert zoo["hop_chess"] is None
    assert zoo["progressive_amazons"]["board"] == {"size": 10}  # trained on 10x10, not the text's 19x19
    assert zoo["four_way_walls"]["board"] == {"size": 5, "walls": 2}  # and a rule that differs at that size
    assert zoo["hexxagon_1344"] == {"board": {"size": 9}, "sizes": [5, 9], "strength": "100.0% vs mcts:400"}
    refused = error(post(client, "/api/new", game="progressive_amazons", params={}, seats=["human", "zoo"]), 400)
    assert refused.endswith(
        "progressive_amazons.pt was trained on progressive_amazons at size 10, not at the size asked, 19; "
        "zoo:progressive_amazons@any plays it at any size, untrained there (zero-shot)"
    )
    board = zoo["progressive_amazons"]["board"]
    view = new(client, game="progressive_amazons", params=board, seats=("human", "zoo"))
    assert len(view["board"]["cells"]) == 100 and not view["over"]


def hex_of_sizes(sizes: list[int], directory, monkeypatch) -> None:
    """The zoo, for the web board and the ``zoo`` spec, is ``directory`` holding the shipped Hex
    network alone, its files saying it was trained on ``sizes`` (its weights play any size)."""
    import torch

    from agents.net.zoo import card_path, load_network, read_card, weights_path, write_card, zoo_boards

    entry = torch.load(weights_path("hex"), weights_only=True)
    largest = {"name": "hex", "params": {"size": sizes[-1], "pie_rule": False}}
    torch.save(entry | {"game": largest, "sizes": sizes}, weights_path("hex", directory))
    write_card(read_card("hex") | {"game": largest, "sizes": sizes}, card_path("hex", directory))
    monkeypatch.setattr("agents.web.opponent.zoo_boards", lambda: zoo_boards(directory))
    monkeypatch.setattr("agents.web.opponent.read_card", lambda name: read_card(name, directory))
    monkeypatch.setattr(
        "agents.players.zoo_player.load_network",
        lambda name, game, any_size=False: load_network(name, game, directory, any_size),
    )


@pytest.mark.parametrize("sizes, opens", [([5, 7], 7), ([7, 11], 11)])
def test_a_network_of_several_sizes_takes_the_seat_at_each_of_them(tmp_path, monkeypatch, sizes, opens):
    """The page opens on the default size 11 where it is among the network's sizes, else on the
    largest; a new game at each size faces the network, at any other the fallback, named with
    both sizes."""
    hex_of_sizes(sizes, tmp_path, monkeypatch)
    words = f"sizes {sizes[0]} and {sizes[1]}"
    with TestClient(make_app()) as client:
        opened = next(game for game in client.get("/api/games").json()["games"] if game["name"] == "hex")
        assert opened["params"] == {"size": opens, "pie_rule": False}
        assert opened["zoo"] == {"board": {"size": sizes[-1]}, "sizes": sizes, "strength": "100.0% vs mcts:1600"}
        assert f"zoo network ({words}): 100.0% vs mcts:1600" in client.get("/").text
        for size in sizes:
            view = client.post("/api/new", json={"game": "hex", "params": {"size": size}}).json()
            assert view["seats"] == ["human", "zoo"]
            assert view["opponent"] == f"the zoo network for Hex ({words}): 100.0% vs mcts:1600"
            cell = next(c for c in view["board"]["cells"] if c["moves"] and c["moves"][0]["legal"])
            view = post(client, "/api/play", session=view["session"], action=cell["moves"][0]["action"]).json()
            assert len(view["turns"]) == 2 and view["thinking"]["seat"] == 1  # the network answered
        other = client.post("/api/new", json={"game": "hex", "params": {"size": 9}}).json()
        assert other["seats"] == ["human", "mcts:400"]
        assert other["opponent"] == (
            f"the zoo network for Hex plays only {words}, not this board: "
            "mcts:400 (plain MCTS, 400 random rollouts a move) plays instead"
        )


def test_checkpoints_load_only_from_the_named_directory(tmp_path):
    from test_checkpoint import write_checkpoint

    game = envs.make_game("nex", size=3)
    (tmp_path / "runs" / "nex").mkdir(parents=True)
    write_checkpoint(tmp_path / "runs" / "nex" / "ckpt.pt", game)
    write_checkpoint(tmp_path / "outside.pt", game)
    (tmp_path / "runs" / "link.pt").symlink_to(tmp_path / "outside.pt")
    source = PlayerSource(tmp_path / "runs")
    assert source.checkpoints() == ["link.pt", "nex/ckpt.pt"]
    assert source.make("az:nex/ckpt.pt:2", game).name == "az:nex/ckpt.pt:2"
    for spec, problem in [
        ("az:../outside.pt", "name a checkpoint by its path inside"),
        (f"az:{tmp_path / 'outside.pt'}", "name a checkpoint by its path inside"),
        ("az:link.pt", "no such checkpoint"),
        ("az:nex/missing.pt", "no such checkpoint"),
        ("me=az:../outside.pt", "name a checkpoint by its path inside"),
    ]:
        with pytest.raises(ValueError, match=problem):
            source.make(spec, game)
    with pytest.raises(ValueError, match="no checkpoint directory was named"):
        PlayerSource().make("az:nex/ckpt.pt", game)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        client = TestClient(make_app(source), raise_server_exceptions=False)
    info = client.get("/api/games").json()
    assert info["checkpoints"] == ["link.pt", "nex/ckpt.pt"] and "az" in info["players"]
    view = new(client, game="nex", params={"size": 3}, seats=("human", "az:nex/ckpt.pt:2"))
    analysis = post(client, "/api/analyse", session=view["session"], player="az:nex/ckpt.pt:0").json()
    assert analysis["kind"] == "network" and sum(m["prior"] for m in analysis["moves"]) == pytest.approx(1.0, abs=1e-5)


def test_a_new_game_without_seats_faces_the_zoo_network_where_it_plays_the_board(client):
    nex = client.post("/api/new", json={"game": "nex"}).json()
    assert nex["seats"] == ["human", "zoo"]
    assert nex["opponent"] == "the zoo network for Nex (size 11): 100.0% vs mcts:1600"
    amazons = client.post("/api/new", json={"game": "progressive_amazons", "params": {"size": 10}}).json()
    assert amazons["seats"] == ["human", "zoo"] and amazons["opponent"].endswith("(size 10): 92.0% vs mcts:1600")
    other = client.post("/api/new", json={"game": "progressive_amazons", "params": {"size": 8}}).json()  # not its board
    assert other["seats"] == ["human", "mcts:400"]
    assert other["opponent"] == (
        "the zoo network for Progressive Amazons plays only size 10, not this board: "
        "mcts:400 (plain MCTS, 400 random rollouts a move) plays instead"
    )
    send_it = client.post("/api/new", json={"game": "send_it"}).json()  # trained across 7x7 and the text's 13x13
    assert send_it["seats"] == ["human", "zoo"] and "(sizes 7 and 13): " in send_it["opponent"]
    chess = client.post("/api/new", json={"game": "hop_chess"}).json()
    assert chess["seats"] == ["human", "mcts:100"]
    assert chess["opponent"].startswith("Hop Chess has no zoo network: mcts:100 (plain MCTS")
    assert "opponent" not in new(client)  # seats given: no choice to explain


def test_the_games_list_gives_display_names_opening_boards_and_strengths(client):
    games = {game["name"]: game for game in client.get("/api/games").json()["games"]}
    assert list(games) == list(envs.GAMES)
    assert games["hop_chess"]["title"] == "Hop Chess" and games["hop_chess"]["zoo"] is None
    walls = games["four_way_walls"]
    assert (walls["title"], walls["params"]["size"], walls["params"]["walls"], walls["defaults"]["size"]) == (
        "Four-Way Walls",
        5,
        2,
        10,
    )
    assert games["biqala"]["zoo"] == {"board": {}, "sizes": [], "strength": "93.5% vs mcts:1600"}
    page = client.get("/").text
    assert ">Progressive Amazons</span>" in page and ">progressive_amazons<" not in page
    assert "zoo network (size 10): 92.0% vs mcts:1600" in page and "no zoo network: mcts:200 plays" in page
    assert "<h1>Hop Chess</h1>" in client.get("/play/hop_chess").text
    preview = client.get("/api/preview/four_way_walls").json()
    assert preview["title"] == "Four-Way Walls" and len(preview["board"]["cells"]) == 25 + 16  # the zoo's board
    assert "unknown game 'chess'" in error(client.get("/api/preview/chess"), 400)


def test_the_agents_value_and_planned_line_come_with_each_position(client):
    view = new(client, game="hex", params={"size": 3}, seats=("human", "mcts:300"), seed=1)
    assert view["thinking"] is None  # the agent has not moved yet
    view = post(client, "/api/play", session=view["session"], action=4).json()  # b2
    thought = view["thinking"]
    assert (thought["seat"], thought["player"], thought["to_play"]) == (1, "mcts:300", "Horizontal")
    assert (thought["simulations"], thought["visits"]) == (300, 299)  # the root's children share the rest
    assert thought["pv"][0] == view["turns"][1]  # its line begins with the move it played
    assert thought["value_text"] == envs.make_game("hex", size=3).value_text(thought["values"][1], 1)
    assert "moves" not in thought
