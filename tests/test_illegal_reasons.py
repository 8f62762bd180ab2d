"""Every illegal move is refused with the rule that forbids it (issue 32, clause 3): for each rule
of each game, a concrete deal, the exact illegal move and the exact sentence in English, Russian
and German; and, over random deals of every game, every illegal move gets one of the game's
declared reasons, never the fallback."""

from __future__ import annotations

import random
from typing import Any

import pytest

import cardplay
from cardplay.engine import Deal, IllegalMoveError
from cardplay.engine.reasons import COMMON, NOT_NOW
from helpers import deck_with, shoe


def said(deal: Deal, move: str, seat: int | None = None) -> tuple[str, str, str, str]:
    r = deal.why_illegal(move, seat)
    assert r is not None, f"{move} is legal"
    return r.name, r.message("en"), r.message("ru"), r.message("de")


def interleave(first: str, second: str) -> list[str]:
    a, b = first.split(), second.split()
    return [c for pair in zip(a, b) for c in pair]


# ---------------------------------------------------------------- Two-Ten-Jack (RULES.md 3.5)

def ttj(seat0: str, seat1: str) -> Deal:
    return cardplay.load("two-ten-jack").deal(deck=deck_with(interleave(seat0, seat1)), dealer=1)


def test_two_ten_jack_must_follow_suit_even_with_the_ace_of_spades() -> None:
    d = ttj("5C 3D 4D 5D 6D 7D", "9C 2H AS 8D 9D TD")
    d.play("5C")
    want = ("follow_suit", "You must follow suit: 5♣ was led, so play a ♣ card: 9♣.",
            "Нужно отвечать в масть: первой сыграна 5♣, положите карту масти ♣: 9♣.",
            "Farbzwang: 5♣ wurde ausgespielt, also spiel eine ♣-Karte: 9♣.")
    assert said(d, "2H") == want
    assert said(d, "AS") == want  # the A♠ is a spade and a trump, never a club


def test_two_ten_jack_must_trump_when_unable_to_follow() -> None:
    d = ttj("5C 3D 4D 5D 6D 7D", "2H AS 3S 8D 9D TD")
    d.play("5C")
    assert said(d, "3S") == (
        "must_trump", "You hold no ♣ card, so you must trump (a heart or the A♠): A♠ 2♥.",
        "У вас нет карт масти ♣, поэтому нужно бить козырем (червой или тузом пик): Т♠ 2♥.",
        "Du hast kein ♣, also musst du trumpfen (Herz oder das Pik-Ass): A♠ 2♥.")


def test_two_ten_jack_the_ace_of_spades_declared_a_trump_asks_for_a_trump() -> None:
    d = ttj("AS 3D 4D 5D 6D 7D", "KS 3H 8D 9D TD 2C")
    assert said(d, "AS")[0:2] == (
        "declare_ace",
        "When you lead the A♠ you declare it a spade or a trump: lead it as A♠=♠ or A♠=♥.")
    d.play("AS=H")
    assert said(d, "KS") == (
        "follow_trump",
        "A trump was led (A♠), so you must follow with a trump (a heart or the A♠): 3♥.",
        "Первым сыгран козырь (Т♠), поэтому нужно ответить козырем (червой или тузом пик): 3♥.",
        "Trumpf wurde ausgespielt (A♠), also musst du Trumpf bedienen (Herz oder das Pik-Ass): "
        "3♥.")


def test_two_ten_jack_only_the_leader_declares_the_ace() -> None:
    d = ttj("5S 3D 4D 5D 6D 7D", "AS 3H 8D 9D TD 2C")
    d.play("5S")
    assert said(d, "AS=H")[:2] == (
        "declare_on_lead", "Only the leader declares the A♠; as the follower you play it as it is.")


# ---------------------------------------------------------------- Sixty-Six (RULES.md 4.4-4.5)

SS_DECK = [*interleave("JC QH KH 9D JD QD", "TC 9C AS 9H TH AH"), "KS",
           "9S", "TS", "JS", "QS", "AD", "TD", "KD", "QC", "KC", "AC", "JH"]


