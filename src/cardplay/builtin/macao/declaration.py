"""What Macao declares about itself (:mod:`cardplay.declaration`): the public state of a view
field by field, the words of its options and moves, and its facts."""

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


def _yes_no(yes: tuple[str, str], no: tuple[str, str]) -> tuple[Value, ...]:
    """The two values of a boolean option, each with its one-line description (en, ru)."""
    return (Value(True, Text("Yes", "Да"), Text(*yes)),
            Value(False, Text("No", "Нет"), Text(*no)))


_PHASES = (
    Value("stake", Text("Stakes", "Ставки"),
          Text("The punters name their stakes in turn from the banker's left.",
               "Понтёры по очереди слева от банкомёта делают ставки.")),
    Value("decide", Text("Buy or stand", "Прикуп"),
          Text("Each staking punter in turn buys a card or stands.",
               "Каждый поставивший понтёр по очереди прикупает карту или остаётся.")),
    Value("over", Text("Bank over", "Банк окончен"),
          Text("The banking turn is over: the banker has taken the bank back.",
               "Банк окончен: банкомёт забрал банк.")),
)

_STATUSES = (
    Value("banker", Text("Banker", "Банкомёт"),
          Text("Holds the bank this turn; he has no decisions.",
               "Держит банк в этой сдаче; решений не принимает.")),
    Value("waiting", Text("To stake", "Ждёт ставки"),
          Text("Plays this round and has not named his stake yet.",
               "Играет в этом круге и ещё не сделал ставку.")),
    Value("staked", Text("Staked", "Поставил"),
          Text("Has named his stake and waits for his turn to buy or stand.",
               "Сделал ставку и ждёт своей очереди прикупать или остаться.")),
    Value("bought", Text("Bought", "Прикупил"),
          Text("Has bought a card this round.", "Прикупил карту в этом круге.")),
    Value("stood", Text("Stood", "Остался"),
          Text("Stands on his cards until the showdown.", "Остался при своих картах до вскрытия.")),
    Value("busted", Text("Bust", "Перебор"),
          Text("Went over 9 (with several cards bought) and lost his stake at once.",
               "Набрал больше 9 (при прикупе нескольких карт) и сразу проиграл ставку.")),
    Value("sat_out", Text("Sits out the round", "Пропускает круг"),
          Text("The bank could not cover even the minimum stake for him this round.",
               "Банк не мог покрыть ему даже минимальную ставку в этом круге.")),
    Value("done", Text("Done", "Закончил"),
          Text("The banking turn is over; he can still punt against the next banker.",
               "Банк окончен; против следующего банкомёта он ещё может понтировать.")),
    Value("out", Text("Cannot stake", "Не может ставить"),
          Text("Holds fewer chips than the minimum stake.",
               "У него меньше фишек, чем минимальная ставка.")),
)

_PUBLIC = (
    Field("banker", "seat", Text("Banker", "Банкомёт")),
    Field("bank", "number", Text("Bank", "Банк")),
    Field("round", "number", Text("Round", "Круг")),
    Field("phase", "choice", Text("Phase", "Фаза"), values=_PHASES),
    Field("stock", "number", Text("Cards left in the shoe", "Осталось в шузе")),
    Field("chips", "per_seat", Text("Chips", "Фишки")),
    Field("chips_at_start", "per_seat", Text("Chips at the start of the bank",
                                             "Фишки в начале банка")),
    Field("stakes", "per_seat", Text("Stakes", "Ставки")),
    Field("status", "per_seat_choice", Text("Status", "Состояние"), values=_STATUSES),
    Field("bought", "per_seat", Text("Cards bought", "Прикуплено карт")),
    Field("dealt_to", "seats", Text("Cards dealt this round, in order", "Карты сданы по порядку"),
          description=Text("Who received each card of this round, the banker's included, in the "
                           "order they left the shoe.",
                           "Кто получил каждую карту этого круга, включая банкомёта, в порядке "
                           "выхода из шуза.")),
    Field("shown", "per_seat_cards", Text("Bust hands, face up", "Открытый перебор")),
    Field("used", "cards", Text("Used cards", "Вышедшие карты"),
          description=Text("Every card of the earlier rounds, turned at their showdowns and set "
                           "aside.",
                           "Все карты прошлых кругов, открытые при вскрытии и отложенные."),
          detail=True),
    Field("last_round", "record", Text("Last showdown", "Последнее вскрытие"), fields=(
        Field("round", "number", Text("Round", "Круг")),
        Field("banker_card", "card", Text("Banker's card", "Карта банкомёта")),
        Field("banker_value", "number", Text("Banker's value", "Очки банкомёта")),
        Field("hands", "per_seat_cards", Text("Cards", "Карты")),
        Field("values", "per_seat", Text("Values", "Очки")),
        Field("stakes", "per_seat", Text("Stakes", "Ставки")),
        Field("won", "per_seat", Text("Chips won", "Выигрыш")),
    )),
)

