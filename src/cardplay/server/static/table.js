/* cardplay browser UI: the table of a game in play. Seats around, the cards on the table in the
   middle (the trick, the stock and the trump as cards), your hand and your moves below, the end
   of a deal explained. Drawn from the game's declaration; the few field names it draws as
   objects (stock, trick, trump_card, trump_suit, hand_sizes) are the names every game shares
   (docs/new-game.md). */
import { CARD_RE, SUIT_SYMBOL, lang, t } from "./texts.js";
import { T, announce, backImg, cardImg, cardName, cardShort, declOf, fieldText, getJSON, h,
  httpError, levelName, logText, main, moveKind, moveLabel, navigate, playMove, saveSeat,
  seatName, seatValueText, setRenderer, words } from "./common.js";
import { ratingChanges } from "./accounts.js";
import { helpOffered, hintNodes, reviewCell, reviewNodes } from "./coach.js";
import { clockNode, clockNote, forfeitNodes, forfeited } from "./clock.js";
import { newContribution, proofNodes } from "./proof.js";
import { decorateLesson } from "./tutorial.js";
import { backUrl, holdMs, noMotion, prefs } from "./prefs.js";
import { afterDrag, dragCard, pickedByTap, tableTap } from "./touch.js";
import { playForced } from "./forced.js";
import { undoNodes } from "./undo.js";
import { askMarriage, defaultStake, focusMarriageChoice, marriageCallout, marriageChoice, rememberStake } from "./traps.js";
import { bankerNote, bringDealEndIn, dealBreakdown, dealOverTitle, dealTitle, pointsDeclared, recordGroup } from "./results.js";
import { refusalOf } from "./refusals.js";
import { showGameRules } from "./rulebook.js";

/* How long a trick that was just completed stays in the middle when the next lead follows at
   once (a bot's lead): long enough to see both cards; a click or a key skips it. */
const TRICK_HOLD_MS = 1800;
const REPEAT_MS = 350;  // between the moves of a repeated run, so that each can be seen
const SETS_SHOWN = 60;  // sets of cards listed as buttons (beyond them, the picker in the hand)
/* How long the cards of a trick being cleared take to slide to the seat that took them (as in
   style.css's .outgoing animation). */
const OUTGOING_MS = 250;
const reducedMotion = noMotion;  // the device's wish or the person's setting (prefs.js)

/* ------------------------------------------------------------------ moves */
/* The view's legal moves become card clicks, buttons and a stake form. */
function classify(legal) {
  const cardMoves = new Map(); const buttons = []; const stakes = []; const combos = [];
  for (const m of legal) {
    if (CARD_RE.test(m)) cardMoves.set(m, m);
    else if (/^stake \d+$/.test(m)) stakes.push(Number(m.slice(6)));
    else if (m.includes("+")) combos.push(m);
    else buttons.push(m);
  }
  return { cardMoves, buttons, stakes, combos };
}
function moveAria(m) {
  let r;
  if (CARD_RE.test(m)) return cardName(m);
  if ((r = /^([KQ][SHDC])=(20|40)$/.exec(m))) return t("m_marriage", { card: cardName(r[1]), n: r[2] });
  if (m.includes("+")) return m.split("+").map((c) => CARD_RE.test(c.split("=")[0]) ? cardName(c.split("=")[0]) + (c.includes("=") ? " = " + c.split("=")[1] : "") : c).join(", ");
  return moveLabel(m);
}
function irreversible(m) {
  const kind = T.state ? moveKind(T.state.game, m) : null;
  return Boolean(kind && kind.confirm);
}
/* irreversible moves ask first; with the confirm_play setting, so does every card played */
function needsConfirm(m) {
  return irreversible(m) || (prefs.confirm_play && m.split("+").every((x) => CARD_RE.test(x.split("=")[0])));
}
/* A move as the player asked for it: irreversible ones (closing the talon) ask first. */
function askMove(m) {
  if (needsConfirm(m) && T.confirm !== m) { T.confirm = m; renderTable(T.state); return; }
  T.confirm = null;
  const kind = T.state ? moveKind(T.state.game, m) : null;
  T.repeat = kind && kind.repeat ? m : null;
  playMove(m);
}
/* A move the game marks as repeated (drawing until a card fits), once chosen, is played again
   while it stays the only legal move: one click for the whole run. */
function repeatIfForced(s, myTurn) {
  const legal = s.view.legal_moves || [];
  if (!myTurn || legal.length !== 1 || legal[0] !== T.repeat) { if (!myTurn || legal.length > 1) T.repeat = null; return null; }
  const version = s.version;
  setTimeout(() => { if (T.state && T.state.version === version && T.repeat === legal[0]) playMove(legal[0]); }, REPEAT_MS);
  return t("repeating", { move: moveLabel(legal[0]) });
}
/* The legal move made of exactly these cards, whatever their order (a King's value, when the
   rules give it one, is part of the move: one legal move per set of cards). */
function moveOfCards(legal, cards) {
  const key = [...cards].sort().join("+");
  return legal.find((m) => m.split("+").every((y) => CARD_RE.test(y.split("=")[0])) && m.split("+").map((y) => y.split("=")[0]).sort().join("+") === key) || null;
}

/* Why a card cannot be played: the cards that can, and their suit when they share one. The
   browser holds no rules, so it says what the legal moves show, not the rule behind them. */
