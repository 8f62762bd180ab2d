"""What Maltese Twenty declares about itself (:mod:`cardplay.declaration`): its public state, the
words of its options and moves, and its facts."""

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
from .rulebook import RULES, SCORING

if TYPE_CHECKING:
    from ...engine import Game

__all__ = ["DECLARATION"]


def _facts(game: Game) -> Facts:
    return Facts(
        players=(type(game).min_players, type(game).max_players),
        action_space=52,
        action_layout=(("card", 0, 52),),
        # at most 25 cards a round per player: -20 each at worst; a Tally card scores at most
        # 15 * 2**5 (its 10th card; an 11th would pass 20), and the bonus at most 10
        result_bounds=(-500.0, 25 * 480.0 + 10.0),
        max_moves=52,
        zero_sum=False,
    )


# The bot levels (docs/bots.md has the figures): the heuristic is itself a small PIMC search
# (opponent hands drawn from the unseen cards, a negamax look-ahead in each, exact once the stock
# is empty); the search levels run it with more sampled hands and plies.
BOTS = Bots(
    heuristic="cardplay.bots.heuristics.maltese_twenty:HeuristicBot",
    levels={
        "fast": Searcher("heuristic", {"samples": 48, "depth": 6}),
        "strong": Searcher("heuristic", {"samples": 128, "depth": 10}),
    },
    exact="cardplay.bots.heuristics.maltese_twenty:exact_values",
    rollout_settings={"samples": 2, "depth": 1},
    move_classes="cardplay.bots.heuristics.maltese_twenty:value_classes",
)


_KINDS = (
    Value("exact", Text("Exact twenty"),
          Text("The Tally made exactly 20: +10, and it is cleared")),
    Value("over", Text("Over twenty"),
          Text("The Tally went over 20: -20, and it is cleared")),
    Value("tally", Text("Long Tally"),
          Text("The Tally's 5th card or later, still under 20: 15, 30, 60 ...")),
)

DECLARATION = Declaration(
    title=Text("Maltese Twenty"),
    summary=Text("Two players lay cards on a shared Tally over two rounds: exactly 20 scores, "
                 "over 20 costs, long Tallies under 20 score doubling amounts."),
    public=(
        Field("round", "number", Text("Round", ctx="maltese_twenty")),
        Field("starter", "seat", Text("Starts the round")),
        Field("bonus_cards", "cards", Text("Bonus cards")),
        Field("bonus", "number", Text("End-of-round bonus"),
              description=Text("The difference of the bonus cards' values (10 when equal), to "
                               "the last player who scored positively")),
        Field("tally", "cards", Text("Tally")),
        Field("tally_total", "number", Text("Tally total")),
        Field("cleared", "cards", Text("Cleared cards"), detail=True),
        # not "Points": a table shows each seat's points (the bonus included at the end) beside
        Field("scores", "per_seat", Text("Scored in play")),
        Field("hand_sizes", "per_seat", Text("Cards in hand")),
        Field("stock", "number", Text("Cards left in the stock")),
        Field("last_positive_scorer", "seat", Text("Last to score")),
        Field("last_event", "record", Text("Last score"),
              fields=(Field("seat", "seat", Text("Player")),
                      Field("kind", "choice", Text("Score"), values=_KINDS),
                      Field("points", "number", Text("Points")))),
        Field("bonus_to", "seat", Text("Bonus goes to")),
        # every score of the round by seat and kind: how a round's result came about
        Field("scored", "records", Text("Scores of the round"), detail=True,
              fields=(Field("seat", "seat", Text("Player")),
                      Field("kind", "choice", Text("Score"), values=_KINDS),
                      Field("times", "number", Text("Times")),
                      Field("points", "number", Text("Points")))),
    ),
    options=(
        OptionText("round_end", Text("Round ends"),
                   Text("When the round ends once the stock is empty"),
                   (Value("first_empty", Text("When one player runs out"),
                          Text("As soon as a player plays his last card with the stock empty")),
                    Value("both_empty", Text("When both run out"),
                          Text("The other player still plays his last card")))),
        OptionText("winner_rule", Text("Winner"),
                   Text("Who wins the match after round 2"),
                   (Value("higher_total", Text("Higher total"),
                          Text("The higher total wins; equal totals are a draw")),
                    Value("over_20_and_higher", Text("Higher total above 20"),
                          Text("The higher total wins only when it is above 20; otherwise "
                               "nobody wins")))),
    ),
    moves=(
        MoveKind("card", Text("Play a card"), "[2-9TJQKA][SHDC]",
                 Text("Lay a card from your hand on the Tally")),
    ),
    bots=BOTS,
    deal_name=Text("Round {n}", ctx="maltese_twenty"),
    deal_over=Text("Round {n} is over", ctx="maltese_twenty"),
    facts=_facts,
    rules=RULES,
    scoring=SCORING,
)
