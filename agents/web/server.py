"""The browser board's HTTP server: a Starlette app (extra ``web``) over :mod:`agents.web.session`.

Pages: ``/`` lists the games, ``/play/GAME`` is a game's board (play, watch, replay, analyse),
``/static/...`` the page's JavaScript modules and style. The API takes and gives JSON:

==========================  ======================================================================
``GET  /api/games``         the games with their parameters, the agent spec forms, the checkpoints,
                            the zoo's boards (each game with a network: the parameters of its
                            ``board`` and the ``sizes`` it was trained on)
``POST /api/new``           ``{game, params, seats: [spec, spec], seed}``: a new session and its view
``POST /api/view``          ``{session}``: the session's position
``POST /api/play``          ``{session, action}``: the person's action (a click)
``POST /api/step``          ``{session}``: one agent turn (watching)
``POST /api/undo``          ``{session}``; ``/api/restart`` a new game; ``/api/swap`` seats swapped
``POST /api/analyse``       ``{session, player, simulations}``: the analysis of the position
``GET  /api/record/ID``     the game's record (``envs.records`` text), as a download
``POST /api/replay``        ``{record}``: a record opened for the slider; ``/api/replay/position``
                            ``{replay, turn}``: the position after that many turns
==========================  ======================================================================

Every bad request gets a 4xx answer ``{"error": message}``: 400 malformed or unacceptable
(bad JSON, unknown game or player, bad parameters), 404 an unknown session or page, 413 a body
over ``MAX_BODY`` bytes, 422 a move the engine refuses (its message). Each session has its own
lock; at most ``MAX_SESSIONS`` live at once (the oldest goes first). Checkpoints come only from
the directory given on the command line (:class:`agents.web.players.PlayerSource`).
"""

from __future__ import annotations

import html
import json
import secrets
import threading
from collections import OrderedDict
from importlib.resources import files

import numpy as np
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from agents.net.zoo import zoo_boards
from agents.web.analysis import analyse
from agents.web.players import PlayerSource
from agents.web.session import Replay, Session, SessionError
from envs import GAMES, game_defaults
from envs.core import GameError

MAX_BODY = 256 * 1024  # bytes: a record of the longest game fits many times over
MAX_SESSIONS = 64
STATIC = files("agents.web") / "static"


class BadRequest(Exception):
    def __init__(self, status: int, message: str):
        self.status, self.message = status, message


class Store:
    """Live sessions and replays by random token, oldest dropped first; one lock each."""

    def __init__(self, limit: int = MAX_SESSIONS):
        self.limit, self.items, self.lock = limit, OrderedDict(), threading.Lock()

    def add(self, item) -> str:
        token = secrets.token_urlsafe(16)
        with self.lock:
            self.items[token] = (item, threading.Lock())
            while len(self.items) > self.limit:
                self.items.popitem(last=False)
        return token

    def get(self, token, kind: type):
        with self.lock:
            found = self.items.get(token) if isinstance(token, str) else None
        if found is None or not isinstance(found[0], kind):
            raise BadRequest(404, f"no such {kind.__name__.lower()}: {str(token)[:40]!r} (start a new one)")
        return found


