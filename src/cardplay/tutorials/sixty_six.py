"""Sixty-Six's first lesson: a won trick, the trump nine exchanged, marriages of 40 and 20, a
close, and the strict rules after it (must follow, must trump)."""

from . import Note, Turn, Tutorial
from . import learner_turn as L

TUTORIAL = Tutorial(
    game="sixty-six",
    seed=35,
    learner=0,
    intro=Note("tut_66_intro", {"trump": "C", "card": "KC"}),
    script=(
        L(0, "9H", "tut_66_lead_low", card="9H"),
        Turn(1, "9D"),
        L(0, "exchange", "tut_66_exchange", card="9C", trump="KC"),
        L(0, "QC=40", "tut_66_marriage40", card="QC", other="KC"),
        Turn(1, "9S"),
        L(0, "QH=20", "tut_66_marriage20", card="QH", other="KH"),
        Turn(1, "TC"),
        Turn(1, "QD=20"),
        L(0, "TD", "tut_66_take_higher", card="TD", led="QD", points=13),
        L(0, "close", "tut_66_close", points=76),
        L(0, "AS", "tut_66_lead_phase2", card="AS"),
        Turn(1, "KS"),
        L(0, "QS", "tut_66_lead_phase2", card="QS"),
        Turn(1, "TS"),
        Turn(1, "AC"),
        L(0, "JC", "tut_66_must_follow", card="JC", led="AC"),
        Turn(1, "AD"),
        L(0, "KC", "tut_66_must_trump", card="KC", led="AD"),
        L(0, "KH", "tut_66_lead_phase2", card="KH"),
        Turn(1, "JH"),
        L(0, "TH", "tut_66_lead_phase2", card="TH"),
        Turn(1, "KD"),
    ),
    summary=Note("tut_66_summary", {"mine": 126, "theirs": 59, "gp": 1}),
    result=(1, 0),
)
