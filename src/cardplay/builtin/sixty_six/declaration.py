"""What Sixty-Six (and its Schnapsen preset) declares about itself (:mod:`cardplay.declaration`):
the public state of a view field by field, the words of its options and moves, and its facts."""

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
from .rules import CLOSE, EXCHANGE, MARRIAGE_BASE

if TYPE_CHECKING:
    from ...engine import Game

__all__ = ["DECLARATION"]


def _yes_no(yes: tuple[str, str], no: tuple[str, str]) -> tuple[Value, ...]:
    """The two values of a boolean option, each with its one-line description (en, ru)."""
    return (Value(True, Text("Yes", "Да"), Text(*yes)),
            Value(False, Text("No", "Нет"), Text(*no)))


_REASONS = (
    Value("reached_66", Text("Reached 66", "Набрал 66"),
          Text("The winner's credited points reached 66.",
               "Зачтённые очки победителя достигли 66.")),
    Value("closed_and_won", Text("Closed the talon and won", "Закрыл прикуп и выиграл"),
          Text("The player who closed the talon reached 66 and the opponent did not.",
               "Закрывший прикуп набрал 66, а соперник — нет.")),
    Value("failed_close", Text("Failed close", "Неудачное закрытие"),
          Text("The player who closed the talon did not reach 66 first: the opponent scores 2.",
               "Закрывший прикуп не набрал 66 первым: соперник получает 2 очка.")),
    Value("last_trick", Text("Won the last trick", "Взял последнюю взятку"),
          Text("Schnapsen: nobody reached 66, so the winner of the last trick wins the hand.",
               "Шнапсен: никто не набрал 66, сдачу выигрывает взявший последнюю взятку.")),
    Value("replay", Text("Replay", "Переигровка"),
          Text("Both players reached 66: no game points, the same dealer deals again.",
               "Оба набрали 66: очков нет, тот же игрок сдаёт снова.")),
    Value("drawn", Text("Drawn hand", "Ничья"),
          Text("Nobody reached 66 (65–65): no game points; a stand bonus may go to the next "
               "hand's winner.",
               "Никто не набрал 66 (65–65): очков нет; бонус может перейти к победителю "
               "следующей сдачи.")),
)

