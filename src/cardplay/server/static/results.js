/* cardplay browser UI: how a deal's result came about, and every record a game declares, drawn
   as small tables and cards, never as a record joined into one line of text. table.js calls
   dealBreakdown for the end of a deal and recordNode for a record among the table's facts; the
   same drawing serves players and spectators. The browser holds no rules: every number here is
   one the game declares (Two-Ten-Jack's scoring cards, Maltese Twenty's scores of the round,
   Sixty-Six's card points and marriages); only their sums by seat are made here. */
import { CARD_RE, SUIT_SYMBOL, t } from "./texts.js";
import { T, cardImg, declOf, h, prettyText, seatName, seatValueText, valueLabel, words } from "./common.js";

const RECORDS_SHOWN = 12;  // rows of a list of records (the latest ones)
const PER_SEAT = new Set(["per_seat", "per_seat_cards", "per_seat_choice"]);

const empty = (v) => v === null || v === undefined || v === false || (Array.isArray(v) && !v.length);
const signed = (x) => (x > 0 ? "+" + x : String(x));

/* ------------------------------------------------------------------ one value */
function miniCards(cards) {
  return h("span", { class: "cards mini-row" }, cards.map((c) => (CARD_RE.test(c) ? cardImg(c, true) : h("span", { text: prettyText(c) }))));
}
function suitNode(v) {
  return h("span", { class: "suit" + ("HD".includes(v) ? " red" : ""), role: "img", "aria-label": t("suit_" + v), text: SUIT_SYMBOL[v] || v });
}
/* One value of a field as a node: cards as cards, seats by name, a named value in words. */
export function valueNode(f, v, seats) {
  if (v === null || v === undefined) return "—";
  switch (f.kind) {
    case "card": return CARD_RE.test(v) ? cardImg(v, true) : prettyText(v);
    case "cards": return v.length ? miniCards(v) : "—";
    case "suit": return suitNode(v);
    case "seat": return seatName(v, seats);
    case "seats": return v.length ? v.map((x) => seatName(x, seats)).join(", ") : "—";
    case "move": return prettyText(v);
    case "choice": return valueLabel(f, v);
    case "flag": return t(v ? "yes" : "no");
    case "numbers": return v.length === 2 ? `${v[0]}–${v[1]}` : v.join(", ");
    case "record": return recordNode(f, v, seats);
    case "records": return recordNode(f, v, seats);
    default: return String(v);
  }
}

/* ------------------------------------------------------------------ records */
/* Cards played by seats (a trick's cards): each card with its player's name under it. */
function seatCardList(list, seats) {
  return h("div", { class: "cards" }, list.map((x) => h("div", { class: "played" },
    CARD_RE.test(x.card) ? cardImg(x.card, true) : h("span", { text: prettyText(x.card) }),
    h("span", { text: seatName(x.seat, seats) }))));
}
/* A record's fields, each on a row of its own (label, value); what it holds per seat as a
   table with a column per seat. */
function oneRecord(fields, r, seats) {
  const shown = fields.filter((f) => !empty(r[f.name]));
  const scalars = shown.filter((f) => !PER_SEAT.has(f.kind));
  const bySeat = shown.filter((f) => PER_SEAT.has(f.kind));
  const n = bySeat.length ? r[bySeat[0].name].length : 0;
  const cols = Array.from({ length: n }, (_, i) => i);
  return h("div", { class: "record" },
    scalars.length ? h("dl", { class: "kv rec" }, scalars.map((f) => h("div", { class: "fact" }, h("dt", { text: words(f.label) }),
      h("dd", {}, f.kind === "records" && f.fields.some((x) => x.name === "card") && f.fields.some((x) => x.name === "seat") ? seatCardList(r[f.name], seats) : valueNode(f, r[f.name], seats))))) : null,
    bySeat.length ? h("table", { class: "sheet rec" },
      h("thead", {}, h("tr", {}, h("td", {}), cols.map((i) => h("th", { scope: "col", text: seatName(i, seats) })))),
      h("tbody", {}, bySeat.map((f) => h("tr", {}, h("th", { scope: "row", text: words(f.label) }),
        cols.map((i) => h("td", {}, f.kind === "per_seat_cards" ? (r[f.name][i] && r[f.name][i].length ? miniCards(r[f.name][i]) : "—")
          : seatValueText(f, r[f.name][i]) ?? "—")))))) : null);
}
/* A list of records as a table: a row per record (the latest few), a column per field. */
function recordTable(f, list, seats) {
  const rows = list.slice(-RECORDS_SHOWN);
  const fields = f.fields.filter((x) => rows.some((r) => !empty(r[x.name])));
  return h("table", { class: "sheet rec" },
    h("thead", {}, h("tr", {}, fields.map((x) => h("th", { scope: "col", text: words(x.label) })))),
    h("tbody", {}, rows.map((r) => h("tr", {}, fields.map((x) => h("td", {}, empty(r[x.name]) ? "—" : valueNode(x, r[x.name], seats)))))));
}
/* A declared record (or list of records) as a node: never one line of "Key: value; ...". */
export function recordNode(f, v, seats) {
  if (v === null || v === undefined) return "—";
  if (f.kind === "record") return oneRecord(f.fields || [], v, seats);
  if (!v.length) return "—";
  const subs = (f.fields || []).map((x) => x.name);
  if (subs.includes("seat") && subs.includes("card") && subs.length === 2) return seatCardList(v, seats);
  return recordTable(f, v, seats);
}

