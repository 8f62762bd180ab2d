"""A view's public state in words, read off a declaration (the text front-ends' renderer)."""

from __future__ import annotations

from cardplay.declaration import Declaration, Facts, Field, Text, Value
from cardplay.wording import card_text, field_lines, field_text, move_text, typed_move
from helpers import add_test_catalogue

PHASE = Field("phase", "choice", Text("Phase"),
              values=(Value("stake", Text("Staking"), Text("Stakes go in.")),
                      Value("play", Text("Playing"), Text("Cards are played."))))
TRICK = Field("trick", "records", Text("On the table"),
              fields=(Field("seat", "seat", Text("Player")),
                      Field("card", "card", Text("Card"))))
LAST = Field("last", "record", Text("Last trick"),
             fields=(Field("cards", "cards", Text("Cards")),
                     Field("winner", "seat", Text("Taken by"))))
DECLARATION = Declaration(
    title=Text("Test"), summary=Text("A test."),
    public=(Field("trump_suit", "suit", Text("Trump")), PHASE, TRICK, LAST,
            Field("stock", "number", Text("Stock")),
            Field("hand_sizes", "per_seat", Text("Cards in hand")),
            Field("closed", "flag", Text("Closed"))),
    options=(), moves=(), bots=None,
    facts=lambda game: Facts((2, 2), 52, (("card", 0, 52),), (0.0, 1.0), 10, False))
NAMES = ["Ann", "Bob"]


def test_cards_and_moves_in_both_languages() -> None:
    assert [card_text(c) for c in ("QH", "TH", "AS", "9C")] == ["Q♥", "10♥", "A♠", "9♣"]
    assert [card_text(c, "ru") for c in ("QH", "JD", "KS", "AC", "TH")] == \
        ["Д♥", "В♦", "К♠", "Т♣", "10♥"]
    assert move_text("KH=20") == "K♥=20" and move_text("AS=H", "ru") == "Т♠=♥"
    assert move_text("stake 25") == "stake 25" and move_text("AC+AD") == "A♣+A♦"


def test_a_move_typed_as_the_table_writes_it_reads_in_the_engines_letters() -> None:
    assert [card_text(c, "de") for c in ("QH", "JD", "KS", "AC", "TH")] == \
        ["D♥", "B♦", "K♠", "A♣", "10♥"]
    assert typed_move("B♠", "de") == "J♠" and typed_move("d♥=20", "de") == "Q♥=20"
    assert typed_move("K♥+A♣", "de") == "K♥+A♣" and typed_move("Д♥", "ru") == "Q♥"
    # letters the language does not give a rank, and letters that are not before a suit, stay
    assert typed_move("J♠", "de") == "J♠" and typed_move("B♠", "en") == "B♠"
    assert typed_move("DS", "de") == "DS" and typed_move("stake 25", "de") == "stake 25"


def test_every_kind_is_written_in_words() -> None:
    public = {"trump_suit": "D", "phase": "play",
              "trick": [{"seat": 1, "card": "QH"}], "last": {"cards": ["AS", "9S"], "winner": 0},
              "stock": 7, "hand_sizes": [5, 4], "closed": False}
    assert field_lines(DECLARATION, public, "en", NAMES.__getitem__) == [
        "Trump: ♦", "Phase: Playing", "On the table: Bob: Q♥",
        # a record is its label and a line per part, never "Cards: A♠ 9♠; Taken by: Ann"
        "Last trick:", "  Cards: A♠ 9♠", "  Taken by: Ann", "Stock: 7",
        "Cards in hand: Ann 5 · Bob 4", "Closed: no"]
    assert field_lines(DECLARATION, public, "ru", NAMES.__getitem__)[1:6] == [
        "Фаза: Игра", "На столе: Bob: Д♥", "Последняя взятка:", "  Карты: Т♠ 9♠", "  Кто взял: Ann"]
    assert field_text(PHASE, "stake", "ru", str) == "Ставки"


def test_empty_fields_are_left_out() -> None:
    public = {"trump_suit": None, "phase": "stake", "trick": [], "last": None, "stock": 0,
              "hand_sizes": [0, 0], "closed": True}
    assert field_lines(DECLARATION, public, "en", NAMES.__getitem__,
                       skip=lambda f, v: f.name == "stock") == [
        "Phase: Staking", "Cards in hand: Ann 0 · Bob 0", "Closed: yes"]