function illegalReason(card, legalCards, hand) {
  if (!legalCards.length) return t("no_card_now");
  const suits = new Set(legalCards.map((c) => c[1]));
  const list = legalCards.map(cardShort).join(" ");
  // "only ♦" only where the suit is the reason: every ♦ in the hand can be played (in Twenty
  // an A♦ alone fits move 1 while the 5♦ beside it does not, and no suit is asked for)
  const suitIsReason = suits.size === 1 && hand.filter((c) => c[1] === [...suits][0]).every((c) => legalCards.includes(c));
  if (suitIsReason && !suits.has(card[1])) return t("must_suit", { suit: SUIT_SYMBOL[[...suits][0]], cards: list });
  return t("playable_now", { card: cardShort(card), cards: list });
}

/* ------------------------------------------------------------------ cards on the table */
function cardRow(cards, mini, limit) {
  const shown = limit && cards.length > limit ? cards.slice(cards.length - limit) : cards;
  return h("div", { class: "cards" }, shown.map((c) => cardImg(c, mini)),
    shown.length < cards.length ? h("span", { text: `(+${cards.length - shown.length})` }) : null);
}
function seatCards(list, seats, mini, fresh) {
  // a card just played comes in from where its player sits: up from the hand, down from the others
  const motion = (x) => " enter " + (x.seat === T.seat ? "from-hand" : "from-seat");
  return h("div", { class: "cards" }, list.map((x, i) => h("div", { class: "played" + (fresh !== undefined && i >= fresh ? motion(x) : "") },
    typeof x.card === "string" && CARD_RE.test(x.card) ? cardImg(x.card, mini) : h("span", { text: String(x.card) }),
    h("span", { text: seatName(x.seat, seats) }))));
}
function backs(count, label) {
  const shown = Math.min(count, 8);
  return h("div", { class: "backs", role: "img", "aria-label": label },
    Array.from({ length: shown }, () => h("img", { class: "back", src: backUrl(), alt: "", width: 26, height: 36 })),
    count > shown ? h("span", { class: "more", "aria-hidden": "true", text: `+${count - shown}` }) : null);
}

/* The last completed trick: a game's `last_trick` record or the last of its `tricks`. */
function lastTrick(view) {
  const p = view.public || {};
  if (p.last_trick && p.last_trick.cards) return { cards: p.last_trick.cards, winner: p.last_trick.winner };
  if (Array.isArray(p.tricks) && p.tricks.length) {
    const last = p.tricks[p.tricks.length - 1];
    const n = view.players;
    const cards = (last.cards || []).map((c, i) => (typeof c === "object" ? c : { seat: last.leader !== undefined ? (last.leader + i) % n : i, card: c }));
    return { cards, winner: last.winner };
  }
  return null;
}
function dealNumber(view) { return view.match ? view.match.deal_number : 1; }
/* A trick completed between two states stays in the middle a moment if the next one began. */
function noteCompletedTrick(old, view) {
  if (!old || !old.view || old.view.game !== view.game) return;
  const before = lastTrick(old.view); const now = lastTrick(view);
  if (!now || JSON.stringify(before) === JSON.stringify(now)) return;
  T.hold = { trick: now, until: Date.now() + holdMs(TRICK_HOLD_MS), deal: dealNumber(view) };
  clearTimeout(T.holdTimer);
  T.holdTimer = setTimeout(() => { T.hold = null; if (T.state) renderTable(T.state); }, holdMs(TRICK_HOLD_MS));
}
function skipHold() {
  if (!T.hold) return;
  T.hold = null; clearTimeout(T.holdTimer); renderTable(T.state);
}

/* A completed trick that was on the table and is no longer (the next lead came, or its pause was
   skipped or ran out) leaves towards the seat that took it: its cards are drawn once more where
   they were, over the trick area, sliding to that seat's box and fading (OUTGOING_MS); not at
   all for people who ask for less motion. A redraw meanwhile draws them again where the slide
   has got to. Called while the page still shows the trick, so that its place can be measured. */
function noteTrickOnTable(shown, mini, view) {
  const key = shown ? `${T.id}:${dealNumber(view)}:${JSON.stringify(shown)}` : null;
  const was = T.onTable;
  T.onTable = shown ? { key, trick: shown, mini } : null;
  if (!was || was.key === key || !was.key.startsWith(T.id + ":")) return;
  if (was.trick.winner === undefined || was.trick.winner === null || reducedMotion()) return;
  const area = document.getElementById("trick"); const cards = area && area.querySelector(".taken-cards");
  const a = area ? area.getBoundingClientRect() : null; const c = cards ? cards.getBoundingClientRect() : null;
  T.outgoing = { trick: was.trick, mini: was.mini, start: Date.now(),
    x: a && c ? Math.round(c.left - a.left) : 8, y: a && c ? Math.round(c.top - a.top) : 22 };
  clearTimeout(T.outgoingTimer);
  T.outgoingTimer = setTimeout(() => {
    T.outgoing = null;
    const el = document.getElementById("trick-outgoing");
    if (el) el.remove();
  }, OUTGOING_MS);
}
function outgoingCards() {
  const o = T.outgoing;
  const elapsed = o ? Date.now() - o.start : OUTGOING_MS;
  if (elapsed >= OUTGOING_MS) return null;
  return h("div", { class: "outgoing " + (o.trick.winner === T.seat ? "to-hand" : "to-seat"), id: "trick-outgoing",
    "aria-hidden": "true", "data-winner": String(o.trick.winner), "data-start": String(o.start),
    style: `left: ${o.x}px; top: ${o.y}px; animation-delay: -${elapsed}ms` },
  h("div", { class: "cards" }, o.trick.cards.map((x) => typeof x.card === "string" && CARD_RE.test(x.card) ? cardImg(x.card, o.mini) : null)));
}
/* Aim the outgoing cards at the box of the seat that took them, once both are on the page. */
function aimOutgoing() {
  const el = /** @type {HTMLElement | null} */ (document.getElementById("trick-outgoing"));
  const to = el && document.querySelector(`.seat[data-seat="${el.dataset.winner}"]`);
  if (!el || !to) return;
  const a = el.getBoundingClientRect(); const b = to.getBoundingClientRect();
  el.style.setProperty("--dx", `${Math.round(b.left + b.width / 2 - (a.left + a.width / 2))}px`);
  el.style.setProperty("--dy", `${Math.round(b.top + b.height / 2 - (a.top + a.height / 2))}px`);
}

