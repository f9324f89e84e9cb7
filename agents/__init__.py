"""neuzero agents: the player interface, baselines, search and learning.

Search modules never import torch; only the network and learner modules do.
"""

from agents.players import PLAYER_SPECS, Player, make_player

__all__ = ["PLAYER_SPECS", "Player", "make_player"]
