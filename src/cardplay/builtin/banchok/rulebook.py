"""Polish Banchok's rules for players (RULES.md section 5): the stake limits, which are the only
rule that can refuse a move, and how a turned card pays, each paragraph naming what it covers
(``cardplay.declaration.Rule``)."""

from __future__ import annotations

from ...declaration import Rule, Text

__all__ = ["RULES", "SCORING"]

SCORING = ("turned_card", "chips")

RULES = (
    Rule(Text("A rotating bank played with two decks, 104 cards. The banker puts up the bank; "
              "each punter gets 3 cards and, having looked at them, names his stake."),
         covers=("option:bank_stake",)),
    Rule(Text("A stake is at least 5 chips (or the whole bank when it holds less), at most the "
              "whole bank, and no more than your chips. A punter cannot pass."),
         covers=("move:stake", "refusal:stake_low", "refusal:stake_bank",
                 "refusal:stake_chips")),
    Rule(Text("Then the banker turns up one card for that punter. The punter wins his stake "
              "from the bank if he holds a card of the same suit at least as high; otherwise "
              "his stake goes into the bank. Example: you hold A♠, K♥ and 10♦; a Q♥ is turned: "
              "you win, K♥ is higher; a J♣ is turned: you lose, you have no club."),
         covers=("score:turned_card",)),
    Rule(Text("The bank ends when it has tripled or is empty; the banker takes it back and the "
              "deal passes to the left. Your result is the chips you won or lost."),
         covers=("score:chips",)),
)
