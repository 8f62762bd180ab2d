/* cardplay browser UI: renders the views the server sends and sends moves. It holds no rules:
   what is legal comes from view.legal_moves, every state from the server. Plain JS, no build. */
"use strict";

let lang = localStorage.getItem("cardplay.lang") || ((navigator.language || "en").startsWith("ru") ? "ru" : "en");
if (!TEXTS[lang]) lang = "en";
let fourColour = localStorage.getItem("cardplay.fourColour") === "1";

function t(key, vars) {
  let s = (TEXTS[lang] && TEXTS[lang][key]);
  if (s === undefined) s = TEXTS.en[key];
  if (s === undefined) s = key;
  if (vars) for (const k of Object.keys(vars)) s = s.split("{" + k + "}").join(String(vars[k]));
  return s;
}
/* ------------------------------------------------------------------ the games' declarations
   GET /api/games serves each game's declaration: its public fields with their kinds and words,
   its options and move kinds. Everything below renders from them; no game is known by name. */
let CATALOG = null;
async function loadCatalog() {
  if (!CATALOG) CATALOG = Object.fromEntries((await getJSON("/api/games")).map((g) => [g.name, g]));
  return CATALOG;
}
function declOf(game) { return (CATALOG && CATALOG[game]) || { public: [], moves: [], options: [] }; }
function words(text) { return text ? (text[lang] || text.en || "") : ""; }
function fieldOf(game, name) { return declOf(game).public.find((f) => f.name === name); }
function valueLabel(f, v) {
  const x = (f.values || []).find((o) => o.value === v);
  return x ? words(x.label) : String(v);
}
function moveKind(game, m) {
  return declOf(game).moves.find((k) => new RegExp("^(?:" + k.pattern + ")$").test(m)) || null;
}
/* A field's value in words, as its kind says (the browser twin of cardplay.wording). */
function fieldText(f, v, seats) {
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
function recordText(fields, r, seats) {
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
function seatValueText(f, x) {
  if (x === null || x === undefined) return null;
  if (f.kind === "per_seat_cards") return x.length ? x.map(prettyText).join(" ") : null;
  if (f.kind === "per_seat_choice") return valueLabel(f, x);
  return String(x);
}
function cardName(c) {
  return lang === "ru" ? `${RANKS.ru[c[0]]} ${SUITS.ru[c[1]]}` : `${RANKS.en[c[0]]} of ${SUITS.en[c[1]]}`;
}
function cardShort(c) {
  const r = (RANK_SHORT[lang] && RANK_SHORT[lang][c[0]]) || RANK_SHORT.en[c[0]] || c[0];
  return r + SUIT_SYMBOL[c[1]];
}
function prettyText(text) {
  return String(text).replace(CARD_TOKEN, (m, r, s) => cardShort(r + s)).replace(/=([SHDC])$/, (m, s) => "=" + SUIT_SYMBOL[s]);
}
function levelName(level) { return t("level_" + level) === "level_" + level ? level : t("level_" + level); }

/* ------------------------------------------------------------------ DOM helpers */
function h(tag, attrs, ...kids) {
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
function cardImg(c, mini) {
  const style = fourColour ? "4c" : "2c";
  return h("img", { class: "card" + (mini ? " mini" : ""), src: `/static/cards/${style}/${c}.svg`,
    alt: cardName(c), width: mini ? 46 : 76, height: mini ? 64 : 106, draggable: "false" });
}
function backImg(mini, alt) {
  return h("img", { class: "card" + (mini ? " mini" : ""), src: "/static/cards/back.svg",
    alt: alt || t("card_back"), width: mini ? 46 : 76, height: mini ? 64 : 106 });
}
function announce(text) {
  const live = document.getElementById("live");
  live.textContent = "";
  setTimeout(() => { live.textContent = text; }, 30);
}
function banner(text) {
  const b = document.getElementById("banner");
  b.textContent = text || "";
  b.hidden = !text;
}
const main = () => document.getElementById("main");

function applyChrome() {
  document.documentElement.lang = lang;
  document.getElementById("lang").value = lang;
  document.getElementById("four-colour").checked = fourColour;
  document.getElementById("lang-label").textContent = t("language");
  document.getElementById("four-colour-label").textContent = t("four_colour");
  document.getElementById("skip-link").textContent = t("skip");
  document.getElementById("credits").textContent = t("credits");
  document.getElementById("credits-link").textContent = t("credits_link");
}

/* ------------------------------------------------------------------ lobby */
let catalog = null;
let lobbyTimer = null;

async function getJSON(url, opts) {
  const r = await fetch(url, opts);
  let body = null;
  try { body = await r.json(); } catch (e) { body = null; }
  if (!r.ok) throw new Error((body && (body.error || body.detail)) || r.statusText);
  return body;
}

function gameTitle(g) { return (g.title && (g.title[lang] || g.title.en)) || g.name; }

async function showLobby() {
  document.title = "cardplay";
  const m = main();
  m.replaceChildren(h("h1", { text: t("lobby_title") }));
  if (!catalog) catalog = Object.values(await loadCatalog()).filter((g) => g.available);
  const form = h("form", { class: "panel", id: "new-game", "aria-labelledby": "new-game-h" });
  const tablesPanel = h("section", { class: "panel", "aria-labelledby": "open-h" });
  m.append(h("div", { class: "lobby" }, form, tablesPanel));

  const params = new URLSearchParams(location.search);
  const gameSel = h("select", { id: "game", name: "game" },
    catalog.map((g) => h("option", { value: g.name, text: gameTitle(g) })));
  // The flagship game is preselected so that a game against a bot is one click away.
  gameSel.value = params.get("game") || (catalog.some((g) => g.name === "sixty-six") ? "sixty-six" : gameSel.value);
  const optsBox = h("div", { class: "options" });
  const seatsBox = h("div", { class: "seats-config" });
  const levelSel = h("select", { id: "level", name: "level" });
  const nameInput = h("input", { type: "text", id: "name", maxlength: "40", autocomplete: "nickname" });
  nameInput.value = localStorage.getItem("cardplay.name") || "";
  const err = h("p", { class: "error", role: "alert" });

  const current = () => catalog.find((g) => g.name === gameSel.value);
  function optionValues() {
    const out = {};
    for (const el of optsBox.querySelectorAll("[data-option]")) {
      const g = current(); const o = g.options.find((x) => x.name === el.dataset.option);
      let v = el.value;
      if (o.choices) v = o.choices[Number(v)];
      else v = Number(v);
      if (v !== o.default) out[o.name] = v;
    }
    return out;
  }
  function players() {
    const g = current(); const o = optionValues();
    const p = g.options.find((x) => x.name === "players");
    return o.players !== undefined ? o.players : (p ? p.default : g.min_players);
  }
  function renderSeats() {
    const g = current(); const n = players();
    seatsBox.replaceChildren();
    for (let i = 0; i < n; i++) {
      const id = "seat-" + i;
      if (i === 0) { seatsBox.append(h("div", { class: "field" }, h("span", { class: "label", text: `${i}: ${t("seat_you")}` }))); continue; }
      const sel = h("select", { id, "data-seat": i },
        h("option", { value: "human", text: t("seat_person") }),
        g.levels.map((l) => h("option", { value: "bot:" + l, text: t("seat_bot", { level: levelName(l) }) })));
      sel.value = "bot:" + g.levels[g.levels.length - 1];
      seatsBox.append(h("div", { class: "field" }, h("label", { for: id, text: t("seat_n", { n: i }) }), sel));
    }
  }
  function renderOptions() {
    const g = current();
    optsBox.replaceChildren();
    for (const o of g.options) {
      const id = "opt-" + o.name;
      let input;
      if (o.choices) {
        input = h("select", { id, "data-option": o.name },
          o.choices.map((c, i) => h("option", { value: i, title: words(o.values[i].description), text: words(o.values[i].label) })));
        input.value = String(o.choices.indexOf(o.default));
      } else {
        input = h("input", { id, type: "number", "data-option": o.name, min: o.min ?? 1, max: o.max, step: 1 });
        input.value = o.default;
      }
      input.addEventListener("change", renderSeats);
      const hint = h("small", { class: "hint", id: id + "-hint", text: words(o.description) });
      input.setAttribute("aria-describedby", hint.id);
      optsBox.append(h("div", { class: "field" }, h("label", { for: id, text: words(o.label) }), input, hint));
    }
    levelSel.replaceChildren(...g.levels.map((l) => h("option", { value: l, text: levelName(l) })));
    levelSel.value = g.levels[g.levels.length - 1];
    renderSeats();
  }
  gameSel.addEventListener("change", renderOptions);

  async function create(seats) {
    err.textContent = "";
    localStorage.setItem("cardplay.name", nameInput.value);
    try {
      const r = await getJSON("/api/tables", { method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ game: gameSel.value, options: optionValues(), seats, name: nameInput.value }) });
      localStorage.setItem("cardplay.token." + r.table, JSON.stringify({ token: r.token, seat: r.seat }));
      navigate(r.url);
    } catch (e) { err.textContent = t("create_error", { message: e.message }); }
  }
  const playNow = h("button", { type: "button", id: "play-now", onclick: () => {
    const n = players();
    create([{ kind: "human" }, ...Array.from({ length: n - 1 }, () => ({ kind: "bot", level: levelSel.value }))]);
  } }, t("play_now"));
  const createBtn = h("button", { type: "button", class: "secondary", id: "create-table", onclick: () => {
    const seats = [{ kind: "human" }];
    for (const sel of seatsBox.querySelectorAll("select[data-seat]")) {
      seats.push(sel.value === "human" ? { kind: "human" } : { kind: "bot", level: sel.value.slice(4) });
    }
    create(seats);
  } }, t("create_table"));
  form.addEventListener("submit", (e) => e.preventDefault());
  form.append(
    h("h2", { id: "new-game-h", text: t("new_game") }),
    h("div", { class: "field" }, h("label", { for: "game", text: t("game") }), gameSel),
    h("fieldset", { class: "field" }, h("legend", { text: t("options") }), optsBox),
    h("div", { class: "field" }, h("label", { for: "name", text: t("your_name") }), nameInput),
    h("div", { class: "field" }, h("label", { for: "level", text: t("opponents") }), levelSel),
    h("div", { class: "row" }, playNow),
    h("fieldset", { class: "field" }, h("legend", { text: t("seats") }), seatsBox),
    h("div", { class: "row" }, createBtn), err);
  renderOptions();

  async function renderTables() {
    const data = await getJSON("/api/tables");
    const item = (x, open) => h("li", {},
      h("span", {}, h("strong", { text: gameTitle(x) }), " ", h("span", { class: "muted",
        text: `${t("players", { n: x.players })} · ${t("deal_n", { n: x.deal_number })}` + (open ? ` · ${t("seat_free", { n: x.open_seats.length })}` : "") })),
      h("span", { class: "row" },
        open ? h("a", { href: "/join/" + x.id, "data-link": "1", text: t("join") }) : null,
        h("a", { href: "/watch/" + x.id, "data-link": "1", text: t("watch") })));
    tablesPanel.replaceChildren(
      h("h2", { id: "open-h", text: t("open_tables") }),
      data.open.length ? h("ul", { class: "tables" }, data.open.map((x) => item(x, true))) : h("p", { class: "muted", text: t("none_open") }),
      h("h2", { text: t("playing_tables") }),
      data.playing.length ? h("ul", { class: "tables" }, data.playing.map((x) => item(x, false))) : h("p", { class: "muted", text: t("none_playing") }),
      h("button", { type: "button", class: "secondary", onclick: renderTables }, t("refresh")));
  }
  await renderTables();
  // the list of tables follows what others open and fill, while the lobby is shown
  lobbyTimer = setInterval(() => {
    if (!document.body.contains(tablesPanel)) { clearInterval(lobbyTimer); lobbyTimer = null; return; }
    if (!tablesPanel.contains(document.activeElement)) renderTables().catch(() => {});
  }, 5000);
}

/* ------------------------------------------------------------------ joining by invite */
async function showJoin(id) {
  const saved = localStorage.getItem("cardplay.token." + id);
  if (saved) return navigate("/t/" + id, true);
  main().replaceChildren(h("p", { text: t("connecting") }));
  try {
    const r = await getJSON(`/api/tables/${id}/join`, { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name: localStorage.getItem("cardplay.name") || "" }) });
    localStorage.setItem("cardplay.token." + id, JSON.stringify({ token: r.token, seat: r.seat }));
    navigate("/t/" + id, true);
  } catch (e) {
    main().replaceChildren(h("p", { class: "error", role: "alert", text: t("join_error", { message: e.message }) }),
      h("p", {}, h("a", { href: "/watch/" + id, "data-link": "1", text: t("watch_instead") }), " · ",
        h("a", { href: "/", "data-link": "1", text: t("back_lobby") })));
  }
}

