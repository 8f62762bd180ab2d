/* cardplay browser UI: accounts. The header's sign-in link (or the account's name), the sign-in and
   sign-up forms, the account page (sessions, deletion), a player's page (ratings, recent games,
   unfinished tables to resume) and a game's leaderboard. The session is an HttpOnly cookie that
   this script never sees: it asks GET /api/session who is signed in. */
import { lang, t } from "./texts.js";
import { gameTitle, getJSON, h, loadCatalog, main, navigate, saveSeat, savedSeats } from "./common.js";

/** @type {{name: string} | null | undefined} undefined: not asked yet */
let me;

/* who is signed in (asked once, and again after signing in or out) */
export async function whoAmI() {
  if (me === undefined) {
    try {
      const asked = /** @type {{name: string | null}} */ (await getJSON("/api/session"));
      me = asked.name ? { name: asked.name } : null;
    } catch (e) { me = null; }
  }
  return me;
}

const JSON_POST = (method, body) => ({ method, headers: { "Content-Type": "application/json" },
  body: JSON.stringify(body) });

/* the account's part of the header: its name and a sign-out, or the way in */
export async function renderAccountNav() {
  const nav = document.getElementById("account-nav");
  if (!nav) return;
  const who = await whoAmI();
  const board = h("a", { href: "/leaderboard/sixty-six", "data-link": "1", id: "nav-leaderboard", text: t("leaderboard") });
  if (who) {
    nav.replaceChildren(board,
      h("a", { href: "/players/" + encodeURIComponent(who.name), "data-link": "1", id: "nav-profile", text: who.name }),
      h("a", { href: "/account", "data-link": "1", id: "nav-account", text: t("acct_page") }));
  } else {
    nav.replaceChildren(board,
      h("a", { href: "/signin", "data-link": "1", id: "nav-signin", text: t("sign_in") }),
      h("a", { href: "/signup", "data-link": "1", id: "nav-signup", text: t("sign_up") }));
  }
}

function errorText(e) {
  const key = "acct_err_" + (e.code || "");
  return t(key) !== key ? t(key) : e.message;
}

/* sign in (or, with signup, sign up), bringing the seats this browser holds */
export function showSignIn(signup) {
  setTitle(signup ? t("sign_up") : t("sign_in"));
  const name = h("input", { type: "text", id: "acct-name", name: "username", maxlength: "40", required: true, autocomplete: "username" });
  const pass = h("input", { type: "password", id: "acct-password", name: "password", minlength: "8", required: true,
    autocomplete: signup ? "new-password" : "current-password" });
  const err = h("p", { class: "error", role: "alert", id: "acct-error" });
  const form = h("form", { class: "panel narrow", id: "acct-form", "aria-labelledby": "acct-h" },
    h("h1", { id: "acct-h", text: signup ? t("sign_up") : t("sign_in") }),
    h("p", { class: "muted", text: t("acct_guest_note") }),
    h("label", { for: "acct-name", text: t("acct_name") }), name,
    h("label", { for: "acct-password", text: t("acct_password") }), pass, err,
    h("p", { class: "row" }, h("button", { type: "submit", id: "acct-submit", text: signup ? t("sign_up") : t("sign_in") }),
      h("a", { href: signup ? "/signin" : "/signup", "data-link": "1", text: signup ? t("acct_have") : t("acct_new") })));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    err.textContent = "";
    const seats = savedSeats().map((s) => ({ table: s.table, token: s.token })).slice(0, 100);
    try {
      const r = await getJSON(signup ? "/api/accounts" : "/api/session",
        JSON_POST("POST", { name: name.value, password: pass.value, seats }));
      me = { name: r.name };
      pass.value = "";
      await renderAccountNav();
      navigate("/players/" + encodeURIComponent(r.name));
    } catch (e) {
      err.textContent = errorText(e);
    }
  });
  main().replaceChildren(form);
  name.focus();
}

/* the tab's title: the page's name, then the site's (a separator, not words around a text)
   @param {string} text */
function setTitle(text) { document.title = [text, "cardplay"].join(" · "); }

