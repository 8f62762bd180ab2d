"""Two-Ten-Jack: a Japanese two-player trick-taking game, played in hands to 31 points.

Deck and deal
    52 cards, A high in every suit. The dealer deals 6 cards each, one at a time, the non-dealer
    first; the other 40 cards are a face-down stock. Nothing is turned up. The deal alternates
    between hands; the first dealer is chosen at random.

Trumps
    Hearts are always trumps. The A♠ ("Speculation") is a trump ranking above the A♥ and is also a
    spade: it always wins the trick it is in.

Play
    The non-dealer leads the first trick; the winner of a trick leads the next. While the stock
    lasts, after each trick the winner draws the top card and the loser the next one (20 tricks
    with drawing, 26 in all). The follower must follow the led kind if he can:
      * a heart led (or the A♠ declared a trump): play a trump (a heart or the A♠);
      * a spade led (or the A♠ declared a spade): play a spade (the A♠ is a spade);
      * a club or diamond led: play that suit (the A♠ is not a club or a diamond).
    Unable to follow, he must play a trump (the A♠ included) if he has one, otherwise any card.
    Whoever leads the A♠ declares it a spade or a trump; that only decides what the follower owes.
    A trick is won by the A♠, else by the highest heart, else by the highest card of the led suit.

Scoring
    Each player scores the cards in the tricks he won: 2♥ 10♥ J♥ +5 each; 2♣ 10♣ J♣ -5 each;
    2♠ 10♠ J♠ A♠ +1 each; 6♦ +1; every hand distributes exactly +5. Totals may go negative.
    The first player with 31 or more at the end of a hand wins the match; if both reach it in the
    same hand the higher total wins, and equal totals play another hand.

Options
    win_check    end_of_hand (default) | immediate: the match ends the moment a trick brings a
                 player to the target (match scores then include the hand in progress)
    target       31 (any whole number >= 1; RULES.md says "any", the engine's numeric targets
                 are positive whole numbers)
    next_dealer  alternate (default) | loser: the player with fewer hand points deals next |
                 winner: the player with more hand points deals next (a tied hand alternates)

Notation and move codes
    A card is played by naming it: QH, TH (also 10H, 10♥, ♥10, Д♥ ...), code = card id 0..51
    (suit*13 + rank; suits S H D C; ranks 2..A). Leading the A♠ needs its declaration:
    AS=S (spades, code 52) or AS=H (trumps, code 53); a plain AS is the A♠ played by the follower.
    Keywords are case-insensitive; the declaration may also be written with a suit symbol
    (A♠=♠, Т♠=♥). Codes in order: 0..51 the cards, 52 AS=S, 53 AS=H.

Hidden information
    Both hands and the stock are hidden; a drawn card is seen only by its drawer. Every played card,
    the won-trick piles, the running hand points, the A♠ declaration and the stock size are public.
    A view's public part holds: leader, trick (the led card with its seat), led (S, H for trumps,
    D, C), declared (S, H or none), last_trick, won (each seat's pile), tricks_won,
    tricks_played, hand_points, stock (cards left) and hand_sizes.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...cards import CardParseError, format_card, parse_card
from ...engine import Deal, Game, InvalidMoveError, Match, View, option, register
from .actions import TwoTenJackActions
from .declaration import DECLARATION
from .rules import AS, AS_SPADES, AS_TRUMPS, TwoTenJackDeal
from .sampling import sample_deal

if TYPE_CHECKING:
    from ...observation import Blocks, Layout

__all__ = ["RULES_RU", "TwoTenJackGame", "TwoTenJackOptions"]

RULES_RU = """Два-десять-валет: японская игра во взятки для двоих, партия до 31 очка.

Колода из 52 карт, туз старший. Сдающий раздаёт по 6 карт по одной, начиная с соперника; остальные
40 карт лежат рубашкой вверх и образуют колоду для добора. Сдают по очереди.

Червы всегда козыри. Пиковый туз («спекуляция») старше туза червей и является одновременно пикой и
козырем: он всегда берёт взятку. Первым ходит не сдававший, затем ходит взявший взятку. Пока колода
не кончилась, после каждой взятки берёт карту сначала взявший, потом другой (всего 26 взяток).

Отвечающий обязан ходить в масть (на черву или туз пик, объявленный козырем, — козырем; на пику или
туз пик, объявленный пикой, — пикой, включая туз пик; на трефу или бубну — этой мастью). Если нечем,
он обязан бить козырем (туз пик тоже козырь), иначе кладёт любую карту. Ходящий с туза пик объявляет
его пикой (AS=S) или козырем (AS=H). Взятку берёт туз пик, иначе старшая черва, иначе старшая карта
масти хода.

Очки за карты во взятках: 2, 10, валет червей +5; 2, 10, валет треф -5; 2, 10, валет, туз пик +1;
шестёрка бубен +1 (всего +5 за сдачу). Побеждает первый, у кого после сдачи 31 очко или больше; при
обоих 31+ — больший счёт, при равенстве играется ещё одна сдача.

