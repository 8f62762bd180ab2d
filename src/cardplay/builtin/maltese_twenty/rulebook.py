"""Maltese Twenty's rules for players (RULES.md section 1): how the tally scores and how the
bonus is won; any card may be played, so no rule refuses a move of the hand."""

from __future__ import annotations

from ...declaration import Rule, Text

__all__ = ["RULES", "SCORING"]

SCORING = ("exact_twenty", "over_twenty", "long_tally", "bonus", "winner")

RULES = (
    Rule(Text("Two players, A and B, play two rounds with 52 cards. At the start of each round "
              "the top two cards are turned up: the difference of their values is the round's "
              "bonus, or 10 when they are equal. Each player gets 5 cards, and the other 40 are "
              "the stock."),
         covers=("score:bonus",)),
    Rule(Text("In turn each player lays one card of his choice on the tally, a running total: A "
              "counts 1, 2 to 9 their pips, 10, J, Q and K 10 each. Any card of the hand may be "
              "played, and suits do not matter."),
         covers=("move:card",)),
    Rule(Text("A tally of exactly 20 scores +10 for the player who made it and is cleared. Going "
              "over 20 costs 20 points and clears the tally too."),
         covers=("score:exact_twenty", "score:over_twenty")),
    Rule(Text("A fifth card that keeps the tally under 20 scores 15, and every further card "
              "that keeps it under 20 scores twice the one before: 30, 60, 120 and so on. "
              "Example: 2, 3, 4 and 5 are laid, then an A makes 15 with five cards: +15; a 3 "
              "then makes 18: +30."),
         covers=("score:long_tally",)),
    Rule(Text("A player who has laid his last card draws 5 more from the stock; when the stock "
              "is empty too, the round ends. The last player to score points in the round adds "
              "its bonus."),
         covers=("score:bonus", "option:round_end")),
    Rule(Text("After the second round the higher total wins; equal totals are a draw."),
         covers=("score:winner", "option:winner_rule")),
)