/* The parts of the table above the hand never shrink during a deal (until the window is
   resized): the middle grows and shrinks with the game (a line of facts appears, a trick is
   held beside the next lead), the other seats with what is known of their hands (a card shown,
   the last card played), and the hand below would move up and down with them. */
const STEADY = [".board > .seats", ".centre", ".mine-row"];
function steadyTable(m, view) {
  const at = `${T.id}:${dealNumber(view)}`;
  const was = T.steady && T.steady.at === at ? T.steady.heights : {};
  const heights = {};
  for (const sel of STEADY) {
    const el = /** @type {HTMLElement | null} */ (m.querySelector(sel));
    if (!el) continue;
    if (was[sel]) el.style.minHeight = was[sel] + "px";
    heights[sel] = Math.max(el.offsetHeight, was[sel] || 0);
  }
  T.steady = { at, heights };
}

/* The trick area: the trick in play; else the one just completed, with who took it, until the
   next lead. It keeps its size, so the hand below never moves: a trick held beside the next
   lead is drawn small in the same row. */
function trickArea(f, view, seats) {
  const pub = view.public || {};
  const current = pub[f.name] || [];
  const done = lastTrick(view);
  // a deal's last trick is not shown beside the first lead of the next (the notice tells it)
  const held = T.hold && Date.now() < T.hold.until && T.hold.deal === dealNumber(view) ? T.hold.trick : null;
  const taken = (tr) => tr.winner !== undefined && tr.winner !== null ? h("p", { class: "caption", id: "trick-caption", text: t("taken_by", { who: seatName(tr.winner, seats) }) }) : null;
  // the completed trick on the table now: alone, or small beside the next lead while it is held
  noteTrickOnTable(current.length ? held : held || done, Boolean(current.length), view);
  const kids = [h("h3", { text: words(f.label) }), outgoingCards(), marriageCallout(view, seats)];
  let cls = "trick";
  if (!current.length && (held || done)) {
    // the trick just taken stays until the next lead
    cls += " completed";
    kids.push(h("div", { class: "taken-cards" }, seatCards((held || done).cards, seats, false)), taken(held || done));
  } else if (!current.length) {
    kids.push(h("p", { class: "muted-light", text: t("no_cards_yet") }));
  } else {
    // the next lead came at once: the trick just taken shows small beside it for a moment
    const before = (T.prevPublic && Array.isArray(T.prevPublic[f.name])) ? T.prevPublic[f.name].length : current.length;
    kids.push(h("div", { class: "trick-row" }, seatCards(current, seats, false, before < current.length ? before : current.length),
      held ? h("div", { class: "just-taken" }, h("div", { class: "taken-cards" }, seatCards(held.cards, seats, true)), taken(held)) : null));
  }
  return h("div", { class: "pubgroup " + cls, "data-key": f.name, id: "trick", onclick: held ? skipHold : null }, kids);
}

/* The public state, field by field as the game declares it: the stock, the trump and the trick
   as objects, per-seat fields in the seat boxes, the rest as labelled values; records of the
   whole deal so far (declared detail) stay out of the way. */
const BIG_NUMBERS = new Set(["bank", "count"]);  // numbers that are the heart of a game's table

