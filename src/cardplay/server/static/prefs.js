/* cardplay browser UI: the person's table settings as this browser holds them (sound, card
   movement, card back, forced moves played for them, confirming every move), kept in
   localStorage and applied to the page. A leaf module (it imports nothing), so that every other
   may read the settings; settings.js draws the panel and keeps them with the account. */

/** The settings and their defaults (the server's settingsroutes.py lists the same). Sound is
    off by default: a page that makes a noise nobody asked for is rude. */
export const DEFAULTS = Object.freeze({ sound: false, animation: "normal", card_back: "classic", auto_play: false, confirm_play: false });
/** The values each setting takes, in the order the panel offers them. */
export const CHOICES = Object.freeze({ sound: [false, true], animation: ["off", "normal", "fast"], card_back: ["classic", "red", "blue"],
  auto_play: [false, true], confirm_play: [false, true] });
const KEY = "cardplay.settings";

/** Only known settings with allowed values: anything else (an older page's, a hand edit) is dropped.
    @param {any} raw @returns {Record<string, any>} */
export function cleaned(raw) {
  const out = {};
  if (!raw || typeof raw !== "object") return out;
  for (const [k, allowed] of Object.entries(CHOICES)) if (/** @type {any[]} */ (allowed).includes(raw[k])) out[k] = raw[k];
  return out;
}
function stored() {
  try { return cleaned(JSON.parse(localStorage.getItem(KEY) || "{}")); } catch (e) { return {}; }
}
/** The settings now (read everywhere; changed only through setPrefs).
    @type {{sound: boolean, animation: string, card_back: string, auto_play: boolean, confirm_play: boolean}} */
export const prefs = { ...DEFAULTS, ...stored() };

/** Change some settings: kept in this browser and applied to the page at once.
    @param {Record<string, any>} changes */
export function setPrefs(changes) {
  Object.assign(prefs, cleaned(changes));
  localStorage.setItem(KEY, JSON.stringify(prefs));
  applyPrefs();
}

/** Whether the device asks for less motion (the page then never moves cards, whatever the setting). */
export const deviceReducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;
/** No card moves: the device asks for less motion, or the person chose "off". */
export const noMotion = () => deviceReducedMotion() || prefs.animation === "off";
/** How long a completed trick stays in the middle when the next lead follows at once.
    @param {number} normal */
export const holdMs = (normal) => prefs.animation === "fast" ? Math.round(normal / 2) : normal;

/** The image of the chosen card back. */
export function backUrl() {
  return prefs.card_back === "classic" ? "/static/cards/back.svg" : `/static/cards/back-${prefs.card_back}.svg`;
}

/** The page follows the settings: style.css reads data-anim (off: nothing moves; fast: half the time). */
export function applyPrefs() {
  document.documentElement.dataset.anim = prefs.animation;
}
applyPrefs();
