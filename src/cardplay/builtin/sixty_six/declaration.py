"""What Sixty-Six (and its Schnapsen preset) declares about itself (:mod:`cardplay.declaration`):
the public state of a view field by field, the words of its options and moves, and its facts."""

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
from .rules import CLOSE, EXCHANGE, MARRIAGE_BASE

if TYPE_CHECKING:
    from ...engine import Game

__all__ = ["DECLARATION"]


def _yes_no(yes: Text, no: Text) -> tuple[Value, ...]:
    """The two values of a boolean option, each with its one-line description."""
    return (Value(True, Text("Yes"), yes),
            Value(False, Text("No"), no))


_REASONS = (
    Value("reached_66", Text("Reached 66"),
          Text("The winner's credited points reached 66.")),
    Value("closed_and_won", Text("Closed the talon and won"),
          Text("The player who closed the talon reached 66 and the opponent did not.")),
    Value("failed_close", Text("Failed close"),
          Text("The player who closed the talon did not reach 66 first: the opponent scores 2.")),
    Value("last_trick", Text("Won the last trick"),
          Text("Schnapsen: nobody reached 66, so the winner of the last trick wins the hand.")),
    Value("replay", Text("Replay"),
          Text("Both players reached 66: no game points, the same dealer deals again.")),
    Value("drawn", Text("Drawn hand"),
          Text("Nobody reached 66 (65–65): no game points; a stand bonus may go to the next "
               "hand's winner.")),
)

_PUBLIC = (
    Field("trump_suit", "suit", Text("Trumps")),
    # detail: once exchanged it is no longer on the table, and the face-up card says the rest
    Field("turned_trump", "card", Text("Trump card turned at the deal"), detail=True),
    Field("trump_card", "card", Text("Face-up trump card"),
          description=Text("The trump card under the talon, while it lies there.")),
    Field("trump_card_taker", "seat", Text("Took the trump card")),
    Field("stock", "number", Text("Cards left in the talon")),
    Field("closed_by", "seat", Text("Talon closed by")),
    Field("phase", "choice", Text("Phase"), values=(
        Value(1, Text("Talon open"),
              Text("No need to follow suit; after each trick the winner draws first.")),
        Value(2, Text("Talon closed or exhausted"),
              Text("Follow suit and head the trick, else trump.")),
    )),
    Field("leader", "seat", Text("Leads")),
    Field("trick", "records", Text("On the table"), fields=(
        Field("seat", "seat", Text("Player")),
        Field("card", "card", Text("Card")),
        Field("marriage", "flag", Text("Led with a marriage")),
    )),
    Field("tricks", "records", Text("Tricks played"), fields=(
        Field("leader", "seat", Text("Led by")),
        Field("cards", "cards", Text("Cards")),
        Field("winner", "seat", Text("Taken by")),
        Field("phase2", "flag", Text("Played with the talon closed or exhausted")),
    ), detail=True),
    Field("tricks_won", "per_seat", Text("Tricks won")),
    Field("pending", "per_seat", Text("Marriage points waiting for a trick")),
    Field("marriages", "records", Text("Marriages"), fields=(
        Field("seat", "seat", Text("Declared by")),
        Field("suit", "suit", Text("Suit")),
        Field("points", "number", Text("Points")),
        Field("shown", "card", Text("Card shown")),
    )),
    Field("exchange", "record", Text("Trump exchange"), fields=(
        Field("seat", "seat", Text("Exchanged by")),
        Field("took", "card", Text("Took")),
        Field("gave", "card", Text("Gave")),
    )),
    Field("hand_sizes", "per_seat", Text("Cards in hand")),
    Field("known_cards", "per_seat_cards", Text("Cards known to be in hand"),
          description=Text("Shown marriage partners and the trump card taken or exchanged.")),
    Field("last_trick_bonus", "seat", Text("Last trick +10")),
    Field("stand_bonus", "number", Text("Stand bonus at stake"),
          description=Text("Extra game points for this hand's winner, from drawn hands before.")),
    Field("card_points", "per_seat", Text("Card points taken"), optional=True),
    Field("outcome", "record", Text("Outcome of the hand"), optional=True, fields=(
        Field("winner", "seat", Text("Winner")),
        Field("game_points", "number", Text("Game points")),
        Field("reason", "choice", Text("How"), values=_REASONS),
        Field("stand_bonus_next", "number", Text("Stand bonus for the next hand")),
    )),
)

