/* cardplay browser UI: what every part of the page shares. The games' declarations and a value
   in words, the DOM helpers, the HTTP helpers, the seats this browser holds, and the table in
   play (its state, its socket, the moves sent). It holds no rules: what is legal comes from
   view.legal_moves, every state from the server. An ES module, loaded as it is (no build). */
import { faceUrl } from "./cardfaces.js";
import { CARD_TOKEN, SUIT_SYMBOL, fourColour, lang, t } from "./texts.js";
import { backUrl } from "./prefs.js";

/* ------------------------------------------------------------------ the games' declarations
   GET /api/games serves each game's declaration: its public fields with their kinds and words,
   its options and move kinds. Everything below renders from them; no game is known by name. */
let CATALOG = null;
export async function loadCatalog() {
  if (!CATALOG) CATALOG = Object.fromEntries((await getJSON("/api/games")).map((g) => [g.name, g]));
  return CATALOG;
}
export function declOf(game) { return (CATALOG && CATALOG[game]) || { public: [], moves: [], options: [] }; }
export function words(text) { return text ? (text[lang] || text.en || "") : ""; }
export function valueLabel(f, v) {
  const x = (f.values || []).find((o) => o.value === v);
  return x ? words(x.label) : String(v);
}
export function moveKind(game, m) {
  return declOf(game).moves.find((k) => new RegExp("^(?:" + k.pattern + ")$").test(m)) || null;
}
/* A field's value in words, as its kind says (the browser twin of cardplay.wording). */
export function fieldText(f, v, seats) {
  if (v === null || v === undefined) return "—";
  switch (f.kind) {
    case "card": return prettyText(v);
    case "cards": return v.length ? v.map(prettyText).join(" ") : "—";
    case "move": return prettyText(v);
    case "suit": return SUIT_SYMBOL[v] || String(v);
    case "seat": return seatName(v, seats);
    case "seats": return v.length ? v.map((x) => seatName(x, seats)).join(", ") : "—";
    case "numbers": return v.length === 2 ? `${v[0]}–${v[1]}` : v.join(", ");
    case "per_seat": return v.map((x, i) => `${seatName(i, seats)} ${x === null ? "—" : x}`).join(" · ");
    case "per_seat_cards": return v.map((x, i) => `${seatName(i, seats)} ${x.length ? x.map(prettyText).join(" ") : "—"}`).join(" · ");
    case "choice": return valueLabel(f, v);
    case "per_seat_choice": return v.map((x, i) => `${seatName(i, seats)} ${valueLabel(f, x)}`).join(" · ");
    case "flag": return t(v ? "yes" : "no");
    case "record": return recordText(f.fields, v, seats);
    case "records": return v.length ? v.map((r) => recordText(f.fields, r, seats)).join(" | ") : "—";
    default: return String(v);
  }
}
export function recordText(fields, r, seats) {
  const parts = fields.filter((f) => r[f.name] !== null && r[f.name] !== undefined && r[f.name] !== false &&
    !(Array.isArray(r[f.name]) && !r[f.name].length));
  const names = parts.map((f) => f.name);
  if (names.includes("seat") && names.includes("card")) {
    const notes = parts.filter((f) => f.name !== "seat" && f.name !== "card")
      .map((f) => f.kind === "flag" ? words(f.label).toLowerCase() : `${words(f.label)}: ${fieldText(f, r[f.name], seats)}`);
    return `${seatName(r.seat, seats)}: ${prettyText(r.card)}` + (notes.length ? ` (${notes.join(", ")})` : "");
  }
  return parts.map((f) => `${words(f.label)}: ${fieldText(f, r[f.name], seats)}`).join("; ") || "—";
}
/* One seat's entry of a per-seat field, for the seat boxes. */
export function seatValueText(f, x) {
  if (x === null || x === undefined) return null;
  if (f.kind === "per_seat_cards") return x.length ? x.map(prettyText).join(" ") : null;
  if (f.kind === "per_seat_choice") return valueLabel(f, x);
  return String(x);
}
export function cardName(c) {
  return t("card_name", { rank: t("rank_" + c[0]), suit: t("suit_" + c[1]) });
}
export function cardShort(c) {
  const r = "TJQKA".includes(c[0]) ? t("rank_short_" + c[0]) : c[0];
  return r + SUIT_SYMBOL[c[1]];
}
export function prettyText(text) {
  return String(text).replace(CARD_TOKEN, (m, r, s) => cardShort(r + s)).replace(/=([SHDC])$/, (m, s) => "=" + SUIT_SYMBOL[s]);
}
/* The level a new table offers first: `strong` where the game has it (a person's game should not
   wait up to 5 s a move unless they chose `expert`), else the game's highest. */
