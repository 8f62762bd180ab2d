"""Twenty's rules for players (RULES.md section 2): every rule that can refuse a move and every
way points are scored, each paragraph naming what it covers (``cardplay.declaration.Rule``); the
paragraphs that differ between the seed and the canonical counting apply by ``count_rule``."""

from __future__ import annotations

from ...declaration import Rule, Text

__all__ = ["RULES", "SCORING"]

SCORING = ("win", "penalty", "match")

RULES = (
    Rule(Text("Two to four players, 52 cards. Each player gets 7 cards and the rest is the "
              "stock. Players take turns clockwise, starting on the dealer's left.")),
    Rule(Text("Cards count: A 1, 2 to 9 their pips, 10, J and Q 10 each, and a King any "
              "number from 1 to 20.")),
    Rule(Text("Each turn is one move, numbered 1 to 20. On your turn lay one or more cards that "
              "add up to the move number or less (a King counts 1), or draw the top card of the "
              "stock, but only when no cards fit. Example: on move 2, holding A♣, A♦, 2♠ and "
              "K♥, you may lay A♣, A♣+A♦, 2♠, K♥ or A♣+K♥, but not A♣+A♦+K♥, which adds up to "
              "3."),
         covers=("move:play", "move:draw", "refusal:too_much", "refusal:draw_can_play"),
         when=(("count_rule", "at_most"),)),
    Rule(Text("The count starts at 1. On your turn lay cards that add up to the count exactly, "
              "giving each King its value, or draw the top card of the stock; the count goes up "
              "by one only when it is made. A pair of 10s, Js or Qs laid together may count 10. "
              "Example: at a count of 2, holding A♣, A♦ and K♥, you may lay A♣+A♦, K♥ as 2 or "
              "A♣ with K♥ as 1, but not A♣ alone."),
         covers=("move:play", "move:draw", "refusal:not_exact", "refusal:king_values"),
         when=(("count_rule", "exact"),)),
    Rule(Text("With no cards that fit and an empty stock you pass."),
         covers=("move:pass", "refusal:pass_only", "refusal:draw_empty")),
    Rule(Text("The hand ends as soon as a player lays his last card, or after move 20; then the "
              "player with the fewest cards wins, and on a tie the lower penalty. The winner "
              "scores 20."),
         covers=("score:win",)),
    Rule(Text("Every other player loses the penalty of the cards left in his hand: A 5, 2 to 9 "
              "5 each, 10, J and Q 10 each, K 20. Example: a hand of A, 10, J, K and 7 costs "
              "50. The first player to reach 100 wins the match."),
         covers=("score:penalty", "score:match")),
)
