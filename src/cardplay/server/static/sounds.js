/* cardplay browser UI: the card sounds, made in code with the Web Audio API (no sound file, nothing
   fetched): a card played, a trick you won, your turn, a deal's end. Only with the "sound"
   setting on (off by default), quiet, and never two at once. Each sound played is also noted on
   the page (data-last-sound on <html>), so that what was heard can be checked. */
import { CARD_RE } from "./texts.js";
import { prefs } from "./prefs.js";

const VOLUME = 0.12;  // quiet: under the level of a notification
/** @type {AudioContext | null} */
let audio = null;
let lastAt = 0;

/** One tone: a frequency, when it starts (s from now), how long, its wave.
    @param {AudioContext} ctx @param {number} freq @param {number} start @param {number} length @param {OscillatorType} wave */
function tone(ctx, freq, start, length, wave) {
  const osc = ctx.createOscillator(); const gain = ctx.createGain();
  osc.type = wave; osc.frequency.value = freq;
  const t0 = ctx.currentTime + start;
  gain.gain.setValueAtTime(0.0001, t0);
  gain.gain.exponentialRampToValueAtTime(VOLUME, t0 + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, t0 + length);
  osc.connect(gain).connect(ctx.destination);
  osc.start(t0); osc.stop(t0 + length + 0.02);
}
/** A card on the cloth: a short burst of filtered noise. @param {AudioContext} ctx */
function snap(ctx) {
  const n = Math.round(ctx.sampleRate * 0.06);
  const buf = ctx.createBuffer(1, n, ctx.sampleRate); const data = buf.getChannelData(0);
  for (let i = 0; i < n; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / n) ** 3;
  const src = ctx.createBufferSource(); const filter = ctx.createBiquadFilter(); const gain = ctx.createGain();
  src.buffer = buf; filter.type = "bandpass"; filter.frequency.value = 2400; gain.gain.value = VOLUME * 2.5;
  src.connect(filter).connect(gain).connect(ctx.destination);
  src.start();
}
const SOUNDS = {
  card: (ctx) => snap(ctx),
  trick: (ctx) => { tone(ctx, 523, 0, 0.12, "triangle"); tone(ctx, 784, 0.09, 0.18, "triangle"); },
  turn: (ctx) => tone(ctx, 660, 0, 0.22, "sine"),
  deal: (ctx) => { tone(ctx, 523, 0, 0.16, "triangle"); tone(ctx, 659, 0.12, 0.16, "triangle"); tone(ctx, 784, 0.24, 0.3, "triangle"); },
};

/** Play one of the sounds (card, trick, turn, deal) if the sound setting is on; the test sound
    of the settings panel passes force, as turning sound on is the click that allows audio.
    @param {"card" | "trick" | "turn" | "deal"} kind @param {boolean} [force] */
export function playSound(kind, force) {
  if (!prefs.sound && !force) return;
  document.documentElement.dataset.lastSound = kind;
  document.documentElement.dataset.sounds = String(Number(document.documentElement.dataset.sounds || 0) + 1);
  try {
    if (!audio) audio = new AudioContext();
    if (audio.state === "suspended") audio.resume();
    SOUNDS[kind](audio);
  } catch (e) { /* no audio here (a browser without it): the page works the same */ }
  lastAt = Date.now();
}

/* The last trick of a view, as a text to compare (a game's last_trick, else the last of its tricks). */
function trickKey(view) {
  const p = (view && view.public) || {};
  const last = p.last_trick || (Array.isArray(p.tricks) && p.tricks.length ? p.tricks[p.tricks.length - 1] : null);
  return last ? { key: JSON.stringify(last), winner: last.winner } : null;
}

/** The sound a new state makes, after the one before: the deal's end first, then a trick you
    won, then your turn, else a card played.
    @param {any} old @param {any} s @param {number | null} seat */
export function soundForState(old, s, seat) {
  if (!prefs.sound || !old || !old.view || !s.view || s.version <= old.version) return;
  const dealOf = (x) => (x.view.match ? x.view.match.deal_number : 1);
  if (dealOf(s) !== dealOf(old) || (s.is_over && !old.is_over)) { playSound("deal"); return; }
  const before = trickKey(old.view); const now = trickKey(s.view);
  if (seat !== null && now && now.winner === seat && (!before || before.key !== now.key)) { playSound("trick"); return; }
  if (seat !== null && s.view.to_move === seat && old.view.to_move !== seat) { playSound("turn"); return; }
  if (s.last && CARD_RE.test(String(s.last.move).split("=")[0]) && Date.now() - lastAt > 80) playSound("card");
}
