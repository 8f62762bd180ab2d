"""Hints and reviews in words (cardplay.advice): the exact sentences for concrete positions in
English, Russian and German, the verdicts (as good as the best, a close call, costly), the
reasons read from the seat's own view, and the words of `cardplay review`."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path
from types import MappingProxyType

import pytest

import cardplay
from cardplay.advice import Advice, Reason, advice_texts, advice_words, advise
from cardplay.bots import evaluate
from cardplay.engine import View


def _view(game: str, seed: int, moves: tuple[str, ...] = ()) -> View:
    d = cardplay.load(game).deal(seed)
    for m in moves:
        d.play(m)
    return d.view(d.to_move)


def test_a_marriage_left_unannounced_in_three_languages() -> None:
    # Sixty-Six, seed 5: the leader holds K♠ Q♠ (trumps ♦) and led the king plain
    view = _view("sixty-six", 5)
    assert {"KS", "KS=20"} <= {m.text for m in view.legal_moves}
    values = {"KS=20": 0.9, "QS=20": 0.85, "KS": 0.1, "TS": 0.2}
    errors = dict.fromkeys(values, 0.1)
    a = advise(view, values, errors, exact=False, played="KS")
    assert (a.verdict, a.best, a.other) == ("costly", "KS=20", "KS")
    assert a.reasons == (Reason("marriage", {"suit": "S", "points": "20"}),)
    assert advice_texts(a) == {
        "en": "Best: announce the marriage with K♠ (about +0.80 game points against your "
              "move, K♠). A marriage in ♠ is worth 20 points.",
        "ru": "Лучше было: объявить марьяж с К♠ (примерно +0,80 игрового очка по сравнению с "
              "вашим ходом «К♠»). Марьяж в ♠ приносит 20 очков.",
        "de": "Am besten: mit K♠ ansagen (etwa +0,80 Spielpunkte gegenüber deinem Zug, K♠). "
              "Ein Paar in ♠ zählt 20 Punkte.",
    }


def _exhausted_sixty_six() -> View:
    # seed 5 played at random (seed 2) until the talon is gone and seat 1 follows 9♦
    d = cardplay.load("sixty-six").deal(5)
    rng = random.Random(2)
    while True:
        v = d.view(d.to_move)
        if v.public["phase"] == 2 and len(v.public["trick"]) == 1 and len(v.legal_moves) > 1:
            return v
        d.play(rng.choice(v.legal_moves).text)


def test_a_hint_from_exact_values_says_the_card_wins_the_trick() -> None:
    view = _exhausted_sixty_six()
    assert view.public["trick"][0]["card"] == "9D"
    ev = evaluate(view, "fast", seed=1)
    assert ev.exact and ev.values == {"TD": -1.0, "JD": 1.0}
    a = advise(view, ev.values, ev.errors, ev.exact)
    assert a.to_dict() == {"verdict": "clear", "best": "JD", "other": "TD", "gain": 2.0,
                           "margin": 0.0, "exact": True,
                           "reasons": [{"code": "wins_points", "values": {"n": "2"}}]}
    assert advice_texts(a) == {
        "en": "Best: J♦ (exactly +2.00 game points against the next best, 10♦). It wins the "
              "trick and the 2 card points in it.",
        "ru": "Лучше всего: В♦ (ровно +2,00 игрового очка по сравнению со следующим по силе "
              "ходом «10♦»). Эта карта берёт взятку и 2 очка в ней.",
        "de": "Am besten: B♦ (genau +2,00 Spielpunkte gegenüber dem nächstbesten Zug, 10♦). "
              "Damit gewinnst du den Stich und die 2 Augen darin.",
    }
    # the played 10♦ too gives up the same 2 game points, and says so
    played = advise(view, ev.values, ev.errors, ev.exact, played="TD")
    assert advice_words(played) == "Best: J♦ (exactly +2.00 game points against your move, " \
        "10♦). It wins the trick and the 2 card points in it."


def test_two_ten_jack_keeping_a_trump() -> None:
    # seed 5: the leader holds 9♠ 7♥ 10♥ 9♦ 10♦ Q♣ (hearts are trumps) and led the 7♥
    view = _view("two-ten-jack", 5)
    values = {"9S": 1.5, "7H": -0.5, "TH": -2.0, "9D": 1.0, "TD": 0.0, "QC": 0.5}
    errors = dict.fromkeys(values, 0.25)
    a = advise(view, values, errors, exact=False, played="7H")
    assert a.reasons == (Reason("keeps_trump", {"other": "7H"}),)
    assert advice_texts(a) == {
        "en": "Best: 9♠ (about +2.00 points against your move, 7♥). It keeps your trump: 7♥ "
              "would spend one.",
        "ru": "Лучше было: 9♠ (примерно +2,00 очка по сравнению с вашим ходом «7♥»). Так вы "
              "бережёте козырь: ход «7♥» потратил бы его.",
        "de": "Am besten: 9♠ (etwa +2,00 Punkte gegenüber deinem Zug, 7♥). Damit sparst du "
              "einen Trumpf: 7♥ würde einen verbrauchen.",
    }


def test_a_close_call_and_a_move_as_good_as_the_best() -> None:
    view = _view("two-ten-jack", 5)
    values = {"9S": 0.3, "7H": -0.5, "TH": -2.0, "9D": 0.1, "TD": 0.0, "QC": 0.2}
    errors = dict.fromkeys(values, 0.25)
    close = advise(view, values, errors, exact=False, played="9D")
    # 0.2 apart, two standard errors of the difference 0.71: inside the error bar
    assert close.verdict == "close"
    assert advice_texts(close) == {
        "en": "A close call: 9♠ rated about +0.20 points against your move, 9♦, inside the "
              "margin of error (±0.71).",
        "ru": "Почти равные ходы: ход «9♠» оценён примерно на +0,20 очка выше вашего хода "
              "«9♦», но это в пределах погрешности (±0,71).",
        "de": "Knapp: 9♠ liegt etwa +0,20 Punkte vor deinem Zug, 9♦, innerhalb der "
              "Fehlergrenze (±0,71).",
    }
    same = advise(view, values, errors, exact=False, played="9S")
    assert (same.verdict, same.reasons) == ("best", ())
    assert advice_texts(same) == {"en": "Your move, 9♠, was as good as the best.",
                                  "ru": "Ваш ход «9♠» был не хуже лучшего.",
                                  "de": "Dein Zug, 9♠, war so gut wie der beste."}
    # exactly equal values: as good, though another move is named best
    tie = advise(view, {"9S": 1.0, "9D": 1.0}, {"9S": 0.0, "9D": 0.0}, exact=True, played="9D")
    assert tie.verdict == "best"
    hint = advise(view, {"9S": 1.0, "9D": 1.0}, {"9S": 0.0, "9D": 0.0}, exact=True)
    assert advice_words(hint, "de") == "9♠ und 9♦ sind genau gleich viel wert."


def test_a_macao_stake_in_chips() -> None:
    # Macao, seed 3: the first punter's stake, valued exactly (every stake gains)
    view = _view("macao", 3)
    assert [m.text for m in view.legal_moves][:2] == ["stake 5", "stake 6"]
    ev = evaluate(view, "fast", seed=1)
    assert ev.exact
    a = advise(view, ev.values, ev.errors, ev.exact, played="stake 5")
    assert advice_texts(a) == {
        "en": "Best: Stake 50 (exactly +12.61 chips against your move, Stake 5). Every stake "
              "is expected to win here, so the largest wins most.",
        "ru": "Лучше было: Ставка 50 (ровно +12,61 фишки по сравнению с вашим ходом «Ставка "
              "5»). Здесь любая ставка в среднем выигрывает, поэтому наибольшая выигрывает "
              "больше всех.",
        "de": "Am besten: Einsatz 50 (genau +12,61 Chips gegenüber deinem Zug, Einsatz 5). "
              "Hier gewinnt jeder Einsatz im Mittel, also gewinnt der größte am meisten.",
    }
    losing = {"stake 5": -1.0, "stake 20": -4.0, "stake 50": -10.0}
    least = advise(view, losing, dict.fromkeys(losing, 0.0), exact=True, played="stake 50")
    assert least.reasons == (Reason("least_stake"),)
    assert advice_words(least).endswith("Every stake is expected to lose here, so the smallest "
                                        "loses least.")


def test_a_void_the_opponent_showed_and_no_trump_left_against_you() -> None:
    # a synthetic Sixty-Six view (trumps ♦): with the talon closed the opponent answered a ♣
    # lead with a ♥, and every other trump has been played
    base = _view("sixty-six", 5)
    trumps_played = ["9D", "JD", "QD", "KD", "TD"]
    tricks = [{"leader": 0, "cards": ["9C", "9H"], "winner": 0, "phase2": True},
              {"leader": 1, "cards": [trumps_played[0], trumps_played[1]], "winner": 1,
               "phase2": True},
              {"leader": 1, "cards": [trumps_played[2], trumps_played[3]], "winner": 1,
               "phase2": True},
              {"leader": 1, "cards": [trumps_played[4], "JH"], "winner": 1, "phase2": True}]
    public = {**base.public, "tricks": tricks, "trick": [], "phase": 2, "closed_by": 0}
    from cardplay.cards import Card
    from cardplay.engine import Move
    view = dataclasses.replace(base, public=MappingProxyType(public),
                               hand=(Card("AC"), Card("AD")),
                               legal_moves=(Move("AC"), Move("AD")))
    a = advise(view, {"AC": 1.0, "AD": 0.0}, {"AC": 0.0, "AD": 0.0}, exact=True, played="AD")
    assert [r.code for r in a.reasons] == ["trumps_out", "void", "keeps_trump"]
    assert advice_words(a) == (
        "Best: A♣ (exactly +1.00 game points against your move, A♦). No trump is left "
        "against you, so it cannot be trumped. Your opponent has shown they have no ♣ left. "
        "It keeps your trump: A♦ would spend one.")
    # the same void is not claimed from a trick played while the talon was open
    open_tricks = [dict(t, phase2=False) for t in tricks]
    view = dataclasses.replace(view, public=MappingProxyType({**public, "tricks": open_tricks}))
    a = advise(view, {"AC": 1.0, "AD": 0.0}, {"AC": 0.0, "AD": 0.0}, exact=True, played="AD")
    assert [r.code for r in a.reasons] == ["trumps_out", "keeps_trump"]


@pytest.mark.parametrize("lang", ["en", "ru", "de"])
def test_every_verdict_and_reason_has_words(lang: str) -> None:
    reasons = (Reason("marriage", {"suit": "H", "points": "40"}), Reason("close"),
               Reason("exchange", {"card": "AH"}), Reason("wins"),
               Reason("wins_points", {"n": "21"}), Reason("duck"), Reason("last_trick"),
               Reason("keeps_trump", {"other": "QH=40"}), Reason("trumps_out"),
               Reason("void", {"suit": "C"}), Reason("least_stake"), Reason("most_stake"))
    for review, verdicts in ((True, ("best", "close", "costly")),
                             (False, ("even", "close", "clear"))):
        for verdict in verdicts:
            for exact in (False, True):
                a = Advice("sixty-six", verdict, "QH=40", "KH", review, 0.5, 0.25, exact,
                           reasons)
                text = advice_words(a, lang)
                assert "{" not in text and "advice_" not in text, text
                assert text.count(".") >= len(reasons) + 1


def test_a_twenty_king_valued_20_is_no_marriage() -> None:
    # Twenty (canonical preset) writes a king counted as 20 the way Sixty-Six writes a marriage
    d = cardplay.load("twenty", preset="canonical").deal(0)
    rng = random.Random(0)
    d.play(rng.choice(d.view(d.to_move).legal_moves).text)
    view = d.view(d.to_move)
    a = advise(view, {"KD=20": 1.0, "draw": -3.0}, {"KD=20": 0.5, "draw": 0.5}, exact=False,
               played="draw")
    assert (a.verdict, a.reasons) == ("costly", ())
    assert advice_words(a) == "Best: K♦=20 (about +4.00 points against your move, Draw)."


def test_the_server_sends_the_words_in_every_language() -> None:
    from cardplay.server import botpool

    view = _exhausted_sixty_six()
    hint = botpool.hint_values(view.to_dict(), 1)
    assert hint["best"] == "JD" and hint["advice"]["verdict"] == "clear"
    assert hint["advice"]["words"]["ru"].startswith("Лучше всего: В♦ (ровно +2,00 игрового очка")
    assert set(hint["advice"]["words"]) == {"en", "ru", "de"}
    record = {"game": "sixty-six", "seed": 2026, "dealer": 1, "format": "cardplay-deal/1",
              "moves": ["QC=20", "JS", "JH", "KS", "9H", "TH"]}
    decisions = botpool.review_deal(record, 1, 1)
    assert [d["played"] for d in decisions] == ["JS", "KS", "TH"]
    for d in decisions:
        verdict = {True: "costly", False: d["advice"]["verdict"]}[d["costly"]]
        assert d["advice"]["verdict"] == verdict and d["advice"]["other"] == d["played"]
        assert d["advice"]["words"]["en"].startswith(
            {"costly": "Best: ", "close": "A close call: ", "best": "Your move, "}[verdict])


def test_cardplay_review_prints_the_words_under_each_costly_decision(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from cardplay.cli import main
    from cardplay.review import review

    record = {"game": "sixty-six", "seed": 2026, "dealer": 1, "format": "cardplay-deal/1",
              "moves": ["QC=20", "JS", "JH", "KS", "9H", "TH", "AC", "QD", "close", "AD", "9D",
                        "TD", "KD", "TC", "JC", "KC", "9C", "QS", "TS", "AH", "KH"]}
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(record))
    want = review(record, seats=[0], level="fast").costly()
    assert want and all(d.advice is not None for d in want)
    for lang in ("en", "ru"):
        assert main(["review", str(path), "--seat", "0", "--level", "fast", "--lang", lang]) == 0
        lines = capsys.readouterr().out.splitlines()
        words = [line[4:] for line in lines if line.startswith("    ")]
        assert words == [advice_words(d.advice, lang) for d in want if d.advice is not None]
        assert all(w.startswith("Best: " if lang == "en" else "Лучше было: ") for w in words)


def test_the_lead_that_takes_the_last_trick_and_its_ten() -> None:
    # seed 16 played at random (seed 16, never closing) until the talon is gone and the seat to
    # lead holds 9♦ A♦: every card is known then, and only the A♦ keeps the last trick
    d = cardplay.load("sixty-six").deal(16)
    rng = random.Random(16)
    while True:
        v = d.view(d.to_move)
        legal = [m.text for m in v.legal_moves if m.text != "close"]
        if v.public["stock"] == 0 and not v.public["trick"] and len(v.hand) == 2:
            break
        d.play(rng.choice(legal))
    assert [str(c) for c in v.hand] == ["9D", "AD"]
    ev = evaluate(v, "fast", seed=1)
    assert ev.exact and ev.values == {"9D": -2.0, "AD": -1.0}
    a = advise(v, ev.values, ev.errors, ev.exact)
    assert a.reasons == (Reason("last_trick"),)
    assert advice_texts(a) == {
        "en": "Best: A♦ (exactly +1.00 game points against the next best, 9♦). It takes the "
              "last trick and its 10 extra points in the end.",
        "ru": "Лучше всего: Т♦ (ровно +1,00 игрового очка по сравнению со следующим по силе "
              "ходом «9♦»). С этим ходом последняя взятка и её 10 очков достанутся вам.",
        "de": "Am besten: A♦ (genau +1,00 Spielpunkte gegenüber dem nächstbesten Zug, 9♦). "
              "Damit bekommst du am Ende den letzten Stich und seine 10 Extrapunkte.",
    }
