/* cardplay browser UI: why a card cannot be played, in the rule's own words. The browser holds
   no rules, so the server sends, with the state on the seat's turn, the reason for each card of
   the hand that no legal move plays (`refusals`: card -> {name, text by language}), and, in an
   `illegal` error, the reason for the move it refused (`reason`). */
import { T, words } from "./common.js";

/** The rule that forbids playing this card now, in the reader's language (null: none sent).
    @param {string} card */
export function refusalOf(card) {
  const r = T.state && T.state.refusals ? T.state.refusals[card] : null;
  return r && r.text ? words(r.text) : null;
}

/** The rule named by an error frame, in the reader's language (null: the error names none).
    @param {{reason?: {text?: Record<string, string>}}} msg */
export function reasonOf(msg) {
  return msg && msg.reason && msg.reason.text ? words(msg.reason.text) : null;
}
