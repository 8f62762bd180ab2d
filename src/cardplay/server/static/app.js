/* cardplay browser UI, the page's entry module: the lobby, an invitation, the connection to a
   table and the routes between them. Plain JavaScript as ES modules, loaded as they are (no build). */
import { LANGUAGES, fourColour, lang, setFourColour, setLang, t } from "./texts.js";
import { T, announce, banner, defaultLevel, gameTitle, getJSON, h, httpError, levelName, loadCatalog, logText, main, navigate, redraw, saveSeat, seatName, setRouter, words, yourTables } from "./common.js";
import { onCoach, onCoachError } from "./coach.js";
import { newContribution } from "./proof.js";
import { renderTable } from "./table.js";
import { learnButton } from "./tutorial.js";
import { reasonOf } from "./refusals.js";
import { levelStrength, showGameRules } from "./rulebook.js";
import { seekPanel, showSeek } from "./seek.js";
import { clockChoices, noteClock } from "./clock.js";
import { renderAccountNav, showAccount, showLeaderboard, showPlayer, showSignIn, whoAmI } from "./accounts.js";
import { dailyAfterState, dailyEntry, showDaily, showDailyResults } from "./daily.js";
import { openSettings, refreshPanel, syncSettings } from "./settings.js";
import { soundForState } from "./sounds.js";
import { noteUndo } from "./undo.js";

function applyChrome() {
  document.documentElement.lang = lang;
  const select = /** @type {HTMLSelectElement} */ (document.getElementById("lang"));
  // every language with a catalogue, each in its own words
  select.replaceChildren(...Object.entries(LANGUAGES).map(([code, name]) => h("option", { value: code, text: name })));
  select.value = lang;
  /** @type {HTMLInputElement} */ (document.getElementById("four-colour")).checked = fourColour;
  document.getElementById("lang-label").textContent = t("language");
  document.getElementById("four-colour-label").textContent = t("four_colour");
  document.getElementById("skip-link").textContent = t("skip");
  document.getElementById("credits").textContent = t("credits");
  document.getElementById("credits-link").textContent = t("credits_link");
  document.getElementById("settings-button").textContent = t("settings_button");
  refreshPanel();
}

/* ------------------------------------------------------------------ lobby */
let catalog = null;
let lobbyTimer = null;
/* One more each time the page changes: a lobby still waiting for the server when the page has
   changed again (the language switched while it loaded) stops there, instead of adding itself
   to the newer page. */