export function defaultLevel(levels) { return levels.includes("strong") ? "strong" : levels[levels.length - 1]; }
export function levelName(level) { return t("level_" + level) === "level_" + level ? level : t("level_" + level); }

/* ------------------------------------------------------------------ DOM helpers */
export function h(tag, attrs, ...kids) {
  const el = document.createElement(tag);
  if (attrs) for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "text") el.textContent = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (v === true) el.setAttribute(k, "");
    else el.setAttribute(k, v);
  }
  for (const kid of kids.flat(Infinity)) {
    if (kid === null || kid === undefined || kid === false) continue;
    el.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  }
  return el;
}
export function cardImg(c, mini) {
  const style = fourColour ? "4c" : "2c";
  return h("img", { class: "card" + (mini ? " mini" : ""), src: faceUrl(style, c),
    alt: cardName(c), width: mini ? 46 : 76, height: mini ? 64 : 106, draggable: "false" });
}
export function backImg(mini, alt) {
  return h("img", { class: "card" + (mini ? " mini" : ""), src: backUrl(),
    alt: alt || t("card_back"), width: mini ? 46 : 76, height: mini ? 64 : 106 });
}
export function announce(text) {
  const live = document.getElementById("live");
  live.textContent = "";
  setTimeout(() => { live.textContent = text; }, 30);
}
export function banner(text) {
  const b = document.getElementById("banner");
  b.textContent = text || "";
  b.hidden = !text;
}
export const main = () => document.getElementById("main");

export async function getJSON(url, opts) {
  const r = await fetch(url, opts);
  let body = null;
  try { body = await r.json(); } catch (e) { body = null; }
  if (!r.ok) {
    // every refusal is {"error": code, "message": text} (DESIGN.md section 6, server/errors.py)
    const e = /** @type {Error & {status?: number, code?: string}} */ (new Error((body && body.message) || r.statusText));
    e.status = r.status;
    if (body && typeof body.error === "string") e.code = body.error;
    throw e;
  }
  return body;
}

/* A refused request in the reader's language: what the status means, else the server's words. */
export function httpError(e, key) {
  const known = { 429: "http_429", 409: "http_409", 404: "http_404", 413: "http_413", 503: "http_503" }[e.status];
  return known ? t(known) : t(key, { message: e.message });
}

export function gameTitle(g) { return (g.title && (g.title[lang] || g.title.en)) || g.name; }

/* ------------------------------------------------------------------ the seats this browser holds */
/* the tables this browser has a seat at, newest first (at most 8), as the server lists them now;
   a table the server no longer knows is forgotten */
let yourCache = { at: 0, list: [] };
export async function yourTables() {
  // the lobby refreshes every few seconds; one's own tables are asked for at most twice a minute
  if (Date.now() - yourCache.at < 30000) return yourCache.list;
  const out = [];
  for (const saved of savedSeats().slice(0, 8)) {
    try {
      const x = await getJSON("/api/tables/" + encodeURIComponent(saved.table));
      out.push({ ...x, mySeat: saved.seat });
    } catch (e) {
      if (e.status === 404) localStorage.removeItem("cardplay.token." + saved.table);
    }
  }
  yourCache = { at: Date.now(), list: out };
  return out;
}
/* seats this browser holds, by table: {token, seat, at, contribution} (at: when it was taken, for
   "your tables"; contribution: the random part it sent for the shuffle, shown by the record's check) */
