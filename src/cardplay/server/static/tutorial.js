/* "Learn to play": a lesson's table. The lesson (GET /api/tutorials/GAME) is the learner's moves
   of a scripted first deal, each with the keyed text that explains it; the server plays the
   other seats' moves as scripted. The step is read from the view's history (the learner's moves
   so far), so a reload lands on the same step. The panel shows the step's words and highlights
   what to play; anything else is refused with those words, before it reaches the server. */
import { CARD_RE, SUIT_SYMBOL, t } from "./texts.js";
import { T, announce, cardShort, getJSON, h, httpError, moveLabel, navigate, redraw, saveSeat,
  setMoveGuard } from "./common.js";

const KEY = "cardplay.lesson.";  // + table id: the game whose lesson that table is
/** @type {Record<string, any>} */
const lessons = {};  // game -> its lesson, fetched once
/** @type {string[] | null} */
let games = null;
let spoken = "";  // the step last announced to a screen reader
let endShown = "";  // the table whose lesson's end was brought into view (once)

/* the games that have a lesson (asked once) */
export async function lessonGames() {
  if (games === null) {
    try { games = (await getJSON("/api/tutorials")).tutorials; } catch (e) { games = []; }
  }
  return games || [];
}

/* Open a table for a game's lesson and go there. */
export async function startLesson(game, name) {
  const r = await getJSON(`/api/tutorials/${encodeURIComponent(game)}`, { method: "POST",
    headers: { "Content-Type": "application/json" }, body: JSON.stringify(name ? { name } : {}) });
  saveSeat(r.table, r.token, r.seat, null);
  localStorage.setItem(KEY + r.table, game);
  lessons[game] = r.lesson;
  navigate(r.url);
}

/* The lobby's "Learn to play" button for the game chosen in `select`: hidden for a game without
   a lesson; a refusal is written into `err`. */
export function learnButton(select, nameOf, err) {
  const note = h("span", { class: "muted learn-note", id: "learn-note" });
  const button = h("button", { type: "button", class: "secondary", id: "learn", "aria-describedby": "learn-note",
    onclick: async () => {
      err.textContent = "";
      try { await startLesson(select.value, nameOf()); } catch (e) { err.textContent = t("tut_error", { message: httpError(e, "create_error") }); }
    } }, t("tut_learn"));
  const box = h("div", { class: "learn", hidden: true }, button, note);
  const update = async () => {
    const has = (await lessonGames()).includes(select.value);
    box.hidden = !has;
    const option = select.selectedOptions[0];
    note.textContent = has ? t("tut_learn_note", { game: option ? option.textContent : select.value }) : "";
  };
  select.addEventListener("change", update);
  update();
  return box;
}

/* a lesson's values as a person reads them: cards and suits as symbols, numbers as they are */
function shown(params) {
  /** @type {Record<string, any>} */
  const out = {};
  for (const [k, v] of Object.entries(params || {})) {
    const cards = typeof v === "string" ? v.split("+") : [];
    out[k] = cards.length && cards.every((c) => CARD_RE.test(c)) ? cards.map(cardShort).join(" + ")
      : typeof v === "string" && SUIT_SYMBOL[v] ? SUIT_SYMBOL[v] : v;
  }
  return out;
}
const noteText = (note) => t(note.key, shown(note.params));
const moveText = (m) => CARD_RE.test(m) ? cardShort(m) : moveLabel(m);
/* a card (or set of cards) is played; any other move (a stake, a draw, closing) is chosen */
const isCards = (m) => m.split("+").every((x) => CARD_RE.test(x.split("=")[0]));
const cardsOf = (m) => m.split("+").map((x) => x.split("=")[0]).filter((c) => CARD_RE.test(c));

/* this table's lesson and where the deal stands in it, or null (not a lesson's table) */
function current() {
  const game = T.id ? localStorage.getItem(KEY + T.id) : null;
  const s = T.state;
  if (!game || !s || !s.view || T.seat === null) return null;
  const lesson = lessons[game];
  if (!lesson) {
    if (lessons[game] === undefined) {
      lessons[game] = null;  // asked once; the table is drawn again when it comes
      getJSON(`/api/tutorials/${encodeURIComponent(game)}`).then((l) => { lessons[game] = l; redraw(); }, () => {});
    }
    return null;
  }
  const view = s.view;
  const deal = view.match ? view.match.deal_number : 1;
  const mine = (view.history || []).filter((x) => x[0] === lesson.learner).map((x) => x[1]);
  const done = deal > 1 || s.is_over;
  const off = !done && mine.some((m, i) => !lesson.steps[i] || lesson.steps[i].move !== m);
  const index = mine.length;
  const step = done || off || view.to_move !== T.seat ? null : lesson.steps[index] || null;
  return { game, lesson, done, off, index, step };
}

