/* cardplay browser UI: "Play a person". The lobby's form that seeks an opponent (game, preset,
   rated or casual, a clock), the lobby's open seeks with Accept, and the waiting screen
   (/seek/{id}) that polls until the server pairs the seek, then goes to the new table. The seek's
   owner token comes back as an HttpOnly cookie scoped to the seek's own URL: the page keeps
   nothing to prove that the seek is its own. */
import { t } from "./texts.js";
import { defaultLevel, gameTitle, getJSON, h, httpError, loadCatalog, main, navigate, saveSeat, words } from "./common.js";
import { clockChoices } from "./clock.js";

const POLL_MS = 1000; // the server expires a seek unpolled for 30 s

const clockText = (c) => c ? t("seek_clock_value", { move: c.move, reserve: c.reserve }) : t("seek_no_clock");

const JSON_POST = { method: "POST", headers: { "Content-Type": "application/json" } };

/* whether a person is signed in (GET /api/session names them; a guest's name is null, with no
   failed request for the browser to log) */
async function signedIn() {
  try {
    const asked = /** @type {{name: string | null}} */ (await getJSON("/api/session"));
    return Boolean(asked.name);
  } catch (e) { return false; }
}

/* The lobby's "Play a person" panel: the form and the open seeks (refreshed while shown). */
export function seekPanel(catalog) {
  const panel = h("section", { class: "panel", id: "seek-panel", "aria-labelledby": "seek-h" });
  const gameSel = h("select", { id: "seek-game" }, catalog.map((g) => h("option", { value: g.name, text: gameTitle(g) })));
  gameSel.value = localStorage.getItem("cardplay.game") && catalog.some((g) => g.name === localStorage.getItem("cardplay.game"))
    ? localStorage.getItem("cardplay.game") : (catalog.some((g) => g.name === "sixty-six") ? "sixty-six" : gameSel.value);
  const presetSel = h("select", { id: "seek-preset" });
  const presetField = h("div", { class: "field" }, h("label", { for: "seek-preset", text: t("seek_preset") }), presetSel);
  const rated = h("input", { type: "radio", name: "seek-kind", id: "seek-rated", value: "rated" });
  const casual = h("input", { type: "radio", name: "seek-kind", id: "seek-casual", value: "casual", checked: true });
  const clockSel = h("select", { id: "seek-clock" });
  const ratedHint = h("small", { class: "hint", id: "seek-rated-hint" });
  const err = h("p", { class: "error", role: "alert" });
  const list = h("div", { id: "open-seeks" });

  const current = () => catalog.find((g) => g.name === gameSel.value);
  let clocks = [];
  /* the options last chosen for this game in the new-game form, if any differ from the defaults */
  function mine(name) {
    try { const o = JSON.parse(localStorage.getItem("cardplay.options." + name) || "{}"); return o && typeof o === "object" && Object.keys(o).length ? o : null; } catch (e) { return null; }
  }
  function renderChoices() {
    const g = current();
    const preset = g.options.find((o) => o.name === "preset");
    const own = mine(g.name);
    presetField.hidden = !preset && !own;
    presetSel.replaceChildren(...(preset ? preset.choices.map((c, i) => h("option", { value: "preset:" + c, text: words(preset.values[i].label) || String(c) }))
      : [h("option", { value: "standard", text: t("seek_standard") })]),
    ...(own ? [h("option", { value: "mine", text: t("seek_mine") })] : []));
    // the usual rules by default: two people who left them as they are agree, and so pair
    presetSel.value = preset ? "preset:" + preset.default : "standard";
    // the same choices as a table's (clock.js): the game's default, quicker, slower, none if casual
    const before = clockSel.value;
    clocks = clockChoices(g, rated.checked);
    clockSel.replaceChildren(...clocks.map((c) => h("option", { value: c.key, text: c.text })));
    clockSel.value = clocks.some((c) => c.key === before) ? before : "default";
  }
  function body() {
    const b = { game: gameSel.value, rated: rated.checked, name: localStorage.getItem("cardplay.name") || "" };
    if (presetSel.value === "mine") b.options = mine(gameSel.value);
    else if (presetSel.value.startsWith("preset:")) b.options = { preset: presetSel.value.slice(7) };
    if (clockSel.value !== "default") b.clock = clocks.find((c) => c.key === clockSel.value).clock;
    return b;
  }
  async function start(b) {
    err.textContent = "";
    try {
      const r = await getJSON("/api/seeks", { ...JSON_POST, body: JSON.stringify(b) });
      sessionStorage.setItem("cardplay.seek." + r.seek, JSON.stringify({ game: r.game, options: r.options, rated: r.rated, clock: r.clock, players: r.players }));
      navigate("/seek/" + r.seek);
    } catch (e) { err.textContent = httpError(e, "seek_error"); }
  }
  gameSel.addEventListener("change", renderChoices);
  rated.addEventListener("change", renderChoices);
  casual.addEventListener("change", renderChoices);
  panel.append(h("h2", { id: "seek-h", text: t("play_person") }),
    h("div", { class: "quick" }, h("div", { class: "field" }, h("label", { for: "seek-game", text: t("game") }), gameSel), presetField),
    h("fieldset", { class: "field" }, h("legend", { text: t("seek_kind") }),
      h("div", { class: "row" }, h("span", {}, casual, " ", h("label", { for: "seek-casual", text: t("seek_casual") })),
        h("span", {}, rated, " ", h("label", { for: "seek-rated", text: t("seek_rated") }))), ratedHint),
    h("div", { class: "field" }, h("label", { for: "seek-clock", text: t("seek_clock") }), clockSel),
    h("div", { class: "row" }, h("button", { type: "button", id: "seek-start", onclick: () => start(body()) }, t("seek_start"))), err,
    h("h2", { id: "open-seeks-h", text: t("open_seeks") }), list);
  renderChoices();
  signedIn().then((yes) => {
    rated.disabled = !yes;
    ratedHint.textContent = yes ? "" : t("seek_sign_in");
  });

  async function renderSeeks() {
    // this browser's own seeks are not offered to it (a guest would be paired with themself)
    const seeks = (await getJSON("/api/seeks")).seeks.filter((s) => !sessionStorage.getItem("cardplay.seek." + s.id));
    list.replaceChildren(seeks.length ? h("ul", { class: "tables" }, seeks.map((s) => {
      const g = catalog.find((x) => x.name === s.game) || { name: s.game };
      const who = s.name || t("seek_someone");
      return h("li", {},
        h("span", {}, h("strong", { text: gameTitle(g) }), " ", h("span", { class: "muted",
          text: [who + (s.rating !== null ? ` (${s.rating})` : ""), s.rated ? t("seek_rated") : t("seek_casual"),
            clockText(s.clock), t("players", { n: s.players })].join(" · ") })),
        h("button", { type: "button", class: "secondary", "data-accept": s.id,
          "aria-label": t("seek_accept_who", { who, game: gameTitle(g) }),
          onclick: () => start({ accept: s.id, name: localStorage.getItem("cardplay.name") || "" }) }, t("seek_accept")));
    })) : h("p", { class: "muted", text: t("no_seeks") }));
  }
  renderSeeks().catch(() => {});
  const timer = setInterval(() => {
    if (!document.body.contains(panel)) { clearInterval(timer); return; }
    if (!list.contains(document.activeElement)) renderSeeks().catch(() => {});
  }, 5000);
  return panel;
}

