/* cardplay browser UI: a game's rules in a dialog, from its declaration, for the table (with the
   table's options) and for the lobby (with the options chosen in the form): what the game is,
   how it is played (every rule that can refuse a move and every way points are scored, the
   declaration's `rules` paragraphs that apply to these options), what each kind of move does,
   every option with what its value means, and the bot levels. */
import { t } from "./texts.js";
import { declOf, gameTitle, h, levelName, words } from "./common.js";

/** Whether a rules paragraph applies to these options (Schnapsen's own, a counting rule's).
    @param {{when?: Record<string, any>}} rule @param {Record<string, any>} opts */
function applies(rule, opts) {
  return Object.entries(rule.when || {}).every(([k, v]) => opts[k] === undefined || opts[k] === v);
}

/* A description as a finished sentence: its full stop, where the declaration left it off (an
   option's and its value's descriptions side by side ran into one another without it). */
function sentence(text) {
  const s = (text || "").trim();
  return !s || /[.!?:…»“"]$/.test(s) ? s : s + ".";
}

/** @param {string} game @param {Record<string, any>} opts @param {string} back the id of the
    button to give the focus back to */
export function showGameRules(game, opts, back) {
  const d = declOf(game);
  const old = document.getElementById("rules-dialog");
  if (old) old.remove();
  const close = () => { dlg.close(); dlg.remove(); const b = document.getElementById(back); if (b) b.focus(); };
  const value = (o) => (opts[o.name] !== undefined ? opts[o.name] : o.default);
  const optionItem = (o) => {
    const v = value(o);
    const val = (o.values || []).find((x) => x.value === v);
    return h("li", {}, h("strong", { text: `${words(o.label)}: ${val ? words(val.label) : v}` }), " — ",
      sentence(words(o.description)), val && val.description ? " " + sentence(words(val.description)) : "");
  };
  const all = Object.fromEntries((d.options || []).map((o) => [o.name, value(o)]));
  const rules = (d.rules || []).filter((r) => applies(r, all));
  const dlg = h("dialog", { id: "rules-dialog", class: "rules", "aria-labelledby": "rules-h" },
    h("h2", { id: "rules-h", text: `${t("rules")}: ${gameTitle(d)}` }),
    h("p", { text: words(d.summary) }),
    rules.length ? h("h3", { text: t("rules_play_h") }) : null,
    rules.length ? h("ul", { class: "rules-play" }, rules.map((r) => h("li", { text: words(r.text) }))) : null,
    h("h3", { text: t("moves_h") }),
    h("ul", { class: "rules-moves" }, (d.moves || []).map((k) => h("li", {}, h("strong", { text: words(k.label) }), " — ", sentence(words(k.description))))),
    h("h3", { text: t("options_h") }),
    h("ul", { class: "rules-options" }, (d.options || []).map(optionItem)),
    h("h3", { text: t("levels_h") }),
    h("ul", { class: "rules-levels" }, (d.levels || []).map((l) => h("li", {}, h("strong", { text: levelName(l) }), " — ", t("level_about_" + l),
      levelStrength(d, l) ? " " + levelStrength(d, l) : ""))),
    h("button", { type: "button", id: "rules-close", onclick: close }, t("close")));
  dlg.addEventListener("cancel", (e) => { e.preventDefault(); close(); });
  document.body.append(dlg);
  dlg.showModal();
}

/* How often a level beat the level below it in this game, in words: measured in the arena
   (bots/strength.py), "" where it was not. */
export function levelStrength(d, level) {
  const s = ((d && d.strength) || []).find((x) => x.level === level);
  if (!s) return "";
  return t("level_strength", { level: levelName(s.level), below: levelName(s.below),
    share: String(Math.round(100 * s.share)), fair: String(Math.round(100 * s.fair)) });
}