/* ------------------------------------------------------------------ a table */
const T = { ws: null, id: null, token: null, seat: null, state: null, welcome: null, previous: null,
  seenPrevious: -1, retry: 0, closing: false, pending: false, selected: new Set(), lastVersion: -1,
  status: "", statusBad: false, shownTrick: false };

function seatName(i, seats) {
  if (i === null || i === undefined) return "—";
  const s = (seats || (T.state && T.state.seats) || [])[i];
  if (T.seat === i) return t("you");
  if (!s) return t("player_n", { n: i });
  if (s.kind === "bot") return t("bot", { level: levelName(s.level) });
  if (!s.claimed) return t("seat_open", { n: i });
  return s.name || t("player_n", { n: i });
}

function openTable(id, watch) {
  closeSocket();
  Object.assign(T, { id, state: null, welcome: null, previous: null, seenPrevious: -1, retry: 0,
    closing: false, pending: false, selected: new Set(), lastVersion: -1, status: "", statusBad: false });
  const saved = watch ? null : localStorage.getItem("cardplay.token." + id);
  T.token = saved ? JSON.parse(saved).token : null;
  if (!watch && !T.token) {
    main().replaceChildren(h("p", { text: t("no_seat") }),
      h("p", { class: "row" }, h("a", { href: "/join/" + id, "data-link": "1", text: t("join_seat") }),
        h("a", { href: "/watch/" + id, "data-link": "1", text: t("watch_instead") })));
    return;
  }
  main().replaceChildren(h("p", { text: t("connecting") }));
  loadCatalog().then(connect, () => banner(t("offline")));
}