_PUBLIC = (
    Field("trump_suit", "suit", Text("Trumps", "Козырь")),
    # detail: once exchanged it is no longer on the table, and the face-up card says the rest
    Field("turned_trump", "card", Text("Trump card turned at the deal",
                                       "Козырь, открытый при сдаче"), detail=True),
    Field("trump_card", "card", Text("Face-up trump card", "Открытый козырь"),
          description=Text("The trump card under the talon, while it lies there.",
                           "Козырная карта под прикупом, пока она там лежит.")),
    Field("trump_card_taker", "seat", Text("Took the trump card", "Козырь забрал")),
    Field("stock", "number", Text("Cards left in the talon", "Осталось в прикупе")),
    Field("closed_by", "seat", Text("Talon closed by", "Прикуп закрыл")),
    Field("phase", "choice", Text("Phase", "Фаза"), values=(
        Value(1, Text("Talon open", "Прикуп открыт"),
              Text("No need to follow suit; after each trick the winner draws first.",
                   "Масть поддерживать не нужно; после взятки первым добирает взявший.")),
        Value(2, Text("Talon closed or exhausted", "Прикуп закрыт или кончился"),
              Text("Follow suit and head the trick, else trump.",
                   "Отвечать в масть и старше, иначе козырем.")),
    )),
    Field("leader", "seat", Text("Leads", "Ходит")),
    Field("trick", "records", Text("On the table", "На столе"), fields=(
        Field("seat", "seat", Text("Player", "Игрок")),
        Field("card", "card", Text("Card", "Карта")),
        Field("marriage", "flag", Text("Led with a marriage", "С марьяжем")),
    )),
    Field("tricks", "records", Text("Tricks played", "Сыгранные взятки"), fields=(
        Field("leader", "seat", Text("Led by", "Ходил")),
        Field("cards", "cards", Text("Cards", "Карты")),
        Field("winner", "seat", Text("Taken by", "Взял")),
        Field("phase2", "flag", Text("Played with the talon closed or exhausted",
                                     "Сыграна при закрытом или кончившемся прикупе")),
    ), detail=True),
    Field("tricks_won", "per_seat", Text("Tricks won", "Взято взяток")),
    Field("pending", "per_seat", Text("Marriage points waiting for a trick",
                                      "Очки марьяжа ждут взятки")),
    Field("marriages", "records", Text("Marriages", "Марьяжи"), fields=(
        Field("seat", "seat", Text("Declared by", "Объявил")),
        Field("suit", "suit", Text("Suit", "Масть")),
        Field("points", "number", Text("Points", "Очки")),
        Field("shown", "card", Text("Card shown", "Показанная карта")),
    )),
    Field("exchange", "record", Text("Trump exchange", "Обмен козыря"), fields=(
        Field("seat", "seat", Text("Exchanged by", "Обменял")),
        Field("took", "card", Text("Took", "Взял")),
        Field("gave", "card", Text("Gave", "Отдал")),
    )),
    Field("hand_sizes", "per_seat", Text("Cards in hand", "Карт на руке")),
    Field("known_cards", "per_seat_cards", Text("Cards known to be in hand",
                                                "Известные карты на руке"),
          description=Text("Shown marriage partners and the trump card taken or exchanged.",
                           "Показанные карты марьяжа и взятый или обменянный козырь.")),
    Field("last_trick_bonus", "seat", Text("Last trick +10", "Последняя взятка +10")),
    Field("stand_bonus", "number", Text("Stand bonus at stake", "На кону бонус за ничью"),
          description=Text("Extra game points for this hand's winner, from drawn hands before.",
                           "Дополнительные очки победителю сдачи за прежние ничьи.")),
    Field("outcome", "record", Text("Outcome of the hand", "Итог сдачи"), optional=True, fields=(
        Field("winner", "seat", Text("Winner", "Победитель")),
        Field("game_points", "number", Text("Game points", "Очки партии")),
        Field("reason", "choice", Text("How", "Как"), values=_REASONS),
        Field("stand_bonus_next", "number", Text("Stand bonus for the next hand",
                                                 "Бонус на следующую сдачу")),
    )),
)