let routeCount = 0;
async function showLobby() {
  const count = routeCount;
  document.title = "cardplay";
  const m = main();
  m.replaceChildren(h("h1", { text: t("lobby_title") }));
  if (!catalog) catalog = Object.values(await loadCatalog()).filter((g) => g.available);
  if (count !== routeCount) return;
  const form = h("form", { class: "panel", id: "new-game", "aria-labelledby": "new-game-h" });
  // The heading is there from the start: until the lists arrive, a section named by a missing
  // heading has no role and no name (axe flags it, and a screen reader announces nothing).
  const tablesPanel = h("section", { class: "panel", "aria-labelledby": "open-h" },
    h("h2", { id: "open-h", text: t("open_tables") }));
  m.append(h("div", { class: "lobby" }, form, h("div", { class: "stack" }, seekPanel(catalog), dailyEntry(), tablesPanel)));

  const params = new URLSearchParams(location.search);
  const gameSel = h("select", { id: "game", name: "game" },
    catalog.map((g) => h("option", { value: g.name, text: gameTitle(g) })));
  // The last game played here comes back, else the flagship game, so a game against a bot is one
  // click away.
  const remembered = localStorage.getItem("cardplay.game");
  gameSel.value = params.get("game") || (remembered && catalog.some((g) => g.name === remembered) ? remembered
    : catalog.some((g) => g.name === "sixty-six") ? "sixty-six" : gameSel.value);
  const optsBox = h("div", { class: "options" });
  const seatsBox = h("div", { class: "seats-config" });
  const levelSel = h("select", { id: "level", name: "level", "aria-describedby": "level-strength" });
  // how often the chosen level beats the one below it in this game (measured)
  const strengthLine = h("small", { class: "hint", id: "level-strength" });
  const showStrength = () => { strengthLine.textContent = levelStrength(current(), levelSel.value); };
  levelSel.addEventListener("change", showStrength);
  const nameInput = h("input", { type: "text", id: "name", maxlength: "40", autocomplete: "nickname" });
  // a table with invited people is unlisted unless its creator asks for the open list
  const unlisted = h("input", { type: "checkbox", id: "unlisted", checked: true });
  // the time control of a table with another person (the game's own choices)
  const clockSel = h("select", { id: "clock", name: "clock" });
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
      if (i === 0) { seatsBox.append(h("div", { class: "field" }, h("span", { class: "label", text: `${t("seat_n", { n: 1 })}: ${t("seat_you")}` }))); continue; }
      const sel = h("select", { id, "data-seat": i },
        h("option", { value: "human", text: t("seat_person") }),
        g.levels.map((l) => h("option", { value: "bot:" + l, text: t("seat_bot", { level: levelName(l) }) })));
      sel.value = "bot:" + defaultLevel(g.levels);
      seatsBox.append(h("div", { class: "field" }, h("label", { for: id, text: t("seat_n", { n: i + 1 }) }), sel));
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
        input = h("input", { id, type: "number", "data-option": o.name, min: o.min ?? 1, max: o.max, step: 1, inputmode: "numeric" });
        input.value = o.default;
      }
      const hint = h("small", { class: "hint", id: id + "-hint", text: words(o.description) });
      const bad = h("small", { class: "error field-error", id: id + "-error", role: "alert" });
      input.addEventListener("change", () => { checkNumber(input, o, bad); renderSeats(); });
      input.addEventListener("input", () => checkNumber(input, o, bad));
      input.setAttribute("aria-describedby", hint.id + " " + bad.id);
      optsBox.append(h("div", { class: "field" }, h("label", { for: id, text: words(o.label) }), input, bad, hint));
    }
    levelSel.replaceChildren(...g.levels.map((l) => h("option", { value: l, text: levelName(l) })));
    renderClock();
    const level = localStorage.getItem("cardplay.level");
    levelSel.value = g.levels.includes(level) ? level : defaultLevel(g.levels);
    showStrength();
    // the options last chosen for this game come back (those still valid)
    let kept = {};
    try { kept = JSON.parse(localStorage.getItem("cardplay.options." + g.name) || "{}"); } catch (e) { kept = {}; }
    for (const el of optsBox.querySelectorAll("[data-option]")) {
      const o = g.options.find((x) => x.name === el.dataset.option);
      if (!(o.name in kept)) continue;
      if (o.choices) { const i = o.choices.indexOf(kept[o.name]); if (i >= 0) el.value = String(i); }
      else if (Number.isInteger(kept[o.name]) && kept[o.name] >= (o.min ?? 1) && (o.max === undefined || kept[o.name] <= o.max)) el.value = String(kept[o.name]);
    }
    renderSeats();
  }
  gameSel.addEventListener("change", renderOptions);

  function checkNumber(input, o, bad) {
    if (o.choices) return true;
    const lo = o.min ?? 1, hi = o.max ?? 1e9, v = Number(input.value);
    const ok = input.value.trim() !== "" && Number.isInteger(v) && v >= lo && v <= hi;
    bad.textContent = ok ? "" : t("invalid_number", { lo, hi: o.max ?? "…" });
    input.setAttribute("aria-invalid", ok ? "false" : "true");
    return ok;
  }
  // a rated table: offered to a signed-in person, for a table of people only (the server checks)
  const rated = h("input", { type: "checkbox", id: "rated" });
  const ratedBox = h("div", { class: "field check", hidden: true }, rated, h("label", { for: "rated", text: t("rated_table") }));
  whoAmI().then((who) => { ratedBox.hidden = !who; });
  // the game's clocks; "no clock" only for a casual table
  const asRatedNow = () => rated.checked && !ratedBox.hidden;
  function renderClock() {
    const keep = clockSel.value;
    const choices = clockChoices(current(), asRatedNow());
    clockSel.replaceChildren(...choices.map((c) => h("option", { value: c.key, text: c.text })));
    if (choices.some((c) => c.key === keep)) clockSel.value = keep;
  }
  rated.addEventListener("change", renderClock);
  function chosenClock(asRated) {
    const choices = clockChoices(current(), asRated);
    return (choices.find((c) => c.key === clockSel.value) || choices[0]).clock;
  }
  async function create(seats, asRated) {
    err.textContent = "";
    const wrong = [...optsBox.querySelectorAll("input[data-option]")].filter((el) => el.getAttribute("aria-invalid") === "true");
    if (wrong.length) { wrong[0].focus(); return; }
    localStorage.setItem("cardplay.name", nameInput.value);
    localStorage.setItem("cardplay.game", gameSel.value);
    localStorage.setItem("cardplay.level", levelSel.value);
    localStorage.setItem("cardplay.options." + gameSel.value, JSON.stringify(optionValues()));
    try {
      const contribution = newContribution();
      const r = await getJSON("/api/tables", { method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ game: gameSel.value, options: optionValues(), seats, name: nameInput.value, contribution,
          listed: !(unlisted.checked && seats.some((x, i) => i > 0 && x.kind === "human")),
          // a clock only where another person sits (a table against bots alone has none)
          ...(seats.some((x, i) => i > 0 && x.kind === "human") ? { clock: chosenClock(asRated) } : {}),
          ...(asRated ? { rated: true } : {}) }) });
      saveSeat(r.table, r.token, r.seat, contribution);
      navigate(r.url);
    } catch (e) { err.textContent = httpError(e, "create_error"); }
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
    create(seats, rated.checked && !ratedBox.hidden);
  } }, t("create_table"));
  form.addEventListener("submit", (e) => e.preventDefault());
  form.append(
    h("h2", { id: "new-game-h", text: t("new_game") }),
    h("div", { class: "quick" }, h("div", { class: "field" }, h("label", { for: "game", text: t("game") }), gameSel,
      // the rules before the first game: as the form's options would play them
      h("button", { type: "button", class: "secondary small", id: "lobby-rules", onclick: () => showGameRules(gameSel.value, optionValues(), "lobby-rules") }, t("rules"))),
      h("div", { class: "field" }, h("label", { for: "level", text: t("opponents") }), levelSel, strengthLine)),
    h("div", { class: "row" }, playNow), learnButton(gameSel, () => nameInput.value, err), err,
    h("fieldset", { class: "field" }, h("legend", { text: t("options") }), optsBox),
    h("div", { class: "field" }, h("label", { for: "name", text: t("your_name") }), nameInput),
    h("fieldset", { class: "field" }, h("legend", { text: t("seats") }), seatsBox),
    h("div", { class: "field check" }, unlisted, h("label", { for: "unlisted", text: t("unlisted") })),
    h("div", { class: "field" }, h("label", { for: "clock", text: t("clock") }), clockSel),
    ratedBox,
    h("div", { class: "row" }, createBtn));
  renderOptions();

  async function renderTables() {
    const data = await getJSON("/api/tables");
    const item = (x, open) => h("li", {},
      h("span", {}, h("strong", { text: gameTitle(x) }), " ", h("span", { class: "muted",
        text: `${t("players", { n: x.players })} · ${t("deal_n", { n: x.deal_number })}` + (open ? ` · ${t("seat_free", { n: x.open_seats.length })}` : "") })),
      h("span", { class: "row" },
        open ? h("a", { href: "/join/" + x.id, "data-link": "1", text: t("join") }) : null,
        h("a", { href: "/watch/" + x.id, "data-link": "1", text: t("watch") })));
    const mine = await yourTables();
    // replaceChildren would write a null as the text "null": only the parts there are
    const yours = mine.length ? [h("h2", { id: "mine-h", text: t("your_tables") }),
      h("ul", { class: "tables", id: "your-tables" }, mine.map((x) => h("li", {},
        h("span", {}, h("strong", { text: gameTitle(x) }), " ", h("span", { class: "muted",
          text: x.is_over ? t("table_over") : `${t("deal_n", { n: x.deal_number })} · ${t("your_seat", { n: x.mySeat + 1 })}` })),
        h("span", { class: "row" }, h("a", { href: "/t/" + x.id, "data-link": "1", text: x.is_over ? t("see_table") : t("back_to_table") })))))] : [];
    tablesPanel.replaceChildren(
      ...yours,
      h("h2", { id: "open-h", text: t("open_tables") }),
      data.open.length ? h("ul", { class: "tables" }, data.open.map((x) => item(x, true))) : h("p", { class: "muted", text: t("none_open") }),
      h("h2", { text: t("playing_tables") }),
      data.playing.length ? h("ul", { class: "tables" }, data.playing.map((x) => item(x, false))) : h("p", { class: "muted", text: t("none_playing") }),
      h("button", { type: "button", class: "secondary", onclick: renderTables }, t("refresh")));
  }
  await renderTables();
  if (count !== routeCount) return;
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
  // an invite: say what the table is, ask the name the others will see, then take the seat
  let info = null;
  try { info = await getJSON("/api/tables/" + encodeURIComponent(id)); } catch (e) { info = null; }
  const name = h("input", { type: "text", id: "join-name", maxlength: "40", autocomplete: "nickname" });
  name.value = localStorage.getItem("cardplay.name") || "";
  const err = h("p", { class: "error", role: "alert" });
  const take = async () => {
    err.textContent = "";
    localStorage.setItem("cardplay.name", name.value);
    try {
      const contribution = newContribution();
      const r = await getJSON(`/api/tables/${id}/join`, { method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ name: name.value, contribution }) });
      saveSeat(id, r.token, r.seat, contribution);
      navigate("/t/" + id, true);
    } catch (e) { err.textContent = httpError(e, "join_error"); }
  };
  name.addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); take(); } });
  const who = info ? info.seats.filter((x) => x.kind === "human" && x.claimed && x.name).map((x) => x.name) : [];
  main().replaceChildren(h("section", { class: "panel join", "aria-labelledby": "join-h" },
    h("h1", { id: "join-h", text: info ? t("join_title", { game: gameTitle(info) }) : t("join_seat") }),
    who.length ? h("p", { text: t("join_with", { who: who.join(", ") }) }) : null,
    h("div", { class: "field" }, h("label", { for: "join-name", text: t("your_name") }), name),
    h("p", { class: "row" }, h("button", { type: "button", id: "take-seat", onclick: take }, t("join_seat")),
      h("a", { href: "/watch/" + id, "data-link": "1", text: t("watch_instead") }),
      h("a", { href: "/", "data-link": "1", text: t("back_lobby") })), err));
  name.focus();
}