def test_a_play_reads_as_seat_and_card_with_its_true_flags() -> None:
    trick = Field("trick", "records", Text("On the table"),
                  fields=(Field("seat", "seat", Text("Player")),
                          Field("card", "card", Text("Card")),
                          Field("marriage", "flag", Text("Led with a marriage"))))
    plays = [{"seat": 0, "card": "KH", "marriage": True}, {"seat": 1, "card": "TH",
                                                          "marriage": False}]
    assert field_text(trick, plays, "en", NAMES.__getitem__) == \
        "Ann: K♥ (led with a marriage) | Bob: 10♥"
    known = Field("known", "per_seat_cards", Text("Known"))
    decl = Declaration(title=Text("T"), summary=Text("T"), public=(known,), options=(),
                       moves=(), bots=None, facts=DECLARATION.facts)
    assert field_lines(decl, {"known": [[], []]}, "en", NAMES.__getitem__) == []
    assert field_lines(decl, {"known": [[], ["QS"]]}, "en", NAMES.__getitem__) == \
        ["Known: Ann — · Bob Q♠"]

# The Russian of this module's texts, as a game outside the package brings its own catalogue
# (docs/i18n.md): compiled and added to the package's by add_test_catalogue.
RU = {
    'Phase': 'Фаза',
    'On the table': 'На столе',
    'Last trick': 'Последняя взятка',
    'Test': 'Тест',
    'A test.': 'Тест.',
    'Known': 'Известны',
    'T': 'Т',
    'Staking': 'Ставки',
    'Stakes go in.': 'Ставят.',
    'Playing': 'Игра',
    'Cards are played.': 'Играют.',
    'Player': 'Игрок',
    'Card': 'Карта',
    'Cards': 'Карты',
    'Taken by': 'Взял',
    'Trump': 'Козырь',
    'Stock': 'Колода',
    'Cards in hand': 'Карт на руке',
    'Closed': 'Закрыто',
    'Led with a marriage': 'С марьяжем',
}
add_test_catalogue("ru", RU)


def test_a_label_before_a_seat_s_name_takes_the_name_as_it_is() -> None:
    """A seat's name is said in the nominative ("Du", "Вы"), so no label before it may end in a
    preposition that wants another case: German showed "Talon zugedreht von: Du" (von takes the
    dative: "von dir"); each label is a question the name answers instead."""
    import cardplay
    from cardplay.engine import declaration_of

    seen = 0
    for name in cardplay.games():
        for f in declaration_of(name).public:
            if f.kind not in ("seat", "seats"):
                continue
            seen += 1
            de, ru = f.label("de"), f.label("ru")
            assert not de.endswith((" von", " durch", " mit")), (name, f.name, de)
            assert not ru.endswith((" от", " у")), (name, f.name, ru)
    assert seen >= 5
    # a label that is a verb asks who did it, so that "Du" and "Вы" answer it in their own form
    # ("Spielt aus: Du", "Bonus geht an: Du" and "Кому бонус: Вы" did not agree)
    questions = {("sixty-six", "closed_by"): ("Wer hat zugedreht", "Кто закрыл прикуп"),
                 ("sixty-six", "leader"): ("Wer spielt aus", "Кто заходит"),
                 ("two-ten-jack", "leader"): ("Wer spielt aus", "Кто заходит"),
                 ("sixty-six", "trump_card_taker"): ("Wer nahm die Atoutkarte",
                                                     "Кто забрал козырь"),
                 ("maltese-twenty", "starter"): ("Wer beginnt den Durchgang",
                                                 "Кто начинает раунд"),
                 ("maltese-twenty", "last_positive_scorer"): ("Wer hat zuletzt gepunktet",
                                                              "Кто последним набрал очки"),
                 ("maltese-twenty", "bonus_to"): ("Wer bekommt den Bonus", "Кто получает бонус")}
    for (name, field_name), (de, ru) in questions.items():
        f = next(f for f in declaration_of(name).public if f.name == field_name)
        assert (f.label("de"), f.label("ru")) == (de, ru)