_OPTIONS = (
    OptionText("preset", Text("Rules", "Правила"),
               Text("Sixty-Six, or its Schnapsen preset.", "«66» или пресет «Шнапсен»."),
               values=(
                   Value("sixty-six", Text("Sixty-Six", "Шестьдесят шесть"),
                         Text("24 cards, 6 each, the trump nine is exchanged.",
                              "24 карты, по 6 на руке, меняется козырная девятка.")),
                   Value("schnapsen", Text("Schnapsen", "Шнапсен"),
                         Text("20 cards (no nines), 5 each, the trump jack is exchanged; the "
                              "hand ends at 66.",
                              "20 карт без девяток, по 5 на руке, меняется козырной валет; "
                              "сдача кончается на 66.")))),
    OptionText("end_mode", Text("End of the hand", "Конец сдачи"),
               Text("Whether the hand is played out or ends as soon as someone reaches 66.",
                    "Доигрывается ли сдача до конца или кончается, как только кто-то набрал 66."),
               values=(
                   Value("play_out", Text("Play out", "Доигрывать"),
                         Text("All cards are played; both at 66 or more is a replay.",
                              "Играются все карты; оба с 66 и больше — переигровка.")),
                   Value("first_to_66", Text("First to 66", "Первый до 66"),
                         Text("The hand ends the moment a player's credited points reach 66.",
                              "Сдача кончается, как только зачтённые очки игрока достигли 66.")))),
    OptionText("marriage_requires_trick", Text("Marriage needs a trick", "Марьяж после взятки"),
               Text("Whether a marriage counts only once its declarer has won a trick.",
                    "Засчитывается ли марьяж, только когда объявивший взял взятку."),
               values=_yes_no(("The points wait for the declarer's first trick.",
                               "Очки ждут первой взятки объявившего."),
                              ("The points count at once.", "Очки засчитываются сразу."))),
    OptionText("exchange", Text("Trump exchange", "Обмен козыря"),
               Text("When the trump nine (Schnapsen: jack) may be exchanged for the trump card.",
                    "Когда можно обменять козырную девятку (в Шнапсене — валета) на открытый "
                    "козырь."),
               values=(
                   Value("won_trick", Text("After winning a trick", "После взятой взятки"),
                         Text("On lead, once the player has won a trick.",
                              "На ходу, когда игрок уже взял взятку.")),
                   Value("any_lead", Text("On any lead", "На любом ходу"),
                         Text("On any lead, the first included.",
                              "На любом своём ходу, включая первый.")))),
    OptionText("allow_close", Text("Closing the talon", "Закрытие прикупа"),
               Text("Whether the leader may close the talon.",
                    "Может ли ходящий закрыть прикуп."),
               values=_yes_no(("The leader may close the talon while it holds 2 or more cards.",
                               "Ходящий может закрыть прикуп, пока в нём 2 карты или больше."),
                              ("Nobody closes the talon.", "Прикуп не закрывают."))),
    OptionText("must_head", Text("Must head the trick", "Обязательно перебивать"),
               Text("Whether, with the talon closed or exhausted, a follower must beat the led "
                    "card in its suit when he can.",
                    "Обязан ли отвечающий при закрытом или кончившемся прикупе перебить карту "
                    "хода в масть, если может."),
               values=_yes_no(("Follow suit with a higher card if you have one.",
                               "Отвечать в масть старшей картой, если она есть."),
                              ("Any card of the suit will do.", "Подойдёт любая карта масти."))),
    OptionText("schwarz_rule", Text("Three game points", "Три очка партии"),
               Text("When the winner scores 3 game points (schwarz).",
                    "Когда победитель получает 3 очка партии (шварц)."),
               values=(
                   Value("zero_points", Text("Loser has no points", "У проигравшего ноль очков"),
                         Text("The loser scored no card points.",
                              "Проигравший не набрал ни одного очка.")),
                   Value("no_tricks", Text("Loser took no trick", "Проигравший без взяток"),
                         Text("The loser took no trick at all.",
                              "Проигравший не взял ни одной взятки.")))),
    OptionText("stand_bonus", Text("Stand bonus", "Бонус за ничью"),
               Text("Whether a drawn hand (65–65) gives the next hand's winner an extra game "
                    "point.",
                    "Даёт ли ничья (65–65) победителю следующей сдачи лишнее очко партии."),
               values=_yes_no(("Each drawn hand adds 1 game point for the next winner.",
                               "Каждая ничья добавляет 1 очко следующему победителю."),
                              ("A drawn hand scores nothing.", "Ничья ничего не даёт."))),
    OptionText("match_target", Text("Game points to win", "Очков партии для победы"),
               Text("The match goes to the first player with this many game points.",
                    "Матч выигрывает первый, набравший столько очков партии.")),
    OptionText("marriage_lead", Text("Marriage lead", "Заход с марьяжа"),
               Text("Which card of a marriage may be led to announce it.",
                    "С какой карты марьяжа можно зайти, объявляя его."),
               values=(
                   Value("either", Text("King or queen", "Король или дама"),
                         Text("Lead either card of the pair.", "Заходить любой картой пары.")),
                   Value("king", Text("King only", "Только король"),
                         Text("A marriage is announced by leading its king.",
                              "Марьяж объявляется только заходом с короля.")))),
    OptionText("marriage_credit", Text("Marriage credit", "Зачёт марьяжа"),
               Text("Which trick credits a marriage's points.",
                    "После какой взятки засчитываются очки марьяжа."),
               values=(
                   Value("first_trick", Text("First trick", "Первая взятка"),
                         Text("The points wait only until the declarer's first trick.",
                              "Очки ждут только первой взятки объявившего.")),
                   Value("next_trick", Text("Next trick", "Следующая взятка"),
                         Text("The points always wait for the declarer's next trick.",
                              "Очки всегда ждут следующей взятки объявившего.")))),
)

