"""What Two-Ten-Jack declares about itself (:mod:`cardplay.declaration`): the public state of a
view field by field, the words of its options and moves, and its facts."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...declaration import (
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
from .rules import AS_SPADES, AS_TRUMPS

if TYPE_CHECKING:
    from ...engine import Game

__all__ = ["DECLARATION"]

_AS_DECLARED = (
    Value("S", Text("A♠ as a spade", "Туз пик — пика"),
          Text("The A♠ was led declared a spade: the follower owes a spade.",
               "Туз пик объявлен пикой: отвечать нужно пикой.")),
    Value("H", Text("A♠ as a trump", "Туз пик — козырь"),
          Text("The A♠ was led declared a trump: the follower owes a trump.",
               "Туз пик объявлен козырем: отвечать нужно козырем.")),
    Value(None, Text("No declaration", "Без объявления"),
          Text("The A♠ was not led.", "Ход был не с туза пик.")),
)

_TRICK_CARD = (
    Field("seat", "seat", Text("Player", "Игрок")),
    Field("card", "card", Text("Card", "Карта")),
)

_PUBLIC = (
    Field("leader", "seat", Text("Leads", "Ходит")),
    Field("trick", "records", Text("On the table", "На столе"), fields=_TRICK_CARD),
    Field("led", "choice", Text("Led", "Ход в"), values=(
        Value("S", Text("Spades", "Пики"),
              Text("Follow with a spade (the A♠ is one).", "Отвечать пикой (туз пик — тоже).")),
        Value("H", Text("Trumps", "Козыри"),
              Text("A heart or the A♠ declared a trump: follow with a trump.",
                   "Черва или туз пик, объявленный козырем: отвечать козырем.")),
        Value("D", Text("Diamonds", "Бубны"),
              Text("Follow with a diamond.", "Отвечать бубной.")),
        Value("C", Text("Clubs", "Трефы"),
              Text("Follow with a club.", "Отвечать трефой.")),
        Value(None, Text("Nothing led", "Хода нет"),
              Text("No card is on the table yet.", "На столе ещё нет карты.")),
    )),
    Field("declared", "choice", Text("A♠ declared", "Туз пик объявлен"), values=_AS_DECLARED),
    Field("last_trick", "record", Text("Last trick", "Последняя взятка"), fields=(
        Field("cards", "records", Text("Cards", "Карты"), fields=_TRICK_CARD),
        Field("declared", "choice", Text("A♠ declared", "Туз пик объявлен"),
              values=_AS_DECLARED),
        Field("winner", "seat", Text("Taken by", "Взял")),
        Field("points", "number", Text("Points", "Очки")),
    )),
    Field("won", "per_seat_cards", Text("Cards won", "Взятые карты"), detail=True),
    Field("tricks_won", "per_seat", Text("Tricks won", "Взято взяток")),
    Field("tricks_played", "number", Text("Tricks played", "Сыграно взяток")),
    Field("hand_points", "per_seat", Text("Points this hand", "Очки за сдачу")),
    Field("stock", "number", Text("Cards left in the stock", "Осталось в колоде")),
    Field("hand_sizes", "per_seat", Text("Cards in hand", "Карт на руке")),
)

_OPTIONS = (
    OptionText("win_check", Text("When the target is checked", "Когда проверять счёт"),
               Text("Whether the match can end only after a hand or after any trick.",
                    "Может ли матч кончиться только после сдачи или после любой взятки."),
               values=(
                   Value("end_of_hand", Text("At the end of a hand", "В конце сдачи"),
                         Text("Totals are checked after all 26 tricks.",
                              "Счёт проверяется после всех 26 взяток.")),
                   Value("immediate", Text("At once", "Сразу"),
                         Text("The match ends the moment a trick brings a player to the target.",
                              "Матч кончается, как только взятка доводит игрока до цели.")))),
    OptionText("target", Text("Points to win", "Очков для победы"),
               Text("The match goes to the first player with this many points.",
                    "Матч выигрывает первый, набравший столько очков.")),
    OptionText("next_dealer", Text("Next dealer", "Следующий сдающий"),
               Text("Who deals the next hand.", "Кто сдаёт следующую сдачу."),
               values=(
                   Value("alternate", Text("In turn", "По очереди"),
                         Text("The players deal in turn.", "Игроки сдают по очереди.")),
                   Value("loser", Text("The loser", "Проигравший"),
                         Text("The player with fewer hand points deals.",
                              "Сдаёт набравший меньше очков за сдачу.")),
                   Value("winner", Text("The winner", "Выигравший"),
                         Text("The player with more hand points deals.",
                              "Сдаёт набравший больше очков за сдачу.")))),
)

_MOVES = (
    MoveKind("card", Text("Play a card", "Сыграть карту"), r"[2-9TJQKA][SHDC]",
             Text("Lead or follow with this card.", "Зайти или ответить этой картой.")),
    MoveKind("ace_as_spade", Text("Lead the A♠ as a spade", "Зайти с туза пик как с пики"),
             r"AS=S",
             Text("The follower must answer with a spade; the A♠ still wins.",
                  "Отвечать нужно пикой; туз пик всё равно берёт взятку.")),
    MoveKind("ace_as_trump", Text("Lead the A♠ as a trump", "Зайти с туза пик как с козыря"),
             r"AS=H",
             Text("The follower must answer with a trump; the A♠ still wins.",
                  "Отвечать нужно козырем; туз пик всё равно берёт взятку.")),
)


def _facts(game: Game) -> Facts:
    # 52 cards are played; 54 is the adapters' cap. A hand's points: -15 (the three scoring
    # clubs) .. +20 (the hearts, the spades and the 6♦).
    return Facts(players=(2, 2), action_space=AS_TRUMPS + 1,
                 action_layout=(("card", 0, AS_SPADES), ("ace_as_spade", AS_SPADES, 1),
                                ("ace_as_trump", AS_TRUMPS, 1)),
                 result_bounds=(-15.0, 20.0), max_moves=54, zero_sum=False)


# The bot levels (docs/bots.md has the figures): the heuristic judges each lead over sampled
# opponent hands and plays the stockless endgame exactly; the search levels sample 256 hands
# instead of 24 (more gained nothing, and a PIMC searcher scored below the heuristic).
BOTS = Bots(
    heuristic="cardplay.bots.heuristics.two_ten_jack:HeuristicBot",
    levels={
        "fast": Searcher("heuristic", {"samples": 256}),
        "strong": Searcher("heuristic", {"samples": 256}),
    },
    reads_history=True,
    exact="cardplay.bots.heuristics.two_ten_jack:exact_values",
    rollout_settings={"samples": 4, "solve_endgame": False},
)


DECLARATION = Declaration(
    title=Text("Two-Ten-Jack", "Два-десять-валет"),
    summary=Text("Two players take tricks from a stock, hearts always trump and the A♠ above "
                 "all; the point cards count, first to 31.",
                 "Двое берут взятки, добирая из колоды; червы всегда козыри, туз пик старше "
                 "всех; считаются очковые карты, игра до 31."),
    public=_PUBLIC,
    options=_OPTIONS,
    moves=_MOVES,
    bots=BOTS,
    facts=_facts,
)
