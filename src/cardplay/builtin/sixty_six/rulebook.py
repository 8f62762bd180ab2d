"""Sixty-Six's (and Schnapsen's) rules for players (RULES.md section 4): every rule that can
refuse a move and every way points are scored, each paragraph naming what it covers
(``cardplay.declaration.Rule``); the paragraphs that differ in Schnapsen apply by the preset."""

from __future__ import annotations

from ...declaration import Rule, Text

__all__ = ["RULES", "SCORING"]

SCORING = ("card_points", "marriage", "last_trick", "game_points", "failed_close",
           "stand_bonus", "match")

_SIXTY_SIX = (("preset", "sixty-six"),)
_SCHNAPSEN = (("preset", "schnapsen"),)

RULES = (
    Rule(Text("Two players, 24 cards: A, 10, K, Q, J and 9 of each suit, ranking in that order. "
              "Each player gets 6 cards; the 13th card is turned up as the trump card and lies "
              "under the 12 cards of the talon. The non-dealer leads, and after each trick the "
              "winner draws from the talon first, then the loser."),
         covers=("move:card",), when=_SIXTY_SIX),
    Rule(Text("Schnapsen: 20 cards, A, 10, K, Q and J of each suit. Each player gets 5 cards; "
              "the 11th is the trump card under the 10 cards of the talon. The non-dealer "
              "leads, and after each trick the winner draws from the talon first, then the "
              "loser."),
         covers=("move:card", "option:preset"), when=_SCHNAPSEN),
    Rule(Text("While the talon is open nobody has to follow suit: the follower may play any "
              "card. A trick goes to the higher card of the suit led, or to a trump played on "
              "another suit.")),
    Rule(Text("Card points: A 11, 10 10, K 4, Q 3, J 2, 9 0. The aim is 66 points from your "
              "tricks and marriages."),
         covers=("score:card_points",)),
    Rule(Text("Marriage: on lead, holding the King and Queen of one suit, you may announce 20, "
              "or 40 in trumps, by leading one of them (K♥=20, Q♠=40), and you show the other. "
              "The points count once you have won a trick. At some tables only the King is "
              "led. Example: trumps are ♠, you have taken a trick and hold K♥ and Q♥: lead "
              "K♥=20 and score 20."),
         covers=("move:marriage", "score:marriage", "refusal:marriage_pair",
                 "refusal:marriage_forty", "refusal:marriage_twenty", "refusal:marriage_king",
                 "refusal:marriage_rank", "refusal:only_on_lead")),
    Rule(Text("Exchange: on lead, while the talon is open and holds at least two cards, the "
              "holder of the 9 of trumps may swap it for the trump card, once he has won a "
              "trick."),
         covers=("move:exchange", "refusal:exchange_closed", "refusal:exchange_gone",
                 "refusal:exchange_card", "refusal:exchange_trick"), when=_SIXTY_SIX),
    Rule(Text("Exchange: on any lead, while the talon is open and holds at least two cards, the "
              "holder of the jack of trumps may swap it for the trump card."),
         covers=("move:exchange", "refusal:exchange_closed", "refusal:exchange_gone",
                 "refusal:exchange_card", "refusal:exchange_trick"), when=_SCHNAPSEN),
    Rule(Text("Closing: on lead, while the talon holds at least two cards, you may close it. "
              "Nobody draws any more, the strict rules below apply at once, there is no bonus "
              "for the last trick, and you must reach 66: if you fail, your opponent scores 2 "
              "game points."),
         covers=("move:close", "refusal:close_off", "refusal:close_done", "refusal:close_gone",
                 "score:failed_close")),
    Rule(Text("Once the talon is closed or used up, the follower must follow suit and beat the "
              "card led when he can, else play a trump, else any card. Example: trumps are ♠, "
              "J♣ is led and you hold 10♣, 9♣ and A♠: only 10♣ may be played; holding no club, "
              "you would have to play A♠."),
         covers=("refusal:follow_suit", "refusal:head_trick", "refusal:must_trump")),
    Rule(Text("The last trick: when the talon was used up and never closed, the winner of the "
              "12th trick scores 10 more points."),
         covers=("score:last_trick",), when=_SIXTY_SIX),
    Rule(Text("The hand ends as soon as a player reaches 66. When the cards run out before that, "
              "the winner of the last trick wins the hand, with no extra points."),
         covers=("score:last_trick",), when=_SCHNAPSEN),
    Rule(Text("Game points: the winner of a hand scores 1 if the loser has 33 points or more, "
              "2 if he has fewer, and 3 if he has no points at all (or, at some tables, took "
              "no trick). Both at 66 or more: the hand is played again."),
         covers=("score:game_points",)),
    Rule(Text("A hand that ends 65 to 65 scores nothing, and the winner of the next hand gets "
              "one game point more. The first player to 7 game points wins the match."),
         covers=("score:stand_bonus", "score:match")),
)
