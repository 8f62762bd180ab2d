/* cardplay browser UI: which picture shows a card. A card's corner letter is the one the page's
   words use for its rank (docs/i18n.md: the catalogue's rank_short_* letters, Russian's and
   German's own), so that a message naming a queen by the Russian letter points at a card that
   shows that letter: the faces of those ranks are drawn again with the language's letter
   (cards/2c-ru, cards/4c-de, ...; cards/CREDITS.md), the others are shared. */
import { lang } from "./texts.js";

/* the ranks whose letter differs from the English one, by language (a king's looks the same) */
const OWN_LETTERS = { ru: "JQA", de: "JQ" };

/** The picture of a card in a style ("2c" or "4c") for the reader's language.
    @param {string} style @param {string} card */
export function faceUrl(style, card) {
  const own = OWN_LETTERS[/** @type {"ru" | "de"} */ (lang)];
  return own && own.includes(card[0]) ? `/static/cards/${style}-${lang}/${card}.svg` : `/static/cards/${style}/${card}.svg`;
}