function openTable(id, watch) {
  closeSocket();
  Object.assign(T, { id, state: null, welcome: null, previous: null, seenPrevious: -1, retry: 0,
    closing: false, pending: false, selected: new Set(), lastVersion: -1, status: "", statusBad: false,
    hint: null, reviews: {}, coach: null, reviewShown: null, hold: null, onTable: null, outgoing: null, prevPublic: null, steady: null });
  const saved = watch ? null : localStorage.getItem("cardplay.token." + id);
  T.token = saved ? JSON.parse(saved).token : null;
  T.contribution = saved ? JSON.parse(saved).contribution || null : null;
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
    // the seat's random part rides along: the server takes it if the seat has none yet
    ws.send(JSON.stringify(T.token ? { type: "hello", table: T.id, token: T.token, ...(T.contribution ? { contribution: T.contribution } : {}) }
      : { type: "watch", table: T.id }));
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
    if (!old || msg.version !== old.version) { T.selected = new Set(); T.tapped = null; }
    if (old && msg.last && msg.version > old.version) {
      const who = msg.last.seat === T.seat ? null : seatName(msg.last.seat, msg.seats);
      // a move in words (a stake, "Buy a card"), never its code ("stake 28", "buy")
      let text = who ? t("played", { who, move: logText(msg.last.move) }) : t("you_played", { move: logText(msg.last.move) });
      if (T.seat !== null && msg.view && msg.view.to_move === T.seat && !msg.is_over) text += " " + t("your_turn");
      announce(text);
    }
    if (!msg.full && msg.reply_to === undefined && T.status && !T.statusBad) T.status = "";
    if (msg.reply_to !== undefined) { T.status = ""; T.statusBad = false; }
    soundForState(old, msg, T.seat);
    noteUndo(old, msg);
    noteClock(msg, old);
    renderTable(old);
    dailyAfterState();
  } else if (msg.type === "error") {
    T.pending = false;
    if (msg.code === "bad_token" || msg.code === "no_table") {
      main().replaceChildren(h("p", { class: "error", role: "alert", text: t("err_" + msg.code) }),
        h("p", {}, h("a", { href: "/", "data-link": "1", text: t("back_lobby") })));
      closeSocket();
      return;
    }
    const key = "err_" + msg.code;
    T.status = reasonOf(msg) || (t(key) !== key ? t(key) : t("err_generic", { message: msg.message }));
    T.statusBad = true;
    onCoachError(msg, T.status);
    redraw();
    announce(T.status);
  } else if (msg.type === "hint" || msg.type === "review") {
    onCoach(msg);
  } else if (msg.type === "record") {
    /* records are fetched over HTTP for download; nothing to do */
  }
}