export function saveSeat(table, token, seat, contribution) {
  yourCache = { at: 0, list: [] };
  localStorage.setItem("cardplay.token." + table, JSON.stringify({ token, seat, at: Date.now(), contribution: contribution || null }));
}
export function savedSeats() {
  const out = [];
  for (let i = 0; i < localStorage.length; i++) {
    const k = localStorage.key(i);
    if (!k || !k.startsWith("cardplay.token.")) continue;
    try { out.push({ table: k.slice(15), ...JSON.parse(localStorage.getItem(k)) }); } catch (e) { /* not ours */ }
  }
  return out.sort((a, b) => (b.at || 0) - (a.at || 0));
}

/* ------------------------------------------------------------------ the table in play */
export const T = { ws: null, id: null, token: null, seat: null, state: null, welcome: null, previous: null,
  seenPrevious: -1, retry: 0, closing: false, pending: false, selected: new Set(), lastVersion: -1,
  status: "", statusBad: false, shownTrick: false, contribution: null, proof: null,
  tapped: null, undone: -1 };  // tapped: a card picked by a first tap (touch.js); undone: undo.js

/* Bots get names, one per seat (the catalogue's bot_name_0 to _5), so that the bots at a table
   are told apart in the log and on the score sheet. */
const BOT_NAME_COUNT = 6;
export function seatName(i, seats) {
  if (i === null || i === undefined) return "—";
  const s = (seats || (T.state && T.state.seats) || [])[i];
  if (T.seat === i) return t("you");
  if (!s) return t("player_n", { n: i + 1 });
  if (s.kind === "bot") return t("bot_name_" + (i % BOT_NAME_COUNT));
  if (!s.claimed) return t("seat_open", { n: i + 1 });
  return s.name || t("player_n", { n: i + 1 });
}

export function send(msg) {
  if (T.ws && T.ws.readyState === WebSocket.OPEN) T.ws.send(JSON.stringify(msg));
}
/* A check every move of this page passes before it is sent (a lesson refuses moves other than
   its step's: tutorial.js); it answers whether the move may go. */
/** @type {(move: string) => boolean} */
let moveGuard = () => true;
/** @param {(move: string) => boolean} fn */
export function setMoveGuard(fn) { moveGuard = fn; }
export function playMove(move) {
  const s = T.state;
  if (!s || T.pending || T.seat === null) return;
  if (!s.view.legal_moves.includes(move)) return;
  if (!moveGuard(move)) return;
  T.pending = true;
  T.status = ""; T.statusBad = false;
  send({ type: "move", move, version: s.version, id: s.version });
}

/* A move in words: a card's own name, else its kind's label from the declaration. */
export function moveLabel(m) {
  const kind = T.state ? moveKind(T.state.game, m) : null;
  if (!kind || kind.name === "card") return prettyText(m.split("+").join(" + "));
  if (/^[a-z]+$/.test(kind.pattern)) return words(kind.label);  // a word: close, draw, stand
  const n = /^[a-z]+ (\d+)$/.exec(m);  // stake 25
  return n ? `${words(kind.label)} ${n[1]}` : `${words(kind.label)}: ${prettyText(m)}`;
}
export function logText(m) {
  const kind = T.state ? moveKind(T.state.game, m) : null;
  return kind && kind.name !== "card" && !/[2-9TJQKA][SHDC]/.test(m) ? moveLabel(m) : prettyText(m);
}

/* ------------------------------------------------------------------ redrawing and routing
   The table (table.js) and the router (app.js) register themselves here, so that a module below
   them (the coach, a rematch) can redraw the table or go to another page without importing the
   module above it: the imports form no cycle. */
/** @type {(old: any) => void} */
let renderer = () => {};
/** @type {() => void} */
let router = () => {};
/** @param {(old: any) => void} fn */
export function setRenderer(fn) { renderer = fn; }
/** @param {() => void} fn */
export function setRouter(fn) { router = fn; }
/* the table drawn again from the state it has (nothing new came from the server) */
export function redraw() { if (T.state) renderer(T.state); }

export function navigate(url, replace) {
  if (replace) history.replaceState(null, "", url); else history.pushState(null, "", url);
  router();
  main().focus();
}
