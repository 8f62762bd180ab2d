"""What Two-Ten-Jack declares about itself (:mod:`cardplay.declaration`): the public state of a
view field by field, the words of its options and moves, and its facts."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...declaration import (
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
from .rules import AS_SPADES, AS_TRUMPS

if TYPE_CHECKING:
    from ...engine import Game

__all__ = ["DECLARATION"]

_AS_DECLARED = (
    Value("S", Text("A♠ as a spade"),
          Text("The A♠ was led declared a spade: the follower owes a spade.")),
    Value("H", Text("A♠ as a trump"),
          Text("The A♠ was led declared a trump: the follower owes a trump.")),
    Value(None, Text("No declaration"),
          Text("The A♠ was not led.")),
)

_TRICK_CARD = (
    Field("seat", "seat", Text("Player")),
    Field("card", "card", Text("Card")),
)

_PUBLIC = (
    Field("leader", "seat", Text("Leads")),
    Field("trick", "records", Text("On the table"), fields=_TRICK_CARD),
    Field("led", "choice", Text("Led"), values=(
        Value("S", Text("Spades"),
              Text("Follow with a spade (the A♠ is one).")),
        Value("H", Text("Trumps", ctx="two_ten_jack"),
              Text("A heart or the A♠ declared a trump: follow with a trump.")),
        Value("D", Text("Diamonds"),
              Text("Follow with a diamond.")),
        Value("C", Text("Clubs"),
              Text("Follow with a club.")),
        Value(None, Text("Nothing led"),
              Text("No card is on the table yet.")),
    )),
    Field("declared", "choice", Text("A♠ declared"), values=_AS_DECLARED),
    Field("last_trick", "record", Text("Last trick"), fields=(
        Field("cards", "records", Text("Cards"), fields=_TRICK_CARD),
        Field("declared", "choice", Text("A♠ declared"),
              values=_AS_DECLARED),
        Field("winner", "seat", Text("Taken by")),
        Field("points", "number", Text("Points")),
    )),
    Field("won", "per_seat_cards", Text("Cards won"), detail=True),
    Field("tricks_won", "per_seat", Text("Tricks won")),
    Field("tricks_played", "number", Text("Tricks played", ctx="two_ten_jack")),
    Field("hand_points", "per_seat", Text("Points this hand")),
    # which cards made the hand's points (a deal's end explains its result by them)
    Field("scoring", "records", Text("Scoring cards taken"), detail=True, fields=(
        Field("seat", "seat", Text("Taken by")),
        Field("card", "card", Text("Card")),
        Field("points", "number", Text("Points")),
    )),
    Field("stock", "number", Text("Cards left in the stock")),
    Field("hand_sizes", "per_seat", Text("Cards in hand")),
)

_OPTIONS = (
    OptionText("win_check", Text("When the target is checked"),
               Text("Whether the match can end only after a hand or after any trick."),
               values=(
                   Value("end_of_hand", Text("At the end of a hand"),
                         Text("Totals are checked after all 26 tricks.")),
                   Value("immediate", Text("At once"),
                         Text("The match ends the moment a trick brings a player to the "
                              "target.")))),
    OptionText("target", Text("Points to win"),
               Text("The match goes to the first player with this many points.")),
    OptionText("next_dealer", Text("Next dealer"),
               Text("Who deals the next hand."),
               values=(
                   Value("alternate", Text("In turn"),
                         Text("The players deal in turn.")),
                   Value("loser", Text("The loser"),
                         Text("The player with fewer hand points deals.")),
                   Value("winner", Text("The winner"),
                         Text("The player with more hand points deals.")))),
)

_MOVES = (
    MoveKind("card", Text("Play a card"), r"[2-9TJQKA][SHDC]",
             Text("Lead or follow with this card.")),
    MoveKind("ace_as_spade", Text("Lead the A♠ as a spade"),
             r"AS=S",
             Text("The follower must answer with a spade; the A♠ still wins.")),
    MoveKind("ace_as_trump", Text("Lead the A♠ as a trump"),
             r"AS=H",
             Text("The follower must answer with a trump; the A♠ still wins.")),
)


def _facts(game: Game) -> Facts:
    # 52 cards are played; 54 is the adapters' cap. A hand's points: -15 (the three scoring
    # clubs) .. +20 (the hearts, the spades and the 6♦).
    return Facts(players=(2, 2), action_space=AS_TRUMPS + 1,
                 action_layout=(("card", 0, AS_SPADES), ("ace_as_spade", AS_SPADES, 1),
                                ("ace_as_trump", AS_TRUMPS, 1)),
                 result_bounds=(-15.0, 20.0), max_moves=54, zero_sum=False)


# The bot levels (docs/bots.md has the figures): the heuristic judges each lead over sampled
# opponent hands and plays the stockless endgame exactly; the search levels sample 256 hands
# instead of 24 (more gained nothing, and a PIMC searcher scored below the heuristic).
BOTS = Bots(
    heuristic="cardplay.bots.heuristics.two_ten_jack:HeuristicBot",
    levels={
        "fast": Searcher("heuristic", {"samples": 256}),
        "strong": Searcher("heuristic", {"samples": 256}),
    },
    reads_history=True,
    exact="cardplay.bots.heuristics.two_ten_jack:exact_values",
    rollout_settings={"samples": 4, "solve_endgame": False},
    move_classes="cardplay.bots.heuristics.two_ten_jack:touching_classes",
)


DECLARATION = Declaration(
    title=Text("Two-Ten-Jack"),
    summary=Text("Two players take tricks from a stock, hearts always trump and the A♠ above "
                 "all; the point cards count, first to 31."),
    public=_PUBLIC,
    options=_OPTIONS,
    moves=_MOVES,
    bots=BOTS,
    facts=_facts,
    rules=RULES,
    scoring=SCORING,
    refusals=REFUSALS,
)
