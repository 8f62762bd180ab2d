/* cardplay browser UI: the table's clocks. Each seat's time beside the seat, counting down from
   the server's numbers (corrected for the difference between this computer's clock and the
   server's), the running one highlighted; a polite announcement at 10 s left of the reader's own
   move; what a timeout and a forfeit did, on screen and for screen readers; the clock choices of
   the lobby's form. The server decides every timeout: nothing here changes the game. */
import { t } from "./texts.js";
import { T, announce, h, prettyText, seatName } from "./common.js";

const C = {
  offset: 0, // the server's clock minus this one, in seconds
  warned: -1, // the state version whose 10 s warning was given
  note: "", noteUntil: 0, // what the last timeout or forfeit did, shown for a while
  /** @type {ReturnType<typeof setInterval> | null} */ timer: null,
};
const WARN_AT = 10;
const NOTE_FOR = 12000;

function serverNow() { return Date.now() / 1000 + C.offset; }

function running(s, i) {
  const c = s.clock;
  return Boolean(c && c.to_move_deadline !== null && !s.is_over && s.view.to_move === i);
}

/* Seconds left to seat i: the running seat's to its deadline (never more than the frame said,
   which holds it still through a deal's end pause), any other seat's as the frame said. */
function secondsLeft(s, i) {
  const c = s.clock;
  const base = c.seats[i];
  if (base === null || base === undefined) return null;
  if (!running(s, i)) return base;
  return Math.max(0, Math.min(base, c.to_move_deadline - serverNow()));
}

function fmt(x) {
  const whole = Math.ceil(x);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

function forfeitText(f, s) {
  const who = seatName(f.seat, s.seats);
  return f.reason === "away" ? t("forfeit_away", { who }) : t("forfeit_timeouts", { who, n: s.clock.limit });
}

/* A new state came: the clocks' offset, and what a timeout or a forfeit since the last state
   did (said after the move's own announcement, which it replaces). */
export function noteClock(msg, old) {
  const c = msg.clock;
  if (!c) return;
  C.offset = c.now - Date.now() / 1000;  // a frame's trip (milliseconds) is not worth counting
  const said = [];
  if (old && msg.last && msg.version > old.version && msg.last.timeout) {
    const move = prettyText(msg.last.move);
    said.push(msg.last.seat === T.seat ? t("timeout_you", { move }) : t("timeout_other", { who: seatName(msg.last.seat, msg.seats), move }));
  }
  const known = old && old.clock ? old.clock.forfeits.length : c.forfeits.length;
  for (const f of c.forfeits.slice(known)) said.push(forfeitText(f, msg));
  if (said.length) {
    C.note = said.join(" "); C.noteUntil = Date.now() + NOTE_FOR;
    announce(C.note);
  }
  if (C.timer === null) C.timer = setInterval(tick, 250);
}

/* A seat's clock, beside its name (null: the seat has none, a bot's). */
export function clockNode(s, i) {
  const c = s.clock;
  if (!c || c.seats[i] === null || c.seats[i] === undefined) return null;
  if (c.forfeits.some((f) => f.seat === i)) return h("span", { class: "clock forfeited", "data-clock": i, text: t("forfeited") });
  const on = running(s, i); const left = secondsLeft(s, i);
  const paused = on && c.starts !== undefined && c.starts > serverNow();
  return h("span", { class: "clock" + (on ? " running" : "") + (on && left <= WARN_AT ? " low" : ""), "data-clock": i,
    title: paused ? t("clock_paused") : null, text: fmt(left) });
}

/* What the last timeout or forfeit did, for a while after it. */
export function clockNote() {
  if (!C.note || Date.now() > C.noteUntil) return null;
  return h("p", { class: "clock-note", id: "clock-note", text: C.note });
}

/* Whether seat i's person forfeited the match. */
export function forfeited(s, i) { return Boolean(s.clock && s.clock.forfeits.some((f) => f.seat === i)); }

/* The forfeits, for the end screen. */
export function forfeitNodes(s) {
  const c = s.clock;
  if (!c) return [];
  return c.forfeits.map((f) => h("p", { class: "forfeit", "data-forfeit": f.seat, text: forfeitText(f, s) }));
}

function tick() {
  const s = T.state;
  if (!s || !s.clock) return;
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-clock]"))) {
    if (el.classList.contains("forfeited")) continue;
    const i = Number(el.dataset.clock);
    const left = secondsLeft(s, i);
    if (left === null) continue;
    el.textContent = fmt(left);
    el.classList.toggle("low", running(s, i) && left <= WARN_AT);
  }
  const me = T.seat;
  if (me !== null && running(s, me) && C.warned !== s.version && s.clock.seats[me] > WARN_AT && secondsLeft(s, me) <= WARN_AT) {
    C.warned = s.version;
    announce(t("clock_ten"));
  }
  const note = document.getElementById("clock-note");
  if (note && Date.now() > C.noteUntil) note.remove();
}

/* The lobby's clock choices for a game: its default, a quicker and a slower one, and no clock
   (only where the table is casual: a rated one must have a clock). Each is the body's "clock". */
export function clockChoices(game, rated) {
  const d = (game && game.clock) || { move: 15, reserve: 60 };
  const out = [
    { key: "default", clock: d, text: t("clock_default", d) },
    { key: "quick", clock: { move: Math.max(5, Math.round(d.move / 2)), reserve: Math.round(d.reserve / 2) } },
    { key: "slow", clock: { move: d.move * 2, reserve: d.reserve * 3 } },
  ];
  out[1].text = t("clock_quick", out[1].clock);
  out[2].text = t("clock_slow", out[2].clock);
  if (!rated) out.push({ key: "none", clock: null, text: t("clock_none") });
  return out;
}
