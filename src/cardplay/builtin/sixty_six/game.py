"""Sixty-Six («66») and its Schnapsen preset: two players, 24 (20) cards, first to 66 card points.

Rules (RULES.md section 4). Cards A 10 K Q J 9 rank in that order and count 11 10 4 3 2 0. Each
player gets 6 cards (non-dealer first), the 13th card is turned up as the trump card and lies at
the bottom of the 12-card talon. The non-dealer leads. While the talon is open there is no
obligation to follow suit; the trick winner draws first, then the loser (the loser of the sixth
trick gets the trump card). On lead a player may first exchange the trump 9 for the trump card,
close the talon, and/or announce a marriage (K+Q of a suit: 20, in trumps 40) by leading its K or
Q. Once the talon is exhausted or closed, the follower must follow suit and head the trick
(``must_head``), else trump, else play any card. The last (12th) trick scores 10 when the talon
was exhausted and never closed. A hand is worth 1 game point (loser 33 or more), 2 (loser under
33) or 3 (loser with no points, ``schwarz_rule``); a failed close gives the opponent 2. Both at 66
or more: the hand is replayed; 65-65: a drawn hand whose stand bonus goes to the next winner.
The winner deals next; the match goes to ``match_target`` (7) game points.

Schnapsen (``preset="schnapsen"``): 20 cards (no nines), 5 cards each, the trump jack is
exchanged (on any lead), the hand ends as soon as someone reaches 66, when the cards run out the
winner of the last trick wins the hand (no 10-point bonus), and 3 game points need a loser who
took no trick (``schwarz_rule="no_tricks"``).

Options: preset (sixty-six | schnapsen), end_mode (play_out | first_to_66),
marriage_requires_trick (True), exchange (won_trick | any_lead), allow_close (True),
must_head (True), schwarz_rule (zero_points | no_tricks), stand_bonus (True), match_target (7),
marriage_lead (either | king), marriage_credit (first_trick | next_trick).

``marriage_lead="king"``: a marriage is always announced by leading its king (``KH=20``; ``QH=20``
is illegal). ``marriage_credit="next_trick"``: a marriage's points always wait for the next trick
its declarer wins, even when he has won one before (they lapse if he wins no further trick), so a
hand is never decided on a lead; the default ``"first_trick"`` holds them only until his first
trick (``marriage_requires_trick``; it cannot be combined with ``marriage_requires_trick=False``).

``VU_SCHNAPSEN_OPTIONS`` names the rules of the VU Amsterdam bot platform (the PyPI package
``schnapsen``): the Schnapsen preset without closing, marriages leading the king and credited on the
declarer's next trick; ``cardplay.load("sixty-six", **VU_SCHNAPSEN_OPTIONS)``. Its other rules are
the preset's: the jack exchange on any lead while the talon holds 2 or more cards, 66 checked
after every trick, the last trick deciding an undecided hand, 3 game points to a winner whose
opponent took no trick (there, equally, a loser with 0 points: a trick is worth 4 or more).

Notation and move codes (the fixed action space):

* ``0..51`` play the card with that id (``QH``);
* ``52 + 4*suit + 2*(0 for K, 1 for Q) + (0 for 20, 1 for 40)``: lead that K or Q announcing the
  marriage (``KH=20``, ``QS=40``; suits S H D C = 0..3);
* ``68`` ``exchange``; ``69`` ``close``.

Text such as ``9H=20`` fits the notation but is never legal (it parses to a code of 1000 or more,
outside the action space), so it is an IllegalMoveError, while ``KH=30`` is an InvalidMoveError.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...cards import SUIT_CHARS, card_of, format_card
from ...engine import (
    Deal,
    Game,
    InvalidMoveError,
    Match,
    OptionError,
    View,
    option,
    register,
)
from .actions import SixtySixActions
from .declaration import DECLARATION
from .rules import (
    ACE,
    CLOSE,
    EXCHANGE,
    JACK,
    KING,
    MARRIAGE_BASE,
    NEVER_LEGAL_BASE,
    NINE,
    QUEEN,
    STRENGTH52,
    TEN,
    SixtySixDeal,
    marriage_code,
)
from .sampling import sample_deal

if TYPE_CHECKING:
    from ...observation import Blocks, Layout

__all__ = ["RULES_RU", "VU_SCHNAPSEN_OPTIONS", "SixtySix", "SixtySixOptions"]

RULES_RU = """«66» (и пресет «Шнапсен»): двое игроков, 24 карты (Т 10 К Д В 9; очки 11 10 4 3 2 0).
По 6 карт, 13-я открывается козырем и лежит под прикупом из 12 карт. Пока прикуп открыт, масть
поддерживать не нужно; взявший взятку добирает первым. На ходу можно обменять козырную девятку на
открытый козырь, закрыть прикуп и объявить марьяж (К+Д одной масти: 20, козырный 40), выходя его
королём или дамой. После исчерпания или закрытия прикупа нужно отвечать в масть и старше, иначе
козырем. Последняя взятка даёт 10 очков. Партия стоит 1, 2 или 3 очка; проигравший закрытие отдаёт
2. Оба набрали 66 — пересдача; 65–65 — ничья, бонус следующему победителю. Матч до 7 очков.
Шнапсен: 20 карт без девяток, по 5 карт, обмен козырного валета, партия кончается на 66.
Ходы: карта (QH), марьяж (KH=20, QS=40), exchange, close.
Опции: marriage_lead="king" — марьяж объявляется только выходом с короля; marriage_credit=
"next_trick" — очки марьяжа всегда ждут следующей взятки объявившего. VU_SCHNAPSEN_OPTIONS —
правила платформы VU Amsterdam (пакет schnapsen): Шнапсен без закрытия, марьяж с короля и с
зачётом на следующей взятке."""

# The rules of the VU Amsterdam bot platform (PyPI ``schnapsen`` 0.0.5), as options (RULES 4.12).
VU_SCHNAPSEN_OPTIONS: dict[str, Any] = {
    "preset": "schnapsen",
    "allow_close": False,
    "marriage_lead": "king",
    "marriage_credit": "next_trick",
}


@dataclass(frozen=True)
class SixtySixOptions:
    preset: str = option("sixty-six", ("sixty-six", "schnapsen"))
    end_mode: str = option("play_out", ("play_out", "first_to_66"))
    marriage_requires_trick: bool = option(True, (True, False))
    exchange: str = option("won_trick", ("won_trick", "any_lead"))
    allow_close: bool = option(True, (True, False))
    must_head: bool = option(True, (True, False))
    schwarz_rule: str = option("zero_points", ("zero_points", "no_tricks"))
    stand_bonus: bool = option(True, (True, False))
    match_target: int = option(7, int_range=(1, 100))
    marriage_lead: str = option("either", ("either", "king"))
    marriage_credit: str = option("first_trick", ("first_trick", "next_trick"))


@register
class SixtySix(Game):
    """Sixty-Six with its options and the Schnapsen preset."""

    name = "sixty-six"
    title = DECLARATION.title.to_dict()
    declaration = DECLARATION
    Options = SixtySixOptions
    DealClass = SixtySixDeal
    min_players = 2
    max_players = 2
    options: SixtySixOptions

    def observation_blocks(self, layout: Layout) -> Blocks:
        """The game's observation blocks (:mod:`.observation`; imported when first asked for,
        so that loading the game does not build the fast path's tables)."""
        from .observation import observation_blocks

        return observation_blocks(self, layout)

    def action_space(self) -> SixtySixActions:
        """The game's fixed action space (:mod:`.actions`)."""
        return SixtySixActions(self, self.facts.action_space)

    def _setup(self) -> None:
        o = self.options
        schnapsen = o.preset == "schnapsen"
        ranks = (JACK, QUEEN, KING, TEN, ACE) if schnapsen else \
            (NINE, JACK, QUEEN, KING, TEN, ACE)
        cards = sorted(card_of(r, s) for s in range(4) for r in ranks)
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "hand_size", 5 if schnapsen else 6)
        object.__setattr__(self, "exchange_rank", JACK if schnapsen else NINE)
        object.__setattr__(self, "schnapsen", schnapsen)
        object.__setattr__(self, "deck_mask", sum(1 << c for c in cards))
        object.__setattr__(self, "any_lead", o.exchange == "any_lead")
        object.__setattr__(self, "allow_close", o.allow_close)
        object.__setattr__(self, "must_head", o.must_head)
        object.__setattr__(self, "first66", o.end_mode == "first_to_66")
        object.__setattr__(self, "credit_at_once", not o.marriage_requires_trick)
        object.__setattr__(self, "credit_next_trick", o.marriage_credit == "next_trick")
        object.__setattr__(self, "king_only", o.marriage_lead == "king")

    cards: list[int]
    hand_size: int
    exchange_rank: int
    schnapsen: bool
    deck_mask: int
    any_lead: bool
    allow_close: bool
    must_head: bool
    first66: bool
    credit_at_once: bool
    credit_next_trick: bool
    king_only: bool

    @classmethod
    def _presets(cls) -> dict[str, dict[str, Any]]:
        # Schnapsen's 3 game points go to a winner whose opponent took no trick (RULES 4.12).
        return {"sixty-six": {}, "schnapsen": {"end_mode": "first_to_66", "exchange": "any_lead",
                                               "schwarz_rule": "no_tricks"}}

    def _validate_options(self, opts: Any, given: Any) -> None:
        if opts.preset == "schnapsen" and opts.end_mode != "first_to_66":
            raise OptionError("sixty-six: the schnapsen preset always ends a hand at 66; "
                              "end_mode='play_out' cannot be combined with preset='schnapsen' "
                              "(valid: end_mode='first_to_66')")
        if opts.marriage_credit == "next_trick" and not opts.marriage_requires_trick:
            raise OptionError("sixty-six: marriage_credit='next_trick' holds every marriage's "
                              "points until the declarer's next trick, while "
                              "marriage_requires_trick=False credits them at once; combine it "
                              "with marriage_requires_trick=True (the default)")

    @property
    def deck_size(self) -> int:  # type: ignore[override]
        return len(self.cards)

    def _deck_cards(self) -> list[int]:
        return list(self.cards)

    # ---- notation

    def _parse(self, text: str) -> int:
        if not isinstance(text, str):
            raise InvalidMoveError(f"sixty-six: a move is text, not {type(text).__name__}")
        t = text.strip()
        low = t.lower()
        if low == "exchange":
            return EXCHANGE
        if low == "close":
            return CLOSE
        if "=" in t:
            card_text, _, amount = t.partition("=")
            card = self._card(card_text.strip(), text)
            if amount.strip() not in ("20", "40"):
                raise InvalidMoveError(
                    f"sixty-six: {text!r} is not a move: a marriage is the K or Q of a suit with "
                    f"=20 or =40, such as 'KH=20' or 'QS=40'")
            forty = amount.strip() == "40"
            if card % 13 not in (KING, QUEEN):
                return NEVER_LEGAL_BASE + 2 * card + forty
            return marriage_code(card // 13, card % 13 == QUEEN, forty)
        return self._card(t, text)

    def _card(self, t: str, text: str) -> int:
        return self._deck_card(t, self.deck_mask, "a card (such as 'QH' or '10♥'), a marriage "
                               "lead ('KH=20', 'QS=40'), 'exchange' or 'close'")

    def _format(self, code: int) -> str:
        if code < 52:
            return format_card(code)
        if code == EXCHANGE:
            return "exchange"
        if code == CLOSE:
            return "close"
        if code >= NEVER_LEGAL_BASE:
            c = (code - NEVER_LEGAL_BASE) // 2
            return f"{format_card(c)}={'40' if code & 1 else '20'}"
        k = code - MARRIAGE_BASE
        suit, queen, forty = k // 4, (k >> 1) & 1, k & 1
        return f"{'Q' if queen else 'K'}{SUIT_CHARS[suit]}={'40' if forty else '20'}"

    def _example_move(self) -> str:
        return "QH"

    # ---- match rules

    def _first_dealer(self, rng: random.Random) -> int:
        # Each player draws a card; the lower card deals; equal ranks draw again (RULES 4.3).
        while True:
            a, b = rng.sample(self.cards, 2)
            if STRENGTH52[a] != STRENGTH52[b]:
                return 0 if STRENGTH52[a] < STRENGTH52[b] else 1

    def _next_dealer(self, match: Match, finished: Deal) -> int:
        assert isinstance(finished, SixtySixDeal)
        winner = finished.winner
        return finished.dealer if winner is None else winner

    def _deal_context(self, match: Match) -> dict[str, Any]:
        pending = 0
        for d in match.deals:
            assert isinstance(d, SixtySixDeal)
            pending = d.bonus_after
        return {"stand_bonus": pending} if pending else {}

    def _match_over(self, match: Match) -> bool:
        return max(match.finished_scores) >= self.options.match_target

    def _match_winners(self, match: Match) -> list[int]:
        t = self.options.match_target
        return [s for s, v in enumerate(match.finished_scores) if v >= t]

    # ---- determinization

    def sample_deal(self, view: View, rng: random.Random) -> SixtySixDeal:
        """A deal consistent with ``view``, drawn uniformly among the deck orders that are: the
        opponent's unknown cards are drawn uniformly from the unseen cards he can hold (voids and
        must-head failures shown in phase 2 exclude cards), the rest of the unseen cards form the
        talon in random order, and each seat's known cards are spread uniformly over the deal
        and the draws that came before the first move needing them (shown partners, the
        exchanged nine, the trump card's taker all count)."""
        return sample_deal(self, view, rng)
