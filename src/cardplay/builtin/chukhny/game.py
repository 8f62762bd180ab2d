"""Chukhny («Чухны»): a climbing and shedding game for 2 to 15 players; do not be the last holder.

Rules (RULES.md section 7). There is no deal: the shuffled deck lies face down as the stock and
all hands start empty. The dealer turns up the top card as the first pile card (under
``after_ace="clear"`` an Ace turned up goes out of play and the next card is turned up). Play
starts at the dealer's left and goes clockwise.

* On his turn a player must put on the pile the card **one rank above** its top card (2 < 3 < ...
  < K < A; the suit is ignored unless ``require_same_suit``). If he holds one he must play it (he
  chooses among several). Otherwise he draws from the stock, one card per ``draw``: a card that
  fits is played at once, a card that does not stays in his hand and he draws again.
* When the stock is empty and he cannot continue, he ``take``s: the top pile card goes into his
  hand and the rest of the pile goes out of play (a pile of one card just goes out of play).
  The next player then starts a new run: he leads any card from his hand (with an empty hand he
  turns up the top stock card with ``draw``).
* After an Ace nothing is higher: under ``after_ace="clear"`` (default) the pile goes out of play
  and the Ace's player leads again; under ``"wrap"`` the required card after an Ace is a 2 (a 6
  with 36 cards).
* A player with an empty hand is out only once the stock is empty. The game ends as soon as the
  stock is empty and at most one player holds cards: he is the loser, the «чухны» (result -1,
  everyone else 0); if nobody holds cards the game is drawn (all 0). ``points`` are all 0 until
  the game ends, then equal the result.

Options: ``players`` (2..15, default 3); ``deck_size`` (52 | 36, 36 = ranks 6..A);
``require_same_suit`` (False | True: the next card must also be of the same suit);
``after_ace`` ("clear" | "wrap"); ``games`` (games in a match, default 1; the deal passes left,
the first dealer is drawn at random, the winners are the seats with the fewest losses).

Hidden information: hands and drawn cards are private, the stock is hidden. Public: the pile,
the cards out of play, hand and stock sizes, the number of cards each seat drew, and a log of
every draw with the card required at the time (a drawn card that did not fit is not shown, but
everyone knows it is not the required card), the cards a seat took from the pile, and at the
end the loser's hand.

Notation and move codes (the fixed action space):

* ``0..51`` play or lead the card with that id (``8S``; also ``10♥``, ``♥10``, ``Т♠``);
* ``52`` ``draw``: draw one card from the stock (or turn it up to start a run);
* ``53`` ``take``: take the top pile card (no fitting card and the stock is empty).
"""


from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...cards import format_card, mask_of
from ...engine import Deal, Game, InvalidMoveError, Match, View, option, register
from .deal import ACE_RANK, DRAW, TAKE, ChukhnyDeal
from .declaration import DECLARATION
from .sampling import sample_consistent_deal

if TYPE_CHECKING:
    from ...observation import Blocks, Layout

__all__ = ["RULES_RU", "Chukhny", "ChukhnyOptions"]

RULES_RU = """«Чухны»: от 2 до 15 игроков (по умолчанию 3), колода 52 карты (или 36, от шестёрки).
Карт не сдают: колода лежит в центре, сдающий открывает верхнюю карту. Каждый игрок по очереди
кладёт на кучу карту на одну ступень старше верхней (масть не важна, если не включено
require_same_suit). Есть нужная карта на руке — обязан её положить; нет — берёт из колоды по одной
карте (ход draw), пока не вытянет нужную: она сразу идёт в кучу, остальные остаются на руке.
Если колода пуста и положить нечего (ход take), игрок забирает верхнюю карту кучи, остальные
карты кучи выходят из игры (одна карта кучи просто выходит из игры), а следующий игрок начинает
новую кучу любой своей картой (с пустой рукой — открывает карту колоды ходом draw).
На туза положить нечего: по умолчанию куча выходит из игры и положивший туза ходит снова
(after_ace="clear"); при after_ace="wrap" после туза нужна двойка (шестёрка в 36 картах).
Игра кончается, когда колода пуста и карты остались не более чем у одного игрока: он проиграл,
он «чухны» (−1, остальным 0). Матч — games партий, сдача переходит влево.
Ходы: карта (8S, 10♥), draw, take."""

# The four cards of each rank (suit ignored).
_RANK_MASKS: tuple[int, ...] = tuple(sum(1 << (s * 13 + r) for s in range(4)) for r in range(13))