_MOVES = (
    MoveKind("card", Text("Play a card", "Сыграть карту"), r"[9TJQKA][SHDC]",
             Text("Lead or follow with this card.", "Зайти или ответить этой картой.")),
    MoveKind("marriage", Text("Announce a marriage", "Объявить марьяж"), r"[KQ][SHDC]=(20|40)",
             Text("Lead the king or queen of a pair you hold, for 20 (40 in trumps).",
                  "Зайти с короля или дамы своей пары: 20 очков (козырный марьяж — 40).")),
    MoveKind("exchange", Text("Exchange the trump card", "Обменять козырь"), r"exchange",
             Text("Give the trump nine (Schnapsen: jack) for the face-up trump card.",
                  "Отдать козырную девятку (в Шнапсене — валета) за открытый козырь.")),
    MoveKind("close", Text("Close the talon", "Закрыть прикуп"), r"close",
             Text("No more drawing; follow suit from now on, and you must reach 66.",
                  "Больше не добирают, дальше отвечают в масть, а вам нужно набрать 66."),
             confirm=True),
)


def _facts(game: Game) -> Facts:
    # A hand plays at most 24 cards, an exchange and a close; 30 is the adapters' cap.
    return Facts(players=(2, 2), action_space=CLOSE + 1,
                 action_layout=(("card", 0, MARRIAGE_BASE),
                                ("marriage", MARRIAGE_BASE, EXCHANGE - MARRIAGE_BASE),
                                ("exchange", EXCHANGE, 1), ("close", CLOSE, 1)),
                 result_bounds=(0.0, 3.0), max_moves=30, zero_sum=False)


# The bot levels (docs/bots.md has the figures): PIMC, ISMCTS while the talon is open, sampled
# worlds solved exactly by alpha-beta once it is closed or exhausted. `fast` searches only its
# own first-phase leads (the heuristic, `follower`, answers the opponent's); `strong` every move.
_PIMC = "cardplay.bots.sixty_six_solver:PIMCBot"
BOTS = Bots(
    heuristic="cardplay.bots.heuristics.sixty_six:HeuristicBot",
    levels={
        "fast": Searcher("factory", {"iterations": 600, "seconds": 0.5, "worlds": 2,
                                     "max_nodes": 8_000, "move_nodes": 16_000,
                                     "closed_worlds": 4, "enumerate_limit": 6,
                                     "follower": "heuristic"}, factory=_PIMC),
        "strong": Searcher("factory", {"iterations": 1500, "seconds": 0.9, "worlds": 12,
                                       "max_nodes": 10_000, "move_nodes": 60_000,
                                       "closed_worlds": 16, "enumerate_limit": 60},
                           factory=_PIMC),
    },
    reads_history=True,
    exact="cardplay.bots.sixty_six_solver:exact_values",
    rollout_settings={"solve_endgame": False},
)


DECLARATION = Declaration(
    title=Text("Sixty-Six", "Шестьдесят шесть (66)"),
    summary=Text("Two players race to 66 card points with marriages, a talon to draw from and "
                 "to close; Schnapsen is its 20-card preset.",
                 "Двое набирают 66 очков взятками и марьяжами, добирая из прикупа или закрыв "
                 "его; Шнапсен — вариант на 20 картах."),
    public=_PUBLIC,
    options=_OPTIONS,
    moves=_MOVES,
    bots=BOTS,
    facts=_facts,
    result_units=Text("game points", "игрового очка"),
)
