"""The browser board: ``evaluate.py mode=serve`` (play, watch, replay and analyse every game
in a browser) and ``evaluate.py mode=analyse`` (JSON-lines analysis on stdin and stdout).

``session.py`` holds one game at the board, ``analysis.py`` what an agent thinks of a
position, ``players.py`` the player specs allowed from outside, ``opponent.py`` who faces
the person when a game opens (its zoo network, else the strongest player at hand) and what
the game list says of each game, ``server.py`` the Starlette app (extra ``web``),
``engine.py`` the JSON-lines engine, ``modes.py`` the two modes, and ``static/`` the pages
(plain JavaScript modules and SVG, nothing fetched from the network; ``board_draw.js`` draws
a board view for the game's page and the game list's pictures).
This package sits above the rest of ``agents``: nothing else imports it.
"""
