"""What Macao declares about itself (:mod:`cardplay.declaration`): the public state of a view
field by field, the words of its options and moves, and its facts."""

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


def _yes_no(yes: Text, no: Text) -> tuple[Value, ...]:
    """The two values of a boolean option, each with its one-line description."""
    return (Value(True, Text("Yes"), yes),
            Value(False, Text("No"), no))


_PHASES = (
    Value("stake", Text("Stakes"),
          Text("The punters name their stakes in turn from the banker's left.")),
    Value("decide", Text("Buy or stand"),
          Text("Each staking punter in turn buys a card or stands.")),
    Value("over", Text("Bank over"),
          Text("The banking turn is over: the banker has taken the bank back.")),
)

_STATUSES = (
    Value("banker", Text("Banker"),
          Text("Holds the bank this turn; he has no decisions.")),
    Value("waiting", Text("To stake"),
          Text("Plays this round and has not named his stake yet.")),
    Value("staked", Text("Staked"),
          Text("Has named his stake and waits for his turn to buy or stand.")),
    Value("bought", Text("Bought"),
          Text("Has bought a card this round.")),
    Value("stood", Text("Stood"),
          Text("Stands on his cards until the showdown.")),
    Value("busted", Text("Bust"),
          Text("Went over 9 (with several cards bought) and lost his stake at once.")),
    Value("sat_out", Text("Sits out the round"),
          Text("The bank could not cover even the minimum stake for him this round.")),
    Value("done", Text("Done"),
          Text("The banking turn is over; he can still punt against the next banker.")),
    Value("out", Text("Cannot stake"),
          Text("Holds fewer chips than the minimum stake.")),
)

_PUBLIC = (
    Field("banker", "seat", Text("Banker")),
    Field("bank", "number", Text("Bank")),
    Field("round", "number", Text("Round")),
    Field("phase", "choice", Text("Phase"), values=_PHASES),
    Field("stock", "number", Text("Cards left in the shoe")),
    Field("chips", "per_seat", Text("Chips")),
    Field("chips_at_start", "per_seat", Text("Chips at the start of the bank")),
    Field("stakes", "per_seat", Text("Stakes")),
    Field("status", "per_seat_choice", Text("Status"), values=_STATUSES),
    Field("bought", "per_seat", Text("Cards bought")),
    Field("dealt_to", "seats", Text("Cards dealt this round, in order"),
          description=Text("Who received each card of this round, the banker's included, in the "
                           "order they left the shoe.")),
    Field("shown", "per_seat_cards", Text("Bust hands, face up")),
    Field("used", "cards", Text("Used cards"),
          description=Text("Every card of the earlier rounds, turned at their showdowns and set "
                           "aside."),
          detail=True),
    Field("last_round", "record", Text("Last showdown"), fields=(
        Field("round", "number", Text("Round")),
        Field("banker_card", "card", Text("Banker's card")),
        Field("banker_value", "number", Text("Banker's value")),
        Field("hands", "per_seat_cards", Text("Cards")),
        Field("values", "per_seat", Text("Values")),
        Field("stakes", "per_seat", Text("Stakes")),
        Field("won", "per_seat", Text("Chips won")),
    )),
)

_OPTIONS = (
    OptionText("players", Text("Players"),
               Text("The banker and 1 to 7 punters.")),
    OptionText("start_chips", Text("Starting chips"),
               Text("The chips each player starts the match with.")),
    OptionText("min_stake", Text("Minimum stake"),
               Text("The smallest stake a punter may name.")),
    OptionText("max_stake", Text("Maximum stake"),
               Text("The largest stake a punter may name.")),
    OptionText("bank_stake", Text("Bank"),
               Text("What the banker puts in the bank at the start of his turn.")),
    OptionText("stake_timing", Text("When to stake"),
               Text("Whether a punter stakes before the cards or after seeing his first card."),
               values=(
                   Value("before_deal", Text("Before the cards"),
                         Text("Every punter stakes, then the cards are dealt.")),
                   Value("after_first_card", Text("After the first card"),
                         Text("Each punter sees his first card, then stakes.")),
               )),
    OptionText("banker_unlimited", Text("Banker pays from his chips"),
               Text("The banker also covers stakes from his own chips, not only from the bank."),
               values=_yes_no(Text("Stakes are covered by the bank and then by the banker's "
                                   "chips."),
                              Text("Stakes are accepted only while the bank covers them."))),
    OptionText("forced_draw", Text("Forced draw"),
               Text("Buying on 0 to 6 and standing on 7 to 9 are compulsory."),
               values=_yes_no(Text("A punter must buy on 0–6 and stand on 7–9."),
                              Text("A punter buys or stands as he likes."))),
    OptionText("naturals", Text("Naturals"),
               Text("A first card of 9, 8 or 7 is a natural that stands and pays 3, 2 or 1 "
                    "times the stake."),
               values=_yes_no(Text("Naturals stand and are paid 3/2/1 times the stake; coverage "
                               "counts every stake three times."),
                              Text("Every hand is paid even money."))),
    OptionText("multi_buy", Text("Buy several cards"),
               Text("A punter may buy any number of cards; values are plain sums and over 9 "
                    "busts."),
               values=_yes_no(Text("Buy while the shoe has cards; a total over 9 loses at once."),
                              Text("At most one card is bought; the value is the total modulo "
                                   "10."))),
)

_MOVES = (
    MoveKind("stake", Text("Stake"), r"stake [1-9][0-9]*",
             Text("Stake this many chips against the bank.")),
    MoveKind("buy", Text("Buy"), r"buy",
             Text("Take one more card face down.")),
    MoveKind("stand", Text("Stand"), r"stand",
             Text("Take no more cards and wait for the showdown.")),
)


def _facts(game: Game) -> Facts:
    o = game.options
    n = game.players
    max_stake = int(o.max_stake)
    return Facts(
        players=(2, 8),
        action_space=54 + max_stake,
        # The 52 card slots that open every action space are never legal here (no move names a
        # card).
        action_layout=((UNUSED, 0, 52), ("buy", 52, 1), ("stand", 53, 1),
                       ("stake", 54, max_stake)),
        result_bounds=(-float(o.start_chips), float((n - 1) * o.start_chips)),
        # at most 52 rounds (each deals 2+ cards from the 104), a stake and a stand per punter,
        # and at most 104 bought cards
        max_moves=104 + 104 * max(n - 1, 1),
        zero_sum=True,
        points_pay=True,
    )


# The bot levels (docs/bots.md has every figure behind these budgets): policy rollouts over the
# heuristic, counted in simulated decisions (whole worlds only) and candidate moves compared;
# the seconds only cap a move on a slow machine.
BOTS = Bots(
    heuristic="cardplay.bots.heuristics.macao:HeuristicBot",
    levels={
        "fast": Searcher("rollout", {"decisions": 100, "max_candidates": 3, "worlds": 64,
                                     "look_every": 4, "seconds": 0.045}),
        # strong is the heuristic playing for first place: the contest goes to the highest
        # score, so in its last bank a seat more than 100 chips ahead of every other stakes the
        # minimum. Against the heuristic 0.336 [0.335, 0.337] of 10,000 deals (seed 717; docs/
        # bots.md, "Every game with something to find"), where rollout searches scored even or
        # below (0.314 at 4,000 decisions)
        "strong": Searcher("heuristic", {"protect_lead": 100}),
    },
    exact="cardplay.bots.heuristics.macao:exact_values",
)


DECLARATION = Declaration(
    title=Text("Macao"),
    summary=Text("A baccarat-like banking game: each punter stakes, gets a card and may buy one "
                 "more; the value nearer 9 wins."),
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