function renderPublic(view, seats, perSeat) {
  const pub = view.public || {};
  const piles = []; const centre = []; const facts = [];
  const group = (f, ...kids) => h("div", { class: "pubgroup", "data-key": f.name }, h("h3", { text: words(f.label) }), ...kids);
  for (const f of declOf(view.game).public) {
    const v = pub[f.name];
    if (f.detail || f.name === "last_trick") continue;
    const subs = (f.fields || []).map((x) => x.name);
    if (f.name === "trick" && f.kind === "records") { centre.unshift(trickArea(f, view, seats)); continue; }
    if (v === null || v === undefined || (Array.isArray(v) && !v.length)) continue;
    if (f.kind === "per_seat" || f.kind === "per_seat_cards" || f.kind === "per_seat_choice") {
      perSeat.push([f, v]);
    } else if (f.kind === "records" && subs.includes("seat") && subs.includes("card")) {
      centre.push(group(f, seatCards(v, seats, false)));
    } else if (f.kind === "records" && subs.includes("seat") && subs.includes("cards")) {
      centre.push(group(f, h("div", { class: "cards" }, v.slice(-4).map((p) => h("div", { class: "played" },
        h("div", { class: "cards" }, (p.cards || []).map((c) => cardImg(c, true))), h("span", { text: seatName(p.seat, seats) }))))));
    } else if (f.kind === "cards") {
      centre.push(group(f, cardRow(v, v.length > 8, 12)));
    } else if (f.kind === "card") {
      (f.name === "trump_card" ? piles : centre).push(group(f, cardImg(v, false)));
    } else if (f.name === "stock" && f.kind === "number") {
      piles.unshift(group(f, h("div", { class: "stack" }, backImg(false, t("cards_left", { n: v })),
        h("span", { class: "count", "aria-hidden": "true", text: String(v) }))));
    } else if (f.name === "trump_suit" && f.kind === "suit") {
      piles.push(group(f, h("div", { class: "bigsuit" + ("HD".includes(v) ? " red" : ""), role: "img", "aria-label": "SHDC".includes(v) ? t("suit_" + v) : v, text: SUIT_SYMBOL[v] || v })));
    } else if (f.kind === "number" && BIG_NUMBERS.has(f.name)) {
      centre.push(group(f, h("div", { class: "bignum", text: String(v) })));
    } else if (f.kind === "record" || f.kind === "records") {
      centre.push(recordGroup(f, v, seats));  // a small table, never "Key: value; ..."
    } else {
      facts.push([f, v]);
    }
  }
  const out = [];
  if (piles.length) out.push(h("div", { class: "piles" }, piles));
  out.push(...centre);
  if (facts.length) {
    // each fact a pair of its own, so that on a phone the pairs can flow on one line
    out.push(h("div", { class: "pubgroup facts", "data-key": "facts" }, h("dl", { class: "kv" },
      facts.map(([f, v]) => h("div", { class: "fact" }, h("dt", { text: words(f.label), title: f.description ? words(f.description) : null }), h("dd", { text: fieldText(f, v, seats) }))))));
  }
  return out;
}

/* ------------------------------------------------------------------ seats */
function seatBox(i, view, s, perSeat) {
  const seats = s.seats; const info = seats[i] || {}; const me = T.seat;
  const badges = [];
  if (view.dealer === i) badges.push(h("span", { class: "badge", text: t("dealer") }));
  if (view.to_move === i && !s.is_over) badges.push(h("span", { class: "badge turn", text: t("to_move") }));
  if (info.kind === "human" && info.claimed && !info.connected) badges.push(h("span", { class: "badge away", text: info.bot_playing ? t("bot_holds") : t("away") }));
  const who = info.kind === "bot" ? t("bot_level", { level: levelName(info.level) }) : i === me ? null : t("person");
  const lines = [];
  if (view.match) lines.push([t("match_total"), String(view.match.scores[i])]);
  if (view.points && view.points.some((x) => x) && !pointsDeclared(view)) lines.push([t("points"), String(view.points[i])]);
  let count = null; const known = [];
  for (const [f, v] of perSeat) {
    if (f.name === "hand_sizes") { count = v[i]; continue; }
    if (f.kind === "per_seat_cards") { if (v[i] && v[i].length) known.push([f, v[i]]); continue; }
    const x = seatValueText(f, v[i]);
    if (x !== null) lines.push([words(f.label), x]);
  }
  return h("div", { class: "seat" + (view.to_move === i && !s.is_over ? " turn" : "") + (i === me ? " mine" : ""), role: "listitem", "data-seat": i },
    h("div", { class: "name" }, h("span", { class: "who", text: seatName(i, seats) }),
      who ? h("span", { class: "sub", text: who }) : null, badges, clockNode(s, i)),
    count !== null && i !== me ? backs(count, t("cards_in_hand", { n: count })) : null,
    known.map(([f, cards]) => h("div", { class: "known", title: words(f.label) }, h("span", { class: "sr-only", text: words(f.label) }), cardRow(cards, true))),
    lines.length ? h("dl", { class: "seatfacts" }, lines.map(([k, v]) => h("div", {}, h("dt", { text: k }), h("dd", { text: v })))) : null);
}

function scoreSheet(view, seats, reviews) {
  const m = view.match;
  if (!m) return null;
  const n = view.players;
  const head = h("tr", {}, h("th", { scope: "col", text: t("deal_col") }), Array.from({ length: n }, (_, i) => h("th", { scope: "col", text: seatName(i, seats) })),
    reviews && helpOffered(T.state) ? h("th", { scope: "col", text: t("review_col") }) : null);
  const rows = (m.results || []).map((r, d) => h("tr", {}, h("td", { text: String(d + 1) }), (r || []).map((x) => h("td", { text: x > 0 ? "+" + x : String(x) })),
    reviews ? reviewCell(T.state, d + 1) : null));
  const total = h("tr", {}, h("th", { scope: "row", text: t("total") }), (m.scores || []).map((x) => h("th", { text: String(x) })));
  return h("table", { class: "sheet" }, h("caption", { class: "sr-only", text: t("score_sheet") }), h("thead", {}, head), h("tbody", {}, rows, total));
}

