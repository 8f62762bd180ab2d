"""Polish Banchok's first lesson: the least stake on weak cards, more on high ones, until the bank
is broken."""

from . import Note, Turn, Tutorial
from . import learner_turn as L

TUTORIAL = Tutorial(
    game="banchok",
    seed=164,
    learner=0,
    intro=Note("tut_bk_intro", {"bank": 100}),
    script=(
        L(0, "stake 5", "tut_bk_stake_low", hand="KH+JD+3H", n=5),
        Turn(1, "stake 5"),
        L(0, "stake 50", "tut_bk_stake_high", hand="AC+KS+5C", n=50),
        Turn(1, "stake 5"),
        L(0, "stake 5", "tut_bk_stake_low", hand="2D+9H+4C", n=5),
        Turn(1, "stake 5"),
        L(0, "stake 5", "tut_bk_stake_low", hand="8H+3D+QH", n=5),
        Turn(1, "stake 5"),
        L(0, "stake 50", "tut_bk_stake_high", hand="TH+QC+5D", n=50),
        Turn(1, "stake 5"),
    ),
    summary=Note("tut_bk_summary", {"mine": 105}),
    result=(105, -5, -100),
)