/* A record among the table's facts, under its label: open on a wide screen; folded to its label
   on a phone, where the hand and the moves must stay on the first screen (a click opens it,
   and it stays as the person left it while the table is redrawn). */
const PHONE = 520;
const folds = new Map();
export function recordGroup(f, v, seats) {
  const open = folds.has(f.name) ? folds.get(f.name) : window.innerWidth > PHONE;
  return h("details", { class: "pubgroup record-group", "data-key": f.name, open,
    ontoggle: (e) => { folds.set(f.name, /** @type {HTMLDetailsElement} */ (e.target).open); } },
  h("summary", {}, h("h3", { text: words(f.label) })), recordNode(f, v, seats));
}

/* ------------------------------------------------------------------ the end of a deal */
/* Rows that say where each seat's points came from, from declared records of scores by seat:
   cards that scored (each with its points), scores of a kind (how often and how much), or
   declarations such as marriages (their suit and points). */
function scoreRows(f, v, n) {
  const subs = (f.fields || []).map((x) => x.name);
  if (!subs.includes("seat") || !subs.includes("points") || !Array.isArray(v) || !v.length) return [];
  const cols = Array.from({ length: n }, (_, i) => i);
  const of = (i) => v.filter((r) => r.seat === i);
  const sum = (list) => list.reduce((a, r) => a + r.points, 0);
  const total = (i) => h("div", { class: "sum", text: t("results_sum", { points: signed(sum(of(i))) }) });
  if (subs.includes("card")) {
    return [[words(f.label), cols.map((i) => h("td", { class: "scoring" }, of(i).length ? [h("div", { class: "cards" }, of(i).map((r) =>
      h("div", { class: "played" }, cardImg(r.card, true), h("span", { class: "pts", text: signed(r.points) })))), total(i)] : "—"))]];
  }
  const kind = (f.fields || []).find((x) => x.kind === "choice");
  if (kind) {
    return kind.values.filter((k) => v.some((r) => r[kind.name] === k.value)).map((k) => [words(k.label), cols.map((i) => {
      const r = of(i).filter((x) => x[kind.name] === k.value);
      const times = r.reduce((a, x) => a + (x.times || 1), 0);
      return h("td", { text: r.length ? t("results_times", { points: signed(sum(r)), n: times }) : "—" });
    })]);
  }
  const suit = (f.fields || []).find((x) => x.kind === "suit");
  return [[words(f.label), cols.map((i) => h("td", {}, of(i).length ? of(i).map((r) => h("span", { class: "entry" },
    suit ? suitNode(r[suit.name]) : null, " ", signed(r.points))) : "—"))]];
}

/* A bonus the game gives one seat: a `*_to` or `*_bonus` seat field beside the number it names
   (Maltese Twenty's round bonus to the last to score). */
function bonusRow(prev, n) {
  const pub = prev.public || {};
  const decl = declOf(prev.game).public;
  const to = decl.find((f) => f.kind === "seat" && f.name === "bonus_to");
  const amount = decl.find((f) => f.kind === "number" && f.name === "bonus");
  if (!to || !amount || pub[to.name] === null || pub[to.name] === undefined) return null;
  return [words(amount.label), Array.from({ length: n }, (_, i) => h("td", { text: i === pub[to.name] ? signed(pub[amount.name]) : "—" }))];
}

/* How a finished deal came about: each seat's result; where its points came from (the game's
   declared scores, card points, bonuses); every per-seat fact of the game; the hands left; then
   how the deal ended and its records, each as a table or as cards. */