/* ------------------------------------------------------------------ the whole table */
/* Before the cards are dealt (a person's seat still to come): who is here, and the invite. */
function renderWaiting(s) {
  const title = T.welcome ? ((T.welcome.title && (T.welcome.title[lang] || T.welcome.title.en)) || s.game) : s.game;
  const nodes = [h("div", { class: "table-head" }, h("h1", { id: "table-title" }, title),
    T.welcome && T.welcome.commitment ? h("span", { class: "commitment", id: "commitment", title: `${T.welcome.commitment} — ${t("commitment_hint")}`, text: t("commitment", { h: T.welcome.commitment.slice(0, 12) }) }) : null),
  h("p", { id: "waiting", role: "status", text: t("waiting_players") }),
  T.welcome && T.welcome.hello_wait && s.seats.every((x) => x.kind !== "human" || x.claimed) ? h("p", { id: "waiting-absent", class: "muted", text: t("absent_wait", { seconds: Math.round(T.welcome.hello_wait) }) }) : null,
  h("ul", { class: "panel" }, s.seats.map((x, i) => h("li", { "data-seat": i }, seatName(i, s.seats), clockNode(s, i))))];
  if (s.seats.some((x) => x.kind === "human" && !x.claimed)) {
    const url = `${location.origin}/join/${T.id}`;
    const input = h("input", { type: "text", readonly: true, value: url, id: "invite-url", "aria-label": t("invite") });
    nodes.push(h("section", { class: "panel invite" }, h("p", { text: t("invite") }), input,
      h("button", { type: "button", class: "secondary", onclick: async () => { input.select(); try { await navigator.clipboard.writeText(url); } catch (e) { document.execCommand && document.execCommand("copy"); } announce(t("copied")); } }, t("copy"))));
  }
  main().replaceChildren(...nodes);
}

