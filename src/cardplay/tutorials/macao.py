"""Macao's first lesson: modest stakes, buying on a low card and standing on a high one, until the
bank is broken."""

from . import Note, Turn, Tutorial
from . import learner_turn as L

TUTORIAL = Tutorial(
    game="macao",
    seed=63,
    learner=0,
    intro=Note("tut_mc_intro"),
    script=(
        Turn(2, "stake 50"),
        L(0, "stake 10", "tut_mc_stake", n=10, lo=5, hi=50),
        Turn(2, "buy"),
        L(0, "buy", "tut_mc_buy", card="QC", value=0),
        Turn(2, "stake 50"),
        L(0, "stake 10", "tut_mc_stake", n=10, lo=5, hi=50),
        Turn(2, "stand"),
        L(0, "stand", "tut_mc_stand", card="6D", value=6),
        Turn(2, "stake 50"),
        L(0, "stake 10", "tut_mc_stake", n=10, lo=5, hi=40),
        Turn(2, "stand"),
        L(0, "buy", "tut_mc_buy", card="AS", value=1),
        Turn(2, "stake 30"),
        Turn(2, "buy"),
    ),
    summary=Note("tut_mc_summary", {"mine": 20}),
    result=(20, -200, 180),
)
