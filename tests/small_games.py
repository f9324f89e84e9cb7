"""Every registered game at a size where a random game takes a few dozen actions, for the
tests that play thousands of games (the PettingZoo env, the batched vector env)."""

SMALL = {
    "odoku": {},
    "nex": {"size": 5, "pie_rule": True},
    "neumoku": {"size": 7},
    "neuversi": {"size": 6},
    "adneuversi": {"size": 6},
    "hex": {"size": 5, "pie_rule": True},
    "gomoku": {"size": 7, "pie_rule": True},
    "reversi": {"size": 6},
    "y": {"size": 5},
    "neuy": {"size": 4},
    "sudoku_moyo": {"givens": 30},
    "amazons": {"size": 5},
    "progressive_amazons": {"size": 5},
    "hexxagon": {"size": 3},
    "hexxagon_1344": {"size": 3},
    "send_it": {"size": 5},
    "biqala": {"outer_seeds": 1, "inner_seeds": 1},
    "push_go": {"size": 5},
    "hop_chess": {"max_turns": 4},
    "biversi": {"size": 6},
    "blockdance": {"size": 6, "max_turns": 30},
    "four_way_walls": {"size": 4, "walls": 2, "max_turns": 10},
    "connect_four": {"columns": 5, "rows": 4},
}
