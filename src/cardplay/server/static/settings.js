/* cardplay browser UI: the settings panel (a dialog opened from the header, on the lobby and at the
   table alike) and keeping the settings with the account. A guest's settings live in this browser
   (prefs.js); once signed in, GET/PUT /api/me/settings keeps them with the account, so they come
   along to another browser: the account's win when the page learns who is signed in, unless the
   account never stored any, when this browser's choices become the account's. */
import { t } from "./texts.js";
import { getJSON, h, redraw } from "./common.js";
import { whoAmI } from "./accounts.js";
import { CHOICES, DEFAULTS, cleaned, deviceReducedMotion, prefs, setPrefs } from "./prefs.js";
import { playSound } from "./sounds.js";

/** @type {string | null | undefined} the account the settings were last read for (undefined: none yet) */
let syncedFor;

/** The account's settings, once per sign-in (the page calls this on every route). */
export async function syncSettings() {
  const who = await whoAmI();
  const name = who ? who.name : null;
  if (name === syncedFor) return;
  syncedFor = name;
  if (!name) return;
  try {
    const theirs = cleaned((await getJSON("/api/me/settings")).settings);
    const untouched = Object.keys(DEFAULTS).every((k) => theirs[k] === DEFAULTS[k]);
    if (untouched) {
      const mine = Object.fromEntries(Object.keys(DEFAULTS).filter((k) => prefs[k] !== DEFAULTS[k]).map((k) => [k, prefs[k]]));
      if (Object.keys(mine).length) await save(mine);
    } else {
      setPrefs(theirs);
      redraw();
      refreshPanel();
    }
  } catch (e) { /* the server is away: this browser's settings hold meanwhile */ }
}

/** Keep changed settings with the account, when someone is signed in. @param {Record<string, any>} changes */
async function save(changes) {
  const who = await whoAmI();
  if (!who) return;
  await getJSON("/api/me/settings", { method: "PUT", headers: { "Content-Type": "application/json" }, body: JSON.stringify(changes) });
}

/** @param {string} key @param {any} value */
function change(key, value) {
  setPrefs({ [key]: value });
  redraw();
  if (key === "sound" && value) playSound("turn", true);  // what it will sound like
  const err = document.getElementById("settings-error");
  if (err) err.textContent = "";
  save({ [key]: value }).catch((e) => {
    const box = document.getElementById("settings-error");
    if (box) box.textContent = t("settings_save_error", { message: e.message });
  });
}

function checkbox(key, label) {
  const id = "set-" + key.replace("_", "-");
  return h("div", { class: "field check" },
    h("input", { type: "checkbox", id, checked: prefs[key], onchange: (e) => change(key, /** @type {HTMLInputElement} */ (e.target).checked) }),
    h("label", { for: id, text: label }));
}
function radios(key, legend, labelOf, extra) {
  return h("fieldset", { class: "choices", id: "set-" + key.replace("_", "-") },
    h("legend", { text: legend }),
    CHOICES[key].map((v) => h("label", { class: "choice" },
      h("input", { type: "radio", name: "set-" + key, value: v, checked: prefs[key] === v, onchange: () => change(key, v) }),
      extra ? extra(v) : null, h("span", { text: labelOf(v) }))),
    key === "animation" && deviceReducedMotion() ? h("p", { class: "muted", id: "set-reduced", text: t("settings_reduced") }) : null);
}
function backChoice(v) {
  return h("img", { class: "card mini", src: v === "classic" ? "/static/cards/back.svg" : `/static/cards/back-${v}.svg`, alt: "", width: 46, height: 64 });
}

function panelBody() {
  return [
    h("h2", { id: "settings-h", text: t("settings_title") }),
    checkbox("sound", t("settings_sound")),
    radios("animation", t("settings_animation"), (v) => t("settings_anim_" + v)),
    radios("card_back", t("settings_back"), (v) => t("settings_back_" + v), backChoice),
    checkbox("auto_play", t("settings_auto")),
    checkbox("confirm_play", t("settings_confirm")),
    h("p", { class: "muted", id: "settings-where", text: syncedFor ? t("settings_saved_account", { name: syncedFor }) : t("settings_saved_local") }),
    h("p", { class: "error", id: "settings-error", role: "alert" }),
    h("button", { type: "button", id: "settings-close", onclick: closePanel }, t("close")),
  ];
}
function closePanel() {
  const dlg = /** @type {HTMLDialogElement | null} */ (document.getElementById("settings-dialog"));
  if (dlg) { dlg.close(); dlg.remove(); }
  const b = document.getElementById("settings-button");
  if (b) b.focus();
}
/* the open panel drawn again (the account's settings came, or the language changed) */
export function refreshPanel() {
  const dlg = document.getElementById("settings-dialog");
  if (dlg) dlg.replaceChildren(...panelBody());
}

export async function openSettings() {
  await syncSettings();
  const old = document.getElementById("settings-dialog");
  if (old) old.remove();
  const dlg = /** @type {HTMLDialogElement} */ (h("dialog", { id: "settings-dialog", class: "rules settings", "aria-labelledby": "settings-h" }, panelBody()));
  dlg.addEventListener("cancel", (e) => { e.preventDefault(); closePanel(); });
  document.body.append(dlg);
  dlg.showModal();
}
