/* cardplay browser UI: the traps a newcomer falls into at the table. A click on the king or
   queen of a marriage on a lead asks first (played plain, the card loses its 20 or 40 for
   good); a stake box starts at a legal stake a person chose (their last one in this game, else
   the minimum), never at a guess; and a marriage announced by anyone shows as a call-out
   ("40! ♥") by the trick, said once to screen readers. */
import { SUIT_SYMBOL, t } from "./texts.js";
import { T, announce, cardShort, h, moveKind, seatName } from "./common.js";

const MARRIAGE_RE = /^([KQ][SHDC])=(20|40)$/;

/* the marriage moves a card can make now (K♠ -> ["KS=20"]): none when it is not half of one
   (by the game's kind of move: Twenty writes a king valued 20 the same way) */
export function marriagesOf(card, legal) {
  const game = T.state ? T.state.game : null;
  return (legal || []).filter((m) => {
    const r = MARRIAGE_RE.exec(m); const kind = r && game ? moveKind(game, m) : null;
    return Boolean(kind) && kind.name === "marriage" && r[1] === card;
  });
}

/* A card click: true when the card is half of a marriage that can be announced now, and the
   choice was opened instead of playing it. */
export function askMarriage(card, legal) {
  if (!marriagesOf(card, legal).length) return false;
  T.marriageAsk = card;
  return true;
}

/* the small choice: announce (first, focused) or play the card plain */
export function marriageChoice(legal, play, rerender) {
  const card = T.marriageAsk;
  const moves = card ? marriagesOf(card, legal) : [];
  if (!moves.length) { T.marriageAsk = null; return null; }
  const points = MARRIAGE_RE.exec(moves[0])[2];
  const close = () => { T.marriageAsk = null; rerender(); };
  return h("div", { class: "confirm marriage-choice", role: "alertdialog", id: "marriage-choice", "aria-labelledby": "marriage-q",
    onkeydown: (e) => { if (e.key === "Escape") close(); } },
  h("span", { id: "marriage-q", text: t("trap_marriage_q", { card: cardShort(card), points }) }),
  h("button", { type: "button", id: "marriage-announce", "data-focus-key": "marriage-announce", "data-move": moves[0],
    onclick: () => { T.marriageAsk = null; play(moves[0]); } }, t("trap_marriage_announce", { points })),
  legal.includes(card) ? h("button", { type: "button", class: "secondary", id: "marriage-plain", "data-focus-key": "marriage-plain",
    onclick: () => { T.marriageAsk = null; play(card); } }, t("trap_marriage_plain", { card: cardShort(card) })) : null,
  h("button", { type: "button", class: "secondary", id: "marriage-cancel", onclick: close }, t("cancel")));
}
/* the choice takes the focus when it opens, so Enter announces */
export function focusMarriageChoice() {
  const b = /** @type {HTMLElement | null} */ (document.getElementById("marriage-announce"));
  if (b) b.focus();
}

/* ------------------------------------------------------------------ stakes */
const STAKE_KEY = "cardplay.stake.";
/* the stake box's first value: the last stake this browser made in this game while it is legal,
   else the smallest legal stake */
export function defaultStake(game, stakes) {
  const lo = Math.min(...stakes);
  const kept = Number(localStorage.getItem(STAKE_KEY + game));
  return stakes.includes(kept) ? kept : lo;
}
/* remembered when a stake is played */
export function rememberStake(game, move) {
  const r = /^stake (\d+)$/.exec(move);
  if (r) localStorage.setItem(STAKE_KEY + game, r[1]);
}

/* ------------------------------------------------------------------ call-outs */
/* "40! ♥" by the trick while a marriage's card leads it; said once to screen readers */
export function marriageCallout(view, seats) {
  const trick = (view.public && view.public.trick) || [];
  const lead = trick.find((x) => x && x.marriage);
  if (!lead || typeof lead.card !== "string") return null;
  const suit = lead.card[1];
  const found = ((view.public && view.public.marriages) || []).filter((m) => m.seat === lead.seat && m.suit === suit);
  const points = found.length ? found[found.length - 1].points : (view.public.trump_suit === suit ? 40 : 20);
  const key = `${view.match ? view.match.deal_number : 1}:${(view.history || []).length}:${lead.seat}:${suit}`;
  const said = lead.seat === T.seat ? t("callout_mine", { points, suit: SUIT_SYMBOL[suit] })
    : t("callout_other", { who: seatName(lead.seat, seats), points, suit: SUIT_SYMBOL[suit] });
  if (T.calloutSaid !== key) { T.calloutSaid = key; announce(said); }
  return h("p", { class: "callout" + (suit === "H" || suit === "D" ? " red" : ""), id: "callout", title: said },
    h("span", { "aria-hidden": "true", text: `${points}! ${SUIT_SYMBOL[suit]}` }),
    h("span", { class: "sr-only", text: said }));
}