export function renderTable(old) {
  const s = T.state; if (!s) return;
  if (s.waiting || !s.view) { renderWaiting(s); return; }
  if (old && !old.view) old = null;  // the first dealt state: nothing to animate from
  const view = s.view; const seats = s.seats; const n = view.players;
  const me = T.seat; const myTurn = me !== null && view.to_move === me && !s.is_over;
  if (old && old !== s) noteCompletedTrick(old, view);
  if (!myTurn) T.confirm = null;
  const repeating = repeatIfForced(s, myTurn) || playForced(s, myTurn);
  const active = /** @type {HTMLElement | null} */ (document.activeElement);
  const focused = active && active.dataset ? active.dataset.focusKey : null;
  const logWasAtEnd = (() => { const l = document.querySelector(".log"); return !l || l.scrollTop + l.clientHeight >= l.scrollHeight - 4; })();
  const m = main();
  const title = T.welcome ? ((T.welcome.title && (T.welcome.title[lang] || T.welcome.title.en)) || s.game) : s.game;

  const headLine = h("div", { class: "table-head" },
    h("h1", { id: "table-title" }, title),
    h("span", { class: "muted", text: dealTitle(s.game, view.match ? view.match.deal_number : 1) + (me !== null ? ` · ${t("your_seat", { n: me + 1 })}` : ` · ${t("spectating")}`) }),
    h("button", { type: "button", class: "secondary small", id: "rules-button", onclick: () => showRules(s.game) }, t("rules")),
    T.welcome && T.welcome.commitment ? h("span", { class: "commitment", id: "commitment", title: `${T.welcome.commitment} — ${t("commitment_hint")}`, text: t("commitment", { h: T.welcome.commitment.slice(0, 12) }) }) : null);

  const perSeat = [];
  const pubNodes = renderPublic(view, seats, perSeat);
  const order = me === null ? Array.from({ length: n }, (_, i) => i) : Array.from({ length: n - 1 }, (_, k) => (me + 1 + k) % n);
  const others = h("div", { class: "seats", role: "list", "aria-label": t("seats") }, order.map((i) => seatBox(i, view, s, perSeat)));
  const mine = me !== null ? h("div", { class: "seats mine-row", role: "list", "aria-label": t("you") }, seatBox(me, view, s, perSeat)) : null;

  // hand and actions
  const { cardMoves, buttons, stakes, combos } = classify(myTurn ? view.legal_moves : []);
  // a card whose only legal plays carry a declaration (A♠=♥) points at those buttons
  const declared = new Map();
  for (const mv of buttons) {
    const r = /^([2-9TJQKA][SHDC])=/.exec(mv);
    if (r) declared.set(r[1], [...(declared.get(r[1]) || []), mv]);
  }
  if (T.tapped && !cardMoves.has(T.tapped)) T.tapped = null;
  const choosing = cardMoves.size > 0 || combos.length > 0;
  const legalCards = (view.hand || []).filter((c) => cardMoves.has(c) || declared.has(c) || combos.some((x) => x.split("+").some((y) => y.split("=")[0] === c)));
  // a plain card played by a second tap or a drag asks about its marriage as a click does
  const playCard = (/** @type {string} */ c) => {
    if (askMarriage(c, view.legal_moves)) { renderTable(T.state); focusMarriageChoice(); } else askMove(c);
  };
  const handNodes = (view.hand || []).map((c, idx) => {
    const plain = cardMoves.has(c);
    const decl = !plain && declared.has(c) ? declared.get(c) : null;
    const legal = plain || decl !== null;
    const inCombo = combos.some((x) => x.split("+").some((y) => y.split("=")[0] === c));
    const selectable = legal || inCombo;
    // a card the rules forbid now says why at a click, even when no card can be played
    const refused = selectable ? null : refusalOf(c);
    const explains = choosing || refused !== null;
    // a card that can be part of a set is picked, and the picked cards are played together by
    // the Play button; while cards are picked, any other is picked too (never played by
    // surprise); a card that only plays alone still plays at a click
    const click = () => {
      if (afterDrag()) return;
      if (!selectable) { T.status = refused || illegalReason(c, legalCards, view.hand || []); T.statusBad = true; renderTable(T.state); announce(T.status); return; }
      if (inCombo || T.selected.size) toggleSelect(c);
      else if (plain && pickedByTap(c)) renderTable(T.state);  // a first tap picks (touch.js)
      else if (plain) playCard(c);
      else if (decl && decl.length === 1) askMove(decl[0]);
      else if (decl) { const b = /** @type {HTMLElement | null} */ (document.querySelector(`[data-move="${CSS.escape(decl[0])}"]`)); if (b) b.focus(); }
    };
    const b = h("button", { type: "button", class: "cardbtn" + (selectable ? " legal" : explains ? " illegal" : "") + (T.selected.has(c) ? " selected" : "") + (T.tapped === c ? " tapped" : ""),
      "data-card": c, "data-move": plain ? c : null, "data-focus-key": "card-" + idx, disabled: !explains || T.pending,
      "aria-disabled": explains && !selectable ? "true" : null,
      "aria-label": cardName(c), "aria-pressed": inCombo || T.selected.has(c) ? String(T.selected.has(c)) : null,
      onclick: click, onpointerdown: plain ? (e) => dragCard(e, c, playCard) : null }, cardImg(c, false));
    if (old && old.view && !(old.view.hand || []).includes(c)) b.classList.add("enter");
    return b;
  });
  const hand = h("div", { class: "hand" + (choosing ? " choosing" : ""), role: "group", "aria-label": me !== null ? t("hand") : t("hand_of", { who: "—" }), onkeydown: handKeys }, handNodes);

  const actionNodes = [];
  if (T.confirm && view.legal_moves.includes(T.confirm)) {
    actionNodes.push(h("div", { class: "confirm", role: "alertdialog", "aria-labelledby": "confirm-q" },
      h("span", { id: "confirm-q", text: t(irreversible(T.confirm) ? "confirm_move" : "settings_confirm_play", { move: moveLabel(T.confirm) }) }),
      h("button", { type: "button", id: "confirm-yes", "data-focus-key": "confirm-yes", onclick: () => askMove(T.confirm) }, t("confirm_yes")),
      h("button", { type: "button", class: "secondary", id: "confirm-no", onclick: () => { T.confirm = null; renderTable(T.state); } }, t("cancel"))));
  }
  const marriage = myTurn ? marriageChoice(view.legal_moves, askMove, () => renderTable(T.state)) : null;
  if (marriage) actionNodes.unshift(marriage);
  for (const mv of buttons) actionNodes.push(h("button", { type: "button", "data-move": mv, "data-focus-key": "mv-" + mv, disabled: T.pending, "aria-label": moveAria(mv), onclick: () => askMove(mv) }, moveLabel(mv)));
  if (combos.length) {
    // the picked cards: the one legal move made of exactly them (a King's value comes with it)
    if (T.selected.size) {
      const match = moveOfCards(view.legal_moves, [...T.selected]);
      actionNodes.unshift(h("button", { type: "button", id: "play-selected", "data-focus-key": "play-selected", "data-move": match || null, disabled: !match || T.pending,
        "aria-label": match ? t("play_set", { cards: moveAria(match) }) : null, onclick: () => { if (match) askMove(match); } },
      !match ? t("play_selected") : (moveKind(s.game, match) || { name: "card" }).name === "card" ? t("play_set", { cards: moveLabel(match) }) : moveLabel(match)),
      h("button", { type: "button", class: "secondary", id: "clear-selection", "data-focus-key": "clear-selection", onclick: () => { T.selected = new Set(); renderTable(T.state); } }, t("clear_selection")),
      match ? null : h("span", { class: "set-note", id: "set-note", text: t("set_not_legal") }));
    }
    // every set, folded away: a list of them all can be long (the picker reaches each one)
    const shown = combos.slice(0, SETS_SHOWN);
    actionNodes.push(h("details", { class: "sets", id: "sets", open: T.shownSets,
      ontoggle: (e) => { T.shownSets = /** @type {HTMLDetailsElement} */ (e.target).open; } },
    h("summary", { text: t("sets_n", { n: combos.length }) }),
    h("div", { class: "sets-list" }, shown.map((mv) => h("button", { type: "button", class: "secondary", "data-move": mv, "data-focus-key": "mv-" + mv, disabled: T.pending, "aria-label": moveAria(mv), onclick: () => askMove(mv) }, moveLabel(mv)))),
    combos.length > shown.length ? h("p", { class: "muted-light", text: t("sets_more", { n: combos.length - shown.length }) }) : null));
  }
  if (stakes.length) {
    const lo = Math.min(...stakes), hi = Math.max(...stakes);
    const input = h("input", { type: "number", id: "stake-amount", min: lo, max: hi, step: 1, "aria-label": t("stake_amount"), "data-focus-key": "stake-input" });
    input.value = String(defaultStake(s.game, stakes));
    const stake = (v) => { rememberStake(s.game, "stake " + v); playMove("stake " + v); };
    const go = () => { const v = Number(input.value); if (stakes.includes(v)) stake(v); else { T.status = t("stake_range", { lo, hi }); T.statusBad = true; renderTable(T.state); } };
    input.addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); go(); } });
    const quick = [...new Set([lo, Math.round((lo + hi) / 2), hi])].filter((v) => stakes.includes(v));
    actionNodes.push(h("div", { class: "stake" }, h("label", { for: "stake-amount", text: t("stake") }), input,
      h("button", { type: "button", "data-focus-key": "stake-go", disabled: T.pending, onclick: go }, t("stake")),
      quick.map((v) => h("button", { type: "button", class: "secondary", "data-move": "stake " + v, "data-focus-key": "stake-" + v, disabled: T.pending, onclick: () => stake(v) }, String(v)))));
  }
  actionNodes.push(...undoNodes(s));
  if (myTurn) actionNodes.push(...hintNodes(s));
  const status = h("p", { class: "status" + (T.statusBad ? " bad" : ""), id: "status", role: "status" },
    T.status || repeating || (s.is_over ? "" : myTurn ? t("your_turn") + (combos.length && !T.selected.size ? " " + t("pick_help") : "") : me === null ? t("spectating") : bankerNote(s) || t("waiting_for", { who: seatName(view.to_move, seats) })));

  const board = h("section", { class: "board", "aria-labelledby": "table-title", "data-version": s.version,
    "data-deal": view.match ? view.match.deal_number : 1, "data-over": s.is_over ? "1" : "0", "data-my-turn": myTurn ? "1" : "0" }, others,
    h("div", { class: "centre", "aria-label": t("table_cards"), onclick: () => tableTap(playCard) }, pubNodes),
    me !== null ? h("div", { class: "hand-area" }, mine, h("h2", { class: "sr-only", text: t("hand") }), hand,
      h("div", { class: "actions", role: "group", "aria-label": t("actions") }, actionNodes), status) : status);

  // the finished deal (until dismissed), the end of the match
  const notices = [clockNote()].filter((x) => x);
  const prev = T.previous;
  const prevNumber = view.match ? view.match.results.length : 0;
  if (prev && !s.is_over && T.seenPrevious !== prevNumber) {
    notices.push(h("section", { class: "notice", "aria-labelledby": "deal-over-h", id: "deal-over" },
      h("h2", { id: "deal-over-h", text: dealOverTitle(s.game, prevNumber) }),
      dealBreakdown(prev, seats),
      ...reviewNodes(s, prevNumber, prev),
      h("button", { type: "button", class: "secondary", id: "dismiss-deal", onclick: () => { T.seenPrevious = prevNumber; renderTable(T.state); } }, t("continue"))));
  }
  if (s.is_over) {
    const daily = Boolean(T.welcome && T.welcome.seed_source === "daily");
    const w = s.winners || [];
    let big = w.length ? t("winners", { who: w.map((i) => seatName(i, seats)).join(", ") }) : t("no_winner");
    if (me !== null && w.length) big = w.includes(me) ? t("you_win") : t("you_lose");
    if (me !== null && forfeited(s, me)) big = t("you_lose");  // a forfeit is a loss, whoever won
    notices.push(h("section", { class: "endscreen", id: "end-screen", "aria-labelledby": "end-h" },
      h("h2", { id: "end-h", text: t("match_over") }), h("p", { class: "big", text: big }), ...forfeitNodes(s),
      ratingChanges(s, (i) => (s.seats[i] && s.seats[i].name) || seatName(i, seats)),
      h("p", { text: `${t("scores")}: ` + view.match.scores.map((x, i) => `${seatName(i, seats)} ${x}`).join(" · ") }),
      scoreSheet(view, seats),
      prev ? h("details", { class: "last-deal", open: Boolean(T.reviews[prevNumber]) }, h("summary", { text: t("last_deal") }), dealBreakdown(prev, seats), ...reviewNodes(s, prevNumber, prev)) : null,
      // a daily attempt's record holds the day's seed: it is given (and checked) once the day is over
      h("p", { class: "row", style: "justify-content:center;margin-top:12px" },
        daily ? null : h("a", { href: `/api/tables/${T.id}/record`, download: `cardplay-${s.game}-${T.id}.json`, id: "download", text: t("download") }),
        me !== null && helpOffered(s) && !daily ? h("button", { type: "button", id: "rematch", onclick: () => rematch(s) }, t("rematch")) : null,
        h("a", { href: `/?game=${s.game}`, "data-link": "1", text: t("play_again") }),
        h("a", { href: "/", "data-link": "1", text: t("back_lobby") })),
      daily ? null : proofNodes()));
  }

  // side: last trick, score sheet, moves, invite, keyboard help
  const side = [];
  const lt = lastTrick(view) || (prev && lastTrick(prev));
  if (lt) {
    side.push(h("details", { class: "panel", id: "last-trick", open: T.shownTrick },
      h("summary", { text: t("last_trick"), onclick: (e) => { e.preventDefault(); T.shownTrick = !T.shownTrick; renderTable(T.state); } }),
      seatCards(lt.cards, seats, true), lt.winner !== undefined && lt.winner !== null ? h("p", { text: t("taken_by", { who: seatName(lt.winner, seats) }) }) : null));
  }
  if (view.match) {
    side.push(h("details", { class: "panel", id: "score-sheet", open: T.shownSheet },
      h("summary", { text: t("score_sheet"), onclick: (e) => { e.preventDefault(); T.shownSheet = !T.shownSheet; renderTable(T.state); } }),
      scoreSheet(view, seats, true), T.reviewShown ? reviewNodes(s, T.reviewShown, null) : null));
  }
  const openSeats = seats.filter((x) => x.kind === "human" && !x.claimed);
  if (openSeats.length && !s.is_over) {
    const url = `${location.origin}/join/${T.id}`;
    const input = h("input", { type: "text", readonly: true, value: url, id: "invite-url", "aria-label": t("invite") });
    side.push(h("section", { class: "panel invite" }, h("p", { text: t("invite") }), input,
      h("button", { type: "button", class: "secondary", onclick: async () => { input.select(); try { await navigator.clipboard.writeText(url); } catch (e) { document.execCommand && document.execCommand("copy"); } announce(t("copied")); } }, t("copy"))));
  }
  // a run of the same move by the same seat (drawing until a card fits) is one line: "Draw ×14"
  const runs = [];
  for (const [seat, mv] of view.history || []) {
    const last = runs[runs.length - 1];
    if (last && last.seat === seat && last.mv === mv && !CARD_RE.test(mv)) last.n += 1;
    else runs.push({ seat, mv, n: 1 });
  }
  side.push(h("section", { class: "panel", "aria-labelledby": "log-h" }, h("h2", { id: "log-h", text: t("moves_log") }),
    runs.length ? h("ol", { class: "log", id: "log", tabindex: "0", "aria-labelledby": "log-h" }, runs.map((r) => h("li", { text: `${seatName(r.seat, seats)}: ${logText(r.mv)}` + (r.n > 1 ? ` ×${r.n}` : "") })))
      : h("p", { class: "muted", text: t("no_moves_yet") })));
  if (me !== null) side.push(h("p", { class: "kbd-help muted", text: t("keyboard_help") }));

  m.replaceChildren(headLine, ...notices, h("div", { class: "layout" }, board, h("aside", { class: "side" }, side)));
  decorateLesson(m);  // a lesson's table: its step, highlighted
  T.prevPublic = view.public;
  steadyTable(m, view);
  aimOutgoing();
  bringDealEndIn();
  const log = m.querySelector(".log");
  if (log && logWasAtEnd) log.scrollTop = log.scrollHeight;
  // keep keyboard focus where it was
  if (focused) {
    const again = /** @type {HTMLElement | null} */ (m.querySelector(`[data-focus-key="${CSS.escape(focused)}"]:not([disabled])`) || m.querySelector(".hand button:not([disabled])"));
    if (again) again.focus();
  } else if (T.confirm) {
    const yes = /** @type {HTMLElement | null} */ (m.querySelector("#confirm-yes"));
    if (yes) yes.focus();
  }
}