export function dealBreakdown(prev, seats) {
  const n = prev.players;
  const cols = Array.from({ length: n }, (_, i) => i);
  const row = (label, cells, cls) => h("tr", { class: cls || null }, h("th", { scope: "row", text: label }), cells);
  const pub = prev.public || {};
  const decl = declOf(prev.game).public;
  const res = prev.result || [];
  const rows = [row(t("result"), cols.map((i) => h("td", { text: res[i] > 0 ? "+" + res[i] : String(res[i] ?? "—") })), "total")];
  const how = []; const hands = []; const other = []; const records = [];
  for (const f of decl) {
    const v = pub[f.name];
    if (v === null || v === undefined) continue;
    if (f.kind === "per_seat" || f.kind === "per_seat_choice") {
      if ((f.name === "hand_sizes" && v.every((x) => !x)) || f.detail || v.every((x) => x === null)) continue;
      rows.push(row(words(f.label), cols.map((i) => h("td", { text: seatValueText(f, v[i]) ?? "—" }))));
    } else if (f.kind === "per_seat_cards") {
      // every card won is detail: the cards that scored come with the scores below
      if (!f.detail && v.some((x) => x && x.length)) hands.push(row(words(f.label), cols.map((i) => h("td", {}, v[i] && v[i].length ? miniCards(v[i]) : "—"))));
    } else if (f.kind === "records" && scoreRows(f, v, n).length) {
      how.push(...scoreRows(f, v, n));
    } else if (f.kind === "seat" && /_bonus$/.test(f.name)) {
      // a bonus one seat earned (the last trick): its label says what it is worth
      how.push([words(f.label), cols.map((i) => h("td", { text: i === v ? t("yes") : "—" }))]);
    } else if (f.kind === "number" && /^bank/.test(f.name)) {
      other.push([f, v]);  // what the bank held and cost its banker: a bank's result comes from it
    } else if (["choice", "seat", "seats", "flag"].includes(f.kind)) {
      // who leads next is not the deal's end; a bonus's seat is in its row
      if (f.name !== "leader" && f.name !== "bonus_to" && !empty(v)) other.push([f, v]);
    } else if ((f.kind === "record" || f.kind === "records") && !f.detail && !empty(v) && f.name !== "trick" && f.name !== "last_trick") {
      // a list of plays (Twenty's pile) is the deal itself, not how it paid: only lists that
      // settle something (a stake won or lost) explain a result
      const subs = (f.fields || []).map((x) => x.name);
      if (f.kind === "record" || subs.some((x) => x === "won" || x === "stake")) records.push([f, v]);
    }
  }
  const bonus = bonusRow(prev, n);
  if (bonus) how.push(bonus);
  for (const [label, cells] of how) rows.push(row(label, cells));
  // the points those make, unless the result or a declared field already says the same
  const points = prev.points || [];
  const same = (x) => JSON.stringify(x) === JSON.stringify(points);
  if (points.some((x) => x) && !same(res) && !decl.some((f) => f.kind === "per_seat" && same(pub[f.name]))) {
    rows.push(row(t("points"), cols.map((i) => h("td", { text: String(points[i]) })), "subtotal"));
  }
  rows.push(...hands);
  return h("div", { class: "breakdown" },
    h("table", { class: "sheet" }, h("thead", {}, h("tr", {}, h("td", {}), cols.map((i) => h("th", { scope: "col", text: seatName(i, seats) })))), h("tbody", {}, rows)),
    other.length ? h("dl", { class: "kv" }, other.map(([f, v]) => h("div", { class: "fact" }, h("dt", { text: words(f.label) }), h("dd", {}, valueNode(f, v, seats))))) : null,
    records.map(([f, v]) => h("section", { class: "rec-group" }, h("h3", { text: words(f.label) }), recordNode(f, v, seats))));
}

/* ------------------------------------------------------------------ a deal that plays itself */
/* A person who holds the bank (Banchok, Macao) has no move while the others stake against it:
   the cards decide. Said on the table, so that a deal playing by itself is not a mystery. */
export function bankerNote(s) {
  const pub = (s.view && s.view.public) || {};
  if (T.seat === null || s.is_over || pub.banker !== T.seat || s.view.to_move === T.seat) return null;
  return t("results_banker_note");
}

/* Whether a game's points are said already by a field it declares (Two-Ten-Jack's points this
   hand): a seat's box then shows them once. */
export function pointsDeclared(view) {
  const pub = view.public || {};
  const same = (x) => JSON.stringify(x) === JSON.stringify(view.points);
  return declOf(view.game).public.some((f) => f.kind === "per_seat" && !f.detail && same(pub[f.name]));
}

/* A deal's end (or the match's) is brought on screen once, when it comes: the page is often
   scrolled down to the hand then, and the notice sits above the table, out of sight. */
let broughtIn = null;
export function bringDealEndIn() {
  const box = document.getElementById("end-screen") || document.getElementById("deal-over");
  const key = box ? `${T.id}:${box.id}:${box.querySelector("h2") ? box.querySelector("h2").textContent : ""}` : null;
  if (!box || key === broughtIn) return;
  broughtIn = key;
  const r = box.getBoundingClientRect();
  if (r.top < 0 || r.top > window.innerHeight - 100) box.scrollIntoView({ block: "start" });
}

/* The header's name of the deal: the game's own word where it has one (a round). */
export function dealTitle(game, n) {
  const name = declOf(game).deal_name;
  return name ? words(name).replace("{n}", String(n)) : t("deal_n", { n });
}

/* The heading that says a deal is over, in the game's own word ("Round 2 is over"). */
export function dealOverTitle(game, n) {
  const over = declOf(game).deal_over;
  return over ? words(over).replace("{n}", String(n)) : t("deal_over", { n });
}
