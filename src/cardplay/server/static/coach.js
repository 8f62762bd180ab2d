/* cardplay browser UI: hints and deal reviews. Both are offered only to a person alone with
   bots (the server refuses them anywhere else): a hint gives the values of the moves now, from
   the person's own view; a review marks, on a finished deal's moves, the person's decisions that
   cost something, with the best move and its value. */
import { lang, t } from "./texts.js";
import { T, announce, declOf, h, logText, moveLabel, redraw, seatName, send, words } from "./common.js";

const HINT_SHOWN = 8;

export function helpOffered(s) {
  return T.seat !== null && s.seats.every((x) => x.seat === T.seat || x.kind === "bot");
}
/* hints too, except at the daily deals: everyone plays those unaided (reviews of finished deals stay) */
function hintsOffered(s) { return helpOffered(s) && !(T.welcome && T.welcome.seed_source === "daily"); }
function unitsOf(game) { return words(declOf(game).result_units) || t("units_points"); }
function decimal(x) {
  return (Math.abs(x) < 0.005 ? 0 : x).toLocaleString(lang, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}
function signed(x) { return (x >= 0.005 ? "+" : "") + decimal(x); }

function askHint() {
  const s = T.state;
  if (!s || T.coach || !hintsOffered(s)) return;
  T.coach = "hint"; T.hint = null;
  send({ type: "hint", id: "hint" });
  redraw();
}
function askReview(n) {
  if (!T.state || T.coach) return;
  T.coach = "review"; T.reviews[n] = "working";
  send({ type: "review", deal: n, id: "review-" + n });
  redraw();
}
export function onCoach(msg) {
  T.coach = null;
  if (msg.type === "hint") T.hint = msg;
  else T.reviews[msg.deal] = msg;
  redraw();
  if (msg.type === "hint" && msg.best) announce(adviceWords(msg.advice) || t("hint_best", { move: moveLabel(msg.best) }));
}
/* an error answering a hint or review request ends the wait */
export function onCoachError(msg, text) {
  const r = typeof msg.reply_to === "string" ? /^review-(\d+)$/.exec(msg.reply_to) : null;
  if (msg.reply_to === "hint") { T.coach = null; return true; }
  if (r) { T.coach = null; T.reviews[Number(r[1])] = { error: text }; return true; }
  return false;
}

/* the verdict in words, in the reader's language: the server words it in every language
   (cardplay.advice), so a switch of language needs no new request */
function adviceWords(advice) {
  if (!advice || !advice.words) return "";
  return advice.words[lang] || advice.words.en || "";
}
function valueWords(game, players) {
  return t(players === 2 ? "value_two" : "value_many", { units: unitsOf(game) });
}
function precision(x) {
  return x.exact ? t("values_exact") : t("values_sampled", { n: x.worlds || 0 });
}

/* the hint button, and the hint itself while the state it was asked for lasts */
export function hintNodes(s) {
  // nothing to choose, nothing to hint
  if (!hintsOffered(s) || (s.view.legal_moves || []).length < 2) return [];
  const current = T.hint && T.hint.version === s.version ? T.hint : null;
  const working = T.coach === "hint";
  const nodes = [h("button", { type: "button", class: "secondary", id: "hint-button", "data-focus-key": "hint", disabled: working || Boolean(current), "aria-keyshortcuts": "H", onclick: askHint }, working ? t("hint_working") : t("hint"))];
  if (!current) return nodes;
  // the best few, then how many more (a bet can be any of a hundred stakes)
  const all = Object.entries(current.values).sort((a, b) => b[1] - a[1]);
  const values = all.slice(0, HINT_SHOWN);
  // words first; the values of every move one click away
  const said = adviceWords(current.advice) || t("hint_best", { move: moveLabel(current.best) });
  nodes.push(h("div", { class: "hint", id: "hint", role: "status" },
    h("p", { class: "advice", id: "hint-words", text: said }),
    h("details", { class: "numbers", id: "hint-numbers", open: T.hintNumbers,
      ontoggle: (e) => { T.hintNumbers = /** @type {HTMLDetailsElement} */ (e.target).open; } },
    h("summary", { text: t("advice_numbers") }),
    h("p", { class: "muted", text: valueWords(s.game, s.view.players) }),
    h("ul", { class: "values" }, values.map(([mv, v]) => h("li", { class: mv === current.best ? "best" : "" },
      h("span", { text: moveLabel(mv) }), " ", h("span", { class: "value", text: signed(v) + (current.exact ? "" : ` ± ${decimal(2 * (current.errors[mv] || 0))}`) })))),
    all.length > values.length ? h("p", { class: "muted", text: t("hint_more", { n: all.length - values.length, worst: signed(all[all.length - 1][1]) }) }) : null,
    h("p", { class: "muted", text: precision(current) }))));
  return nodes;
}

/* a finished deal's moves with the person's decisions marked, or the button that asks */
export function reviewNodes(s, n, dealView) {
  if (!helpOffered(s)) return [];
  const r = T.reviews[n];
  if (!r) return [h("button", { type: "button", class: "secondary", id: "review-button", disabled: Boolean(T.coach), onclick: () => askReview(n) }, t("review_deal"))];
  if (r === "working") return [h("p", { class: "muted", role: "status", id: "review-working", text: t("review_working") })];
  if (r.error) return [h("p", { class: "error", role: "alert", text: r.error })];
  const units = unitsOf(s.game);
  const byIndex = new Map(r.decisions.map((d) => [d.index, d]));
  const costly = r.decisions.filter((d) => d.costly);
  const lost = costly.reduce((a, d) => a + d.loss, 0);
  const seats = s.seats;
  const history = (dealView && dealView.history) || r.moves || [];
  const items = history.map(([seat, mv], i) => {
    const d = byIndex.get(i);
    const who = seat === T.seat ? t("you") : seatName(seat, seats);
    const line = [h("span", { class: "who", text: `${i + 1}. ${who}: ${logText(mv)}` })];
    const said = d ? adviceWords(d.advice) : "";
    if (d && (d.costly || (said && d.advice.verdict === "close"))) {
      // the verdict in words; what it cost in numbers, one click away
      const cost = t("review_cost", { loss: decimal(d.loss), units, best: moveLabel(d.best), value: signed(d.values[d.best]) });
      line.push(" ", h("span", { class: d.costly ? "cost" : "fine", text: said || cost }));
      if (said) line.push(h("details", { class: "numbers" }, h("summary", { text: t("advice_numbers") }), h("span", { class: "muted", text: cost })));
    } else if (d) {
      line.push(" ", h("span", { class: "fine", text: d.played === d.best ? t("review_best") : t("review_fine") }));
    }
    return h("li", { class: d ? (d.costly ? "mine costly" : "mine") : "", "data-index": i }, line);
  });
  const base = dealView ? "review" : "review-" + n;
  return [h("section", { class: "review", id: base, "aria-labelledby": base + "-h" },
    h("h3", { id: base + "-h", text: dealView ? t("review_h") : t("review_h_n", { n }) }),
    h("p", { class: "review-summary", id: dealView ? "review-summary" : null, text: costly.length ? t("review_summary", { n: r.decisions.length, costly: costly.length, loss: decimal(lost), units }) : t("review_clean", { n: r.decisions.length }) }),
    h("p", { class: "muted", text: valueWords(s.game, s.view.players) }),
    h("ol", { class: "review-moves", tabindex: "0", "aria-labelledby": base + "-h" }, items))];
}

document.addEventListener("keydown", (e) => {
  if (!T.state || !T.state.view || e.altKey || e.ctrlKey || e.metaKey) return;  // no view: not dealt yet
  const tag = (e.target && /** @type {Element} */ (e.target).tagName) || "";
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || document.getElementById("rules-dialog")) return;
  if ((e.key === "h" || e.key === "H" || e.key === "р" || e.key === "Р") && T.state.view.to_move === T.seat && !T.state.is_over &&
      (T.state.view.legal_moves || []).length > 1) askHint();
});

/* the score sheet's way to any finished deal's review */
export function reviewCell(s, n) {
  if (!helpOffered(s)) return null;
  const open = T.reviewShown === n;
  return h("td", {}, h("button", { type: "button", class: "secondary small", "data-review": n, "aria-pressed": String(open),
    "aria-label": t("review_deal_n", { n }),
    onclick: () => { T.reviewShown = open ? null : n; if (!open && !T.reviews[n]) askReview(n); else redraw(); } }, t("review_short")));
}
