"""What Polish Banchok declares about itself (:mod:`cardplay.declaration`): the public state of a
view field by field, the words of its options and moves, and its facts."""

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

if TYPE_CHECKING:
    from ...engine import Game

__all__ = ["DECLARATION"]

# A bank may in principle go on for ever (used cards go back under the deck every round), so the
# research adapters cut a deal short at this many moves.
MOVE_CAP = 2000

_SETTLEMENT = (
    Field("seat", "seat", Text("Punter", "Понтёр")),
    Field("stake", "number", Text("Stake", "Ставка")),
    Field("turned", "card", Text("Turned card", "Открытая карта")),
    Field("cards", "cards", Text("His cards", "Его карты")),
    Field("won", "choice", Text("Result", "Итог"), values=(
        Value(True, Text("Won", "Выиграл"),
              Text("He held a card of the turned suit at least as high: the bank paid his stake.",
                   "У него была карта той же масти не ниже открытой: банк заплатил ставку.")),
        Value(False, Text("Lost", "Проиграл"),
              Text("The turned card covered his cards: he paid his stake into the bank.",
                   "Открытая карта покрыла его карты: он заплатил ставку в банк.")),
        Value(None, Text("Threw his cards in", "Сбросил карты"),
              Text("He could no longer cover the minimum stake and is out of the match.",
                   "Он больше не мог поставить минимум и выбыл из игры.")),
    )),
)

_OUTCOMES = (
    Value(None, Text("Bank in play", "Банк идёт"),
          Text("The bank is still running.", "Банк ещё не окончен.")),
    Value("tripled", Text("Bank tripled", "Банк утроился"),
          Text("The bank reached three times its opening stake; the banker took it back.",
               "Банк достиг тройного размера; банкомёт забрал его.")),
    Value("broken", Text("Bank broken", "Банк сорван"),
          Text("The punters won the whole bank.", "Понтёры выиграли весь банк.")),
    Value("no_punters", Text("Nobody left to stake", "Ставить некому"),
          Text("No punter could stake any more; the banker took the bank back.",
               "Никто из понтёров больше не мог ставить; банкомёт забрал банк.")),
)

_PUBLIC = (
    Field("banker", "seat", Text("Banker", "Банкомёт")),
    Field("bank", "number", Text("Bank", "Банк")),
    Field("bank_stake", "number", Text("Opening bank", "Начальный банк")),
    Field("target", "number", Text("Bank ends when it reaches", "Банк кончается на"),
          description=Text("Three times the opening bank: a bank that has tripled ends at once.",
                           "Тройной начальный банк: утроившийся банк сразу кончается.")),
    Field("chips", "per_seat", Text("Chips", "Фишки")),
    Field("out", "seats", Text("Out of the match", "Выбыли")),
    Field("round", "number", Text("Round", "Круг")),
    Field("punters", "seats", Text("Punters this round", "Понтёры в этом круге")),
    Field("settled", "records", Text("Settled this round", "Рассчитаны в этом круге"),
          fields=_SETTLEMENT),
    Field("previous", "records", Text("Previous round", "Прошлый круг"), fields=_SETTLEMENT),
    Field("stake_range", "numbers", Text("Stake from–to", "Ставка от–до"),
          description=Text("The smallest and the largest stake the punter to move may name.",
                           "Самая маленькая и самая большая ставка, которую может сделать "
                           "ходящий понтёр.")),
    Field("stock", "number", Text("Cards left in the deck", "Осталось в колоде")),
    Field("deck_parts", "records", Text("The deck by parts, top first", "Колода по частям, сверху"),
          description=Text("What is left of the bank's opening shuffle, then each earlier round's "
                           "used cards, put under the deck; the order within a part is unknown.",
                           "Остаток колоды после тасовки в начале банка, затем вышедшие карты "
                           "каждого прошлого круга, положенные под колоду; порядок внутри части "
                           "неизвестен."),
          fields=(
              Field("size", "number", Text("Cards", "Карт")),
              Field("cards", "cards", Text("Which cards", "Какие карты"),
                    description=Text("None for the rest of the opening shuffle: every card of the "
                                     "104 not in the other parts.",
                                     "Нет для остатка начальной тасовки: все карты из 104, кроме "
                                     "карт других частей.")),
          ), detail=True),
    Field("outcome", "choice", Text("How the bank ended", "Чем кончился банк"), values=_OUTCOMES),
)


