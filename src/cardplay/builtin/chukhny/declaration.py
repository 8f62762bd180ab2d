"""What Chukhny declares about itself (:mod:`cardplay.declaration`): the public state of a view
field by field, the words of its options and moves, and its facts."""

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

# The ranks as the views write them (RANK_CHARS), with their names (en, ru).
_RANK_NAMES = (
    ("2", "two", "двойка"), ("3", "three", "тройка"), ("4", "four", "четвёрка"),
    ("5", "five", "пятёрка"), ("6", "six", "шестёрка"), ("7", "seven", "семёрка"),
    ("8", "eight", "восьмёрка"), ("9", "nine", "девятка"), ("T", "ten", "десятка"),
    ("J", "jack", "валет"), ("Q", "queen", "дама"), ("K", "king", "король"), ("A", "ace", "туз"),
)


def _needs(none: Text) -> tuple[Value, ...]:
    """The values of a required rank: each rank, and null (``none`` says when no card is
    required)."""
    ranks = tuple(Value(char, Text(en.capitalize(), ru.capitalize()),
                        Text(f"The card required is a {en}.", f"Нужна карта: {ru}."))
                  for char, en, ru in _RANK_NAMES)
    return (*ranks, Value(None, Text("None", "Никакая"), none))


_PUBLIC = (
    Field("pile", "cards", Text("Pile", "Куча"),
          description=Text("The cards of the current run, bottom first; the last is the top "
                           "card.",
                           "Карты текущей кучи снизу вверх; последняя — верхняя.")),
    Field("need", "choice", Text("Card required", "Нужна карта"),
          description=Text("The rank one above the top card of the pile.",
                           "Достоинство на ступень старше верхней карты кучи."),
          values=_needs(Text("No card is required: a new run is to be started, or the game "
                             "is over.",
                             "Нужной карты нет: начинается новая куча или игра окончена."))),
    Field("need_suit", "suit", Text("Suit required", "Нужная масть"),
          description=Text("Only when the same suit is required: the suit of the top card.",
                           "Только при игре в масть: масть верхней карты кучи.")),
    Field("leading", "flag", Text("Starting a new pile", "Начинается новая куча"),
          description=Text("The player to move leads any card from hand, or turns up the top "
                           "card of the stock with an empty hand.",
                           "Ходящий кладёт любую карту с руки, а с пустой рукой открывает "
                           "верхнюю карту колоды.")),
    Field("stock", "number", Text("Cards left in the stock", "Осталось в колоде")),
    Field("hand_sizes", "per_seat", Text("Cards in hand", "Карт на руке")),
    Field("drawn", "per_seat", Text("Cards drawn from the stock", "Взято из колоды"),
          description=Text("Every card a player drew but the one he played at once did not "
                           "fit.",
                           "Все вытянутые игроком карты, кроме сразу положенной, не подошли.")),
    Field("known", "per_seat_cards", Text("Taken from the pile", "Забрано из кучи"),
          description=Text("The cards each player took from the pile and still holds.",
                           "Карты, которые игрок забрал из кучи и ещё держит.")),
    Field("out", "cards", Text("Out of play", "Вышли из игры")),
    Field("start_cards", "cards", Text("Turned up at the start", "Открыты в начале"),
          description=Text("The cards the dealer turned up: the Aces that went out of play, "
                           "then the first pile card.",
                           "Карты, открытые сдающим: тузы, вышедшие из игры, и первая карта "
                           "кучи.")),
    Field("draws", "records", Text("Draws from the stock", "Карты из колоды"),
          description=Text("Every draw in order: who drew, the card required then, and the "
                           "card if it was played at once.",
                           "Каждый добор по порядку: кто тянул, какая карта была нужна и "
                           "открытая карта, если её сразу положили."),
          fields=(
              Field("seat", "seat", Text("Player", "Игрок")),
              Field("need", "choice", Text("Card required", "Нужна карта"),
                    values=_needs(Text("No card was required: the draw started a new pile.",
                                       "Нужной карты не было: карту открыли, начиная новую "
                                       "кучу."))),
              Field("need_suit", "suit", Text("Suit required", "Нужная масть")),
              Field("card", "card", Text("Card played", "Положенная карта"),
                    description=Text("None when the card did not fit and stayed in hand, "
                                     "unseen.",
                                     "Пусто, если карта не подошла и осталась на руке "
                                     "втёмную.")),
          ), detail=True),
    Field("loser", "seat", Text("Loser («chukhny»)", "Проигравший («чухны»)"),
          description=Text("The last player left holding cards, once the game is over; none "
                           "before, or when nobody holds any.",
                           "Последний, у кого остались карты, когда игра окончена; до того "
                           "или если карт ни у кого нет — никто.")),
    Field("hands", "per_seat_cards", Text("Hands at the end", "Карты на руках в конце"),
          description=Text("Every hand, shown once the game is over.",
                           "Карты всех игроков, открытые по окончании игры."),
          optional=True),
)