def make_app(source: PlayerSource | None = None, seed: int = 0) -> Starlette:
    """The app; ``source`` builds the agents (its checkpoint directory), ``seed`` starts each
    new session's generator unless the request gives one."""
    source = source or PlayerSource()
    store = Store()
    boards = zoo_boards()  # the zoo is package data: it does not change while the server runs

    async def body(request: Request) -> dict:
        if int(request.headers.get("content-length") or 0) > MAX_BODY:
            raise BadRequest(413, f"the request body is over {MAX_BODY} bytes")
        data = b""
        async for chunk in request.stream():
            data += chunk
            if len(data) > MAX_BODY:
                raise BadRequest(413, f"the request body is over {MAX_BODY} bytes")
        try:
            value = json.loads(data)
        except (ValueError, UnicodeDecodeError) as error:
            raise BadRequest(400, f"the request body is not JSON: {error}") from None
        if not isinstance(value, dict):
            raise BadRequest(400, "the request body must be a JSON object")
        return value

    def api(work):
        """An endpoint from ``work(data) -> answer``, run in a worker thread, errors as 4xx JSON."""

        async def endpoint(request: Request) -> Response:
            try:
                data = await body(request) if request.method == "POST" else dict(request.path_params)
                answer = await run_in_threadpool(work, data)
            except BadRequest as error:
                return JSONResponse({"error": error.message}, status_code=error.status)
            except GameError as error:
                return JSONResponse({"error": str(error)}, status_code=422)
            except ValueError as error:  # unknown games, players, parameters; SessionError
                return JSONResponse({"error": str(error)}, status_code=400)
            return answer if isinstance(answer, Response) else JSONResponse(answer)

        return endpoint

    def with_session(action):
        def work(data: dict):
            token = data.get("session")
            session, lock = store.get(token, Session)
            with lock:
                result = action(session, data)
                return result if result is not None else session.view() | {"session": token}

        return work

    def new(data: dict) -> dict:
        seats = data.get("seats", ["human", "random"])
        game = data.get("game")
        if not isinstance(game, str) or game not in GAMES:
            raise SessionError(f"unknown game {game!r}; the games are {', '.join(GAMES)}")
        session = Session(game, data.get("params", {}), seats, source, seed_of(data, seed))
        return session.view() | {"session": store.add(session)}

    def analysis(session: Session, data: dict) -> dict:
        player = source.make(data.get("player", "mcts:200"), session.game)
        rng = np.random.default_rng(seed_of(data, 0))
        return analyse(session.game, session.state, player, rng, data.get("simulations"))

    def record(session: Session, data: dict) -> Response:
        name = f"{session.game.info.name}.txt"
        headers = {"Content-Disposition": f'attachment; filename="{name}"'}
        return PlainTextResponse(session.record(), headers=headers)

    def open_replay(data: dict) -> dict:
        replay = Replay(data.get("record"))
        view = replay.view(len(replay.states) - 1)
        return view | {"replay": store.add(replay), "positions": len(replay.states)}

    def replay_position(data: dict) -> dict:
        replay, _ = store.get(data.get("replay"), Replay)
        return replay.view(data.get("turn"))

    def games(data: dict) -> dict:
        return {
            "games": [game_defaults(name) for name in GAMES],
            "players": source.kinds(),
            "checkpoints": source.checkpoints(),
            "zoo": boards,
        }

    async def index(request: Request) -> Response:
        links = "\n".join(f'<li><a href="/play/{name}">{html.escape(name)}</a></li>' for name in GAMES)
        page = (STATIC / "index.html").read_text().replace("<!--GAMES-->", links)
        return HTMLResponse(page)

    async def board(request: Request) -> Response:
        name = request.path_params["game"]
        if name not in GAMES:
            return JSONResponse({"error": f"unknown game {name[:40]!r}"}, status_code=404)
        return HTMLResponse((STATIC / "board.html").read_text().replace("GAME_NAME", name))

    async def no_icon(request: Request) -> Response:
        return Response(status_code=204)

    async def not_found(request: Request, error: HTTPException) -> Response:
        return JSONResponse({"error": f"{error.detail}: {request.url.path[:80]}"}, status_code=error.status_code)

    def view(session: Session, data: dict) -> None:
        return None  # with_session answers with the view

    def play(session: Session, data: dict) -> None:
        session.play(data.get("action"))

    def step(session: Session, data: dict) -> None:
        session.step()

    def undo(session: Session, data: dict) -> None:
        session.undo()

    def restart(session: Session, data: dict) -> None:
        session.new_game()

    def swap(session: Session, data: dict) -> None:
        session.swap_seats()

    routes = [
        Route("/", index),
        Route("/play/{game}", board),
        Route("/favicon.ico", no_icon),
        Route("/api/games", api(games)),
        Route("/api/new", api(new), methods=["POST"]),
        Route("/api/view", api(with_session(view)), methods=["POST"]),
        Route("/api/play", api(with_session(play)), methods=["POST"]),
        Route("/api/step", api(with_session(step)), methods=["POST"]),
        Route("/api/undo", api(with_session(undo)), methods=["POST"]),
        Route("/api/restart", api(with_session(restart)), methods=["POST"]),
        Route("/api/swap", api(with_session(swap)), methods=["POST"]),
        Route("/api/analyse", api(with_session(analysis)), methods=["POST"]),
        Route("/api/record/{session}", api(with_session(record))),
        Route("/api/replay", api(open_replay), methods=["POST"]),
        Route("/api/replay/position", api(replay_position), methods=["POST"]),
        Mount("/static", app=StaticFiles(directory=str(STATIC)), name="static"),
    ]
    return Starlette(routes=routes, exception_handlers={HTTPException: not_found})


def seed_of(data: dict, default: int) -> int:
    """The request's ``seed`` (``default`` when it has none): an integer >= 0."""
    value = data.get("seed", default)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise SessionError(f"seed must be an integer >= 0, got {value!r}")
    return value
