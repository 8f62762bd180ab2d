"""Two-Ten-Jack's rules for players (RULES.md section 3): every rule that can refuse a move and
every way points are scored, each paragraph naming what it covers (``cardplay.declaration.Rule``).
"""

from __future__ import annotations

from ...declaration import Rule, Text

__all__ = ["RULES", "SCORING"]

SCORING = ("point_cards", "match")

RULES = (
    Rule(Text("Two players, 52 cards, aces high. Each player gets 6 cards and the other 40 are "
              "the stock. The non-dealer leads the first trick and the winner of each trick "
              "leads the next; while the stock lasts, the winner draws its top card first, then "
              "the loser, so that 26 tricks are played in all."),
         covers=("move:card",)),
    Rule(Text("Hearts are always trumps, and the A♠ is the highest trump and a spade at the "
              "same time. A trick with the A♠ in it is won by the A♠, else by the highest heart, "
              "else by the highest card of the suit led.")),
    Rule(Text("The follower must follow suit: a spade on a spade (the A♠ counts as one), a club "
              "on a club, a diamond on a diamond, a trump (a heart or the A♠) on a heart. "
              "Example: 5♣ is led and you hold 9♣, 2♥ and A♠: only 9♣ may be played."),
         covers=("refusal:follow_suit", "refusal:follow_trump")),
    Rule(Text("A follower who cannot follow suit must trump with a heart or the A♠; only "
              "without trumps may he play any card. Example: 5♣ is led and you hold 2♥, A♠ "
              "and 3♦: play 2♥ or A♠, and 2♥ takes the trick."),
         covers=("refusal:must_trump",)),
    Rule(Text("Whoever leads the A♠ declares it a spade or a trump, and the follower then owes a "
              "spade or a trump. The A♠ wins the trick either way, and only its leader "
              "declares it."),
         covers=("move:ace_as_spade", "move:ace_as_trump", "refusal:declare_ace",
                 "refusal:declare_on_lead")),
    Rule(Text("Points: each player scores the cards in the tricks he won: 2♥, 10♥ and J♥ +5 "
              "each; 2♣, 10♣ and J♣ −5 each; 2♠, 10♠, J♠ and A♠ +1 each; 6♦ +1; every other "
              "card 0. A hand shares out +5 in all, and a total may fall below zero. Example: a "
              "trick of 10♥ and 6♦ is worth +6, a trick of 2♥ and J♣ nothing."),
         covers=("score:point_cards",)),
    Rule(Text("The first player with 31 points or more (the target) at the end of a hand wins "
              "the match. If both get there in the same hand, the higher total wins, and equal "
              "totals play another hand."),
         covers=("score:match", "option:target", "option:win_check", "option:next_dealer")),
)
