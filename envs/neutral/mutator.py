"""The neutral mutator (docs/rules.md) over any base game's :class:`~envs.stones.rules.Rules`:
what a person reads or types of the neutral games (turn notation, errors in the game's words,
the micro-step's text). The rules are ``envs.neutral.compiled``'s, which ``envs.kit.RowGame``
makes the engine; the base game gives its geometry and goal code.

A turn is one to three micro-steps by the same seat, each one action (docs/rules.md, the encodings):

=====  ===========================================  ===========================
phase  the mover now chooses                         text of the whole turn
=====  ===========================================  ===========================
0      an empty cell: a drop (the stone lands at    drop ``e3 g7``, fill ``e3``
       once, with its captures), or the fill rule;  swap ``f6g5 a11``,
       a neutral: a swap, or the convert rule;      convert ``f6``,
       or PASS / SWAP_SIDES                         ``pass``, ``swap-sides``
1      the drop's neutral: an empty cell (next to   (second word of a drop)
       a stone in AdNeuVersi); skipped when none
2      the swap's second neutral                    (second cell of a swap)
3      the stone of the mover's to neutralise,      (last word of a swap)
       not one of the two just swapped
=====  ===========================================  ===========================

Without captures (Hex, Gomoku) a drop needs two empty cells and a swap two
neutrals and one stone of the mover's; when neither exists Bill Taylor's
end-game rules give the turn: fill an empty cell, else convert a neutral. With
captures (Reversi) every stone placed, the swapped neutrals included, must be
a legal capture in the position it is played in; a side with no drop and no
swap passes, and the game ends when neither side has a turn. Every start the
mask offers can be completed into a whole turn: masks never lead into a dead end.
"""

from __future__ import annotations

import re

from envs.core import IllegalActionError, NotationError, turn_text
from envs.kernels import EMPTY, NEUTRAL, OFF_BOARD
from envs.neutral import compiled
from envs.neutral.compiled import DROP_NEUTRAL, START, SWAP_GIVE, SWAP_SECOND
from envs.stones.rules import Rules, StoneGame, StoneState

_SWAP_WORD = re.compile(r"^([a-z][0-9]{1,2})([a-z][0-9]{1,2})$")