/* the reader's language's date and time; English as written in Britain (day before month) */
function when(seconds) {
  return new Date(seconds * 1000).toLocaleString(lang === "en" ? "en-GB" : lang);
}

/* a session's browser in a few words (the user agent as sent is long and says little to a person) */
function agentLabel(ua) {
  const browser = /Firefox\//.test(ua) ? "Firefox" : /Edg\//.test(ua) ? "Edge" : /Chrome\//.test(ua) ? "Chrome"
    : /Safari\//.test(ua) ? "Safari" : "";
  const os = /Android/.test(ua) ? "Android" : /iPhone|iPad/.test(ua) ? "iOS" : /Windows/.test(ua) ? "Windows"
    : /Mac OS X/.test(ua) ? "macOS" : /Linux/.test(ua) ? "Linux" : "";
  return [browser, os].filter(Boolean).join(" · ") || ua.slice(0, 40) || "?";
}

/* the account page: who, where signed in, sign out (here, there, everywhere), delete */
export async function showAccount() {
  setTitle(t("acct_page"));
  let data;
  try { data = await getJSON("/api/me"); } catch (e) { me = null; navigate("/signin", true); return; }
  const err = h("p", { class: "error", role: "alert", id: "acct-error" });
  const signOut = async (everywhere) => {
    await fetch("/api/session" + (everywhere ? "?everywhere=1" : ""), { method: "DELETE" });
    me = null;
    await renderAccountNav();
    navigate("/");
  };
  const sessions = h("ul", { class: "plain", id: "sessions" }, data.sessions.map((s) => h("li", {},
    `${agentLabel(s.agent)} · ${t("acct_last", { when: when(s.seen) })} `,
    s.current ? h("strong", { text: "(" + t("acct_this") + ")" })
      : h("button", { type: "button", class: "secondary", onclick: async () => {
        await fetch("/api/me/sessions/" + encodeURIComponent(s.id), { method: "DELETE" });
        showAccount();
      } }, t("acct_end")))));
  const pass = h("input", { type: "password", id: "delete-password", autocomplete: "current-password" });
  const del = h("form", { class: "row", id: "delete-form" },
    h("label", { for: "delete-password", text: t("acct_password") }), pass,
    h("button", { type: "submit", class: "danger", text: t("acct_delete") }));
  del.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      await getJSON("/api/me", JSON_POST("DELETE", { password: pass.value }));
      me = null;
      await renderAccountNav();
      navigate("/");
    } catch (e) { err.textContent = errorText(e); }
  });
  main().replaceChildren(h("section", { class: "panel", "aria-labelledby": "account-h" },
    h("h1", { id: "account-h", text: `${t("acct_page")}: ${data.name}` }),
    h("p", { class: "row" },
      h("a", { href: "/players/" + encodeURIComponent(data.name), "data-link": "1", text: t("profile") }),
      h("button", { type: "button", id: "sign-out", onclick: () => signOut(false) }, t("sign_out")),
      h("button", { type: "button", class: "secondary", id: "sign-out-all", onclick: () => signOut(true) }, t("sign_out_all"))),
    h("h2", { text: t("acct_sessions") }), sessions,
    h("h2", { text: t("acct_delete") }), h("p", { class: "muted", text: t("acct_delete_note") }), del, err));
}

function titleOf(catalog, key) {
  const [game, n] = key.split("/");
  const g = catalog[game];
  return (g ? gameTitle(g) : game) + (n ? ` (${n})` : "");
}

function ratingText(r) {
  return t("rating_line", { rating: r.rating, dev: r.deviation, n: r.games }) +
    (r.provisional ? ` (${t("provisional")})` : "");
}

function playerLink(name) {
  return name ? h("a", { href: "/players/" + encodeURIComponent(name), "data-link": "1", text: name }) : "—";
}