_OPTIONS = (
    OptionText("preset", Text("Rules"),
               Text("Sixty-Six, or its Schnapsen preset."),
               values=(
                   Value("sixty-six", Text("Sixty-Six", ctx="sixty_six"),
                         Text("24 cards, 6 each, the trump nine is exchanged.")),
                   Value("schnapsen", Text("Schnapsen"),
                         Text("20 cards (no nines), 5 each, the trump jack is exchanged; the "
                              "hand ends at 66.")))),
    OptionText("end_mode", Text("End of the hand"),
               Text("Whether the hand is played out or ends as soon as someone reaches 66."),
               values=(
                   Value("play_out", Text("Play out"),
                         Text("All cards are played; both at 66 or more is a replay.")),
                   Value("first_to_66", Text("First to 66"),
                         Text("The hand ends the moment a player's credited points reach 66.")))),
    OptionText("marriage_requires_trick", Text("Marriage needs a trick"),
               Text("Whether a marriage counts only once its declarer has won a trick."),
               values=_yes_no(Text("The points wait for the declarer's first trick."),
                              Text("The points count at once."))),
    OptionText("exchange", Text("Trump exchange"),
               Text("When the trump nine (Schnapsen: jack) may be exchanged for the trump card."),
               values=(
                   Value("won_trick", Text("After winning a trick"),
                         Text("On lead, once the player has won a trick.")),
                   Value("any_lead", Text("On any lead"),
                         Text("On any lead, the first included.")))),
    OptionText("allow_close", Text("Closing the talon"),
               Text("Whether the leader may close the talon."),
               values=_yes_no(Text("The leader may close the talon while it holds 2 or more "
                                   "cards."),
                              Text("Nobody closes the talon."))),
    OptionText("must_head", Text("Must head the trick"),
               Text("Whether, with the talon closed or exhausted, a follower must beat the led "
                    "card in its suit when he can."),
               values=_yes_no(Text("Follow suit with a higher card if you have one."),
                              Text("Any card of the suit will do."))),
    OptionText("schwarz_rule", Text("Three game points"),
               Text("When the winner scores 3 game points (schwarz)."),
               values=(
                   Value("zero_points", Text("Loser has no points"),
                         Text("The loser scored no card points.")),
                   Value("no_tricks", Text("Loser took no trick"),
                         Text("The loser took no trick at all.")))),
    OptionText("stand_bonus", Text("Stand bonus"),
               Text("Whether a drawn hand (65–65) gives the next hand's winner an extra game "
                    "point."),
               values=_yes_no(Text("Each drawn hand adds 1 game point for the next winner."),
                              Text("A drawn hand scores nothing."))),
    OptionText("match_target", Text("Game points to win"),
               Text("The match goes to the first player with this many game points.")),
    OptionText("marriage_lead", Text("Marriage lead"),
               Text("Which card of a marriage may be led to announce it."),
               values=(
                   Value("either", Text("King or queen"),
                         Text("Lead either card of the pair.")),
                   Value("king", Text("King only"),
                         Text("A marriage is announced by leading its king.")))),
    OptionText("marriage_credit", Text("Marriage credit"),
               Text("Which trick credits a marriage's points."),
               values=(
                   Value("first_trick", Text("First trick"),
                         Text("The points wait only until the declarer's first trick.")),
                   Value("next_trick", Text("Next trick"),
                         Text("The points always wait for the declarer's next trick.")))),
)