function closeSocket() {
  if (T.ws) { T.closing = true; try { T.ws.close(); } catch (e) { /* already closed */ } T.ws = null; }
}

function connect() {
  const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
  T.ws = ws; T.closing = false;
  ws.onopen = () => {
    T.retry = 0;
    ws.send(JSON.stringify(T.token ? { type: "hello", table: T.id, token: T.token } : { type: "watch", table: T.id }));
  };
  ws.onmessage = (e) => onMessage(JSON.parse(e.data));
  ws.onclose = () => {
    if (T.ws !== ws || T.closing) return;
    banner(t("reconnecting"));
    T.pending = false;
    const wait = Math.min(5000, 300 * 2 ** T.retry++);
    setTimeout(() => { if (T.ws === ws) connect(); }, wait);
  };
}

function send(msg) {
  if (T.ws && T.ws.readyState === WebSocket.OPEN) T.ws.send(JSON.stringify(msg));
}

function onMessage(msg) {
  if (msg.type === "welcome") {
    banner("");
    T.welcome = msg; T.seat = msg.seat;
    document.title = `${(msg.title && (msg.title[lang] || msg.title.en)) || msg.game} · cardplay`;
  } else if (msg.type === "state") {
    banner("");
    const old = T.state;
    T.state = msg; T.pending = false;
    if ("previous" in msg) T.previous = msg.previous;
    if (!old || msg.version !== old.version) T.selected = new Set();
    if (old && msg.last && msg.version > old.version) {
      const who = msg.last.seat === T.seat ? null : seatName(msg.last.seat, msg.seats);
      let text = who ? t("played", { who, move: prettyText(msg.last.move) }) : t("you_played", { move: prettyText(msg.last.move) });
      if (T.seat !== null && msg.view.to_move === T.seat && !msg.is_over) text += " " + t("your_turn");
      announce(text);
    }
    if (!msg.full && msg.reply_to === undefined && T.status && !T.statusBad) T.status = "";
    if (msg.reply_to !== undefined) { T.status = ""; T.statusBad = false; }
    renderTable(old);
  } else if (msg.type === "error") {
    T.pending = false;
    if (msg.code === "bad_token" || msg.code === "no_table") {
      main().replaceChildren(h("p", { class: "error", role: "alert", text: t("err_" + msg.code) }),
        h("p", {}, h("a", { href: "/", "data-link": "1", text: t("back_lobby") })));
      closeSocket();
      return;
    }
    const key = "err_" + msg.code;
    T.status = t(key) !== key ? t(key) : t("err_generic", { message: msg.message });
    T.statusBad = true;
    if (T.state) renderTable(T.state);
    announce(T.status);
  } else if (msg.type === "record") {
    /* records are fetched over HTTP for download; nothing to do */
  }
}