setRenderer(renderTable);
// a new width lays the table out anew: it may need less height, or more
window.addEventListener("resize", () => { T.steady = null; });

/* a new table like the one just finished: the same game, options and bots, the person in the same
   seat (a game against bots alone; with other people the lobby's invite is the way) */
async function rematch(s) {
  const seats = s.seats.map((x) => x.kind === "bot" ? { kind: "bot", level: x.level } : { kind: "human" });
  const mine = seats.splice(T.seat, 1)[0];
  seats.unshift(mine);
  try {
    const contribution = newContribution();
    const r = await getJSON("/api/tables", { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ game: s.game, options: s.view.options, seats, name: localStorage.getItem("cardplay.name") || "", contribution }) });
    saveSeat(r.table, r.token, r.seat, contribution);
    navigate(r.url);
  } catch (e) { T.status = httpError(e, "create_error"); T.statusBad = true; renderTable(T.state); }
}

function toggleSelect(c) {
  if (T.selected.has(c)) T.selected.delete(c); else T.selected.add(c);
  renderTable(T.state);
}

function handKeys(e) {
  if (e.key !== "ArrowLeft" && e.key !== "ArrowRight") return;
  const btns = /** @type {HTMLButtonElement[]} */ ([...document.querySelectorAll(".hand button")]);
  const i = btns.indexOf(/** @type {HTMLButtonElement} */ (document.activeElement));
  if (i < 0) return;
  e.preventDefault();
  const step = e.key === "ArrowRight" ? 1 : -1;
  for (let j = i + step; j >= 0 && j < btns.length; j += step) {
    if (!btns[j].disabled && btns[j].classList.contains("legal")) { btns[j].focus(); return; }
  }
}

