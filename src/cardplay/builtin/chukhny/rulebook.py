"""Chukhny's rules for players (RULES.md section 7): the climbing rule, drawing and taking that
can refuse a move, and who loses, each paragraph naming what it covers
(``cardplay.declaration.Rule``)."""

from __future__ import annotations

from ...declaration import Rule, Text

__all__ = ["RULES", "SCORING"]

SCORING = ("loser",)

RULES = (
    Rule(Text("There is no deal: the shuffled deck is the stock in the middle, and its top "
              "card is turned up to start the pile. Every hand starts empty.")),
    Rule(Text("On your turn put on the pile the card one rank higher than its top card, from 2 "
              "up to A; suits do not matter unless the table plays the same suit. If you hold "
              "such a card you must play it; if not, draw from the stock one card at a time "
              "until one fits, keeping the others. Example: the pile shows 7♦ and the stock "
              "begins 3♣, Q♥, 8♠: you draw 3♣ and Q♥, keep them, and play 8♠."),
         covers=("move:card", "move:draw", "refusal:climb", "refusal:climb_suit",
                 "refusal:must_play", "refusal:no_fit_draw", "option:require_same_suit")),
    Rule(Text("Nothing is higher than an A: the player who plays it puts the pile out of play "
              "and starts a new one, unless the table lets a 2 follow the A."),
         covers=("option:after_ace",)),
    Rule(Text("When the stock is empty and no card fits, take the top card of the pile; the "
              "rest of the pile goes out of play. The next player starts a new pile with any "
              "card from his hand."),
         covers=("move:take", "refusal:no_fit_take", "refusal:take_stock",
                 "refusal:lead_from_hand")),
    Rule(Text("The last player left holding cards loses the game: −1 for him, 0 for everyone "
              "else."),
         covers=("score:loser",)),
)