def _yes_no(yes: tuple[str, str], no: tuple[str, str]) -> tuple[Value, ...]:
    """The two values of a boolean option, each with its one-line description (en, ru)."""
    return (Value(True, Text("Yes", "Да"), Text(*yes)),
            Value(False, Text("No", "Нет"), Text(*no)))


_OPTIONS = (
    OptionText("players", Text("Players", "Игроки"),
               Text("How many play, the banker included.", "Сколько игроков, включая банкомёта.")),
    OptionText("start_chips", Text("Starting chips", "Фишки в начале"),
               Text("The chips each player starts the match with.",
                    "Сколько фишек у каждого игрока в начале матча.")),
    OptionText("bank_stake", Text("Opening bank", "Начальный банк"),
               Text("What the banker puts in to open a bank; it ends once it has tripled.",
                    "Сколько банкомёт кладёт, открывая банк; банк кончается, когда утроится.")),
    OptionText("banks_per_player", Text("Rounds of the bank", "Кругов банка"),
               Text("How many times the bank goes round the table in a match.",
                    "Сколько раз банк обходит стол за матч.")),
    OptionText("ace_low", Text("Ace low", "Туз младший"),
               Text("The ace ranks lowest in its suit, as in Hoyle's Polish Bank.",
                    "Туз — младшая карта масти, как в «Польском банке» Хойла."),
               values=_yes_no(("The ace is the lowest card of its suit.",
                               "Туз — младшая карта масти."),
                              ("The ace is the highest card of its suit.",
                               "Туз — старшая карта масти."))),
)

_MOVES = (
    MoveKind("stake", Text("Stake", "Ставка"), r"stake [1-9][0-9]*",
             Text("Stake this many chips on your three cards against the bank.",
                  "Поставить столько фишек на свои три карты против банка.")),
)


def _facts(game: Game) -> Facts:
    o = game.options
    n = game.players
    # Action 52 + N is ``stake N``, the engine's code; actions 0..52 are never legal (no move names
    # a card and a stake is at least 1). A stake is at most the bank, which ends at 3 * bank_stake.
    size = 52 + 3 * int(o.bank_stake)
    return Facts(
        players=(2, 10),
        action_space=size,
        action_layout=((UNUSED, 0, 53), ("stake", 53, size - 53)),
        result_bounds=(-float(o.start_chips), float((n - 1) * o.start_chips)),
        max_moves=MOVE_CAP,
        zero_sum=True,
        max_moves_is_cap=True,
        points_pay=True,
    )


# The bot levels (docs/bots.md has every figure behind these budgets): policy rollouts over the
# heuristic, counted in simulated decisions (whole worlds only) and candidate moves compared;
# the seconds only cap a move on a slow machine.
BOTS = Bots(
    heuristic="cardplay.bots.heuristics.banchok:HeuristicBot",
    levels={
        "fast": Searcher("rollout", {"decisions": 100, "max_candidates": 3, "worlds": 64,
                                     "look_every": 4, "seconds": 0.045}),
        "strong": Searcher("rollout", {"decisions": 2000, "max_candidates": 3, "worlds": 256,
                                       "look_every": 4, "seconds": 0.9}),
    },
    exact="cardplay.bots.heuristics.banchok:exact_values",
)


DECLARATION = Declaration(
    title=Text("Polish Banchok", "Польский банчок"),
    summary=Text("A rotating bank: each punter stakes on his three cards and wins if he holds a "
                 "card of the turned card's suit at least as high.",
                 "Банк по кругу: понтёр ставит на свои три карты и выигрывает, если у него есть "
                 "карта масти открытой карты не ниже её."),
    public=_PUBLIC,
    options=_OPTIONS,
    moves=_MOVES,
    bots=BOTS,
    facts=_facts,
    result_units=Text("chips", "фишки"),
)