@dataclass(frozen=True)
class ChukhnyOptions:
    players: int = option(3, int_range=(2, 15), doc="number of players")
    deck_size: int = option(52, (52, 36), doc="52 cards, or 36 (ranks 6 to A)")
    require_same_suit: bool = option(False, (False, True),
                                     doc="the next card must also be of the same suit")
    after_ace: str = option("clear", ("clear", "wrap"),
                            doc="clear: an Ace clears the pile and its player leads again; "
                                "wrap: a 2 (a 6 with 36 cards) follows an Ace")
    games: int = option(1, int_range=(1, 100), doc="games in a match")



@register
class Chukhny(Game):
    """Chukhny: climb one rank at a time, draw when you cannot, do not be the last holder."""

    name = "chukhny"
    title = DECLARATION.title.to_dict()
    declaration = DECLARATION
    Options = ChukhnyOptions
    DealClass = ChukhnyDeal
    min_players = 2
    max_players = 15
    options: ChukhnyOptions

    def observation_blocks(self, layout: Layout) -> Blocks:
        """The game's observation blocks (:mod:`.observation`; imported when first asked for,
        so that loading the game does not build the fast path's tables)."""
        from .observation import observation_blocks

        return observation_blocks(self, layout)

    # per-options tables, set in _setup
    cards: list[int]
    deck_mask: int
    clear: bool
    same_suit: bool
    need_of: tuple[int, ...]
    match_mask: tuple[int, ...]

    def _setup(self) -> None:
        o = self.options
        low = 4 if o.deck_size == 36 else 0
        cards = [c for c in range(52) if c % 13 >= low]
        # need_of[top card] = the required card: next rank, same suit (the suit only matters
        # under require_same_suit); after an Ace the lowest rank (only reached under "wrap").
        need_of = tuple(c - c % 13 + (low if c % 13 == ACE_RANK else c % 13 + 1)
                        for c in range(52))
        if o.require_same_suit:
            match_mask = tuple(1 << c for c in range(52))
        else:
            match_mask = tuple(_RANK_MASKS[c % 13] for c in range(52))
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "deck_mask", mask_of(cards))
        object.__setattr__(self, "clear", o.after_ace == "clear")
        object.__setattr__(self, "same_suit", o.require_same_suit)
        object.__setattr__(self, "need_of", need_of)
        object.__setattr__(self, "match_mask", match_mask)

    @property
    def deck_size(self) -> int:  # type: ignore[override]
        return len(self.cards)

    def _deck_cards(self) -> list[int]:
        return list(self.cards)

    # ---- notation

    def _parse(self, text: str) -> int:
        if not isinstance(text, str):
            raise InvalidMoveError(f"chukhny: a move is text, not {type(text).__name__}")
        low = text.strip().lower()
        if low == "draw":
            return DRAW
        if low == "take":
            return TAKE
        return self._deck_card(text, self.deck_mask, "a card (such as '8S', '10♥', '♥10' or "
                               "'Т♠'), 'draw' or 'take'")

    def _format(self, code: int) -> str:
        if code < 52:
            return format_card(code)
        if code == DRAW:
            return "draw"
        if code == TAKE:
            return "take"
        raise ValueError(f"chukhny: no move has code {code}")

    def _example_move(self) -> str:
        return "8S"

    # ---- match rules

    def _first_dealer(self, rng: random.Random) -> int:
        # RULES 7.3: the dealer is chosen at random (from the match seed).
        return rng.randrange(self.players)

    def _next_dealer(self, match: Match, finished: Deal) -> int:
        # RULES 7.4 Scoring: the deal passes left.
        return (finished.dealer + 1) % finished.players

    def _match_over(self, match: Match) -> bool:
        return len(match.deals) >= self.options.games

    def _match_winners(self, match: Match) -> list[int]:
        scores = match.finished_scores
        best = max(scores)
        return [s for s, v in enumerate(scores) if v == best]

    # ---- determinization

    def sample_deal(self, view: View, rng: random.Random) -> ChukhnyDeal:
        """A deal consistent with ``view``, the unknown cards placed uniformly among the worlds
        that fit everything public.

        The unknown deck positions are the other seats' failed draws and the stock. A card a
        seat drew without playing it matches neither the need of that draw nor the need of any
        later draw or take of that seat while he still held it (he would have had to play it);
        a card a seat played that was not known to be his came from one of his earlier failed
        draws. The seat's own cards go to its own failed draws under the same rules (a view does
        not say which own card came from which draw).

        A world is a deck order that replays the history to this very view. Every such order
        is returned with the same probability: the seats' unseen cards are dealt seat by seat
        and kept with a probability that cancels the unequal chances of the deal; then each
        seat's cards go to its failed draws uniformly among the fillings that fit (counted
        exactly), and the rest of the stock is shuffled. If the rejections keep failing, the
        same law is drawn by exact counting instead. What a view costs to prepare is kept for
        the next call with the same view (searching bots sample one view many times).
        """
        return sample_consistent_deal(self, view, rng)
