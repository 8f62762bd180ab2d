/* cardplay browser UI: the daily deals. The lobby's entry, the daily page (today's commitment and
   games, one attempt each), a game's lists (the day's and the month's), and, at a daily table,
   each finished deal compared with everyone else's on the same cards: best results first, their
   moves beside yours, and what each choice was worth where the players parted (docs/daily.md). */
import { lang, t } from "./texts.js";
import { T, gameTitle, getJSON, h, levelName, loadCatalog, logText, main, navigate, saveSeat } from "./common.js";
import { whoAmI } from "./accounts.js";

const POST = (body) => ({ method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body || {}) });

function setTitle(text) { document.title = `${text} · cardplay`; }

function signed(v) {
  if (Math.abs(v) < 0.05) v = 0;  // no "−0.0"
  const text = Math.abs(v).toLocaleString(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  return (v > 0 ? "+" : v < 0 ? "−" : "") + text;
}
function percent(v) { return v.toLocaleString(lang, { maximumFractionDigits: 1 }); }
function whoName(p) {
  if (p.you) return p.name ? t("daily_you_named", { name: p.name }) : t("daily_you");
  return p.name || t("daily_hidden_name");
}

/* the lobby's entry: one line, today's games with the start of each commitment (filled in once
   the server answers), and the way to the daily page */
export function dailyEntry() {
  const games = h("ul", { class: "daily-entry-games", id: "daily-entry-games" });
  Promise.all([getJSON("/api/daily"), loadCatalog()]).then(([all, catalog]) => {
    games.replaceChildren(...all.games.map((g) => h("li", { title: t("daily_commitment", { commitment: g.commitment }) },
      h("span", { text: catalog[g.game] ? gameTitle(catalog[g.game]) : g.game }), " ",
      h("span", { class: "daily-commitment", text: g.commitment.slice(0, 12) + "…" }))));
  }).catch(() => {});
  return h("section", { class: "panel daily-entry", "aria-labelledby": "daily-entry-h" },
    h("h2", { id: "daily-entry-h", text: t("daily_title") }),
    h("p", { class: "muted", text: t("daily_intro") }), games,
    h("p", {}, h("a", { href: "/daily", "data-link": "1", id: "daily-link", class: "button", text: t("daily_open") })));
}

/* the daily page: today's games with their commitment, a play button each */
export async function showDaily() {
  setTitle(t("daily_title"));
  const [all, catalog, who] = await Promise.all([getJSON("/api/daily"), loadCatalog(), whoAmI()]);
  const err = h("p", { class: "error", role: "alert", id: "daily-error" });
  const play = async (game) => {
    err.textContent = "";
    try {
      const r = await getJSON("/api/daily/" + encodeURIComponent(game), POST());
      saveSeat(r.table, r.token, r.seat, null);
      navigate("/t/" + r.table);
    } catch (e) {
      err.textContent = e.status === 409 ? t("daily_already") : t("daily_error", { message: e.message });
    }
  };
  const cards = all.games.map((g) => {
    const title = catalog[g.game] ? gameTitle(catalog[g.game]) : g.game;
    const mine = g.attempt;
    const saved = mine ? localStorage.getItem("cardplay.token." + mine.table) : null;
    const action = !mine ? h("button", { type: "button", id: "daily-play-" + g.game, onclick: () => play(g.game) }, t("daily_play"))
      : !mine.over && saved ? h("a", { href: "/t/" + mine.table, "data-link": "1", class: "button", text: t("daily_continue") })
        : h("span", { class: "muted", text: t("daily_played") });
    return h("li", { class: "daily-game", id: "daily-" + g.game },
      h("div", {}, h("strong", { text: title }), " ",
        h("span", { class: "muted", text: t(g.whole_match ? "daily_deals_matches" : "daily_deals_single", { n: g.deals, level: levelName(g.level) }) })),
      h("div", { class: "daily-commitment", title: t("daily_commitment_help") }, t("daily_commitment", { commitment: g.commitment })),
      h("div", { class: "row" }, action, h("a", { href: "/daily/" + g.game, "data-link": "1", text: t("daily_list") })));
  });
  const flag = h("input", { type: "checkbox", id: "daily-show-name" });
  const flagRow = who ? h("p", {}, h("label", {}, flag, " ", t("daily_show_name"))) : h("p", { class: "muted", text: t("daily_guest_note") });
  if (who) {
    flag.checked = (await getJSON("/api/daily-names")).shown;
    flag.addEventListener("change", () => getJSON("/api/daily-names", POST({ shown: flag.checked })).catch((e) => { err.textContent = e.message; }));
  }
  main().replaceChildren(h("section", { class: "panel daily", "aria-labelledby": "daily-h" },
    h("h1", { id: "daily-h", text: t("daily_title") }),
    h("p", { text: t("daily_day", { day: all.day }) }),
    h("p", { class: "muted", text: t("daily_how") }),
    h("ul", { class: "daily-games" }, cards), err, flagRow));
}

function standingRows(players, extra) {
  return players.map((p) => h("tr", { class: p.you ? "you" : "" }, h("td", { text: String(p.rank) }),
    h("td", { text: whoName(p) }), h("td", { text: percent(p.score) + " %" }), h("td", { text: String(p[extra]) })));
}
function standingTable(id, players, extra, head) {
  if (!players.length) return h("p", { class: "muted", text: t("daily_none") });
  return h("table", { class: "leaderboard", id },
    h("thead", {}, h("tr", {}, h("th", { scope: "col", text: t("daily_rank") }), h("th", { scope: "col", text: t("daily_player") }),
      h("th", { scope: "col", text: t("daily_score") }), h("th", { scope: "col", text: head }))),
    h("tbody", {}, standingRows(players, extra)));
}
function youLine(you) {
  if (!you) return null;
  return h("p", { class: "daily-you", id: "daily-you" }, t("daily_so_far", { score: percent(you.score), deals: you.deals, rank: you.rank, of: you.of }),
    you.listed ? null : h("span", { class: "muted" }, " ", t("daily_guest_note")));
}

/* a game's lists: the day's (?day=, else today) and the month's */
export async function showDailyResults(game) {
  const catalog = await loadCatalog();
  const title = catalog[game] ? gameTitle(catalog[game]) : game;
  setTitle(t("daily_list_title", { game: title }));
  const day = new URLSearchParams(location.search).get("day");
  const q = day ? "?day=" + encodeURIComponent(day) : "";
  const r = await getJSON(`/api/daily/${encodeURIComponent(game)}/results${q}`);
  const month = await getJSON(`/api/daily/${encodeURIComponent(game)}/month?month=${r.day.slice(0, 7)}`);
  main().replaceChildren(h("section", { class: "panel", "aria-labelledby": "daily-list-h" },
    h("h1", { id: "daily-list-h", text: t("daily_list_title", { game: title }) }),
    h("p", { text: t("daily_day", { day: r.day }) }), youLine(r.you),
    standingTable("daily-board", r.players, "deals", t("daily_deals_col")),
    r.seed !== undefined ? h("p", { class: "daily-commitment", id: "daily-revealed", text: t("daily_revealed", { seed: String(r.seed), salt: r.salt }) }) : null,
    h("h2", { text: t("daily_month", { month: month.month }) }),
    standingTable("daily-month", month.players, "days", t("daily_days_col")),
    h("p", {}, h("a", { href: "/daily", "data-link": "1", text: t("daily_back") }))));
}

/* ------------------------------------------------------------------ at a daily table */
let shown = { table: null, deal: 0, panel: null };

/* after every state: at a daily table, once a deal is finished, show how the others played it */
export function dailyAfterState() {
  if (!T.welcome || T.welcome.seed_source !== "daily" || !T.state || !T.state.view) return;
  const info = T.state.view.match || {};
  const done = (info.segment_results || []).length;
  if (shown.table !== T.id) shown = { table: T.id, deal: 0, panel: null };
  if (done > shown.deal) {
    shown.deal = done;
    loadComparison(T.welcome.game, done, info.segments || done).catch(() => {});
  }
  keepPanel();
}

/* the table is drawn anew on every change (and by its own buttons): the panel comes back after */
function keepPanel() {
  if (shown.panel && location.pathname === "/t/" + shown.table && !main().contains(shown.panel)) main().append(shown.panel);
}
let watching = false;
function watchMain() {
  if (watching) return;
  watching = true;
  new MutationObserver(keepPanel).observe(main(), { childList: true });
}

async function loadComparison(game, deal, of) {
  const g = encodeURIComponent(game);
  const [cmp, res] = await Promise.all([getJSON(`/api/daily/${g}/deal/${deal}`), getJSON(`/api/daily/${g}/results`)]);
  if (deal < shown.deal) return;  // a later deal's comparison was asked for meanwhile
  const panel = h("section", { class: "panel daily-compare", id: "daily-compare", "aria-labelledby": "daily-compare-h" },
    h("h2", { id: "daily-compare-h", text: t("daily_compare_title", { n: deal, of }) }),
    youLine(res.you),
    comparisonNodes(cmp),
    h("p", { class: "row" }, h("a", { href: "/daily/" + game, "data-link": "1", text: t("daily_list") })));
  if (shown.panel) shown.panel.replaceWith(panel);
  shown.panel = panel;
  watchMain();
  keepPanel();
}

function comparisonNodes(cmp) {
  const players = cmp.players;
  const others = players.filter((p) => !p.you);
  if (!others.length) return h("p", { class: "muted", text: t("daily_alone") });
  const results = h("ol", { class: "daily-results" }, players.map((p) => h("li", { class: p.you ? "you" : "" },
    t("daily_result_line", { who: whoName(p), value: signed(p.value) }))));
  // the moves side by side: a column per player, yours first; a row where they differ is marked
  const cols = [players.find((p) => p.you), ...others];
  const longest = Math.max(...cols.map((p) => p.moves.length));
  const rows = [];
  for (let i = 0; i < longest; i++) {
    const cells = cols.map((p) => p.moves[i]);
    const differ = cells.some((c) => !c || !cells[0] || c[1] !== cells[0][1] || c[0] !== cells[0][0]);
    rows.push(h("tr", { class: differ ? "differ" : "" }, h("td", { class: "muted", text: String(i + 1) }),
      cells.map((c) => h("td", { class: c && c[0] !== 0 ? "bot" : "", text: c ? logText(c[1]) : "" }))));
  }
  const moves = h("div", { class: "daily-moves" }, h("table", { id: "daily-moves" },
    h("caption", { text: t("daily_moves_caption") }),
    h("thead", {}, h("tr", {}, h("th", { scope: "col", text: "#" }), cols.map((p) => h("th", { scope: "col", text: `${whoName(p)} (${signed(p.value)})` })))),
    h("tbody", {}, rows)));
  const decisions = cmp.decisions.length ? h("ul", { class: "daily-decisions", id: "daily-decisions" }, cmp.decisions.map((d) =>
    h("li", {}, h("span", { class: "muted", text: t("daily_decision_at", { n: d.index + 1 }) }), " ",
      ...d.choices.map((c) => h("span", { class: "choice" + (c.move === d.yours ? " yours" : "") },
        c.value === null || c.value === undefined
          ? t("daily_decision_nv", { n: c.players, total: d.players, move: logText(c.move) })
          : t("daily_decision", { n: c.players, total: d.players, move: logText(c.move), value: signed(c.value) }), " ")))))
    : h("p", { class: "muted", text: t("daily_same_choices") });
  return h("div", {}, h("h3", { text: t("daily_best_first") }), results, h("h3", { text: t("daily_where_parted") }), decisions, moves);
}
