"""What Twenty declares about itself (:mod:`cardplay.declaration`): its public state, the words
of its options and moves, and its facts."""

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
from .actions import rank_multisets
from .refusals import REFUSALS
from .rulebook import RULES, SCORING

if TYPE_CHECKING:
    from ...engine import Game

__all__ = ["DECLARATION"]

def _facts(game: Game) -> Facts:
    o = game.options
    n = game.players
    # one source with the action space: its rank multisets
    plays = len(rank_multisets(bool(o.pair_counts_ten)))
    return Facts(
        players=(type(game).min_players, type(game).max_players),
        action_space=54 + plays,
        # the 52 card slots (never legal: every play is a set of ranks), draw, pass, then one
        # action per rank multiset
        action_layout=((UNUSED, 0, 52), ("draw", 52, 1), ("pass", 53, 1), ("play", 54, plays)),
        # a loser holds at most 4 of each rank: 8 ranks at penalty_2_to_9, 3 at 10, K 20, A 5
        result_bounds=(-4.0 * (8 * o.penalty_2_to_9 + 55), 20.0),
        # count_rule exact: at most 20 plays, a draw per stock card, and a pass round between
        # any two of them
        max_moves=20 + 52 + n * (20 + 52 + 2),
        zero_sum=False,
    )


_CARD = "(?:[2-9TJQA][SHDC]|K[SHDC](?:=(?:1[0-9]|20|[1-9]))?)"

# The bot levels (docs/bots.md has every figure behind these budgets): policy rollouts over the
# heuristic, counted in simulated decisions (whole worlds only) and candidate moves compared;
# the seconds only cap a move on a slow machine.
BOTS = Bots(
    heuristic="cardplay.bots.heuristics.twenty:HeuristicBot",
    levels={
        "fast": Searcher("rollout", {"decisions": 300, "max_candidates": 6, "worlds": 64,
                                     "look_every": 4, "seconds": 0.045}),
        "strong": Searcher("rollout", {"decisions": 3000, "max_candidates": 6, "worlds": 256,
                                       "look_every": 4, "seconds": 0.9}),
    },
)


DECLARATION = Declaration(
    title=Text("Twenty (20)"),
    summary=Text("An adding and shedding game for 2-4 players: lay cards whose count fits the "
                 "move number, draw when none fits; first to 100 points."),
    public=(
        Field("count", "number", Text("Move number"),
              description=Text("The number a play must fit, 1 to 20: at most it, or exactly it "
                               "under exact counting")),
        Field("turns", "number", Text("Turns taken")),
        Field("stock", "number", Text("Cards left in the stock")),
        Field("hand_sizes", "per_seat", Text("Cards in hand")),
        Field("passes", "number", Text("Passes in a row")),
        Field("pile", "records", Text("Plays so far"),
              fields=(Field("seat", "seat", Text("Player")),
                      Field("at", "number", Text("At move number")),
                      Field("move", "move", Text("Play")),
                      Field("cards", "cards", Text("Cards")),
                      Field("kings", "numbers", Text("Kings' values")))),
        Field("outcome", "choice", Text("How the hand ended"),
              optional=True,
              values=(
                  Value("out", Text("A player went out"),
                        Text("A player laid his last card and won the hand at once")),
                  Value("twenty", Text("Twenty reached"),
                        Text("Move 20 was completed (or a play made the count 20): the fewest "
                             "cards win")),
                  Value("passes", Text("Everyone passed"),
                        Text("The stock was empty and every player passed in turn: as though "
                             "20 was "
                        "reached")),
              )),
        Field("winners", "seats", Text("Hand won by"), optional=True),
        Field("penalties", "per_seat", Text("Penalty points in hand"),
              optional=True),
        Field("hands", "per_seat_cards", Text("Hands at the end"),
              optional=True),
    ),
    options=(
        OptionText("preset", Text("Rules"),
                   Text("Which version of the rules sets the next four options"),
                   (Value("seed", Text("Seed page"),
                          Text("At most the move number, every turn advances it, draw only "
                               "when no play "
                          "fits")),
                    Value("canonical", Text("Pagat's 20"),
                          Text("The count made exactly, it advances only when made, drawing always "
                          "allowed, a pair of 10s, Js or Qs may count 10")))),
        OptionText("players", Text("Players", ctx="twenty"),
                   Text("The number of players, 2 to 4")),
        OptionText("count_rule", Text("Count rule"),
                   Text("How a play's count must fit the move number"),
                   (Value("at_most", Text("At most the number"),
                          Text("The cards add up to the move number or less; a King counts 1")),
                    Value("exact", Text("Exactly the count"),
                          Text("The cards make the count exactly; each King is given a value "
                               "from 1 to "
                          "20")))),
        OptionText("count_advances_on_draw", Text("Every turn advances the number"),
                   Text("Whether a draw or a pass also moves the number on"),
                   (Value(True, Text("Every turn"),
                          Text("A play, a draw and a pass each advance the number: 20 turns in "
                               "all")),
                    Value(False, Text("Only a play"),
                          Text("The count advances only when it is made; a play that makes 20 "
                               "ends the "
                          "hand")))),
        OptionText("may_draw_voluntarily", Text("Draw at will"),
                   Text("Whether a player may draw although a play fits"),
                   (Value(False, Text("Only when no play fits"),
                          Text("A player who can play must play")),
                    Value(True, Text("Always"),
                          Text("Drawing is allowed on any turn while the stock lasts")))),
        OptionText("pair_counts_ten", Text("A pair of 10s, Js or Qs may count 10"),
                   Text("Whether a same-rank pair of 10s, Jacks or Queens played together may "
                        "count 10 instead of 20"),
                   (Value(False, Text("No"), Text("A pair counts 20, the sum of its cards")),
                    Value(True, Text("Yes"), Text("A pair played together counts 10 or 20")))),
        OptionText("penalty_2_to_9", Text("Penalty for a 2 to 9"),
                   Text("The penalty of each card from 2 to 9 left in a loser's hand"),
                   (Value(5, Text("5 points each"),
                          Text("As an Ace: Pagat's figure")),
                    Value(0, Text("None", ctx="twenty"),
                          Text("The seed page lists no penalty for them")))),
        OptionText("tie_policy", Text("Tied hand"),
                   Text("Who wins when the fewest cards and the penalties are tied"),
                   (Value("share", Text("All tied players win"),
                          Text("Each tied player scores +20")),
                    Value("nobody", Text("Nobody wins"),
                          Text("No +20 is awarded and every player takes his penalty")))),
        OptionText("target", Text("Match target"),
                   Text("The first player at this total or more after a hand wins the match")),
        OptionText("max_hands", Text("Hand limit"),
                   Text("A safety limit: after this many hands the highest total wins")),
    ),
    moves=(
        MoveKind("play", Text("Play cards"), f"{_CARD}(?:\\+{_CARD})*",
                 Text("Lay a set of cards whose count fits the move number (under exact "
                      "counting each King carries its value: K♥=5)")),
        MoveKind("draw", Text("Draw", ctx="twenty"), "draw",
                 Text("Take the top card of the stock")),
        MoveKind("pass", Text("Pass"), "pass",
                 Text("No play fits and the stock is empty")),
    ),
    bots=BOTS,
    facts=_facts,
    rules=RULES,
    scoring=SCORING,
    refusals=REFUSALS,
)
