"""What Chukhny declares about itself (:mod:`cardplay.declaration`): the public state of a view
field by field, the words of its options and moves, and its facts."""

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

if TYPE_CHECKING:
    from ...engine import Game

__all__ = ["DECLARATION"]

# Each rank as the views write it (RANK_CHARS), with its name and what requiring it means: whole
# sentences, so that every language words them its own way.
_RANKS_REQUIRED = (
    Value("2", Text("Two"), Text("The card required is a two.")),
    Value("3", Text("Three"), Text("The card required is a three.")),
    Value("4", Text("Four"), Text("The card required is a four.")),
    Value("5", Text("Five"), Text("The card required is a five.")),
    Value("6", Text("Six"), Text("The card required is a six.")),
    Value("7", Text("Seven"), Text("The card required is a seven.")),
    Value("8", Text("Eight"), Text("The card required is an eight.")),
    Value("9", Text("Nine"), Text("The card required is a nine.")),
    Value("T", Text("Ten"), Text("The card required is a ten.")),
    Value("J", Text("Jack"), Text("The card required is a jack.")),
    Value("Q", Text("Queen"), Text("The card required is a queen.")),
    Value("K", Text("King"), Text("The card required is a king.")),
    Value("A", Text("Ace"), Text("The card required is an ace.")),
)


def _needs(none: Text) -> tuple[Value, ...]:
    """The values of a required rank: each rank, and null (``none`` says when no card is
    required)."""
    return (*_RANKS_REQUIRED, Value(None, Text("None"), none))


_PUBLIC = (
    Field("pile", "cards", Text("Pile"),
          description=Text("The cards of the current run, bottom first; the last is the top "
                           "card.")),
    Field("need", "choice", Text("Card required"),
          description=Text("The rank one above the top card of the pile."),
          values=_needs(Text("No card is required: a new run is to be started, or the game "
                             "is over."))),
    Field("need_suit", "suit", Text("Suit required"),
          description=Text("Only when the same suit is required: the suit of the top card.")),
    Field("leading", "flag", Text("Starting a new pile"),
          description=Text("The player to move leads any card from hand, or turns up the top "
                           "card of the stock with an empty hand.")),
    Field("stock", "number", Text("Cards left in the stock")),
    Field("hand_sizes", "per_seat", Text("Cards in hand")),
    Field("drawn", "per_seat", Text("Cards drawn from the stock"),
          description=Text("Every card a player drew but the one he played at once did not "
                           "fit.")),
    Field("known", "per_seat_cards", Text("Taken from the pile"),
          description=Text("The cards each player took from the pile and still holds.")),
    Field("out", "cards", Text("Out of play")),
    Field("start_cards", "cards", Text("Turned up at the start"),
          description=Text("The cards the dealer turned up: the Aces that went out of play, "
                           "then the first pile card.")),
    Field("draws", "records", Text("Draws from the stock"),
          description=Text("Every draw in order: who drew, the card required then, and the "
                           "card if it was played at once."),
          fields=(
              Field("seat", "seat", Text("Player")),
              Field("need", "choice", Text("Card required"),
                    values=_needs(Text("No card was required: the draw started a new pile."))),
              Field("need_suit", "suit", Text("Suit required")),
              Field("card", "card", Text("Card played"),
                    description=Text("None when the card did not fit and stayed in hand, "
                                     "unseen.")),
          ), detail=True),
    Field("loser", "seat", Text("Loser («chukhny»)"),
          description=Text("The last player left holding cards, once the game is over; none "
                           "before, or when nobody holds any.")),
    Field("hands", "per_seat_cards", Text("Hands at the end"),
          description=Text("Every hand, shown once the game is over."),
          optional=True),
)

_OPTIONS = (
    OptionText("players", Text("Players"),
               Text("How many play.")),
    OptionText("deck_size", Text("Deck"),
               Text("The full deck, or the 36 cards from six to Ace."),
               values=(Value(52, Text("52 cards"),
                             Text("Twos to Aces.")),
                       Value(36, Text("36 cards"),
                             Text("Sixes to Aces, as often played in Russia.")))),
    OptionText("require_same_suit", Text("Same suit"),
               Text("Whether the next card must also be of the suit of the top card."),
               values=(Value(False, Text("Any suit"),
                             Text("Only the rank counts: any card one rank higher.")),
                       Value(True, Text("Same suit", ctx="chukhny"),
                             Text("The next card is one rank higher and of the same suit.")))),
    OptionText("after_ace", Text("After an Ace"),
               Text("What follows an Ace, above which nothing climbs."),
               values=(Value("clear", Text("The pile goes out"),
                             Text("The pile goes out of play and the Ace's player leads again.")),
                       Value("wrap", Text("Round the corner"),
                             Text("A two (a six with 36 cards) follows an Ace.")))),
    OptionText("games", Text("Games in a match"),
               Text("The deal passes left; the fewest losses win the match.")),
)
_MOVES = (
    MoveKind("card", Text("Play a card", ctx="chukhny"), r"[2-9TJQKA][SHDC]",
             Text("Put the card one rank above the top card on the pile, or any card to start "
                  "a new pile.")),
    MoveKind("draw", Text("Draw"), r"draw",
             Text("Draw the top card of the stock: it is played at once if it fits, else it "
                  "stays in hand; with an empty hand it starts a new pile."), repeat=True),
    MoveKind("take", Text("Take the top card"), r"take",
             Text("No card fits and the stock is empty: take the top card of the pile; the "
                  "rest of the pile goes out of play.")),
)


def _facts(game: Game) -> Facts:
    deck_size = int(game.options.deck_size)
    return Facts(
        players=(type(game).min_players, type(game).max_players),
        action_space=54,
        action_layout=(("card", 0, 52), ("draw", 52, 1), ("take", 53, 1)),
        result_bounds=(-1.0, 0.0),
        # a card is drawn once, played once per time it came back with a take, and every take
        # puts at least one card out of play for good
        max_moves=4 * deck_size + 4,
        zero_sum=False,
    )


# The bot levels (docs/bots.md has every figure behind these budgets): policy rollouts over the
# heuristic, counted in simulated decisions (whole worlds only) and candidate moves compared;
# the seconds only cap a move on a slow machine.
BOTS = Bots(
    heuristic="cardplay.bots.heuristics.chukhny:HeuristicBot",
    levels={
        "fast": Searcher("rollout", {"decisions": 500, "max_candidates": 6, "worlds": 64,
                                     "look_every": 4, "seconds": 0.045}),
        "strong": Searcher("rollout", {"decisions": 5000, "max_candidates": 6, "worlds": 256,
                                       "look_every": 4, "seconds": 0.9}),
    },
)


DECLARATION = Declaration(
    title=Text("Chukhny"),
    summary=Text("Climb one rank at a time, drawing from the stock when you cannot; the last "
                 "player left holding cards loses."),
    public=_PUBLIC,
    options=_OPTIONS,
    moves=_MOVES,
    bots=BOTS,
    facts=_facts,
    rules=RULES,
    scoring=SCORING,
    refusals=REFUSALS,
)
