/* cardplay browser UI: playing a card on a touch screen. Tap-tap: the first tap on a playable card
   picks it (raised, and the status says how to play it), a second tap on it, or a tap on the
   table, plays it; a tap on another card picks that one instead. Or drag: a playable card
   dragged onto the table is played; let go anywhere else, it goes back to the hand. A mouse
   click still plays at once. */
import { t } from "./texts.js";
import { T, cardShort } from "./common.js";

/** @type {string} how the last pointer touched the page: "mouse", "touch" or "pen" */
let lastPointer = "mouse";
document.addEventListener("pointerdown", (e) => { lastPointer = e.pointerType || "mouse"; }, true);
let draggedAt = 0;  // when a drag last ended (the click that may follow it is not a tap)

/** Whether a click on a playable card only picks it (a first tap on a touch screen): then it is
    T.tapped, the status says how to play it, and the caller draws the table again.
    @param {string} card */
export function pickedByTap(card) {
  if (lastPointer === "mouse" || T.tapped === card) return false;
  T.tapped = card;
  T.status = t("touch_tap_again", { card: cardShort(card) }); T.statusBad = false;
  return true;
}
/** A click that must be ignored: the end of a drag. */
export function afterDrag() { return Date.now() - draggedAt < 400; }

/** A tap on the table plays the picked card. @param {(move: string) => void} play */
export function tableTap(play) {
  const c = T.tapped;
  if (!c || !T.state || !(T.state.view.legal_moves || []).includes(c)) return;
  T.tapped = null;
  play(c);
}

/** The pointerdown of a playable card: a touch that moves drags it; let go over the table, it is
    played. @param {PointerEvent} e @param {string} card @param {(move: string) => void} play */
export function dragCard(e, card, play) {
  if (e.pointerType === "mouse") return;
  const btn = /** @type {HTMLElement} */ (e.currentTarget);
  const x0 = e.clientX; const y0 = e.clientY; let moved = false;
  try { btn.setPointerCapture(e.pointerId); } catch (err) { /* a pointer that ended already */ }
  const move = (/** @type {PointerEvent} */ ev) => {
    const dx = ev.clientX - x0; const dy = ev.clientY - y0;
    if (!moved && Math.hypot(dx, dy) < 12) return;
    moved = true;
    btn.classList.add("dragging");
    btn.style.transform = `translate(${dx}px, ${dy}px)`;
  };
  const end = (/** @type {PointerEvent} */ ev) => {
    btn.removeEventListener("pointermove", move); btn.removeEventListener("pointerup", end); btn.removeEventListener("pointercancel", end);
    if (!moved) return;
    draggedAt = Date.now();
    btn.classList.remove("dragging"); btn.style.transform = "";
    const table = document.querySelector(".board .centre");
    const r = table ? table.getBoundingClientRect() : null;
    if (ev.type === "pointerup" && r && ev.clientX >= r.left && ev.clientX <= r.right && ev.clientY >= r.top && ev.clientY <= r.bottom) {
      T.tapped = null;
      play(card);
    }
  };
  btn.addEventListener("pointermove", move); btn.addEventListener("pointerup", end); btn.addEventListener("pointercancel", end);
}