function playMove(move) {
  const s = T.state;
  if (!s || T.pending || T.seat === null) return;
  if (!s.view.legal_moves.includes(move)) return;
  T.pending = true;
  T.status = ""; T.statusBad = false;
  send({ type: "move", move, version: s.version, id: s.version });
}

/* Move classification: the view's legal moves become card clicks, buttons and a stake form. */
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
function moveLabel(m) {
  const kind = T.state ? moveKind(T.state.game, m) : null;
  if (!kind || kind.name === "card") return prettyText(m.split("+").join(" + "));
  if (/^[a-z]+$/.test(kind.pattern)) return words(kind.label);  // a word: close, draw, stand
  const n = /^[a-z]+ (\d+)$/.exec(m);  // stake 25
  return n ? `${words(kind.label)} ${n[1]}` : `${words(kind.label)}: ${prettyText(m)}`;
}
function logText(m) {
  const kind = T.state ? moveKind(T.state.game, m) : null;
  return kind && kind.name !== "card" && !/[2-9TJQKA][SHDC]/.test(m) ? moveLabel(m) : prettyText(m);
}
function moveAria(m) {
  let r;
  if (CARD_RE.test(m)) return cardName(m);
  if ((r = /^([KQ][SHDC])=(20|40)$/.exec(m))) return t("m_marriage", { card: cardName(r[1]), n: r[2] });
  if (m.includes("+")) return m.split("+").map((c) => CARD_RE.test(c.split("=")[0]) ? cardName(c.split("=")[0]) + (c.includes("=") ? " = " + c.split("=")[1] : "") : c).join(", ");
  return moveLabel(m);
}

function cardRow(cards, mini, limit) {
  const shown = limit && cards.length > limit ? cards.slice(cards.length - limit) : cards;
  return h("div", { class: "cards" }, shown.map((c) => cardImg(c, mini)),
    shown.length < cards.length ? h("span", { text: `(+${cards.length - shown.length})` }) : null);
}
function seatCards(list, seats, mini, fresh) {
  return h("div", { class: "cards" }, list.map((x, i) => h("div", { class: "played" + (fresh && i >= fresh ? " enter" : "") },
    typeof x.card === "string" && CARD_RE.test(x.card) ? cardImg(x.card, mini) : h("span", { text: String(x.card) }),
    h("span", { text: seatName(x.seat, seats) }))));
}