def test_sixty_six_closed_talon_must_head_the_trick() -> None:
    d = cardplay.load("sixty-six").deal(deck=SS_DECK, dealer=1)
    d.play("close")
    d.play("JC")
    want = ("head_trick",
            "The talon is closed or used up, so you must follow suit and beat J♣ when you can: "
            "play 10♣.",
            "Прикуп закрыт или кончился, поэтому нужно отвечать в масть и бить В♣, если можете: "
            "положите 10♣.",
            "Der Talon ist zugedreht oder aufgebraucht, also gelten Farb- und Stichzwang: "
            "Stich B♣ mit 10♣.")
    assert said(d, "9C") == want
    assert said(d, "AS") == want
    assert said(d, "close")[:2] == (
        "only_on_lead", "You may exchange, close the talon or announce a marriage only when you "
        "lead, before your card.")


def test_sixty_six_without_must_head_follow_suit_then_must_trump() -> None:
    d = cardplay.load("sixty-six", must_head=False).deal(deck=SS_DECK, dealer=1)
    d.play("close")
    d.play("JC")
    assert said(d, "AS")[:2] == (
        "follow_suit", "The talon is closed or used up, so you must follow suit: J♣ was led, "
        "play 9♣ 10♣.")
    d.play("9C")  # the leader keeps the lead (J♣ beats 9♣)
    d.play("9D")
    assert said(d, "TH") == (
        "must_trump", "The talon is closed or used up and you hold no ♦ card, so you must play a "
        "trump: A♠.",
        "Прикуп закрыт или кончился, а карт масти ♦ у вас нет, поэтому нужно бить козырем: Т♠.",
        "Der Talon ist zugedreht oder aufgebraucht und du hast kein ♦, also musst du mit Atout "
        "stechen: A♠.")


def test_sixty_six_lead_turn_exchange_close_and_marriages() -> None:
    d = cardplay.load("sixty-six").deal(deck=SS_DECK, dealer=1)
    assert said(d, "exchange") == (
        "exchange_card",
        "Only the holder of 9♠ may exchange it for the trump card, and you do not hold it.",
        "Обменять на открытый козырь можно только карту 9♠, а её у вас нет.",
        "Nur wer 9♠ hat, darf sie gegen die Atoutkarte tauschen, und du hast sie nicht.")
    assert said(d, "KH=40") == (
        "marriage_twenty",
        "Only a marriage in trumps counts 40; in ♥ it counts 20: announce it as K♥=20.",
        "40 стоит только козырный марьяж; в масти ♥ он стоит 20: объявите его как К♥=20.",
        "Nur ein Paar in Atout zählt 40; in ♥ zählt es 20: Sag es als K♥=20 an.")
    assert said(d, "QD=20")[:2] == (
        "marriage_pair", "A marriage is the King and Queen of one suit: you do not hold K♦.")
    d.play("close")
    assert said(d, "close")[:2] == ("close_done", "The talon is already closed.")
    assert said(d, "exchange")[:2] == (
        "exchange_closed", "The talon is closed: the trump card can no longer be exchanged.")
    off = cardplay.load("sixty-six", allow_close=False).deal(deck=SS_DECK, dealer=1)
    assert said(off, "close")[:2] == ("close_off", "Closing the talon is not played at this table.")
    king = cardplay.load("sixty-six", marriage_lead="king").deal(deck=SS_DECK, dealer=1)
    assert said(king, "QH=20")[:2] == (
        "marriage_king",
        "At this table a marriage is announced by leading its King, not its Queen.")


def test_sixty_six_exchange_waits_for_a_won_trick() -> None:
    deck = [*interleave("9S JC QH KH 9D JD", "TC 9C AS 9H TH AH"), "KS",
            "QD", "TS", "JS", "QS", "AD", "TD", "KD", "QC", "KC", "AC", "JH"]
    d = cardplay.load("sixty-six").deal(deck=deck, dealer=1)
    assert said(d, "exchange") == (
        "exchange_trick", "You may exchange for the trump card only after you have won a trick.",
        "Обменять открытый козырь можно только после того, как вы взяли хотя бы одну взятку.",
        "Du darfst die Atoutkarte erst tauschen, wenn du einen Stich gemacht hast.")
    assert cardplay.load("sixty-six", exchange="any_lead").deal(
        deck=deck, dealer=1).why_illegal("exchange") is None


# ---------------------------------------------------------------- Twenty (RULES.md 2.4)