_MOVES = (
    MoveKind("card", Text("Play a card"), r"[9TJQKA][SHDC]",
             Text("Lead or follow with this card.")),
    MoveKind("marriage", Text("Announce a marriage"), r"[KQ][SHDC]=(20|40)",
             Text("Lead the king or queen of a pair you hold, for 20 (40 in trumps).")),
    MoveKind("exchange", Text("Exchange the trump card"), r"exchange",
             Text("Give the trump nine (Schnapsen: jack) for the face-up trump card.")),
    MoveKind("close", Text("Close the talon"), r"close",
             Text("No more drawing; follow suit from now on, and you must reach 66."),
             confirm=True),
)


def _facts(game: Game) -> Facts:
    # A hand plays at most 24 cards, an exchange and a close; 30 is the adapters' cap.
    return Facts(players=(2, 2), action_space=CLOSE + 1,
                 action_layout=(("card", 0, MARRIAGE_BASE),
                                ("marriage", MARRIAGE_BASE, EXCHANGE - MARRIAGE_BASE),
                                ("exchange", EXCHANGE, 1), ("close", CLOSE, 1)),
                 result_bounds=(0.0, 3.0), max_moves=30, zero_sum=False)


# The bot levels (docs/bots.md has the figures): PIMC, ISMCTS while the talon is open, sampled
# worlds solved exactly by alpha-beta once it is closed or exhausted. `fast` searches only its
# own first-phase leads (the heuristic, `follower`, answers the opponent's) with random
# playouts; `strong` searches every move, its playouts played by a player that sees only its own
# hand and stopped at phase 2, where a solve says who wins (bots/sixty_six_playouts.py).
# Once the talon is closed both play the worlds by alpha-mu instead of PIMC (three of their own
# moves deep, `expert` five; bots/sixty_six_alphamu.py). `expert` is `strong` with four times
# its budget (ISMCTS iterations, worlds after a close, opponent hands enumerated) and a 5 s
# cap: it beat `strong` head to head (docs/bots.md).
_PIMC = "cardplay.bots.sixty_six_solver:PIMCBot"
_PLAYOUTS = "cardplay.bots.sixty_six_playouts:playout_searcher"
# Schnapsen's 20 cards get twice the iterations: with the same budget a move there cost a fifth
# of a 24-card one (median 90 ms CPU against 431 ms), and with 3,000 it costs 161 ms against
# the VU bots (docs/bots.md, "Exact leaves").
_STRONG = {"iterations": 1500, "schnapsen_iterations": 3000, "seconds": 2.0, "worlds": 12,
           "max_nodes": 10_000, "move_nodes": 60_000, "closed_worlds": 16, "enumerate_limit": 60,
           "playouts": 1, "exact_leaves": 1, "alpha_mu": 3, "alpha_mu_nodes": 100_000}
_EXPERT = {**_STRONG, "iterations": 6000, "schnapsen_iterations": 12_000, "seconds": 5.0,
           "closed_worlds": 48, "enumerate_limit": 200, "alpha_mu": 5, "alpha_mu_nodes": 200_000}
BOTS = Bots(
    heuristic="cardplay.bots.heuristics.sixty_six:HeuristicBot",
    levels={
        "fast": Searcher("factory", {"iterations": 600, "seconds": 0.5, "worlds": 2,
                                     "max_nodes": 8_000, "move_nodes": 16_000,
                                     "closed_worlds": 4, "enumerate_limit": 6,
                                     "follower": "heuristic"}, factory=_PIMC),
        "strong": Searcher("factory", _STRONG, factory=_PLAYOUTS),
        "expert": Searcher("factory", _EXPERT, factory=_PLAYOUTS),
    },
    reads_history=True,
    exact="cardplay.bots.sixty_six_solver:exact_values",
    rollout_settings={"solve_endgame": False},
)


DECLARATION = Declaration(
    title=Text("Sixty-Six"),
    summary=Text("Two players race to 66 card points with marriages, a talon to draw from and "
                 "to close; Schnapsen is its 20-card preset."),
    public=_PUBLIC,
    options=_OPTIONS,
    moves=_MOVES,
    bots=BOTS,
    facts=_facts,
    rules=RULES,
    scoring=SCORING,
    refusals=REFUSALS,
    result_units=Text("game points"),
)