/* The public state, field by field as the game declares it: plays and cards as cards in the
   middle, the stock as a stack, per-seat fields in the seat boxes, the rest as labelled values;
   records of the whole deal so far (declared detail) stay out of the way. */
const BIG_NUMBERS = new Set(["bank", "count"]);  // numbers that are the heart of a game's table

function renderPublic(view, seats, perSeat) {
  const pub = view.public || {};
  const centre = [];
  const facts = [];
  const group = (f, ...kids) => h("div", { class: "pubgroup", "data-key": f.name }, h("h3", { text: words(f.label) }), ...kids);
  for (const f of declOf(view.game).public) {
    const v = pub[f.name];
    if (f.detail || f.name === "last_trick" || v === null || v === undefined) continue;
    if (Array.isArray(v) && !v.length) continue;
    const cardsOf = (f.fields || []).map((x) => x.name);
    if (f.kind === "per_seat" || f.kind === "per_seat_cards" || f.kind === "per_seat_choice") {
      perSeat.push([f, v]);
    } else if (f.kind === "records" && cardsOf.includes("seat") && cardsOf.includes("card")) {
      const before = (T.prevPublic && Array.isArray(T.prevPublic[f.name])) ? T.prevPublic[f.name].length : 0;
      centre.push(group(f, seatCards(v, seats, false, before < v.length ? before : v.length)));
    } else if (f.kind === "records" && cardsOf.includes("seat") && cardsOf.includes("cards")) {
      centre.push(group(f, h("div", { class: "cards" }, v.slice(-4).map((p) => h("div", { class: "played" },
        h("div", { class: "cards" }, (p.cards || []).map((c) => cardImg(c, true))), h("span", { text: seatName(p.seat, seats) }))))));
    } else if (f.kind === "cards") {
      centre.push(group(f, cardRow(v, v.length > 8, 12)));
    } else if (f.kind === "card") {
      if (f.name === "turned_trump" && pub.trump_card === v) continue;
      centre.push(group(f, cardImg(v, false)));
    } else if (f.name === "stock" && f.kind === "number") {
      if (v === 0) continue;
      centre.push(group(f, h("div", { class: "stack" }, backImg(true, t("cards_left", { n: v })),
        h("span", { class: "count", "aria-hidden": "true", text: String(v) }))));
    } else if (f.kind === "number" && BIG_NUMBERS.has(f.name)) {
      centre.push(group(f, h("div", { class: "bignum", text: String(v) })));
    } else {
      facts.push([f, v]);
    }
  }
  const box = [];
  if (facts.length) {
    box.push(h("div", { class: "pubgroup", "data-key": "facts" }, h("dl", { class: "kv" },
      facts.map(([f, v]) => [h("dt", { text: words(f.label) }), h("dd", { text: fieldText(f, v, seats) })]))));
  }
  return [...centre, ...box];
}

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

function scoreSheet(view, seats) {
  const m = view.match;
  if (!m) return null;
  const n = view.players;
  const head = h("tr", {}, h("th", { scope: "col", text: t("deal_col") }), Array.from({ length: n }, (_, i) => h("th", { scope: "col", text: seatName(i, seats) })));
  const rows = (m.results || []).map((r, d) => h("tr", {}, h("td", { text: String(d + 1) }), (r || []).map((x) => h("td", { text: x > 0 ? "+" + x : String(x) }))));
  const total = h("tr", {}, h("th", { scope: "row", text: t("total") }), (m.scores || []).map((x) => h("th", { text: String(x) })));
  return h("table", { class: "sheet" }, h("caption", { class: "sr-only", text: t("score_sheet") }), h("thead", {}, head), h("tbody", {}, rows, total));
}

