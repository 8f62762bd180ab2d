/* cardplay browser UI: the words of the interface, from the server's catalogue of the reader's
   language (GET /api/texts/LANG, built from cardplay/locale/LANG.po: this file holds no
   translations; docs/i18n.md says how to add a text), and the reader's choices (language,
   four-colour deck). The games' own words come from their declarations (GET /api/games). An ES
   module, the first the others import: its top-level await loads the words before they run. */

export const SUIT_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
export const CARD_RE = /^[2-9TJQKA][SHDC]$/;
export const CARD_TOKEN = /\b([2-9TJQKA])([SHDC])\b/g;

/* ------------------------------------------------------------------ the reader's choices
   Read everywhere, set only here (an imported binding is read-only: the setters change it for
   every module at once). */
/** @type {Record<string, string | Record<string, string>>} */
let TEXTS = {};
/** Every language with a catalogue, by code, each named in its own words (for the list).
    @type {Record<string, string>} */
export let LANGUAGES = { en: "English" };
/** @type {Intl.PluralRules} */
let plurals = new Intl.PluralRules("en");

/** The words of one language; false when the server has none for it (or cannot be reached).
    @param {string} code */
async function load(code) {
  try {
    const r = await fetch(`/api/texts/${encodeURIComponent(code)}`);
    if (!r.ok) return false;
    const body = await r.json();
    TEXTS = body.texts; LANGUAGES = body.languages; plurals = new Intl.PluralRules(code);
    return true;
  } catch {
    return false;
  }
}

export let lang = localStorage.getItem("cardplay.lang") || (navigator.language || "en").slice(0, 2).toLowerCase();
if (!(await load(lang))) { lang = "en"; await load("en"); }
export let fourColour = localStorage.getItem("cardplay.fourColour") === "1";

/** Switch the interface to another language once its words have come.
    @param {string} value */
export async function setLang(value) {
  if (!(await load(value))) return;
  lang = value;
  localStorage.setItem("cardplay.lang", lang);
}
/** @param {boolean} value */
export function setFourColour(value) {
  fourColour = value;
  localStorage.setItem("cardplay.fourColour", value ? "1" : "0");
}

/* A word of the interface in the reader's language, with {name} filled from vars; a text with
   plural forms takes the form of vars.n by the language's CLDR plural rule.
   @param {string} key @param {Record<string, unknown>} [vars] @returns {string} */
export function t(key, vars) {
  const found = TEXTS[key];
  let s = typeof found === "object" ? found[plurals.select(Number(vars && vars.n))] || found.other : found;
  if (s === undefined) s = key;
  if (vars) for (const k of Object.keys(vars)) s = s.split("{" + k + "}").join(String(vars[k]));
  return s;
}