/* a player's page: ratings, recent games, and (to the player) unfinished tables */
export async function showPlayer(name) {
  setTitle(name);
  const catalog = await loadCatalog();
  let p;
  try { p = await getJSON("/api/players/" + encodeURIComponent(name)); } catch (e) {
    main().replaceChildren(h("p", { class: "error", role: "alert", text: errorText(e) })); return;
  }
  const keys = Object.keys(p.ratings);
  const ratings = keys.length ? h("ul", { class: "plain", id: "ratings" }, keys.map((k) => h("li", { "data-key": k },
    h("a", { href: "/leaderboard/" + k.split("/")[0], "data-link": "1", text: titleOf(catalog, k) }), ": ",
    ratingText(p.ratings[k]))))
    : h("p", { class: "muted", text: t("none_yet") });
  const games = p.games.length ? h("ul", { class: "plain", id: "games" }, p.games.map((g) => h("li", {},
    h("strong", { text: t("result_" + g.result) !== "result_" + g.result ? t("result_" + g.result) : "—" }), " · ",
    titleOf(catalog, g.game), ` (${g.rated ? t("rated") : t("casual")}) · `,
    t("vs", { who: "" }), ...g.opponents.flatMap((o, i) => i ? [", ", playerLink(o)] : [playerLink(o)]),
    ` · ${g.ended ? when(g.ended) : ""} · `,
    h("a", { href: g.record, download: `cardplay-${g.game}-${g.table}.json`, text: t("record") }), " · ",
    h("a", { href: g.review, "data-link": "1", text: t("review") }))))
    : h("p", { class: "muted", text: t("none_yet") });
  const parts = [h("h1", { id: "player-h", text: p.name }), h("h2", { text: t("ratings") }), ratings,
    h("h2", { text: t("recent_games") }), games];
  if (p.tables) {
    parts.push(h("h2", { text: t("your_unfinished") }), p.tables.length ? h("ul", { class: "plain", id: "unfinished" },
      p.tables.map((u) => h("li", {}, titleOf(catalog, u.game), " · ", t("vs", { who: u.opponents.join(", ") }), " ",
        h("button", { type: "button", class: "secondary", onclick: async () => {
          const r = await getJSON(u.resume, { method: "POST" });
          saveSeat(r.table, r.token, r.seat);
          navigate(r.url);
        } }, t("resume")))))
      : h("p", { class: "muted", text: t("none_yet") }));
  }
  main().replaceChildren(h("section", { class: "panel", "aria-labelledby": "player-h" }, ...parts));
}

/* a game's leaderboard, best first, provisional players marked */
export async function showLeaderboard(game) {
  const catalog = await loadCatalog();
  setTitle(t("leaderboard"));
  let b;
  try { b = await getJSON("/api/leaderboard/" + encodeURIComponent(game)); } catch (e) {
    main().replaceChildren(h("p", { class: "error", role: "alert", text: errorText(e) })); return;
  }
  const pick = h("select", { id: "board-game", "aria-label": t("leaderboard") },
    Object.values(catalog).map((g) => h("option", { value: g.name, text: gameTitle(g) })));
  pick.value = game;
  pick.addEventListener("change", () => navigate("/leaderboard/" + pick.value));
  const rows = b.players.map((p, i) => h("tr", {}, h("td", { text: String(i + 1) }), h("td", {}, playerLink(p.name)),
    h("td", { text: String(p.rating) + (p.provisional ? " ?" : ""), title: p.provisional ? t("provisional") : "" }),
    h("td", { text: String(p.games) })));
  main().replaceChildren(h("section", { class: "panel", "aria-labelledby": "board-h" },
    h("h1", { id: "board-h", text: `${t("leaderboard")}: ${titleOf(catalog, game)}` }), pick,
    rows.length ? h("table", { class: "leaderboard", id: "board" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col", text: t("rank") }), h("th", { scope: "col", text: t("acct_name") }),
        h("th", { scope: "col", text: t("rating") }), h("th", { scope: "col", text: t("games_n") }))),
      h("tbody", {}, rows)) : h("p", { class: "muted", text: t("none_yet") }),
    b.players.some((p) => p.provisional) ? h("p", { class: "muted", text: "? — " + t("provisional") }) : null));
}

/* the end screen's rating changes of a rated match: one line per seat */
export function ratingChanges(state, seatName) {
  if (!state.ratings) return null;
  return h("ul", { class: "plain", id: "rating-changes" }, state.ratings.map((r, i) => r ? h("li", {},
    t("rating_change", { who: seatName(i), before: r.before.rating, after: r.after.rating })) : null));
}