function renderTable(old) {
  const s = T.state; if (!s) return;
  const view = s.view; const seats = s.seats; const n = view.players;
  const me = T.seat; const myTurn = me !== null && view.to_move === me && !s.is_over;
  const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.focusKey : null;
  const m = main();
  const title = T.welcome ? ((T.welcome.title && (T.welcome.title[lang] || T.welcome.title.en)) || s.game) : s.game;

  const headLine = h("div", { class: "table-head" },
    h("h1", { id: "table-title" }, title),
    h("span", { class: "muted", text: `${t("deal_n", { n: view.match ? view.match.deal_number : 1 })}` + (me !== null ? ` · ${t("your_seat", { n: me })}` : ` · ${t("spectating")}`) }),
    T.welcome && T.welcome.commitment ? h("span", { class: "commitment", id: "commitment", title: `${T.welcome.commitment} — ${t("commitment_hint")}`, text: t("commitment", { h: T.welcome.commitment.slice(0, 12) }) }) : null);

  // seats with their per-seat facts
  const perSeat = [];
  const pubNodes = renderPublic(view, seats, perSeat);
  const seatBoxes = h("div", { class: "seats", role: "list", "aria-label": t("seats") }, Array.from({ length: n }, (_, i) => {
    const info = seats[i] || {};
    const bits = [];
    if (view.match) bits.push(`${t("match_total")}: ${view.match.scores[i]}`);
    if (view.points && view.points.some((x) => x)) bits.push(`${t("points")}: ${view.points[i]}`);
    for (const [f, v] of perSeat) {
      const x = seatValueText(f, v[i]);
      if (x !== null) bits.push(`${words(f.label)}: ${x}`);
    }
    const flags = [];
    if (view.dealer === i) flags.push(t("dealer"));
    if (view.to_move === i && !s.is_over) flags.push(t("to_move"));
    if (info.kind === "human" && info.claimed && !info.connected) flags.push(info.bot_playing ? t("bot_holds") : t("away"));
    return h("div", { class: "seat" + (view.to_move === i && !s.is_over ? " turn" : ""), role: "listitem", "data-seat": i },
      h("div", { class: "name" }, `${seatName(i, seats)}`, flags.length ? h("span", { class: "facts away", text: ` · ${flags.join(" · ")}` }) : null),
      h("div", { class: "facts", text: bits.join(" · ") }));
  }));

  // hand and actions
  const { cardMoves, buttons, stakes, combos } = classify(myTurn ? view.legal_moves : []);
  // a card whose only legal plays carry a declaration (A♠=♥) points at those buttons
  const declared = new Map();
  for (const mv of buttons) {
    const r = /^([2-9TJQKA][SHDC])=/.exec(mv);
    if (r) declared.set(r[1], [...(declared.get(r[1]) || []), mv]);
  }
  const handNodes = (view.hand || []).map((c, idx) => {
    const plain = cardMoves.has(c);
    const decl = !plain && declared.has(c) ? declared.get(c) : null;
    const legal = plain || decl !== null;
    const inCombo = combos.some((m) => m.split("+").some((x) => x.split("=")[0] === c));
    const selectable = legal || inCombo;
    const click = () => {
      if (plain && !T.selected.size) playMove(c);
      else if (decl && decl.length === 1) playMove(decl[0]);
      else if (decl) { const b = document.querySelector(`[data-move="${CSS.escape(decl[0])}"]`); if (b) b.focus(); }
      else if (inCombo || plain) toggleSelect(c);
    };
    const b = h("button", { type: "button", class: "cardbtn" + (legal ? " legal" : "") + (T.selected.has(c) ? " selected" : ""),
      "data-card": c, "data-move": plain ? c : null, "data-focus-key": "card-" + idx, disabled: !selectable || T.pending,
      "aria-label": cardName(c), "aria-pressed": inCombo && !plain ? String(T.selected.has(c)) : null,
      onclick: click }, cardImg(c, false));
    if (old && old.view && !(old.view.hand || []).includes(c)) b.classList.add("enter");
    return b;
  });
  const choosing = cardMoves.size > 0 || combos.length > 0;
  const hand = h("div", { class: "hand" + (choosing ? " choosing" : ""), role: "group", "aria-label": me !== null ? t("hand") : t("hand_of", { who: "—" }), onkeydown: handKeys }, handNodes);

  const actionNodes = [];
  for (const mv of buttons) actionNodes.push(h("button", { type: "button", "data-move": mv, "data-focus-key": "mv-" + mv, disabled: T.pending, "aria-label": moveAria(mv), onclick: () => playMove(mv) }, moveLabel(mv)));
  if (combos.length) {
    if (T.selected.size) {
      const sel = [...T.selected].sort().join("+");
      const match = combos.concat([...cardMoves.keys()]).find((m) => m.split("+").map((x) => x.split("=")[0]).sort().join("+") === sel);
      actionNodes.push(h("button", { type: "button", "data-focus-key": "play-selected", disabled: !match || T.pending, onclick: () => { if (match) playMove(match); } }, t("play_selected")));
    }
    for (const mv of combos.slice(0, 24)) actionNodes.push(h("button", { type: "button", class: "secondary", "data-move": mv, "data-focus-key": "mv-" + mv, disabled: T.pending, "aria-label": moveAria(mv), onclick: () => playMove(mv) }, moveLabel(mv)));
  }
  if (stakes.length) {
    const lo = Math.min(...stakes), hi = Math.max(...stakes);
    const input = h("input", { type: "number", id: "stake-amount", min: lo, max: hi, step: 1, "aria-label": t("stake_amount"), "data-focus-key": "stake-input" });
    input.value = String(Math.max(lo, Math.min(hi, Math.round((lo + hi) / 4))));
    const go = () => { const v = Number(input.value); if (stakes.includes(v)) playMove("stake " + v); else { T.status = `${lo}–${hi}`; T.statusBad = true; renderTable(T.state); } };
    input.addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); go(); } });
    const quick = [...new Set([lo, Math.round((lo + hi) / 2), hi])].filter((v) => stakes.includes(v));
    actionNodes.push(h("div", { class: "stake" }, h("label", { for: "stake-amount", text: t("stake") }), input,
      h("button", { type: "button", "data-focus-key": "stake-go", disabled: T.pending, onclick: go }, t("stake")),
      quick.map((v) => h("button", { type: "button", class: "secondary", "data-move": "stake " + v, "data-focus-key": "stake-" + v, disabled: T.pending, onclick: () => playMove("stake " + v) }, String(v)))));
  }
  const status = h("p", { class: "status" + (T.statusBad ? " bad" : ""), id: "status", role: "status" },
    T.status || (s.is_over ? "" : myTurn ? t("your_turn") : me === null ? t("spectating") : t("waiting_for", { who: seatName(view.to_move, seats) })));

  const board = h("section", { class: "board", "aria-labelledby": "table-title", "data-version": s.version,
    "data-deal": view.match ? view.match.deal_number : 1, "data-over": s.is_over ? "1" : "0", "data-my-turn": myTurn ? "1" : "0" }, seatBoxes,
    h("div", { class: "centre", "aria-label": t("table_cards") }, pubNodes),
    me !== null ? h("div", { class: "hand-area" }, h("h2", { class: "sr-only", text: t("hand") }), hand,
      h("div", { class: "actions", role: "group", "aria-label": t("actions") }, actionNodes), status) : status);

  // the finished deal (until dismissed), the end of the match
  const notices = [];
  const prev = T.previous;
  const prevNumber = view.match ? view.match.results.length : 0;
  if (prev && !s.is_over && T.seenPrevious !== prevNumber) {
    const res = prev.result || [];
    notices.push(h("section", { class: "notice", "aria-labelledby": "deal-over-h", id: "deal-over" },
      h("h2", { id: "deal-over-h", text: t("deal_over", { n: prevNumber }) }),
      h("p", { text: `${t("result")}: ` + res.map((x, i) => `${seatName(i, seats)} ${x > 0 ? "+" + x : x}`).join(" · ") }),
      prev.hands ? h("div", {}, prev.hands.map((hd, i) => hd.length ? h("div", {}, h("span", { text: seatName(i, seats) + ": " }), cardRow(hd, true)) : null)) : null,
      prev.public && prev.public.outcome && fieldOf(s.game, "outcome") ? h("p", { text: `${words(fieldOf(s.game, "outcome").label)}: ${fieldText(fieldOf(s.game, "outcome"), prev.public.outcome, seats)}` }) : null,
      h("button", { type: "button", class: "secondary", id: "dismiss-deal", onclick: () => { T.seenPrevious = prevNumber; renderTable(T.state); } }, t("continue"))));
  }
  if (s.is_over) {
    const w = s.winners || [];
    let big = w.length ? t("winners", { who: w.map((i) => seatName(i, seats)).join(", ") }) : t("no_winner");
    if (me !== null && w.length) big = w.includes(me) ? t("you_win") : t("you_lose");
    notices.push(h("section", { class: "endscreen", id: "end-screen", "aria-labelledby": "end-h" },
      h("h2", { id: "end-h", text: t("match_over") }), h("p", { class: "big", text: big }),
      h("p", { text: `${t("scores")}: ` + view.match.scores.map((x, i) => `${seatName(i, seats)} ${x}`).join(" · ") }),
      scoreSheet(view, seats),
      h("p", { class: "row", style: "justify-content:center;margin-top:12px" },
        h("a", { href: `/api/tables/${T.id}/record`, download: `cardplay-${s.game}-${T.id}.json`, id: "download", text: t("download") }),
        h("a", { href: `/?game=${s.game}`, "data-link": "1", text: t("play_again") }),
        h("a", { href: "/", "data-link": "1", text: t("back_lobby") }))));
  }

  // side: last trick, score sheet, moves, invite, keyboard help
  const side = [];
  const lt = lastTrick(view) || (prev && lastTrick(prev));
  if (lt) {
    side.push(h("details", { class: "panel", id: "last-trick", open: T.shownTrick },
      h("summary", { text: t("last_trick"), onclick: (e) => { e.preventDefault(); T.shownTrick = !T.shownTrick; renderTable(T.state); } }),
      seatCards(lt.cards, seats, true), lt.winner !== undefined && lt.winner !== null ? h("p", { text: `${t("winner")}: ${seatName(lt.winner, seats)}` }) : null));
  }
  if (view.match) {
    side.push(h("details", { class: "panel", id: "score-sheet", open: T.shownSheet },
      h("summary", { text: t("score_sheet"), onclick: (e) => { e.preventDefault(); T.shownSheet = !T.shownSheet; renderTable(T.state); } }),
      scoreSheet(view, seats)));
  }
  const openSeats = seats.filter((x) => x.kind === "human" && !x.claimed);
  if (openSeats.length && !s.is_over) {
    const url = `${location.origin}/join/${T.id}`;
    const input = h("input", { type: "text", readonly: true, value: url, id: "invite-url", "aria-label": t("invite") });
    side.push(h("section", { class: "panel invite" }, h("p", { text: t("invite") }), input,
      h("button", { type: "button", class: "secondary", onclick: async () => { input.select(); try { await navigator.clipboard.writeText(url); } catch (e) { document.execCommand && document.execCommand("copy"); } announce(t("copied")); } }, t("copy"))));
  }
  const hist = view.history || [];
  side.push(h("section", { class: "panel", "aria-labelledby": "log-h" }, h("h2", { id: "log-h", text: t("moves_log") }),
    h("ol", { class: "log", start: Math.max(1, hist.length - 29) }, hist.slice(-30).map(([seat, mv]) => h("li", { text: `${seatName(seat, seats)}: ${logText(mv)}` })))));
  if (me !== null) side.push(h("p", { class: "kbd-help muted", text: t("keyboard_help") }));

  m.replaceChildren(headLine, ...notices, h("div", { class: "layout" }, board, h("aside", { class: "side" }, side)));
  T.prevPublic = view.public;
  // keep keyboard focus where it was
  if (focused) {
    const again = m.querySelector(`[data-focus-key="${CSS.escape(focused)}"]:not([disabled])`) || m.querySelector(".hand button:not([disabled])");
    if (again) again.focus();
  }
}

