/* cardplay browser UI: the only legal card played for the person (the "auto_play" setting). When
   it is their turn and exactly one card can be played, it is played after a short pause (long
   enough to see which), and the status says so. Only cards: a forced bid, stake or declaration
   is still the person's to make. */
import { CARD_RE, t } from "./texts.js";
import { T, cardShort, playMove } from "./common.js";
import { prefs } from "./prefs.js";

const PAUSE_MS = 600;
/** @type {ReturnType<typeof setTimeout> | null} the forced card waiting to be played */
let timer = null;

/** The status line while a forced card is about to be played, or null.
    @param {any} s @param {boolean} myTurn */
export function playForced(s, myTurn) {
  const legal = (s.view && s.view.legal_moves) || [];
  if (!prefs.auto_play || !myTurn || legal.length !== 1 || !CARD_RE.test(legal[0])) return null;
  // just taken back (undo.js notes the version): the person wants this move for themself
  if (T.undone === s.version) return null;
  const version = s.version;
  if (timer === null) {
    timer = setTimeout(() => {
      timer = null;
      if (T.state && T.state.version === version && T.undone !== version && prefs.auto_play) playMove(legal[0]);
    }, PAUSE_MS);
  }
  return t("settings_auto_played", { card: cardShort(legal[0]) });
}
