"""What Twenty declares about itself (:mod:`cardplay.declaration`): its public state, the words
of its options and moves, and its facts."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...declaration import (
    UNUSED,
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
from .actions import rank_multisets

if TYPE_CHECKING:
    from ...engine import Game

__all__ = ["DECLARATION"]

def _facts(game: Game) -> Facts:
    o = game.options
    n = game.players
    # one source with the action space: its rank multisets
    plays = len(rank_multisets(bool(o.pair_counts_ten)))
    return Facts(
        players=(type(game).min_players, type(game).max_players),
        action_space=54 + plays,
        # the 52 card slots (never legal: every play is a set of ranks), draw, pass, then one
        # action per rank multiset
        action_layout=((UNUSED, 0, 52), ("draw", 52, 1), ("pass", 53, 1), ("play", 54, plays)),
        # a loser holds at most 4 of each rank: 8 ranks at penalty_2_to_9, 3 at 10, K 20, A 5
        result_bounds=(-4.0 * (8 * o.penalty_2_to_9 + 55), 20.0),
        # count_rule exact: at most 20 plays, a draw per stock card, and a pass round between
        # any two of them
        max_moves=20 + 52 + n * (20 + 52 + 2),
        zero_sum=False,
    )


def _v(value: str | int | bool, en: str, ru: str, en_d: str, ru_d: str) -> Value:
    return Value(value, Text(en, ru), Text(en_d, ru_d))


_CARD = "(?:[2-9TJQA][SHDC]|K[SHDC](?:=(?:1[0-9]|20|[1-9]))?)"

# The bot levels (docs/bots.md has every figure behind these budgets): policy rollouts over the
# heuristic, counted in simulated decisions (whole worlds only) and candidate moves compared;
# the seconds only cap a move on a slow machine.
BOTS = Bots(
    heuristic="cardplay.bots.heuristics.twenty:HeuristicBot",
    levels={
        "fast": Searcher("rollout", {"decisions": 300, "max_candidates": 6, "worlds": 64,
                                     "look_every": 4, "seconds": 0.045}),
        "strong": Searcher("rollout", {"decisions": 3000, "max_candidates": 6, "worlds": 256,
                                       "look_every": 4, "seconds": 0.9}),
    },
)


DECLARATION = Declaration(
    title=Text("Twenty (20)", "Двадцать (20)"),
    summary=Text("An adding and shedding game for 2-4 players: lay cards whose count fits the "
                 "move number, draw when none fits; first to 100 points.",
                 "Игра на сложение и сброс для 2–4 игроков: выкладывайте карты, сумма которых "
                 "подходит к номеру хода, или берите из колоды; игра до 100 очков."),
    public=(
        Field("count", "number", Text("Move number", "Номер хода"),
              description=Text("The number a play must fit, 1 to 20: at most it, or exactly it "
                               "under exact counting",
                               "Число, под которое нужно сыграть, от 1 до 20: не больше его, а "
                               "при точном счёте — ровно")),
        Field("turns", "number", Text("Turns taken", "Сделано ходов")),
        Field("stock", "number", Text("Cards left in the stock", "Осталось в колоде")),
        Field("hand_sizes", "per_seat", Text("Cards in hand", "Карт на руке")),
        Field("passes", "number", Text("Passes in a row", "Пасов подряд")),
        Field("pile", "records", Text("Plays so far", "Сыгранные карты"),
              fields=(Field("seat", "seat", Text("Player", "Игрок")),
                      Field("at", "number", Text("At move number", "На номере хода")),
                      Field("move", "move", Text("Play", "Ход")),
                      Field("cards", "cards", Text("Cards", "Карты")),
                      Field("kings", "numbers", Text("Kings' values", "Значения королей")))),
        Field("outcome", "choice", Text("How the hand ended", "Как закончилась сдача"),
              optional=True,
              values=(
                  _v("out", "A player went out", "Игрок избавился от карт",
                     "A player laid his last card and won the hand at once",
                     "Игрок выложил последнюю карту и сразу выиграл сдачу"),
                  _v("twenty", "Twenty reached", "Дошли до двадцати",
                     "Move 20 was completed (or a play made the count 20): the fewest cards win",
                     "Сделан 20-й ход (или счёт 20 набран): выигрывает тот, у кого меньше карт"),
                  _v("passes", "Everyone passed", "Все спасовали",
                     "The stock was empty and every player passed in turn: as though 20 was "
                     "reached",
                     "Колода кончилась и все спасовали подряд: как будто дошли до двадцати"),
              )),
        Field("winners", "seats", Text("Hand won by", "Сдачу выиграли"), optional=True),
        Field("penalties", "per_seat", Text("Penalty points in hand", "Штраф за карты на руке"),
              optional=True),
        Field("hands", "per_seat_cards", Text("Hands at the end", "Карты на руках в конце"),
              optional=True),
    ),
    options=(
        OptionText("preset", Text("Rules", "Правила"),
                   Text("Which version of the rules sets the next four options",
                        "Какой вариант правил задаёт следующие четыре настройки"),
                   (_v("seed", "Seed page", "По тексту-источнику",
                       "At most the move number, every turn advances it, draw only when no play "
                       "fits",
                       "Не больше номера хода, каждый ход увеличивает номер, брать — только "
                       "когда нечем ходить"),
                    _v("canonical", "Pagat's 20", "Канонические (по сайту Пагат)",
                       "The count made exactly, it advances only when made, drawing always "
                       "allowed, a pair of 10s, Js or Qs may count 10",
                       "Счёт ровно, растёт только после удачного хода, брать можно всегда, пара "
                       "10/В/Д может считаться за 10"))),
        OptionText("players", Text("Players", "Игроков"),
                   Text("The number of players, 2 to 4", "Число игроков, от 2 до 4")),
        OptionText("count_rule", Text("Count rule", "Правило счёта"),
                   Text("How a play's count must fit the move number",
                        "Как сумма карт должна подходить к номеру хода"),
                   (_v("at_most", "At most the number", "Не больше номера",
                       "The cards add up to the move number or less; a King counts 1",
                       "Сумма карт не больше номера хода; Король считается за 1"),
                    _v("exact", "Exactly the count", "Ровно счёт",
                       "The cards make the count exactly; each King is given a value from 1 to "
                       "20",
                       "Сумма карт равна счёту; каждому Королю называется значение от 1 до 20"))),
        OptionText("count_advances_on_draw", Text("Every turn advances the number",
                                                  "Каждый ход увеличивает номер"),
                   Text("Whether a draw or a pass also moves the number on",
                        "Увеличивают ли номер взятие карты и пас"),
                   (_v(True, "Every turn", "Каждый ход",
                       "A play, a draw and a pass each advance the number: 20 turns in all",
                       "Ход картами, взятие и пас увеличивают номер: всего 20 ходов"),
                    _v(False, "Only a play", "Только удачный ход",
                       "The count advances only when it is made; a play that makes 20 ends the "
                       "hand",
                       "Счёт растёт только после удачного хода; набранные 20 заканчивают "
                       "сдачу"))),
        OptionText("may_draw_voluntarily", Text("Draw at will", "Брать карту по желанию"),
                   Text("Whether a player may draw although a play fits",
                        "Можно ли брать карту, когда есть чем сыграть"),
                   (_v(False, "Only when no play fits", "Только когда нечем ходить",
                       "A player who can play must play",
                       "Кто может сыграть, обязан сыграть"),
                    _v(True, "Always", "Всегда",
                       "Drawing is allowed on any turn while the stock lasts",
                       "Брать карту можно на любом ходу, пока есть колода"))),
        OptionText("pair_counts_ten", Text("A pair of 10s, Js or Qs may count 10",
                                           "Пара 10/В/Д может считаться за 10"),
                   Text("Whether a same-rank pair of 10s, Jacks or Queens played together may "
                        "count 10 instead of 20",
                        "Может ли пара десяток, валетов или дам, сыгранная вместе, считаться за "
                        "10, а не 20"),
                   (_v(False, "No", "Нет", "A pair counts 20, the sum of its cards",
                       "Пара считается за 20, по сумме карт"),
                    _v(True, "Yes", "Да", "A pair played together counts 10 or 20",
                       "Пара, сыгранная вместе, считается за 10 или 20"))),
        OptionText("penalty_2_to_9", Text("Penalty for a 2 to 9", "Штраф за карты от 2 до 9"),
                   Text("The penalty of each card from 2 to 9 left in a loser's hand",
                        "Штраф за каждую карту от двойки до девятки на руке проигравшего"),
                   (_v(5, "5 points each", "По 5 очков",
                       "As an Ace: Pagat's figure",
                       "Как за Туза: по традиции сайта Пагат"),
                    _v(0, "None", "Без штрафа",
                       "The seed page lists no penalty for them",
                       "В тексте-источнике штраф за них не указан"))),
        OptionText("tie_policy", Text("Tied hand", "Ничья в сдаче"),
                   Text("Who wins when the fewest cards and the penalties are tied",
                        "Кто выигрывает, если поровну и карт, и штрафа"),
                   (_v("share", "All tied players win", "Выигрывают все равные",
                       "Each tied player scores +20",
                       "Каждый из равных получает +20"),
                    _v("nobody", "Nobody wins", "Никто не выигрывает",
                       "No +20 is awarded and every player takes his penalty",
                       "+20 не получает никто, каждый платит свой штраф"))),
        OptionText("target", Text("Match target", "Игра до"),
                   Text("The first player at this total or more after a hand wins the match",
                        "Побеждает первый, у кого после сдачи столько очков или больше")),
        OptionText("max_hands", Text("Hand limit", "Предел сдач"),
                   Text("A safety limit: after this many hands the highest total wins",
                        "Страховка: после стольких сдач побеждает больший итог")),
    ),
    moves=(
        MoveKind("play", Text("Play cards", "Сыграть карты"), f"{_CARD}(?:\\+{_CARD})*",
                 Text("Lay a set of cards whose count fits the move number (under exact "
                      "counting each King carries its value: K♥=5)",
                      "Выложить карты, сумма которых подходит к номеру хода (при точном счёте "
                      "у Короля указано значение: К♥=5)")),
        MoveKind("draw", Text("Draw", "Взять карту"), "draw",
                 Text("Take the top card of the stock", "Взять верхнюю карту колоды")),
        MoveKind("pass", Text("Pass", "Пас"), "pass",
                 Text("No play fits and the stock is empty", "Нечем ходить, и колода пуста")),
    ),
    bots=BOTS,
    facts=_facts,
)