/* ------------------------------------------------------------------ rules */
/* The rules of the game as this table plays them (rulebook.js), with the table's options. */
function showRules(game) { showGameRules(game, (T.state && T.state.view.options) || {}, "rules-button"); }

document.addEventListener("keydown", (e) => {
  if (!T.state || !T.state.view || e.altKey || e.ctrlKey || e.metaKey) return;  // no view: not dealt yet
  const tag = (e.target && /** @type {Element} */ (e.target).tagName) || "";
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || document.getElementById("rules-dialog")) return;
  if (T.hold) skipHold();
  if (/^[1-9]$/.test(e.key)) {
    // digits play the n-th card of the hand; special moves (close, exchange) never by a digit
    const c = (T.state.view.hand || [])[Number(e.key) - 1];
    const legal = T.state.view.legal_moves || [];
    if (c && T.seat !== null && T.state.view.to_move === T.seat && legal.includes(c)) {
      e.preventDefault();
      if (askMarriage(c, legal)) { renderTable(T.state); focusMarriageChoice(); } else askMove(c);
    }
  } else if (e.key === "l" || e.key === "L" || e.key === "д" || e.key === "Д") {
    T.shownTrick = !T.shownTrick; renderTable(T.state);
  } else if (e.key === "s" || e.key === "S" || e.key === "ы" || e.key === "Ы") {
    T.shownSheet = !T.shownSheet; renderTable(T.state);
  } else if (e.key === "?" || e.key === ",") {
    showRules(T.state.game);
  } else if (e.key === "Escape" && T.confirm) {
    T.confirm = null; renderTable(T.state);
  }
});
