"""What Polish Banchok declares about itself (:mod:`cardplay.declaration`): the public state of a
view field by field, the words of its options and moves, and its facts."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...declaration import (
    UNUSED,
    Bots,
    Declaration,
    Facts,
    Field,
    MoveKind,
    OptionText,
    Searcher,
    Text,
    Value,
)
from .refusals import REFUSALS
from .rulebook import RULES, SCORING

if TYPE_CHECKING:
    from ...engine import Game

__all__ = ["DECLARATION"]

# A bank may in principle go on for ever (used cards go back under the deck every round), so the
# research adapters cut a deal short at this many moves.
MOVE_CAP = 2000

_SETTLEMENT = (
    Field("seat", "seat", Text("Punter")),
    Field("stake", "number", Text("Stake")),
    Field("turned", "card", Text("Turned card")),
    Field("cards", "cards", Text("His cards")),
    Field("won", "choice", Text("Result"), values=(
        Value(True, Text("Won"),
              Text("He held a card of the turned suit at least as high: the bank paid his stake.")),
        Value(False, Text("Lost"),
              Text("The turned card covered his cards: he paid his stake into the bank.")),
        Value(None, Text("Threw his cards in"),
              Text("He could no longer cover the minimum stake and is out of the match.")),
    )),
)

_OUTCOMES = (
    Value(None, Text("Bank in play"),
          Text("The bank is still running.")),
    Value("tripled", Text("Bank tripled"),
          Text("The bank reached three times its opening stake; the banker took it back.")),
    Value("broken", Text("Bank broken"),
          Text("The punters won the whole bank.")),
    Value("no_punters", Text("Nobody left to stake"),
          Text("No punter could stake any more; the banker took the bank back.")),
)

_PUBLIC = (
    Field("banker", "seat", Text("Banker")),
    Field("bank", "number", Text("Bank")),
    Field("bank_stake", "number", Text("Opening bank")),
    Field("target", "number", Text("Bank ends when it reaches"),
          description=Text("Three times the opening bank: a bank that has tripled ends at once.")),
    Field("chips", "per_seat", Text("Chips")),
    Field("out", "seats", Text("Out of the match")),
    Field("round", "number", Text("Round")),
    Field("punters", "seats", Text("Punters this round")),
    Field("settled", "records", Text("Settled this round"),
          fields=_SETTLEMENT),
    Field("previous", "records", Text("Previous round"), fields=_SETTLEMENT),
    Field("stake_range", "numbers", Text("Stake from–to"),
          description=Text("The smallest and the largest stake the punter to move may name.")),
    Field("stock", "number", Text("Cards left in the deck")),
    Field("deck_parts", "records", Text("The deck by parts, top first"),
          description=Text("What is left of the bank's opening shuffle, then each earlier round's "
                           "used cards, put under the deck; the order within a part is unknown."),
          fields=(
              Field("size", "number", Text("Cards", ctx="banchok")),
              Field("cards", "cards", Text("Which cards"),
                    description=Text("None for the rest of the opening shuffle: every card of the "
                                     "104 not in the other parts.")),
          ), detail=True),
    Field("outcome", "choice", Text("How the bank ended"), values=_OUTCOMES),
)


def _yes_no(yes: Text, no: Text) -> tuple[Value, ...]:
    """The two values of a boolean option, each with its one-line description."""
    return (Value(True, Text("Yes"), yes),
            Value(False, Text("No"), no))


_OPTIONS = (
    OptionText("players", Text("Players"),
               Text("How many play, the banker included.")),
    OptionText("start_chips", Text("Starting chips"),
               Text("The chips each player starts the match with.")),
    OptionText("bank_stake", Text("Opening bank"),
               Text("What the banker puts in to open a bank; it ends once it has tripled.")),
    OptionText("banks_per_player", Text("Rounds of the bank"),
               Text("How many times the bank goes round the table in a match.")),
    OptionText("ace_low", Text("Ace low"),
               Text("The ace ranks lowest in its suit, as in Hoyle's Polish Bank."),
               values=_yes_no(Text("The ace is the lowest card of its suit."),
                              Text("The ace is the highest card of its suit."))),
)

_MOVES = (
    MoveKind("stake", Text("Stake"), r"stake [1-9][0-9]*",
             Text("Stake this many chips on your three cards against the bank.")),
)


def _facts(game: Game) -> Facts:
    o = game.options
    n = game.players
    # Action 52 + N is ``stake N``, the engine's code; actions 0..52 are never legal (no move names
    # a card and a stake is at least 1). A stake is at most the bank, which ends at 3 * bank_stake.
    size = 52 + 3 * int(o.bank_stake)
    return Facts(
        players=(2, 10),
        action_space=size,
        action_layout=((UNUSED, 0, 53), ("stake", 53, size - 53)),
        result_bounds=(-float(o.start_chips), float((n - 1) * o.start_chips)),
        max_moves=MOVE_CAP,
        zero_sum=True,
        max_moves_is_cap=True,
        points_pay=True,
    )


# The bot levels (docs/bots.md has every figure behind these budgets): policy rollouts over the
# heuristic, counted in simulated decisions (whole worlds only) and candidate moves compared;
# the seconds only cap a move on a slow machine.
BOTS = Bots(
    heuristic="cardplay.bots.heuristics.banchok:HeuristicBot",
    levels={
        "fast": Searcher("rollout", {"decisions": 100, "max_candidates": 3, "worlds": 64,
                                     "look_every": 4, "seconds": 0.045}),
        "strong": Searcher("rollout", {"decisions": 2000, "max_candidates": 3, "worlds": 256,
                                       "look_every": 4, "seconds": 0.9}),
    },
    exact="cardplay.bots.heuristics.banchok:exact_values",
)


DECLARATION = Declaration(
    title=Text("Polish Banchok"),
    summary=Text("A rotating bank: each punter stakes on his three cards and wins if he holds a "
                 "card of the turned card's suit at least as high."),
    public=_PUBLIC,
    options=_OPTIONS,
    moves=_MOVES,
    bots=BOTS,
    facts=_facts,
    rules=RULES,
    scoring=SCORING,
    refusals=REFUSALS,
    result_units=Text("chips"),
)