function toggleSelect(c) {
  if (T.selected.has(c)) T.selected.delete(c); else T.selected.add(c);
  renderTable(T.state);
}

function handKeys(e) {
  if (e.key !== "ArrowLeft" && e.key !== "ArrowRight") return;
  const btns = [...document.querySelectorAll(".hand button")];
  const i = btns.indexOf(document.activeElement);
  if (i < 0) return;
  e.preventDefault();
  const step = e.key === "ArrowRight" ? 1 : -1;
  for (let j = i + step; j >= 0 && j < btns.length; j += step) {
    if (!btns[j].disabled) { btns[j].focus(); return; }
  }
}

document.addEventListener("keydown", (e) => {
  if (!T.state || e.altKey || e.ctrlKey || e.metaKey) return;
  const tag = (e.target && e.target.tagName) || "";
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
  if (/^[1-9]$/.test(e.key)) {
    const legal = T.state.view.legal_moves || [];
    const mv = legal[Number(e.key) - 1];
    if (mv && T.seat !== null && T.state.view.to_move === T.seat) { e.preventDefault(); playMove(mv); }
  } else if (e.key === "l" || e.key === "L" || e.key === "д" || e.key === "Д") {
    T.shownTrick = !T.shownTrick; renderTable(T.state);
  } else if (e.key === "s" || e.key === "S" || e.key === "ы" || e.key === "Ы") {
    T.shownSheet = !T.shownSheet; renderTable(T.state);
  }
});

