"""Twenty's first lesson: a king on move 1, single cards, a forced draw, two cards laid together,
and going out first."""

from . import Note, Turn, Tutorial
from . import learner_turn as L

TUTORIAL = Tutorial(
    game="twenty",
    seed=112,
    learner=0,
    intro=Note("tut_20_intro"),
    script=(
        L(0, "KH", "tut_20_king", cards="KH", m=1),
        Turn(1, "draw"),
        L(0, "3H", "tut_20_one", card="3H", m=3),
        Turn(1, "3S"),
        L(0, "5C", "tut_20_one", card="5C", m=5),
        Turn(1, "4S"),
        L(0, "6S", "tut_20_one", card="6S", m=7),
        Turn(1, "7D"),
        L(0, "draw", "tut_20_draw", m=9),
        Turn(1, "JD"),
        L(0, "TH", "tut_20_one", card="TH", m=11),
        Turn(1, "9H"),
        L(0, "2C+QH", "tut_20_set", cards="2C+QH", m=13, sum=12),
        Turn(1, "9C"),
        L(0, "TD", "tut_20_out", cards="TD", m=15),
    ),
    summary=Note("tut_20_summary", {"mine": 20, "theirs": -10}),
    result=(20, -10),
)