_OPTIONS = (
    OptionText("players", Text("Players", "Игроки"),
               Text("The banker and 1 to 7 punters.", "Банкомёт и от 1 до 7 понтёров.")),
    OptionText("start_chips", Text("Starting chips", "Фишки в начале"),
               Text("The chips each player starts the match with.",
                    "Сколько фишек у каждого игрока в начале матча.")),
    OptionText("min_stake", Text("Minimum stake", "Минимальная ставка"),
               Text("The smallest stake a punter may name.",
                    "Самая маленькая ставка понтёра.")),
    OptionText("max_stake", Text("Maximum stake", "Максимальная ставка"),
               Text("The largest stake a punter may name.", "Самая большая ставка понтёра.")),
    OptionText("bank_stake", Text("Bank", "Банк"),
               Text("What the banker puts in the bank at the start of his turn.",
                    "Сколько банкомёт кладёт в банк в начале своей сдачи.")),
    OptionText("stake_timing", Text("When to stake", "Когда ставить"),
               Text("Whether a punter stakes before the cards or after seeing his first card.",
                    "Ставит ли понтёр до сдачи или увидев свою первую карту."),
               values=(
                   Value("before_deal", Text("Before the cards", "До сдачи"),
                         Text("Every punter stakes, then the cards are dealt.",
                              "Все понтёры ставят, затем сдаются карты.")),
                   Value("after_first_card", Text("After the first card", "После первой карты"),
                         Text("Each punter sees his first card, then stakes.",
                              "Каждый понтёр смотрит первую карту и затем ставит.")),
               )),
    OptionText("banker_unlimited", Text("Banker pays from his chips", "Банкомёт доплачивает"),
               Text("The banker also covers stakes from his own chips, not only from the bank.",
                    "Банкомёт покрывает ставки и своими фишками, не только банком."),
               values=_yes_no(("Stakes are covered by the bank and then by the banker's chips.",
                               "Ставки покрывает банк, а затем фишки банкомёта."),
                              ("Stakes are accepted only while the bank covers them.",
                               "Ставки принимаются, пока их покрывает банк."))),
    OptionText("forced_draw", Text("Forced draw", "Обязательный прикуп"),
               Text("Buying on 0 to 6 and standing on 7 to 9 are compulsory.",
                    "На 0–6 прикупать обязательно, на 7–9 — оставаться."),
               values=_yes_no(("A punter must buy on 0–6 and stand on 7–9.",
                               "Понтёр обязан прикупать на 0–6 и оставаться на 7–9."),
                              ("A punter buys or stands as he likes.",
                               "Понтёр прикупает или остаётся по желанию."))),
    OptionText("naturals", Text("Naturals", "Натуральные"),
               Text("A first card of 9, 8 or 7 is a natural that stands and pays 3, 2 or 1 "
                    "times the stake.",
                    "Первая карта 9, 8 или 7 — натуральная: с ней остаются, она платит 3, 2 или "
                    "1 ставку."),
               values=_yes_no(("Naturals stand and are paid 3/2/1 times the stake; coverage "
                               "counts every stake three times.",
                               "Натуральные остаются и получают 3/2/1 ставки; покрытие считает "
                               "каждую ставку трижды."),
                              ("Every hand is paid even money.",
                               "Любая рука выигрывает одну ставку."))),
    OptionText("multi_buy", Text("Buy several cards", "Прикуп нескольких карт"),
               Text("A punter may buy any number of cards; values are plain sums and over 9 "
                    "busts.",
                    "Понтёр может прикупать сколько угодно карт; очки — простая сумма, больше 9 — "
                    "перебор."),
               values=_yes_no(("Buy while the shoe has cards; a total over 9 loses at once.",
                               "Прикупать, пока в шузе есть карты; больше 9 — сразу проигрыш."),
                              ("At most one card is bought; the value is the total modulo 10.",
                               "Прикупается не больше одной карты; очки — сумма по модулю 10."))),
)

_MOVES = (
    MoveKind("stake", Text("Stake", "Ставка"), r"stake [1-9][0-9]*",
             Text("Stake this many chips against the bank.",
                  "Поставить столько фишек против банка.")),
    MoveKind("buy", Text("Buy", "Прикупить"), r"buy",
             Text("Take one more card face down.", "Взять ещё одну карту втёмную.")),
    MoveKind("stand", Text("Stand", "Остаться"), r"stand",
             Text("Take no more cards and wait for the showdown.",
                  "Больше не брать карт и ждать вскрытия.")),
)


def _facts(game: Game) -> Facts:
    o = game.options
    n = game.players
    max_stake = int(o.max_stake)
    return Facts(
        players=(2, 8),
        action_space=54 + max_stake,
        # The 52 card slots that open every action space are never legal here (no move names a
        # card).
        action_layout=((UNUSED, 0, 52), ("buy", 52, 1), ("stand", 53, 1),
                       ("stake", 54, max_stake)),
        result_bounds=(-float(o.start_chips), float((n - 1) * o.start_chips)),
        # at most 52 rounds (each deals 2+ cards from the 104), a stake and a stand per punter,
        # and at most 104 bought cards
        max_moves=104 + 104 * max(n - 1, 1),
        zero_sum=True,
        points_pay=True,
    )


# The bot levels (docs/bots.md has every figure behind these budgets): policy rollouts over the
# heuristic, counted in simulated decisions (whole worlds only) and candidate moves compared;
# the seconds only cap a move on a slow machine.
BOTS = Bots(
    heuristic="cardplay.bots.heuristics.macao:HeuristicBot",
    levels={
        "fast": Searcher("rollout", {"decisions": 100, "max_candidates": 3, "worlds": 64,
                                     "look_every": 4, "seconds": 0.045}),
        "strong": Searcher("rollout", {"decisions": 4000, "max_candidates": 3, "worlds": 256,
                                       "look_every": 4, "seconds": 0.9}),
    },
    exact="cardplay.bots.heuristics.macao:exact_values",
)


DECLARATION = Declaration(
    title=Text("Macao", "Макао"),
    summary=Text("A baccarat-like banking game: each punter stakes, gets a card and may buy one "
                 "more; the value nearer 9 wins.",
                 "Банковая игра вроде баккара: понтёр ставит, получает карту и может прикупить "
                 "ещё одну; выигрывает значение ближе к 9."),
    public=_PUBLIC,
    options=_OPTIONS,
    moves=_MOVES,
    bots=BOTS,
    facts=_facts,
    result_units=Text("chips", "фишки"),
)