/* ------------------------------------------------------------------ routing */
function route() {
  const path = location.pathname;
  if (lobbyTimer) { clearInterval(lobbyTimer); lobbyTimer = null; }
  let r;
  if ((r = /^\/t\/([\w-]+)$/.exec(path))) return openTable(r[1], false);
  if ((r = /^\/watch\/([\w-]+)$/.exec(path))) return openTable(r[1], true);
  closeSocket(); T.state = null; T.seat = null;
  if ((r = /^\/join\/([\w-]+)$/.exec(path))) return showJoin(r[1]);
  return showLobby().catch((e) => main().replaceChildren(h("p", { class: "error", role: "alert", text: e.message })));
}
function navigate(url, replace) {
  if (replace) history.replaceState(null, "", url); else history.pushState(null, "", url);
  route();
  main().focus();
}
document.addEventListener("click", (e) => {
  const a = e.target.closest && e.target.closest("a[data-link]");
  if (!a || e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
  e.preventDefault();
  navigate(a.getAttribute("href"));
});
window.addEventListener("popstate", route);

document.addEventListener("DOMContentLoaded", () => {
  applyChrome();
  document.getElementById("lang").addEventListener("change", (e) => {
    lang = e.target.value; localStorage.setItem("cardplay.lang", lang); applyChrome();
    if (T.state) renderTable(T.state); else route();
  });
  document.getElementById("four-colour").addEventListener("change", (e) => {
    fourColour = e.target.checked; localStorage.setItem("cardplay.fourColour", fourColour ? "1" : "0");
    if (T.state) renderTable(T.state);
  });
  route();
});