Опции: win_check (end_of_hand / immediate), target (31), next_dealer (alternate / loser / winner).
Запись ходов: карта (QH, 10♥, Д♥); ход тузом пик: AS=S (пика) или AS=H (козырь)."""


@dataclass(frozen=True)
class TwoTenJackOptions:
    """Options of Two-Ten-Jack (RULES.md 3.8)."""

    win_check: str = option("end_of_hand", choices=("end_of_hand", "immediate"),
                             doc="when the target is checked: after each hand or after each trick")
    target: int = option(31, int_range=(1, 1000), doc="match points needed to win")
    next_dealer: str = option("alternate", choices=("alternate", "loser", "winner"),
                              doc="who deals the next hand")


@register
class TwoTenJackGame(Game):
    """Two-Ten-Jack (RULES.md section 3)."""

    name = "two-ten-jack"
    title = DECLARATION.title.to_dict()
    declaration = DECLARATION
    Options = TwoTenJackOptions
    min_players = 2
    max_players = 2
    DealClass = TwoTenJackDeal

    def observation_blocks(self, layout: Layout) -> Blocks:
        """The game's observation blocks (:mod:`.observation`; imported when first asked for,
        so that loading the game does not build the fast path's tables)."""
        from .observation import observation_blocks

        return observation_blocks(self, layout)

    def action_space(self) -> TwoTenJackActions:
        """The game's fixed action space (:mod:`.actions`)."""
        return TwoTenJackActions(self, self.facts.action_space)

    # ---- notation

    def _parse(self, text: str) -> int:
        if not isinstance(text, str):
            raise InvalidMoveError(f"two-ten-jack: a move is text, not {type(text).__name__}")
        if "=" in text:
            left, _, right = text.partition("=")
            try:
                card = parse_card(left)
            except CardParseError:
                card = -1
            decl = right.strip().upper()
            if card == AS and decl in ("S", "♠", "♤"):
                return AS_SPADES
            if card == AS and decl in ("H", "♥", "♡"):
                return AS_TRUMPS
            raise InvalidMoveError(
                f"two-ten-jack: {text!r} is not a move; only the A♠ takes a declaration: "
                "'AS=S' (spades) or 'AS=H' (trumps); any other move is a card such as 'QH'")
        try:
            return parse_card(text)
        except CardParseError as e:
            raise InvalidMoveError(
                f"two-ten-jack: {text!r} is not a move: expected a card such as 'QH', 'TH', "
                f"'10♥' or 'Д♥', or a lead of the A♠ with its declaration, 'AS=S' or 'AS=H' "
                f"({e})") from None

    def _format(self, code: int) -> str:
        if code == AS_SPADES:
            return "AS=S"
        if code == AS_TRUMPS:
            return "AS=H"
        return format_card(code)

    def _example_move(self) -> str:
        return "QH"

    # ---- sampling worlds for search

    def sample_deal(self, view: View, rng: random.Random) -> Deal:
        """A deal consistent with ``view``, drawn uniformly among the deck orders that are.

        A deck order fits the view when it deals the seat's own cards, replays the public history
        legally and leaves the view unchanged. What limits it: a follower who did not follow the
        led kind held no card of that kind at that trick (nor a trump, if he did not trump), so
        any such card he holds or played later was drawn after that trick. Each seat's cards get
        arrival times (deal or k-th draw) drawn uniformly among those the voids allow; the
        opponent's hand is chosen with probability proportional to the number of such
        arrival-time assignments it admits (not uniformly among feasible hands: a hand that needs
        a card drawn at one exact moment stands for fewer deals); the six dealt cards of each
        seat and the undrawn stock are shuffled. The work that depends only on the view is done
        once per view and reused, since a search samples many worlds from one view."""
        return sample_deal(self, view, rng)

    # ---- match rules

    def _next_dealer(self, match: Match, finished: Deal) -> int:
        # RULES.md 3.8 gives the tie rule (alternate) for `loser` only; `winner` uses it too. A tie
        # cannot actually happen: every hand distributes +5, an odd total.
        rule = self.options.next_dealer
        res = finished.result or [0, 0]
        if rule != "alternate" and res[0] != res[1]:
            low = 0 if res[0] < res[1] else 1
            return low if rule == "loser" else 1 - low
        return 1 - finished.dealer

    def _match_over(self, match: Match) -> bool:
        # RULES.md 3.7 / TTJ-3: a single highest total at or above the target wins; equal highest
        # totals play on. With win_check=immediate this runs after every move on the live scores,
        # and only the trick's winner gains, so the first to the target ends the match at once.
        scores = match.scores
        best = max(scores)
        return best >= self.options.target and scores.count(best) == 1

    def _live_scores(self, match: Match) -> list[int] | None:
        if self.options.win_check != "immediate":
            return None
        return [a + b for a, b in zip(match.finished_scores, match.deal.points)]