def test_twenty_seed_a_set_must_count_at_most_the_move_number() -> None:
    d = cardplay.load("twenty").deal(
        deck=deck_with(interleave("5C 9D KS 8S 7H 6H 4C", "2D 3D 4D 5D 6D 7D 8D")), dealer=1)
    assert said(d, "5C") == (
        "too_much",
        "Laying 5♣ adds at least 5, more than the move number 1: the cards you lay must add up "
        "to 1 or less (a King counts 1).",
        "Сумма 5♣ — не меньше 5, а это больше номера хода 1: выложенные карты должны давать в "
        "сумме не больше 1 (король считается за 1).",
        "Mit 5♣ sind es mindestens 5, mehr als die Zugnummer 1: Die gelegten Karten dürfen "
        "zusammen höchstens 1 zählen (ein König zählt 1).")
    assert said(d, "draw")[:2] == (
        "draw_can_play",
        "You hold cards that fit, so you must lay them: you draw only when no cards fit.")
    assert said(d, "pass")[:2] == (
        "pass_only", "You may pass only when no cards fit and the stock is empty.")


def test_twenty_canonical_the_count_is_made_exactly() -> None:
    d = cardplay.load("twenty", preset="canonical").deal(
        deck=deck_with(interleave("AC AD 2S KH 9D 8S 7H", "2D 3D 4D 5D 6D 7D 8D")), dealer=1)
    assert said(d, "AC+AD") == (
        "not_exact",
        "Laying A♣ A♦ cannot make the count of 1 exactly: the cards you lay must add up to the "
        "count (each King counts 1 to 20).",
        "С Т♣ Т♦ не получить ровно 1: выложенные карты должны в сумме давать ровно текущий счёт "
        "(каждый король — от 1 до 20).",
        "Mit A♣ A♦ kommst du nicht genau auf 1: Die gelegten Karten müssen zusammen genau den "
        "Zählstand ergeben (jeder König zählt 1 bis 20).")
    assert said(d, "KH=5")[:2] == (
        "king_values", "The Kings' values must make the count of 1 exactly with the other cards.")


# ---------------------------------------------------------------- Macao (RULES.md 6.3-6.4)

def test_macao_stake_limits_and_phases() -> None:
    d = cardplay.load("macao").deal(deck=shoe("9S", "3H", "5D"))
    assert said(d, "stake 3") == (
        "stake_low", "The smallest stake at this table is 5 chips: stake from 5 to 50.",
        "Наименьшая ставка за этим столом — 5 фишек: ставьте от 5 до 50.",
        "Der kleinste Einsatz an diesem Tisch ist 5 Chips: Setz zwischen 5 und 50.")
    assert said(d, "stake 60")[:2] == (
        "stake_high", "The largest stake at this table is 50 chips: stake from 5 to 50.")
    assert said(d, "buy")[:2] == (
        "stake_first", "Name your stake first: you buy a card or stand once the cards are dealt.")


def test_macao_forced_draw_house_rule() -> None:
    d = cardplay.load("macao", forced_draw=True).deal(deck=shoe("9S", "3H", "5D"))
    d.play("stake 10")
    d.play("stake 10")
    assert said(d, "stake 10")[:2] == (
        "stake_done", "Stakes are named before the cards are dealt: now buy one card or stand.")
    assert said(d, "buy") == (
        "forced_stand", "At this table you must stand on 7, 8 or 9.",
        "За этим столом при 7, 8 или 9 нужно остаться.",
        "An diesem Tisch musst du bei 7, 8 oder 9 stehen bleiben.")
    d.play("stand")
    assert said(d, "stand")[:2] == (
        "forced_buy", "At this table you must buy a card on a value of 0 to 6.")


# ---------------------------------------------------------------- Polish Banchok (RULES.md 5.3)

def test_banchok_stake_from_the_minimum_to_the_bank() -> None:
    d = cardplay.load("banchok").deal(deck=shoe())
    assert said(d, "stake 4") == (
        "stake_low", "The smallest stake is 5 chips (5, or the whole bank when it holds less): "
        "stake from 5 to 100.",
        "Наименьшая ставка — 5 фишек (5 или весь банк, если в нём меньше): ставьте от 5 до 100.",
        "Der kleinste Einsatz ist 5 Chips (5, oder die ganze Bank, wenn sie weniger hat): Setz "
        "zwischen 5 und 100.")
    assert said(d, "stake 101")[:2] == (
        "stake_bank", "You may stake at most the whole bank, 100 chips: stake from 5 to 100.")