/* ------------------------------------------------------------------ routing */
function route() {
  const path = location.pathname;
  routeCount += 1;
  syncSettings();  // the account's settings, once someone signs in
  if (lobbyTimer) { clearInterval(lobbyTimer); lobbyTimer = null; }
  let r;
  if ((r = /^\/t\/([\w-]+)$/.exec(path))) return openTable(r[1], false);
  if ((r = /^\/watch\/([\w-]+)$/.exec(path))) return openTable(r[1], true);
  closeSocket(); T.state = null; T.seat = null;
  if ((r = /^\/join\/([\w-]+)$/.exec(path))) return showJoin(r[1]);
  if ((r = /^\/seek\/([\w-]+)$/.exec(path))) return showSeek(r[1]);
  const failed = (e) => main().replaceChildren(h("p", { class: "error", role: "alert", text: e.message }));
  if (path === "/signin" || path === "/signup") return showSignIn(path === "/signup");
  if (path === "/account") return showAccount().catch(failed);
  if ((r = /^\/players\/([^/]+)$/.exec(path))) return showPlayer(decodeURIComponent(r[1])).catch(failed);
  if ((r = /^\/leaderboard\/([\w-]+)$/.exec(path))) return showLeaderboard(r[1]).catch(failed);
  if (path === "/daily") return showDaily().catch(failed);
  if ((r = /^\/daily\/([\w-]+)$/.exec(path))) return showDailyResults(r[1]).catch(failed);
  return showLobby().catch((e) => main().replaceChildren(h("p", { class: "error", role: "alert", text: e.message })));
}
document.addEventListener("click", (e) => {
  const target = /** @type {Element} */ (e.target);
  const a = target.closest && target.closest("a[data-link]");
  if (!a || e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
  e.preventDefault();
  navigate(a.getAttribute("href"));
});
window.addEventListener("popstate", route);

setRouter(route);

// A module runs once the page is parsed (modules are deferred): the page can be set up at once.
applyChrome();
renderAccountNav();
document.getElementById("lang").addEventListener("change", async (e) => {
  const value = /** @type {HTMLSelectElement} */ (e.target).value;
  // the same language again changes nothing: no page built anew under the reader's hands (the
  // words now come over the network, so a rebuild would land a moment after the choice)
  if (value === lang) return;
  await setLang(value); applyChrome(); renderAccountNav();
  if (T.state) redraw(); else route();
});
document.getElementById("settings-button").addEventListener("click", openSettings);
document.getElementById("four-colour").addEventListener("change", (e) => {
  setFourColour(/** @type {HTMLInputElement} */ (e.target).checked);
  redraw();
});
route();
