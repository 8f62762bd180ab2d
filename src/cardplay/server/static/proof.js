/* cardplay browser UI: the person's own randomness for the shuffle, and "Check this record" on
   the end screen, done in the page with WebCrypto (docs/protocol.md, "Fair shuffles and signed
   records"). The commitment and the seed are recomputed with SHA-256; the Ed25519 signature is
   checked with crypto.subtle where the browser has it; replaying the moves is left to
   `cardplay verify`. */
import { t } from "./texts.js";
import { T, h, redraw } from "./common.js";

const enc = new TextEncoder();
const hex = (bytes) => [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");

/* 128 random bits as 32 hex characters: this browser's part of the shuffle */
export function newContribution() {
  return hex(crypto.getRandomValues(new Uint8Array(16)));
}

/* The record as JSON whose integers beyond 2^53 (the seeds) stay exact: BigInt, read from the
   number's own text (JSON.parse's reviver is given it in Chromium and other recent browsers). */
function parseExact(text) {
  return JSON.parse(text, (key, value, context) => {
    if (typeof value === "number" && Number.isInteger(value) && !Number.isSafeInteger(value)) {
      if (!context || typeof context.source !== "string") throw new Error("inexact");
      return BigInt(context.source);
    }
    return value;
  });
}

/* JSON with sorted keys and no spaces: what the server hashes and signs (its Python
   json.dumps(sort_keys=True, separators=(",", ":"), ensure_ascii=False)). */
export function canonical(v) {
  if (v === null || typeof v === "boolean" || typeof v === "string") return JSON.stringify(v);
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "number") return String(v);
  if (Array.isArray(v)) return "[" + v.map(canonical).join(",") + "]";
  return "{" + Object.keys(v).sort().map((k) => JSON.stringify(k) + ":" + canonical(v[k])).join(",") + "}";
}

/* each part's UTF-8 bytes after their count as 4 bytes, big-endian */
function prefixed(tag, parts) {
  const chunks = [enc.encode(tag), new Uint8Array([0])];
  for (const p of parts) {
    const b = enc.encode(p);
    chunks.push(new Uint8Array([b.length >>> 24, (b.length >>> 16) & 255, (b.length >>> 8) & 255, b.length & 255]), b);
  }
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) { out.set(c, at); at += c.length; }
  return out;
}

async function sha256(bytes) { return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)); }

const b64 = (text) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

/* Check a finished table's record in the page: {scheme, commitment, seed, signature, mine, seats}
   where signature is "ok", "bad", "unsigned" or "unsupported" (no Ed25519 in this browser). */
export async function checkRecord(tableId, mine) {
  const [text, keys] = await Promise.all([
    fetch(`/api/tables/${encodeURIComponent(tableId)}/record`).then((r) => { if (!r.ok) throw new Error(String(r.status)); return r.text(); }),
    fetch("/api/keys").then((r) => r.ok ? r.json() : { keys: [] })]);
  const rec = parseExact(text);
  const fair = rec.fairness || {};
  const out = { scheme: fair.scheme || null, commitment: false, seed: false, signature: "unsigned", mine: null, mineFound: false };
  if (fair.scheme === "sha256:cardplay-commitment/2") {
    const dealer = rec.dealer === null || rec.dealer === undefined ? "null" : String(rec.dealer);
    const c = await sha256(prefixed("cardplay-commitment/2", [rec.game, canonical(rec.options), dealer,
      fair.seats.join(","), fair.seed_source, String(fair.server_seed), fair.salt]));
    out.commitment = hex(c) === String(fair.commitment).toLowerCase();
    const contribs = fair.contributions || [];
    if (fair.seed_source === "server") {
      const d = await sha256(prefixed("cardplay-deck-seed/2", [String(fair.server_seed), ...contribs.map((x) => x ? x.value : "")]));
      const derived = BigInt("0x" + hex(d.slice(0, 8))) >> 1n;
      out.seed = derived === BigInt(rec.seed);
    } else {
      out.seed = BigInt(fair.server_seed) === BigInt(rec.seed);
    }
    const me = T.seat !== null ? contribs[T.seat] : null;
    out.mine = me ? me.value : null;
    out.mineFound = Boolean(me && mine && me.value === mine);
  }
  const sig = rec.signature;
  const key = sig && (keys.keys || []).find((k) => k.id === sig.key && k.alg === "Ed25519");
  if (sig && key) {
    const body = { ...rec }; delete body.signature;
    const data = new Uint8Array([...enc.encode("cardplay-record-signature/1"), 0, ...enc.encode(canonical(body))]);
    try {
      const pub = await crypto.subtle.importKey("raw", b64(key.public), { name: "Ed25519" }, false, ["verify"]);
      out.signature = await crypto.subtle.verify({ name: "Ed25519" }, pub, b64(sig.value), data) ? "ok" : "bad";
    } catch (e) {
      out.signature = "unsupported";
    }
  } else if (sig) {
    out.signature = "bad";  // signed by no key this server lists
  }
  return out;
}

/* The end screen's check: a button, then one line per check (kept in T.proof across redraws). */
export function proofNodes() {
  const p = T.proof && T.proof.table === T.id ? T.proof : null;
  const run = async () => {
    T.proof = { table: T.id, busy: true };
    redraw();
    try {
      T.proof = { table: T.id, result: await checkRecord(T.id, T.contribution) };
    } catch (e) {
      T.proof = { table: T.id, error: String(e && e.message) };
    }
    redraw();
  };
  const nodes = [h("button", { type: "button", class: "secondary", id: "check-record", onclick: run, disabled: Boolean(p && p.busy) }, t("check_record"))];
  if (p && p.error) nodes.push(h("p", { class: "error", id: "check-result", text: t("check_failed", { message: p.error }) }));
  if (p && p.result) {
    const r = p.result;
    const line = (ok, yes, no) => h("li", { class: ok ? "ok" : "bad", text: ok ? t(yes) : t(no) });
    const items = r.scheme === "sha256:cardplay-commitment/2"
      ? [line(r.commitment, "check_commitment_ok", "check_commitment_bad"), line(r.seed, "check_seed_ok", "check_seed_bad")]
      : [h("li", { class: "bad", text: t("check_old_scheme") })];
    items.push(r.signature === "unsupported" ? h("li", { text: t("check_signature_unsupported") })
      : line(r.signature === "ok", "check_signature_ok", "check_signature_bad"));
    if (r.mine) items.push(h("li", { class: r.mineFound ? "ok" : "", id: "check-mine", text: t(r.mineFound ? "check_mine" : "check_mine_unknown", { value: r.mine }) }));
    items.push(h("li", { class: "muted", text: t("check_replay") }));
    nodes.push(h("ul", { class: "proof", id: "check-result" }, items));
  }
  return h("div", { class: "proof-check" }, nodes);
}
