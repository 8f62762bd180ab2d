"""Trump Whist: a small complete trick-taking game, the proof that a new game needs one module.

Nothing outside this file knows it: the tests register it (``cardplay.engine.register``) and then
play it through the conformance suite, the arena, ``cardplay play``, the server and the research
adapters, all of which read only its declaration and the engine's protocol.

The rules:

* 2 to 4 players and the 24 cards from nine to ace of each suit, ranked A K Q J 10 9.
* The dealer deals five cards to each player one at a time, starting on the dealer's left, then
  turns up the next card: its suit is trump for the deal. The turned card and the cards under it
  stay out of play, face down but for the turned one.
* The player on the dealer's left leads. Each player in turn plays a card; a player who can
  follow the suit led must. With ``must_trump`` (default off), a player who cannot follow must
  trump if able. The highest trump wins the trick, else the highest card of the suit led; the
  winner leads the next trick.
* After five tricks the deal is over; each player scores the tricks they won. The deal passes to
  the left. The match ends once a player has ``target`` tricks (default 10); the most tricks win.

Notation: a move is the card played (``QH``, ``TH``). Move codes are the card ids (``suit * 13 +
rank``), so the action space is the 52 card slots.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from cardplay.cards import (
    SUIT_CHARS,
    SUIT_MASKS,
    cards_of_mask,
    format_card,
    parse_card,
)
from cardplay.declaration import (
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
from cardplay.engine import Deal, Game, Match, Move, View, option
from helpers import add_test_catalogue

NAME = "trump-whist"
HAND = 5
RANKS = (7, 8, 9, 10, 11, 12)  # rank ids of 9 T J Q K A
DECK = [s * 13 + r for s in range(4) for r in RANKS]
DECK_MASK = sum(1 << c for c in DECK)


@dataclass(frozen=True)
class TrumpWhistOptions:
    players: int = option(2, int_range=(2, 4), doc="number of players")
    must_trump: bool = option(False, (False, True), doc="a player void in the suit led trumps")
    target: int = option(10, int_range=(1, 100), doc="tricks that win the match")


def _facts(game: Game) -> Facts:
    return Facts(players=(2, 4), action_space=52, action_layout=(("card", 0, 52),),
                 result_bounds=(0.0, float(HAND)), max_moves=HAND * game.players,
                 zero_sum=False)


DECLARATION = Declaration(
    title=Text("Trump Whist"),
    summary=Text("Five tricks, a turned-up trump; follow suit; every trick scores a point."),
    public=(
        Field("trump_suit", "suit", Text("Trump")),
        Field("trump_card", "card", Text("Turned-up trump")),
        Field("stock", "number", Text("Cards out of play")),
        Field("leader", "seat", Text("Leads")),
        Field("trick", "records", Text("On the table"),
              fields=(Field("seat", "seat", Text("Player")),
                      Field("card", "card", Text("Card")))),
        Field("last_trick", "record", Text("Last trick"),
              fields=(Field("cards", "cards", Text("Cards")),
                      Field("winner", "seat", Text("Taken by")))),
        Field("hand_sizes", "per_seat", Text("Cards in hand")),
        Field("tricks_won", "per_seat", Text("Tricks won")),
    ),
    options=(
        OptionText("players", Text("Players"),
                   Text("How many play.")),
        OptionText("must_trump", Text("Must trump"),
                   Text("A player who cannot follow suit must trump if able."),
                   values=(Value(False, Text("No"),
                                 Text("Any card may be discarded.")),
                           Value(True, Text("Yes"),
                                 Text("Trump when void in the suit led.")))),
        OptionText("target", Text("Tricks to win"),
                   Text("The match ends once a player has this many tricks.")),
    ),
    moves=(MoveKind("card", Text("Play a card"), r"[2-9TJQKA][SHDC]",
                    Text("Lead or follow with this card.")),),
    bots=Bots(
        heuristic=f"{__name__}:HeuristicBot",
        levels={"fast": Searcher("rollout", {"decisions": 40, "worlds": 8, "seconds": 0.05}),
                "strong": Searcher("ismcts", {"iterations": 200, "seconds": 0.5})},
    ),
    facts=_facts,
)


class TrumpWhist(Game):
    """Trump Whist (this module's docstring)."""

    name = NAME
    title = DECLARATION.title.to_dict()
    declaration = DECLARATION
    Options = TrumpWhistOptions
    min_players = 2
    max_players = 4

    def _parse(self, text: str) -> int:
        return self._deck_card(text, DECK_MASK, "a card such as 'QH'")

    def _format(self, code: int) -> str:
        return format_card(code)

    def _example_move(self) -> str:
        return "AH"

    def _deck_cards(self) -> list[int]:
        return list(DECK)

    def _match_over(self, match: Match) -> bool:
        return max(match.scores) >= self.options.target

    def sample_deal(self, view: View, rng: random.Random) -> Deal:
        """A deal consistent with the view: the unseen cards go to the other players (a player
        who did not follow a suit gets none of it, nor of trump when it had to trump), the rest
        under the turned card; then the public moves are replayed."""
        n, seat = view.players, view.seat
        first = (view.dealer + 1) % n
        trump_card = parse_card(view.public["trump_card"])
        trump = trump_card // 13
        played: list[list[int]] = [[] for _ in range(n)]
        void = [0] * n
        trick: list[tuple[int, int]] = []
        for s, text in view.history:
            card = parse_card(text)
            if trick:
                led = trick[0][1] // 13
                if card // 13 != led:
                    void[s] |= SUIT_MASKS[led]
                    if self.options.must_trump and card // 13 != trump:
                        void[s] |= SUIT_MASKS[trump]
            trick.append((s, card))
            played[s].append(card)
            if len(trick) == n:
                trick = []
        own = [int(c) for c in view.hand]
        known = (1 << trump_card) | sum(1 << c for c in own)
        for cards in played:
            known |= sum(1 << c for c in cards)
        unseen = [c for c in DECK if not known >> c & 1]
        for _ in range(1000):
            rng.shuffle(unseen)
            hands: list[list[int]] = [[] for _ in range(n)]
            hands[seat] = played[seat] + own
            rest = list(unseen)
            ok = True
            for s in range(n):
                if s == seat:
                    continue
                need = HAND - len(played[s])
                fits = [c for c in rest if not void[s] >> c & 1][:need]
                if len(fits) < need:
                    ok = False
                    break
                for c in fits:
                    rest.remove(c)
                hands[s] = played[s] + fits
            if ok:
                break
        else:
            raise ValueError(f"{self.name}: no deal fits this view")
        order = [hands[(first + i) % n][k] for k in range(HAND) for i in range(n)]
        order += [trump_card, *rest]
        deal = self._deal_from_order(order, view.dealer, 0, True, {})
        for _, text in view.history:
            deal.apply_code(parse_card(text))
        return deal


class TrumpWhistDeal(Deal):
    """One deal of Trump Whist."""

    _hands: list[int]
    _trump: int
    _trump_card: int
    _leader: int
    _trick: list[tuple[int, int]]
    _last: tuple[tuple[int, ...], int] | None
    _won: list[int]

    def _start(self, order: list[int], **context: Any) -> None:
        if context:
            raise ValueError(f"{self.game.name}: a deal takes no context, not {sorted(context)}")
        n = self.players
        first = (self.dealer + 1) % n
        self._hands = [0] * n
        for i, card in enumerate(order[:HAND * n]):
            self._hands[(first + i) % n] |= 1 << card
        self._trump_card = order[HAND * n]
        self._trump = self._trump_card // 13
        self._leader = first
        self._trick = []
        self._last = None
        self._won = [0] * n
        self._turn = first

    def _legal(self) -> list[int]:
        hand = self._hands[self._turn]  # type: ignore[index]
        if self._trick:
            follow = hand & SUIT_MASKS[self._trick[0][1] // 13]
            if follow:
                return cards_of_mask(follow)
            trumps = hand & SUIT_MASKS[self._trump]
            if trumps and self.game.options.must_trump:
                return cards_of_mask(trumps)
        return cards_of_mask(hand)

    def _beats(self, card: int, best: int) -> bool:
        if card // 13 == best // 13:
            return card > best
        return card // 13 == self._trump

    def _apply(self, code: int) -> None:
        seat: int = self._turn  # type: ignore[assignment]
        self._hands[seat] &= ~(1 << code)
        self._trick.append((seat, code))
        n = self.players
        if len(self._trick) < n:
            self._turn = (seat + 1) % n
            return
        winner, best = self._trick[0]
        for s, c in self._trick[1:]:
            if self._beats(c, best):
                winner, best = s, c
        self._won[winner] += 1
        self._last = (tuple(c for _, c in self._trick), winner)
        self._trick = []
        self._leader = winner
        self._turn = winner if self._hands[winner] else None

    def _points(self) -> list[int]:
        return list(self._won)

    def _result(self) -> list[int] | None:
        return list(self._won)

    def _hand(self, seat: int) -> list[int]:
        return cards_of_mask(self._hands[seat])

    def _public(self, seat: int) -> dict[str, Any]:
        last = self._last
        return {
            "trump_suit": SUIT_CHARS[self._trump],
            "trump_card": format_card(self._trump_card),
            "stock": len(DECK) - HAND * self.players,
            "leader": self._leader,
            "trick": [{"seat": s, "card": format_card(c)} for s, c in self._trick],
            "last_trick": None if last is None else
            {"cards": [format_card(c) for c in last[0]], "winner": last[1]},
            "hand_sizes": [h.bit_count() for h in self._hands],
            "tricks_won": list(self._won),
        }

    def _copy(self) -> Deal:
        d = TrumpWhistDeal.__new__(TrumpWhistDeal)
        d._hands = list(self._hands)
        d._trump, d._trump_card, d._leader = self._trump, self._trump_card, self._leader
        d._trick = list(self._trick)
        d._last = self._last
        d._won = list(self._won)
        return d


TrumpWhist.DealClass = TrumpWhistDeal


class HeuristicBot:
    """Win the trick as cheaply as possible, else throw the lowest card; lead the highest plain
    card, keeping trumps to win later tricks. (``rng``: the stream searchers reseed in their
    rollouts; this bot draws nothing from it.)"""

    def __init__(self, game: Game, seed: int | None = None) -> None:
        self.game = game
        self.rng = random.Random(seed)

    def choose(self, view: View) -> Move:
        legal = [parse_card(m.text) for m in view.legal_moves]
        trick = [parse_card(t["card"]) for t in view.public["trick"]]
        trump = "SHDC".index(view.public["trump_suit"])

        def strength(c: int) -> int:
            return c % 13 + (20 if c // 13 == trump else 0)

        if trick:
            led = trick[0] // 13
            best = max(trick, key=lambda c: strength(c) if c // 13 in (led, trump) else -1)
            winners = [c for c in legal if (c // 13 == best // 13 and c > best) or
                       (c // 13 == trump != best // 13)]
            pick = min(winners, key=strength) if winners else min(legal, key=strength)
        else:
            plain = [c for c in legal if c // 13 != trump]
            pick = max(plain, key=strength) if plain else min(legal, key=strength)
        return self.game.move(pick)

# The Russian of this module's texts, as a game outside the package brings its own catalogue
# (docs/i18n.md): compiled and added to the package's by add_test_catalogue.
RU = {
    'Trump Whist': 'Вист с козырем',
    'Five tricks, a turned-up trump; follow suit; every trick scores a point.':
        'Пять взяток, козырь открыт; ходить в масть; каждая взятка — очко.',
    'Trump': 'Козырь',
    'Turned-up trump': 'Открытый козырь',
    'Cards out of play': 'Карт вне игры',
    'Leads': 'Ходит первым',
    'On the table': 'На столе',
    'Last trick': 'Последняя взятка',
    'Cards in hand': 'Карт на руке',
    'Tricks won': 'Взято взяток',
    'Players': 'Игроки',
    'How many play.': 'Сколько игроков.',
    'Must trump': 'Обязательно бить козырем',
    'A player who cannot follow suit must trump if able.':
        'Игрок без масти обязан бить козырем, если может.',
    'Tricks to win': 'Взяток для победы',
    'The match ends once a player has this many tricks.':
        'Партия кончается, когда у игрока столько взяток.',
    'Play a card': 'Сыграть карту',
    'Lead or follow with this card.': 'Зайти или ответить этой картой.',
    'Player': 'Игрок',
    'Card': 'Карта',
    'Cards': 'Карты',
    'Taken by': 'Взял',
    'No': 'Нет',
    'Any card may be discarded.': 'Можно сбросить любую.',
    'Yes': 'Да',
    'Trump when void in the suit led.': 'Без масти — козырем.',
}
add_test_catalogue("ru", RU)