_OPTIONS = (
    OptionText("players", Text("Players", "Игроки"),
               Text("How many play.", "Сколько игроков.")),
    OptionText("deck_size", Text("Deck", "Колода"),
               Text("The full deck, or the 36 cards from six to Ace.",
                    "Полная колода или 36 карт, от шестёрки до туза."),
               values=(Value(52, Text("52 cards", "52 карты"),
                             Text("Twos to Aces.", "От двоек до тузов.")),
                       Value(36, Text("36 cards", "36 карт"),
                             Text("Sixes to Aces, as often played in Russia.",
                                  "От шестёрок до тузов, как часто играют в России.")))),
    OptionText("require_same_suit", Text("Same suit", "В масть"),
               Text("Whether the next card must also be of the suit of the top card.",
                    "Должна ли следующая карта быть ещё и той же масти, что верхняя."),
               values=(Value(False, Text("Any suit", "Любая масть"),
                             Text("Only the rank counts: any card one rank higher.",
                                  "Важно только достоинство: любая карта на ступень старше.")),
                       Value(True, Text("Same suit", "Та же масть"),
                             Text("The next card is one rank higher and of the same suit.",
                                  "Следующая карта на ступень старше и той же масти.")))),
    OptionText("after_ace", Text("After an Ace", "После туза"),
               Text("What follows an Ace, above which nothing climbs.",
                    "Что кладут после туза, старше которого карты нет."),
               values=(Value("clear", Text("The pile goes out", "Куча уходит"),
                             Text("The pile goes out of play and the Ace's player leads again.",
                                  "Куча выходит из игры, и положивший туза ходит снова.")),
                       Value("wrap", Text("Round the corner", "По кругу"),
                             Text("A two (a six with 36 cards) follows an Ace.",
                                  "После туза кладут двойку (шестёрку в 36 картах).")))),
    OptionText("games", Text("Games in a match", "Партий в матче"),
               Text("The deal passes left; the fewest losses win the match.",
                    "Сдача переходит влево; побеждает проигравший меньше всех.")),
)
_MOVES = (
    MoveKind("card", Text("Play a card", "Положить карту"), r"[2-9TJQKA][SHDC]",
             Text("Put the card one rank above the top card on the pile, or any card to start "
                  "a new pile.",
                  "Положить на кучу карту на ступень старше верхней или любую, начиная новую "
                  "кучу.")),
    MoveKind("draw", Text("Draw", "Тянуть из колоды"), r"draw",
             Text("Draw the top card of the stock: it is played at once if it fits, else it "
                  "stays in hand; with an empty hand it starts a new pile.",
                  "Вытянуть верхнюю карту колоды: подошла — сразу ложится на кучу, нет — "
                  "остаётся на руке; с пустой рукой она начинает новую кучу."), repeat=True),
    MoveKind("take", Text("Take the top card", "Забрать верхнюю карту"), r"take",
             Text("No card fits and the stock is empty: take the top card of the pile; the "
                  "rest of the pile goes out of play.",
                  "Положить нечего и колода пуста: забрать верхнюю карту кучи, остальные "
                  "выходят из игры.")),
)


def _facts(game: Game) -> Facts:
    deck_size = int(game.options.deck_size)
    return Facts(
        players=(type(game).min_players, type(game).max_players),
        action_space=54,
        action_layout=(("card", 0, 52), ("draw", 52, 1), ("take", 53, 1)),
        result_bounds=(-1.0, 0.0),
        # a card is drawn once, played once per time it came back with a take, and every take
        # puts at least one card out of play for good
        max_moves=4 * deck_size + 4,
        zero_sum=False,
    )


# The bot levels (docs/bots.md has every figure behind these budgets): policy rollouts over the
# heuristic, counted in simulated decisions (whole worlds only) and candidate moves compared;
# the seconds only cap a move on a slow machine.
BOTS = Bots(
    heuristic="cardplay.bots.heuristics.chukhny:HeuristicBot",
    levels={
        "fast": Searcher("rollout", {"decisions": 500, "max_candidates": 6, "worlds": 64,
                                     "look_every": 4, "seconds": 0.045}),
        "strong": Searcher("rollout", {"decisions": 5000, "max_candidates": 6, "worlds": 256,
                                       "look_every": 4, "seconds": 0.9}),
    },
)


DECLARATION = Declaration(
    title=Text("Chukhny", "Чухны"),
    summary=Text("Climb one rank at a time, drawing from the stock when you cannot; the last "
                 "player left holding cards loses.",
                 "Кладите карту на ступень старше, а нечем — тяните из колоды; последний, у "
                 "кого остались карты, — «чухны»."),
    public=_PUBLIC,
    options=_OPTIONS,
    moves=_MOVES,
    bots=BOTS,
    facts=_facts,
)