/* The waiting screen of a seek: polls until paired (then to the table), with cancel and, after
   a while, bots instead. */
export async function showSeek(id) {
  let info = {};
  try { info = JSON.parse(sessionStorage.getItem("cardplay.seek." + id) || "{}"); } catch (e) { info = {}; }
  const catalog = await loadCatalog();
  const g = (info.game && catalog[info.game]) || { name: info.game || "" };
  const status = h("p", { id: "seek-status", role: "status", text: t("seek_waiting", { game: gameTitle(g) }) });
  const waited = h("p", { class: "muted", id: "seek-waited" });
  const err = h("p", { class: "error", role: "alert" });
  const bots = h("button", { type: "button", class: "secondary", id: "seek-bots", hidden: true, onclick: () => playBots() }, t("seek_bots"));
  const cancelBtn = h("button", { type: "button", class: "secondary", id: "seek-cancel", onclick: () => cancel(true) }, t("seek_cancel"));
  const panel = h("section", { class: "panel join", "aria-labelledby": "seek-wait-h" },
    h("h1", { id: "seek-wait-h", text: t("play_person") }), status,
    info.game ? h("p", { class: "muted", text: [info.rated ? t("seek_rated") : t("seek_casual"), clockText(info.clock)].join(" · ") }) : null,
    waited, h("p", { class: "row" }, cancelBtn, bots), err);
  main().replaceChildren(panel);
  document.title = [t("play_person"), "cardplay"].join(" · ");  // the page, then the site: layout
  let stopped = false;
  const here = () => document.body.contains(panel) && !stopped;

  async function cancel(back) {
    stopped = true;
    try {
      const r = await fetch("/api/seeks/" + encodeURIComponent(id), { method: "DELETE" });
      if (r.status === 409) { stopped = false; return poll(); } // paired meanwhile: go to the table
    } catch (e) { /* the seek expires by itself once nobody polls it */ }
    if (back) navigate("/");
  }
  async function playBots() {
    await cancel(false);
    if (!stopped) return;
    const game = catalog[info.game];
    const level = localStorage.getItem("cardplay.level");
    const lvl = game && game.levels.includes(level) ? level : (game ? defaultLevel(game.levels) : "random");
    const seats = [{ kind: "human" }, ...Array.from({ length: (info.players || 2) - 1 }, () => ({ kind: "bot", level: lvl }))];
    try {
      const r = await getJSON("/api/tables", { ...JSON_POST, body: JSON.stringify({ game: info.game, options: info.options || {}, seats,
        name: localStorage.getItem("cardplay.name") || "" }) });
      saveSeat(r.table, r.token, r.seat);
      navigate(r.url, true);
    } catch (e) { err.textContent = httpError(e, "create_error"); }
  }
  async function poll() {
    if (!here()) return;
    let r;
    try { r = await getJSON("/api/seeks/" + encodeURIComponent(id), { cache: "no-store" }); } catch (e) {
      if (e.status === 403 || e.status === 404) { status.textContent = t("seek_lost"); cancelBtn.hidden = true; return; }
      setTimeout(poll, POLL_MS * 3); return; // the server may be restarting: keep trying
    }
    if (!here()) return;
    if (r.status === "paired") {
      if (r.token) saveSeat(r.table, r.token, r.seat);
      sessionStorage.removeItem("cardplay.seek." + id);
      navigate("/t/" + r.table, true);
      return;
    }
    if (r.status !== "waiting") { status.textContent = t("seek_over_" + r.status); cancelBtn.hidden = true; bots.hidden = !info.game; return; }
    waited.textContent = t("seek_waited", { s: Math.round(r.waited) });
    // the server says after how long "play bots instead" is offered
    if (r.waited >= r.bots_after && bots.hidden && info.game) { bots.hidden = false; }
    setTimeout(poll, POLL_MS);
  }
  poll();
}