# ---------------------------------------------------------------- Chukhny (RULES.md 7.4)

def test_chukhny_climb_draw_and_take() -> None:
    d = cardplay.load("chukhny").deal(deck=deck_with("7D 3C JH 8S 2C 9C 4D TD"))
    assert said(d, "take")[:2] == (
        "take_stock", "You take from the pile only when the stock is empty: draw from the stock.")
    for _ in range(3):
        d.play("draw")  # 3♣ and J♥ kept, 8♠ played
    d.play("draw")
    d.play("draw")  # 2♣ kept, 9♣ played
    d.play("draw")
    d.play("draw")  # 4♦ kept, 10♦ played
    assert said(d, "3C") == (
        "climb", "The card on 10♦ must be one rank higher: play J♥.",
        "На 10♦ кладут карту на одно достоинство старше: положите В♥.",
        "Auf 10♦ kommt eine Karte, die genau einen Rang höher ist: Leg B♥.")
    assert said(d, "draw")[:2] == (
        "must_play", "You hold a card that goes on 10♦, so you must play it: J♥.")
    d.play("JH")
    assert said(d, "2C") == (
        "no_fit_draw", "No card in your hand goes on J♥: draw from the stock until one fits.",
        "На В♥ вам положить нечего: тяните из колоды, пока не придёт подходящая карта.",
        "Keine deiner Karten passt auf B♥: Zieh vom Stock, bis eine passt.")


# ---------------------------------------------------------------- shared reasons and play()

def test_not_your_turn_not_held_and_the_error_carries_the_reason() -> None:
    d = ttj("5C 3D 4D 5D 6D 7D", "9C 2H AS 8D 9D TD")
    assert said(d, "5C", seat=1)[:2] == (
        "not_your_turn", "It is not your turn: wait for your turn.")
    assert said(d, "9C") == (
        "not_held", "You do not hold 9♣: play a card from your hand.",
        "У вас нет карты 9♣: играйте картой со своей руки.",
        "Du hast 9♣ nicht auf der Hand: Spiel eine Karte aus deiner Hand.")
    d.play("5C")
    with pytest.raises(IllegalMoveError) as e:
        d.play("2H")
    assert e.value.reason is not None and e.value.reason.name == "follow_suit"
    assert d.why_illegal("9C") is None


OPTIONS: dict[str, list[dict[str, Any]]] = {
    "sixty-six": [{}, {"preset": "schnapsen"}, {"marriage_lead": "king"}],
    "twenty": [{}, {"preset": "canonical"}],
    "macao": [{}, {"forced_draw": True}],
    "chukhny": [{}, {"require_same_suit": True}],
}
TRIES = ("draw", "pass", "take", "buy", "stand", "close", "exchange", "stake 1", "stake 5",
         "stake 5000", "AS=S", "AS=H")


@pytest.mark.parametrize("name", sorted(cardplay.games()))
def test_every_illegal_move_gets_a_declared_rule(name: str) -> None:
    seen: set[str] = set()
    for opts in OPTIONS.get(name, [{}]):
        game = cardplay.load(name, **opts)
        declared = {r.name for r in game.declaration.refusals} | {r.name for r in COMMON}
        rng = random.Random(7)
        for seed in range(6):
            d = game.deal(seed)
            for _ in range(120):
                if d.is_over:
                    break
                legal = {m.text for m in d.legal_moves()}
                hand = [str(c) for c in d.view(d.to_move).hand]  # type: ignore[arg-type]
                for text in [*hand, *TRIES]:
                    try:
                        reason = d.why_illegal(text)
                    except cardplay.InvalidMoveError:
                        continue
                    if reason is None:
                        continue
                    assert reason.name in declared and reason.refusal is not NOT_NOW, \
                        (name, opts, text, sorted(legal))
                    assert game.parse_move(text).text not in legal
                    for lang in ("en", "ru", "de"):
                        assert "{" not in reason.message(lang)
                    seen.add(reason.name)
                d.play(rng.choice(sorted(legal)))
    if name != "maltese-twenty":  # any card may be played there: only the shared reasons
        assert seen & {r.name for r in cardplay.load(name).declaration.refusals}