class NeutralGame(StoneGame):
    """A base game with the neutral mutator: Nex, Neumoku, NeuVersi, AdNeuVersi.

    ===================  ================================================================
    Actions              ``Discrete(n*n + 2)``: cell ``r * n + c`` (r = 0 is row 1), then
                         PASS, then SWAP_SIDES; one action per micro-step (module doc)
    Observation          ``(9, n, n)`` float32 from the mover's view: 0 mover's stones,
                         1 opponent's stones, 2 neutral stones, 3 cells chosen earlier
                         this turn, 4 step "the drop's neutral", 5 step "the swap's
                         second neutral", 6 step "the stone to neutralise" (4-6 all ones
                         in that step), 7 pie swap available, 8 the mover holds the
                         first colour
    Termination          a turn that reaches the base game's goal wins (judged after the
                         whole turn); a full board (Hex, Gomoku), or no turn for either
                         side (Reversi), ends the game by the base game's count
    ===================  ================================================================
    """

    PLANES = (
        "mover's stones",
        "opponent's stones",
        "neutral stones",
        "cells chosen earlier this turn",
        "step: the drop's neutral",
        "step: the swap's second neutral",
        "step: the stone to neutralise",
    )

    def __init__(self, rules: Rules, name: str, pie_rule: bool = False, adjacent_neutrals: bool = False):
        self.adjacent_neutrals = adjacent_neutrals
        super().__init__(rules, pie_rule, name)

    def turn_kind(self, state: StoneState, actions) -> str:
        kind = super().turn_kind(state, actions)
        if kind != "place":
            return kind
        if state.board[actions[0]] == EMPTY:
            # one cell on an empty point: the fill rule, except where captures make it a
            # drop whose neutral is left out (NeuVersi has no end-game rules)
            return "drop" if len(actions) == 2 or self.rules.captures else "fill"
        return "swap" if len(actions) == 3 else "convert"

    def max_decisions(self) -> int:
        # at most 2E + N <= 2 n^2 turns of up to 3 steps, a pass between two of them at most
        return 8 * self.num_cells + 2

    def _rules_kernels(self):
        rules, n, pie_turn = self.rules, self.n, -1 if self.pie_turn is None else self.pie_turn
        context = compiled.neutral_context(
            n,
            rules.kernel_goal,
            pie_turn,
            rules.goal_stones,
            self.adjacent_neutrals,
            rules.captures,
            rules.neighbour_array,
            rules.goal_sides,
        )
        return context, compiled.begin, compiled.play, 0, n * n + 1

    def illegal_reason(self, state: StoneState, action: int) -> str:
        phase = state.phase
        if action in (self.PASS, self.SWAP_SIDES) and phase != START:
            return f"{self._describe(action)} cannot be played in the middle of a turn{self._step_text(state)}"
        if action == self.SWAP_SIDES:
            return self._pie_message(state)
        if action == self.PASS:
            if not self.rules.captures:
                return "pass is never legal here: the end-game rules always leave a turn"
            return "pass is legal only when the mover has no drop and no swap"
        board = state.board
        if board[action] == OFF_BOARD:
            return f"cell {action} is not on the board"
        name, what = self.rules.cell_name(action), self._contents(state, action)
        if phase == START:
            value = board[action]
            if value not in (EMPTY, NEUTRAL):
                return f"{name} {what}; a turn starts on an empty cell (drop) or a neutral (swap)"
            if self.rules.captures:
                return f"{name} {what}, and no whole turn starts there (a stone must capture)"
            if value == NEUTRAL:
                return (
                    f"{name} {what}, but no swap is possible (it needs two neutrals and a stone of yours "
                    "to give back) and a neutral is converted only when no empty cell is left"
                )
            return f"{name} {what}, but a swap is possible, and the fill rule applies only when no drop or swap is"
        if phase == DROP_NEUTRAL:
            where = "an empty cell next to a stone" if self.adjacent_neutrals else "an empty cell"
            return f"the drop's neutral goes on {where}; {name} {what}"
        if phase == SWAP_SECOND:
            capture = " whose placement captures" if self.rules.captures else ""
            return f"the swap's second cell must be a neutral stone{capture}; {name} {what}"
        return f"the swap neutralises one of your stones other than the two just swapped; {name} {what}"

    def _contents(self, state: StoneState, cell: int) -> str:
        v = state.board[cell]
        if v == EMPTY:
            return "is empty"
        if v == NEUTRAL:
            return "holds a neutral stone"
        if cell in state.chosen:
            return "was chosen earlier this turn"
        return "holds your stone" if v == state.colour else "holds an opponent's stone"

    # --- text ------------------------------------------------------------------------------------------
    def parse_turn(self, state: StoneState, text: str) -> list[int]:
        """Drop ``e3 g7``, swap ``f6g5 a11``, one cell ``e3`` (fill, convert, or a drop
        whose neutral is left out), ``pass``, ``swap-sides``."""
        words = turn_text(text).lower().split()
        swap = _SWAP_WORD.match(words[0]) if words else None
        if not 1 <= len(words) <= 2 or (swap is not None and len(words) != 2):
            raise NotationError(
                f"cannot read {self.info.name} turn {text!r}: expected a drop 'e3 g7', a swap "
                "'f6g5 a11', one cell 'e3', 'pass' or 'swap-sides'"
            )
        if swap is not None:
            cell = self.rules.parse_cell
            actions = [cell(swap.group(1)), cell(swap.group(2)), cell(words[1])]
            kind = SWAP_SECOND
        else:
            actions = [self.parse_action(word) for word in words]
            kind = DROP_NEUTRAL if len(words) == 2 else None
        first_cell = actions[0] < self.num_cells
        if kind is not None and state.phase == START and first_cell and self._starts(state, actions[0]) != kind:
            name = "swap" if kind == SWAP_SECOND else "drop"
            contents = self._contents(state, actions[0])
            raise IllegalActionError(f"{text!r} is not a legal {name}: {self.rules.cell_name(actions[0])} {contents}")
        self._check_turn(state, text, actions)
        return actions

    def _starts(self, state: StoneState, cell: int) -> int | None:
        """The phase that ``cell`` leads to from the start of this turn (None: a whole turn, or illegal)."""
        if cell not in self.legal_actions(state):
            return None
        trial = state.copy()
        self.apply(trial, cell)
        return trial.phase or None

    def format_turn(self, state: StoneState, actions) -> str:
        text = super().format_turn(state, actions)
        if len(actions) == 3:  # a swap: the two neutrals joined
            first, second, third = text.split()
            return f"{first}{second} {third}"
        return text

    def goal_text(self, seat: int) -> str:
        return (
            f"{super().goal_text(seat)}; each turn drop one of your stones and a neutral (?), "
            "or turn two neutrals into yours and one of yours into a neutral"
        )

    def _step_text(self, state: StoneState) -> str:
        chosen = "".join(self.rules.cell_name(c) for c in state.chosen)
        return {
            START: "",
            DROP_NEUTRAL: f", drop {chosen}: now its neutral",
            SWAP_SECOND: f", swap {chosen}: now the second neutral",
            SWAP_GIVE: f", swap {chosen}: now the stone to neutralise",
        }[state.phase]
