/* cardplay browser UI: the Undo button of a casual game against bots. It shows only where the
   server says this seat may take back its last move now (the state's "undo": a person alone with
   bots, no clock, not rated, a move of theirs in the deal in play); the server takes back that
   move and the bots' answers after it, and sends the state as it was before the move. */
import { t } from "./texts.js";
import { T, announce, h, send } from "./common.js";

/** The Undo button, where the state offers it. @param {any} s */
export function undoNodes(s) {
  if (!s.undo || T.seat === null || s.is_over) return [];
  return [h("button", { type: "button", class: "secondary undo", id: "undo-button", "data-focus-key": "undo", disabled: T.pending,
    title: t("undo_label"), "aria-label": t("undo_label"), onclick: () => {
      if (T.pending) return;
      T.pending = true;
      send({ type: "undo", version: s.version, id: "undo-" + s.version });
    } }, t("undo_button"))];
}

/** After a state: a version that went back is an undo, said in the status and aloud.
    @param {any} old @param {any} s */
export function noteUndo(old, s) {
  if (!old || !old.view || !s.view || s.version >= old.version || s.table !== old.table) return;
  T.undone = s.version;  // no forced card is played for the person here (forced.js)
  T.repeat = null;  // nor a repeated move (drawing until a card fits) started again (table.js)
  T.status = t("undo_done"); T.statusBad = false;
  announce(T.status);
}