/** @type {{version: number, text: string} | null} */
let refusal = null;  // the refusal of a move at this version: the panel says it too
function refuse(step) {
  T.status = t(isCards(step.move) ? "tut_refuse" : "tut_refuse_choice", { move: moveText(step.move), why: noteText(step) });
  T.statusBad = true;
  refusal = { version: T.state.version, text: T.status };
  redraw();
  announce(T.status);
}

/* a move other than the step's is refused with the step's words (common.js asks before sending) */
setMoveGuard((move) => {
  const at = current();
  if (!at || !at.step || at.step.move === move) return true;
  refuse(at.step);
  return false;
});

/* The lesson's panel on the table just drawn (table.js calls it after each drawing). */
export function decorateLesson(root) {
  const at = current();
  if (!at) return;
  const { lesson, step, index } = at;
  const total = lesson.steps.length;
  let body;
  if (at.done && !at.off) {
    body = [h("h2", { id: "lesson-h", text: t("tut_done") }), h("p", { id: "lesson-summary", text: noteText(lesson.summary) }),
      h("p", { class: "row" },
        h("button", { type: "button", id: "lesson-real", onclick: () => navigate(`/?game=${at.game}`) }, t("tut_play_real")),
        h("button", { type: "button", class: "secondary", id: "lesson-again", onclick: () => startLesson(at.game, localStorage.getItem("cardplay.name") || "").catch(() => {}) }, t("tut_again")))];
  } else if (at.off) {
    body = [h("h2", { id: "lesson-h", text: t("tut_title") }), h("p", { id: "lesson-note", text: t("tut_left") }),
      h("p", { class: "row" }, h("button", { type: "button", class: "secondary", id: "lesson-again", onclick: () => startLesson(at.game, "").catch(() => {}) }, t("tut_again")))];
  } else {
    body = [h("h2", { id: "lesson-h" }, t("tut_title"), " ", h("span", { class: "muted", id: "lesson-step", text: t("tut_step", { n: Math.min(index + 1, total), total }) })),
      // the game in a few words: open at the first step, one click away after it
      index === 0 ? h("p", { class: "lesson-intro", id: "lesson-intro", text: noteText(lesson.intro) })
        : h("details", { class: "lesson-intro" }, h("summary", { text: t("tut_about") }), h("p", { text: noteText(lesson.intro) })),
      !step ? h("p", { class: "muted", id: "lesson-note", text: t("tut_watch") })
        : refusal && refusal.version === T.state.version ? h("p", { class: "lesson-refused", id: "lesson-note", text: refusal.text })
          : h("p", { id: "lesson-note", text: noteText(step) }),
      step ? h("p", { class: "lesson-do", id: "lesson-do", text: t(isCards(step.move) ? "tut_your_move" : "tut_your_choice", { move: moveText(step.move) }) }) : null];
  }
  const panel = h("section", { class: "lesson panel", id: "lesson", "aria-labelledby": "lesson-h", "data-step": step ? String(index) : null }, body);
  // beside the table where there is room (the hand stays on the first screen), else just above
  // the hand; the lesson's end above the table
  const side = window.matchMedia("(min-width: 821px)").matches ? root.querySelector(".side") : null;
  const area = root.querySelector(".hand-area");
  const head = root.querySelector(".table-head");
  if (at.done) { if (head) head.after(panel); else root.prepend(panel); } else if (side) side.prepend(panel); else if (area) area.prepend(panel);
  if (at.done && endShown !== T.id) { endShown = T.id; panel.scrollIntoView({ block: "start" }); }
  const words = step ? noteText(step) : at.done ? noteText(lesson.summary) : "";
  if (words && words !== spoken) { spoken = words; announce(words); }
  if (!step) return;
  // what to play stands out; a click on another card is answered with the step's words
  const wanted = cardsOf(step.move);
  for (const b of root.querySelectorAll(".hand [data-card]")) {
    if (wanted.includes(b.getAttribute("data-card"))) b.classList.add("lesson-pick");
  }
  for (const b of root.querySelectorAll("[data-move]")) {
    if (b.getAttribute("data-move") === step.move && !b.closest(".hand")) b.classList.add("lesson-pick");
  }
  // a stake: the lesson's amount stands in the box, and its button stands out
  const stake = /^stake (\d+)$/.exec(step.move);
  const amount = /** @type {HTMLInputElement | null} */ (root.querySelector("#stake-amount"));
  if (stake && amount) {
    amount.value = stake[1];
    const go = root.querySelector('.stake [data-focus-key="stake-go"]');
    if (go) go.classList.add("lesson-pick");
  }
  const hand = root.querySelector(".hand");
  if (hand) {
    hand.classList.add("lesson-on");
    hand.addEventListener("click", (e) => {
      const b = /** @type {Element} */ (e.target).closest("[data-card]");
      if (!b || wanted.includes(b.getAttribute("data-card"))) return;
      e.stopPropagation(); e.preventDefault();
      refuse(step);
    }, true);
  }
}
