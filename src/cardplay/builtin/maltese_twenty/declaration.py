"""What Maltese Twenty declares about itself (:mod:`cardplay.declaration`): its public state, the
words of its options and moves, and its facts."""

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

if TYPE_CHECKING:
    from ...engine import Game

__all__ = ["DECLARATION"]


def _facts(game: Game) -> Facts:
    return Facts(
        players=(type(game).min_players, type(game).max_players),
        action_space=52,
        action_layout=(("card", 0, 52),),
        # at most 25 cards a round per player: -20 each at worst; a Tally card scores at most
        # 15 * 2**5 (its 10th card; an 11th would pass 20), and the bonus at most 10
        result_bounds=(-500.0, 25 * 480.0 + 10.0),
        max_moves=52,
        zero_sum=False,
    )


def _v(value: str, en: str, ru: str, en_d: str, ru_d: str) -> Value:
    return Value(value, Text(en, ru), Text(en_d, ru_d))


# The bot levels (docs/bots.md has the figures): the heuristic is itself a small PIMC search
# (opponent hands drawn from the unseen cards, a negamax look-ahead in each, exact once the stock
# is empty); the search levels run it with more sampled hands and plies.
BOTS = Bots(
    heuristic="cardplay.bots.heuristics.maltese_twenty:HeuristicBot",
    levels={
        "fast": Searcher("heuristic", {"samples": 48, "depth": 6}),
        "strong": Searcher("heuristic", {"samples": 128, "depth": 10}),
    },
    rollout_settings={"samples": 2, "depth": 1},
)


DECLARATION = Declaration(
    title=Text("Maltese Twenty", "Двадцать (Мальтийская)"),
    summary=Text("Two players lay cards on a shared Tally over two rounds: exactly 20 scores, "
                 "over 20 costs, long Tallies under 20 score doubling amounts.",
                 "Двое по очереди кладут карты на общую счётную стопку два раунда: ровно 20 "
                 "приносит очки, перебор их отнимает, длинная стопка до 20 — удваивающиеся "
                 "очки."),
    public=(
        Field("round", "number", Text("Round", "Раунд")),
        Field("starter", "seat", Text("Starts the round", "Начинает раунд")),
        Field("bonus_cards", "cards", Text("Bonus cards", "Бонусные карты")),
        Field("bonus", "number", Text("End-of-round bonus", "Бонус раунда"),
              description=Text("The difference of the bonus cards' values (10 when equal), to "
                               "the last player who scored positively",
                               "Разница значений бонусных карт (10 при равенстве); получает "
                               "последний набравший положительные очки")),
        Field("tally", "cards", Text("Tally", "Счётная стопка")),
        Field("tally_total", "number", Text("Tally total", "Сумма стопки")),
        Field("cleared", "cards", Text("Cleared cards", "Убранные карты"), detail=True),
        Field("scores", "per_seat", Text("Points", "Очки")),
        Field("hand_sizes", "per_seat", Text("Cards in hand", "Карт на руке")),
        Field("stock", "number", Text("Cards left in the stock", "Осталось в колоде")),
        Field("last_positive_scorer", "seat", Text("Last to score", "Последним набрал очки")),
        Field("last_event", "record", Text("Last score", "Последний результат"),
              fields=(Field("seat", "seat", Text("Player", "Игрок")),
                      Field("kind", "choice", Text("Score", "Результат"), values=(
                          _v("exact", "Exact twenty", "Ровно двадцать",
                             "The Tally made exactly 20: +10, and it is cleared",
                             "Стопка дала ровно 20: +10, стопка убирается"),
                          _v("over", "Over twenty", "Перебор",
                             "The Tally went over 20: -20, and it is cleared",
                             "Стопка перевалила за 20: −20, стопка убирается"),
                          _v("tally", "Long Tally", "Длинная стопка",
                             "The Tally's 5th card or later, still under 20: 15, 30, 60 ...",
                             "Пятая и следующие карты стопки до 20: 15, 30, 60 ..."))),
                      Field("points", "number", Text("Points", "Очки")))),
        Field("bonus_to", "seat", Text("Bonus goes to", "Бонус получил")),
    ),
    options=(
        OptionText("round_end", Text("Round ends", "Конец раунда"),
                   Text("When the round ends once the stock is empty",
                        "Когда кончается раунд, если колода пуста"),
                   (_v("first_empty", "When one player runs out", "Когда у одного кончились карты",
                       "As soon as a player plays his last card with the stock empty",
                       "Как только игрок сыграл последнюю карту при пустой колоде"),
                    _v("both_empty", "When both run out", "Когда у обоих кончились карты",
                       "The other player still plays his last card",
                       "Второй игрок ещё разыгрывает свою последнюю карту"))),
        OptionText("winner_rule", Text("Winner", "Победитель"),
                   Text("Who wins the match after round 2",
                        "Кто выигрывает партию после второго раунда"),
                   (_v("higher_total", "Higher total", "Больший итог",
                       "The higher total wins; equal totals are a draw",
                       "Побеждает больший итог; равный итог — ничья"),
                    _v("over_20_and_higher", "Higher total above 20", "Больший итог выше 20",
                       "The higher total wins only when it is above 20; otherwise nobody wins",
                       "Больший итог побеждает, только если он больше 20; иначе никто"))),
    ),
    moves=(
        MoveKind("card", Text("Play a card", "Сыграть карту"), "[2-9TJQKA][SHDC]",
                 Text("Lay a card from your hand on the Tally",
                      "Положить карту с руки на счётную стопку")),
    ),
    bots=BOTS,
    facts=_facts,
)
