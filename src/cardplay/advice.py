"""Hints and reviews in words: what the best move gains, in the game's units, and why.

:func:`advise` reads an evaluation's numbers (``cardplay.bots.evaluate``: values and their
standard errors) and the seat's own view, and says which verdict fits — the played move was as
good as the best, a close call inside the error bar, or a costly choice; for a hint, how far the
best move stands above the next best — with the reasons the position shows (a marriage, the trick
it wins, the last trick's bonus, a trump kept, every other trump gone, a suit the opponent has
shown to be out of). Reasons read only the view: public cards and the seat's own hand, never a
hidden card. :func:`advice_words` writes an :class:`Advice` as sentences in any catalogue
language; the browser, the terminal and ``cardplay review`` all word it so.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .cards import SUIT_CHARS, SUIT_SYMBOLS
from .engine import Deal, View
from .engine.registry import declaration_of, load
from .i18n import CLI, LANGS, format_decimal, translate
from .wording import card_text, move_words

__all__ = ["Advice", "Reason", "advice_texts", "advice_words", "advise"]

# A loss within this of zero is no loss (exact values are sums of whole points, averaged).
_TIE = 1e-9
_MARRIAGE = re.compile(r"([KQ])([SHDC])=(20|40)")
_CARD = re.compile(r"[2-9TJQKA][SHDC]")
_STAKE = re.compile(r"stake (\d+)")


@dataclass(frozen=True)
class Reason:
    """Why the best move is best, as far as the position says: a reason's code (``advice_why_``
    plus it names its sentence) and the cards and numbers its sentence names."""

    code: str
    values: Mapping[str, str] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, **({"values": dict(self.values)} if self.values else {})}


@dataclass(frozen=True)
class Advice:
    """A decision's verdict. ``verdict``: ``best`` (the played move was as good as the best),
    ``close`` (the difference is inside two standard errors), ``costly`` (a review's move that
    gave something up), ``clear`` (a hint's best move stands out), ``even`` (a hint's best two
    are exactly equal). ``other``: the played move in a review, the next best in a hint;
    ``gain``: the best move's value minus ``other``'s; ``margin``: two standard errors of that
    difference (0 where exact)."""

    game: str
    verdict: str
    best: str
    other: str | None
    review: bool
    gain: float
    margin: float
    exact: bool
    reasons: tuple[Reason, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"verdict": self.verdict, "best": self.best, "other": self.other,
                "gain": round(self.gain, 4), "margin": round(self.margin, 4),
                "exact": self.exact, "reasons": [r.to_dict() for r in self.reasons]}


def advise(view: View, values: Mapping[str, float], errors: Mapping[str, float], exact: bool,
           played: str | None = None) -> Advice:
    """The verdict on ``view``'s decision from its moves' values (a review passes the move that
    was ``played``; a hint compares the best move with the next best)."""
    best = max(values, key=lambda m: values[m])
    if played is not None:
        other: str | None = played
    else:
        rest = sorted((m for m in values if m != best), key=lambda m: -values[m])
        other = rest[0] if rest else None
    gain = max(0.0, values[best] - values[other]) if other is not None else 0.0
    margin = 0.0 if exact or other is None else \
        2 * math.hypot(errors.get(best, 0.0), errors.get(other, 0.0))
    if played is not None:
        verdict = "best" if played == best or gain <= _TIE else \
            "close" if gain <= margin else "costly"
    else:
        verdict = "even" if other is None or gain <= _TIE else \
            "close" if gain <= margin else "clear"
    reasons = () if verdict in ("best", "even") else \
        tuple(_reasons(view, best, other, values))
    return Advice(view.game, verdict, best, other, played is not None, gain, margin, exact,
                  reasons)


# ---------------------------------------------------------------------------- the reasons

def _reasons(view: View, best: str, other: str | None, values: Mapping[str, float]
             ) -> list[Reason]:
    out: list[Reason] = []
    m = _marriage(view.game, best)
    if m:
        out.append(Reason("marriage", {"suit": m.group(2), "points": m.group(3)}))
    elif best == "close":
        out.append(Reason("close"))
    elif best == "exchange":
        card = view.public.get("trump_card")
        if card:
            out.append(Reason("exchange", {"card": card}))
    stake = _STAKE.fullmatch(best)
    if stake:
        out += _stake_reasons(best, values)
    trick = _TRICK_GAMES.get(view.game)
    card = m.group(1) + m.group(2) if m else best.split("=")[0]
    if trick is not None and _CARD.fullmatch(card):
        out += trick(view, card, best, other)
    return out


def _marriage(game: str, text: str) -> re.Match[str] | None:
    """A marriage's announcement (``KH=20``), by the game's own kind of move: Twenty writes a
    king valued 20 the same way."""
    kind = declaration_of(game).move_kind(text)
    return _MARRIAGE.fullmatch(text) if kind is not None and kind.name == "marriage" else None


def _stake_reasons(best: str, values: Mapping[str, float]) -> list[Reason]:
    stakes = {int(s.group(1)): v for t, v in values.items() if (s := _STAKE.fullmatch(t))}
    amount = int(best.split()[1])
    if len(stakes) < 2:
        return []
    if amount == min(stakes) and all(v < 0 for v in stakes.values()):
        return [Reason("least_stake")]
    if amount == max(stakes) and all(v > 0 for v in stakes.values()):
        return [Reason("most_stake")]
    return []


def _suit(card: str) -> str:
    return card[-1]


_SIXTY_SIX_POINTS = {"9": 0, "J": 2, "Q": 3, "K": 4, "T": 10, "A": 11}


def _sixty_six(view: View, card: str, best: str, other: str | None) -> list[Reason]:
    pub = view.public
    trump = pub["trump_suit"]
    order = "9JQKTA"
    trick = pub.get("trick") or []
    hand = [str(c) for c in view.hand]
    out: list[Reason] = []
    if len(trick) == 1:
        led = trick[0]["card"]

        def wins(c: str) -> bool:
            if _suit(c) == _suit(led):
                return order.index(c[0]) > order.index(led[0])
            return _suit(c) == trump

        if wins(card):
            points = _SIXTY_SIX_POINTS[led[0]] + _SIXTY_SIX_POINTS[card[0]]
            out.append(Reason("wins_points", {"n": str(points)}) if points else Reason("wins"))
        elif any(wins(c) for c in hand if c != card):
            out.append(Reason("duck"))
    else:
        if _wins_last_trick(view, best, hand):
            out.append(Reason("last_trick"))
        played = {c for t in pub.get("tricks") or () for c in t["cards"]}
        ranks = "JQKA" + ("" if view.options.get("preset") == "schnapsen" else "9") + "T"
        against = {r + trump for r in ranks} - played - set(hand)
        if _suit(card) != trump and not against and any(_suit(c) == trump for c in hand):
            out.append(Reason("trumps_out"))
        voids = {t["cards"][0][-1] for t in pub.get("tricks") or ()
                 if t.get("phase2") and t["leader"] == view.seat
                 and _suit(t["cards"][1]) != _suit(t["cards"][0])}
        if _suit(card) in voids:
            out.append(Reason("void", {"suit": _suit(card)}))
    out += _kept_trump(card, other, lambda c: _suit(c) == trump)
    return out


def _wins_last_trick(view: View, move: str, hand: list[str]) -> bool:
    """Whether leading ``move`` with two cards each and the talon exhausted (not closed) takes
    the last trick and its 10 with the best play of both. Every card is known to the seat then
    (the unseen ones are the opponent's), so the one world consistent with the view is solved
    through its last two tricks; no hidden card is guessed."""
    pub = view.public
    if len(hand) != 2 or pub.get("stock") != 0 or pub.get("closed_by") is not None or \
            view.options.get("preset") == "schnapsen":
        return False
    game = load(view.game, **dict(view.options))
    world = game.sample_deal(view, random.Random(0))
    world.play(move)
    me = view.seat

    def solve(d: Deal) -> tuple[float, int | None]:
        if d.is_over:
            result = d.result or [0, 0]
            return float(result[me] - result[1 - me]), d.view(me).public.get("last_trick_bonus")
        lines = []
        for m in d.legal_moves():
            nxt = d.copy()
            nxt.play(m)
            lines.append(solve(nxt))
        pick = max if d.to_move == me else min
        return pick(lines, key=lambda line: line[0])

    return solve(world)[1] == me


def _two_ten_jack(view: View, card: str, best: str, other: str | None) -> list[Reason]:
    pub = view.public
    order = "23456789TJQKA"

    def is_trump(c: str) -> bool:
        return _suit(c) == "H" or c == "AS"

    trick = pub.get("trick") or []
    hand = [str(c) for c in view.hand]
    out: list[Reason] = []
    if len(trick) == 1:
        led = trick[0]["card"]

        def wins(c: str) -> bool:
            if led == "AS":
                return False
            if c == "AS":
                return True
            if _suit(c) == "H" or _suit(led) == "H":
                return _suit(c) == "H" and (_suit(led) != "H"
                                            or order.index(c[0]) > order.index(led[0]))
            return _suit(c) == _suit(led) and order.index(c[0]) > order.index(led[0])

        if wins(card):
            out.append(Reason("wins"))
        elif any(wins(c) for c in hand if c != card):
            out.append(Reason("duck"))
    else:
        moves = [t.split("=")[0] for _, t in view.history]
        against = {r + "H" for r in order} | {"AS"}
        against -= set(moves) | set(hand)
        if not is_trump(card) and not against and any(is_trump(c) for c in hand):
            out.append(Reason("trumps_out"))
        # a follower who did not follow shows a void, but only once nobody draws any more:
        # the 20 tricks with drawing come first
        voids = set()
        for i in range(40, len(view.history) - 1, 2):
            (lead_seat, lead), (_, follow) = view.history[i], view.history[i + 1]
            if lead_seat == view.seat and lead[:2] != "AS" and \
                    _suit(follow[:2]) != _suit(lead) and not (_suit(lead) == "S"
                                                             and follow[:2] == "AS"):
                voids.add(_suit(lead))
        if _suit(card) in voids and card != "AS":
            out.append(Reason("void", {"suit": _suit(card)}))
    out += _kept_trump(card, other, is_trump)
    return out


def _kept_trump(card: str, other: str | None, is_trump: Any) -> list[Reason]:
    if other is None:
        return []
    spent = _MARRIAGE.fullmatch(other)
    other_card = spent.group(1) + spent.group(2) if spent else other.split("=")[0]
    if _CARD.fullmatch(other_card) and is_trump(other_card) and not is_trump(card):
        return [Reason("keeps_trump", {"other": other})]
    return []


_TRICK_GAMES = {"sixty-six": _sixty_six, "two-ten-jack": _two_ten_jack}


# ---------------------------------------------------------------------------- the words

def _move_phrase(game: str, text: str, lang: str) -> str:
    m = _marriage(game, text)
    if m:
        return translate("advice_move_marriage", lang, CLI).format(
            card=card_text(m.group(1) + m.group(2), lang))
    return move_words(declaration_of(game), text, lang)


def _reason_words(game: str, reason: Reason, lang: str) -> str:
    values: dict[str, str] = {}
    for k, v in reason.values.items():
        if k == "suit":
            values[k] = SUIT_SYMBOLS[SUIT_CHARS.index(v)]
        elif k == "card":
            values[k] = card_text(v, lang)
        elif k == "other":
            values[k] = _move_phrase(game, v, lang)
        else:
            values[k] = v
    n = int(reason.values["n"]) if "n" in reason.values else None
    return translate("advice_why_" + reason.code, lang, CLI, n).format(**values)


def advice_words(advice: Advice, lang: str = "en") -> str:
    """The verdict and its reasons as sentences in ``lang``."""
    declaration = declaration_of(advice.game)
    units = declaration.result_units(lang)
    best = _move_phrase(advice.game, advice.best, lang)
    other = _move_phrase(advice.game, advice.other, lang) if advice.other is not None else ""
    key = "advice_" + ("review_" if advice.review else "hint_") + advice.verdict
    if advice.verdict in ("costly", "clear") and advice.exact:
        key += "_exact"
    head = translate(key, lang, CLI).format(
        best=best, other=other, units=units, gain=format_decimal(advice.gain, lang),
        margin=format_decimal(advice.margin, lang))
    return " ".join([head, *(_reason_words(advice.game, r, lang) for r in advice.reasons)])


def advice_texts(advice: Advice) -> dict[str, str]:
    """The words in every catalogue language, by code: what the server sends, so the page can
    switch language without asking again."""
    return {lang: advice_words(advice, lang) for lang in LANGS}
