"""Macao's rules for players (RULES.md section 6): every rule that can refuse a move (the stake
limits, the one card bought, the house rules) and how the showdown pays, each paragraph naming
what it covers (``cardplay.declaration.Rule``)."""

from __future__ import annotations

from ...declaration import Rule, Text

__all__ = ["RULES", "SCORING"]

SCORING = ("showdown", "chips")

RULES = (
    Rule(Text("A banker and up to seven punters play from two decks shuffled together, 104 "
              "cards that are not reshuffled while a bank lasts. The banker puts up the bank."),
         covers=("option:bank_stake",)),
    Rule(Text("First each punter names his stake, within the table's smallest and largest "
              "stake, no more than his chips cover and only as far as the bank can still cover "
              "the stakes named before his. Then every punter and the banker get one card face "
              "down; the banker's card is seen by nobody, the banker included."),
         covers=("move:stake", "refusal:stake_first", "refusal:stake_done", "refusal:stake_low",
                 "refusal:stake_high", "refusal:stake_chips", "refusal:stake_bank",
                 "option:min_stake", "option:max_stake")),
    Rule(Text("Each punter then buys one more card or stands. A card counts A 1, 2 to 9 its "
              "pips, 10 and the court cards 0, and a hand is worth the last digit of its total: "
              "3 and 7 make 0, 5 and 6 make 1, and 9 is the best."),
         covers=("move:buy", "move:stand", "refusal:buy_once", "refusal:shoe_empty")),
    Rule(Text("At the showdown a punter whose value beats the banker's wins his stake from the "
              "bank, a lower value pays it into the bank, and equal values keep it. Example: "
              "you hold 5 and 6, worth 1, and the banker a K, worth 0: you win your stake."),
         covers=("score:showdown",)),
    Rule(Text("House rules, where the table plays them: with a forced draw you must buy on 0 to "
              "6 and stand on 7, 8 or 9; with naturals a first card of 9, 8 or 7 stands and is "
              "paid three, two or one times the stake."),
         covers=("refusal:forced_stand", "refusal:forced_buy", "refusal:natural_stands",
                 "option:forced_draw", "option:naturals")),
    Rule(Text("The bank passes to the left when the cards run short or the bank falls below "
              "the smallest stake. Your result is the chips you won or lost."),
         covers=("score:chips",)),
)
