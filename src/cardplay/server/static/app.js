/* cardplay browser UI: renders the views the server sends and sends moves. It holds no rules:
   what is legal comes from view.legal_moves, every state from the server. Plain JS, no build. */
"use strict";

/* ------------------------------------------------------------------ texts (English, Russian) */
const TEXTS = {
  en: {
    skip: "Skip to content", language: "Language", four_colour: "Four-colour deck",
    credits: "Card images: Adrian Kennard, public domain (CC0)", credits_link: "credits",
    new_game: "New game", game: "Game", options: "Options", opponents: "Bot level",
    play_now: "Play now against bots", create_table: "Create a table", seats: "Seats",
    seat_you: "You", seat_person: "A person (invite)", seat_bot: "Bot: {level}",
    your_name: "Your name (optional)", open_tables: "Open tables", playing_tables: "Tables in play",
    none_open: "No open tables.", none_playing: "No tables in play.", refresh: "Refresh",
    join: "Join", watch: "Watch", seat_free: "{n} free seat(s)", players: "{n} players",
    deal_n: "Deal {n}", scores: "Scores", you: "You", bot: "Bot ({level})",
    player_n: "Player {n}", seat_open: "Seat {n} (free)", connected: "here", away: "away",
    bot_holds: "a bot plays while away", to_move: "to move", dealer: "dealer",
    your_turn: "Your turn.", waiting_for: "Waiting for {who}.", spectating: "You are watching.",
    hand: "Your hand", hand_of: "Hand of {who}", actions: "Actions", no_moves: "",
    last_trick: "Last trick", score_sheet: "Score sheet", moves_log: "Moves", total: "Total",
    deal_over: "Deal {n} is over", result: "Result", continue: "Continue",
    match_over: "The match is over", you_win: "You win!", you_lose: "You lose.",
    winners: "Winners: {who}", no_winner: "No winner.", download: "Download the record",
    commitment: "shuffle committed: {h}…", commitment_hint: "SHA-256 of this match's seed and a salt, shown before the first card; the record reveals both, and `cardplay verify RECORD` checks them",
    back_lobby: "Back to the lobby", play_again: "New game",
    invite: "Invite: send this link to a friend; its opener takes a free seat.",
    copy: "Copy link", copied: "Copied.", reconnecting: "Connection lost; reconnecting…",
    connecting: "Connecting…", no_seat: "You have no seat at this table.",
    join_seat: "Take a free seat", watch_instead: "Watch", table_full: "Every seat is taken.",
    not_found: "No such table.", stake: "Stake", stake_amount: "Stake amount",
    play_selected: "Play the selected cards", keyboard_help:
      "Keys: ←/→ move between cards, Enter plays, 1–9 play the n-th legal move, L last trick, S score sheet.",
    played: "{who} played {move}.", you_played: "You played {move}.",
    err_stale: "The table moved on; your view was refreshed.", err_out_of_turn: "It is not your turn.",
    err_illegal: "That move is not legal now.", err_invalid: "That move is not understood.",
    err_over: "The match is over.", err_bad_token: "Your seat token is not valid here.",
    err_no_table: "No such table.", err_generic: "Error: {message}",
    m_close: "Close the talon", m_exchange: "Exchange the trump", m_draw: "Draw", m_pass: "Pass",
    m_take: "Take", m_buy: "Buy a card", m_stand: "Stand", m_stake: "Stake {n}",
    m_marriage: "{card} and announce {n}", m_as_spade: "A♠ as a spade", m_as_trump: "A♠ as trump {suit}",
    m_kings: "{cards} (Kings: {n})", level_random: "random", level_heuristic: "heuristic",
    level_fast: "fast", level_strong: "strong", yes: "yes", no: "no",
    card_back: "face-down card", cards_left: "{n} cards", trump: "Trump", table_cards: "On the table",
    all_hands: "Hands", deal_col: "Deal", lobby_title: "Play cards in the browser",
    create_error: "Could not create the table: {message}", join_error: "Could not join: {message}",
    sixtysix_hint: "", your_seat: "you are seat {n}", match_total: "Match", seat_n: "Seat {n}",
  },
  ru: {
    skip: "К содержимому", language: "Язык", four_colour: "Четырёхцветная колода",
    credits: "Карты: Адриан Кеннард, общественное достояние (CC0)", credits_link: "источники",
    new_game: "Новая игра", game: "Игра", options: "Параметры", opponents: "Уровень ботов",
    play_now: "Играть с ботами", create_table: "Создать стол", seats: "Места",
    seat_you: "Вы", seat_person: "Человек (по приглашению)", seat_bot: "Бот: {level}",
    your_name: "Ваше имя (необязательно)", open_tables: "Свободные столы", playing_tables: "Идущие игры",
    none_open: "Свободных столов нет.", none_playing: "Идущих игр нет.", refresh: "Обновить",
    join: "Сесть", watch: "Смотреть", seat_free: "свободных мест: {n}", players: "игроков: {n}",
    deal_n: "Сдача {n}", scores: "Счёт", you: "Вы", bot: "Бот ({level})",
    player_n: "Игрок {n}", seat_open: "Место {n} (свободно)", connected: "в игре", away: "отошёл",
    bot_holds: "пока нет, играет бот", to_move: "ходит", dealer: "сдаёт",
    your_turn: "Ваш ход.", waiting_for: "Ждём: {who}.", spectating: "Вы зритель.",
    hand: "Ваши карты", hand_of: "Карты: {who}", actions: "Действия", no_moves: "",
    last_trick: "Последняя взятка", score_sheet: "Запись счёта", moves_log: "Ходы", total: "Итого",
    deal_over: "Сдача {n} окончена", result: "Итог", continue: "Дальше",
    match_over: "Партия окончена", you_win: "Вы выиграли!", you_lose: "Вы проиграли.",
    winners: "Победители: {who}", no_winner: "Победителя нет.", download: "Скачать запись партии",
    commitment: "тасовка заверена: {h}…", commitment_hint: "SHA-256 от зерна партии и соли, показанный до первой карты; запись партии раскрывает оба, а `cardplay verify ЗАПИСЬ` их проверяет",
    back_lobby: "В лобби", play_again: "Новая игра",
    invite: "Приглашение: отправьте ссылку другу; открывший её займёт свободное место.",
    copy: "Копировать", copied: "Скопировано.", reconnecting: "Связь потеряна; переподключаемся…",
    connecting: "Подключение…", no_seat: "У вас нет места за этим столом.",
    join_seat: "Занять свободное место", watch_instead: "Смотреть", table_full: "Все места заняты.",
    not_found: "Такого стола нет.", stake: "Ставка", stake_amount: "Размер ставки",
    play_selected: "Сыграть выбранные карты", keyboard_help:
      "Клавиши: ←/→ — между картами, Enter — сыграть, 1–9 — n-й возможный ход, L — последняя взятка, S — счёт.",
    played: "{who}: {move}.", you_played: "Ваш ход: {move}.",
    err_stale: "Положение изменилось; вид обновлён.", err_out_of_turn: "Сейчас не ваш ход.",
    err_illegal: "Этот ход сейчас невозможен.", err_invalid: "Ход не распознан.",
    err_over: "Партия окончена.", err_bad_token: "Ваш ключ места здесь не действует.",
    err_no_table: "Такого стола нет.", err_generic: "Ошибка: {message}",
    m_close: "Закрыть колоду", m_exchange: "Обменять козыря", m_draw: "Взять из колоды", m_pass: "Пас",
    m_take: "Взять карту", m_buy: "Прикупить", m_stand: "Хватит", m_stake: "Ставка {n}",
    m_marriage: "{card} и объявить {n}", m_as_spade: "Т♠ как пика", m_as_trump: "Т♠ как козырь {suit}",
    m_kings: "{cards} (короли: {n})", level_random: "случайный", level_heuristic: "эвристический",
    level_fast: "быстрый", level_strong: "сильный", yes: "да", no: "нет",
    card_back: "карта рубашкой вверх", cards_left: "карт: {n}", trump: "Козырь", table_cards: "На столе",
    all_hands: "Карты игроков", deal_col: "Сдача", lobby_title: "Карточные игры в браузере",
    create_error: "Не удалось создать стол: {message}", join_error: "Не удалось сесть: {message}",
    sixtysix_hint: "", your_seat: "вы — место {n}", match_total: "Партия", seat_n: "Место {n}",
  },
};

const LABELS = {
  en: {
    trump_suit: "Trump suit", trump_card: "Trump card", turned_trump: "Turned trump", talon: "Talon",
    closed_by: "Closed by", phase: "Phase", leader: "Leader", trick: "Trick", tricks: "Tricks",
    tricks_won: "Tricks won", pending: "Marriages pending", marriages: "Marriages", exchange: "Exchange",
    hand_sizes: "Cards in hand", known_cards: "Known cards", last_trick_bonus: "Last trick",
    stand_bonus: "Stand bonus", led: "Suit led", declared: "A♠ declared", last_trick: "Last trick",
    won: "Won", tricks_played: "Tricks played", hand_points: "Hand points", stock: "Stock",
    round: "Round", starter: "Starter", bonus_cards: "Bonus cards", bonus: "Bonus", tally: "Tally",
    tally_total: "Tally total", cleared: "Cleared", scores: "Scores", stock_size: "Stock",
    last_positive_scorer: "Last to score", last_event: "Last event", bonus_to: "Bonus to",
    count: "Count", turns: "Turns", passes: "Passes", pile: "Pile", banker: "Banker", bank: "Bank",
    bank_stake: "Bank stake", target: "Target", chips: "Chips", out: "Out", punters: "Punters",
    settled: "Settled", stake_range: "Stakes", chips_at_start: "Chips at start",
    used: "Used", dealt_to: "Dealt to", stakes: "Stakes", status: "Status",
    bought: "Bought", shown: "Shown", last_round: "Last round", leading: "Leading", need: "Needed",
    need_suit: "Suit needed", drawn: "Drawn", known: "Known", start_cards: "Start cards",
    draws: "Draws", loser: "Loser", outcome: "Outcome", winner: "Winner", points: "Points",
    cards: "Cards", values: "Values", banker_card: "Banker's card", banker_value: "Banker's value",
    hands: "Hands", game_points: "Game points", reason: "Reason", seat: "Seat", suit: "Suit",
    shown: "Shown", took: "Took", gave: "Gave", stand_bonus_next: "Next stand bonus",
    trump_card_taker: "Trump card taken by", card: "Card", move: "Move", stake: "Stake",
    turned: "Turned", previous: "Previous",
  },
  ru: {
    trump_suit: "Козырь", trump_card: "Козырная карта", turned_trump: "Открытый козырь", talon: "Колода",
    closed_by: "Закрыл", phase: "Фаза", leader: "Ходит первым", trick: "Взятка", tricks: "Взятки",
    tricks_won: "Взято взяток", pending: "Объявления в ожидании", marriages: "Марьяжи", exchange: "Обмен",
    hand_sizes: "Карт на руке", known_cards: "Известные карты", last_trick_bonus: "Последняя взятка",
    stand_bonus: "Бонус", led: "Масть хода", declared: "Т♠ объявлен", last_trick: "Последняя взятка",
    won: "Выигрыш", tricks_played: "Сыграно взяток", hand_points: "Очки сдачи", stock: "Колода",
    round: "Раунд", starter: "Начинает", bonus_cards: "Бонусные карты", bonus: "Бонус", tally: "Счётная стопка",
    tally_total: "Сумма", cleared: "Сброшено", scores: "Счёт", stock_size: "Колода",
    last_positive_scorer: "Последним набрал", last_event: "Событие", bonus_to: "Бонус получил",
    count: "Счёт", turns: "Ходы", passes: "Пасы", pile: "Стопка", banker: "Банкир", bank: "Банк",
    bank_stake: "Ставка банка", target: "Цель", chips: "Фишки", out: "Выбыли", punters: "Понтёры",
    settled: "Рассчитаны", stake_range: "Ставки", chips_at_start: "Фишки в начале",
    used: "Вышли", dealt_to: "Получили карты", stakes: "Ставки", status: "Статус",
    bought: "Прикуплено", shown: "Открыты", last_round: "Прошлый круг", leading: "Первый ход", need: "Нужна",
    need_suit: "Нужна масть", drawn: "Взято", known: "Известны", start_cards: "Начальные карты",
    draws: "Взятия", loser: "Проигравший", outcome: "Итог", winner: "Победитель", points: "Очки",
    cards: "Карты", values: "Значения", banker_card: "Карта банкира", banker_value: "Очки банкира",
    hands: "Руки", game_points: "Очки партии", reason: "Причина", seat: "Место", suit: "Масть",
    shown: "Показана", took: "Взял", gave: "Отдал", stand_bonus_next: "Бонус в следующей",
    trump_card_taker: "Козыря взял", card: "Карта", move: "Ход", stake: "Ставка",
    turned: "Открыта", previous: "Прошлый",
  },
};

const OPTION_LABELS = {
  en: { players: "Players", preset: "Rule set", match_target: "Match to (game points)", end_mode: "Deal ends",
    marriage_requires_trick: "Marriage needs a trick won", exchange: "Trump exchange", allow_close: "Closing allowed",
    must_head: "Must win the trick when closed", marriage_lead: "Marriage led with",
    marriage_credit: "Marriage points count", schwarz_rule: "Schwarz means", stand_bonus: "Stand bonus",
    win_check: "Win checked", target: "Target", next_dealer: "Next dealer", round_end: "Round ends",
    winner_rule: "Winner", count_rule: "Count rule", count_advances_on_draw: "Count advances on a draw",
    may_draw_voluntarily: "May draw voluntarily", pair_counts_ten: "A pair counts ten", penalty_2_to_9: "Penalty for 2–9",
    tie_policy: "Ties", start_chips: "Starting chips", bank_stake: "Bank stake", banks_per_player: "Banks per player",
    ace_low: "Ace low", min_stake: "Minimum stake", max_stake: "Maximum stake", stake_timing: "Stakes placed",
    banker_unlimited: "Banker unlimited", forced_draw: "Forced draw", naturals: "Naturals", multi_buy: "Several buys",
    deck_size: "Deck size", require_same_suit: "Same suit required", after_ace: "After an ace", games: "Games" },
  ru: { players: "Игроков", preset: "Набор правил", match_target: "Партия до (очков)", end_mode: "Конец сдачи",
    marriage_requires_trick: "Марьяж только после взятки", exchange: "Обмен козыря", allow_close: "Можно закрыть",
    must_head: "После закрытия — бить", marriage_lead: "Марьяж выходом с",
    marriage_credit: "Очки марьяжа засчитываются", schwarz_rule: "Шварц — это", stand_bonus: "Бонус за ничью",
    win_check: "Проверка победы", target: "Цель", next_dealer: "Следующий сдающий", round_end: "Конец раунда",
    winner_rule: "Победитель", count_rule: "Правило счёта", count_advances_on_draw: "Счёт растёт при взятии",
    may_draw_voluntarily: "Можно брать по желанию", pair_counts_ten: "Пара считается за 10", penalty_2_to_9: "Штраф за 2–9",
    tie_policy: "Ничьи", start_chips: "Фишек в начале", bank_stake: "Ставка банка", banks_per_player: "Банков на игрока",
    ace_low: "Туз — единица", min_stake: "Наименьшая ставка", max_stake: "Наибольшая ставка", stake_timing: "Когда ставить",
    banker_unlimited: "Банк без предела", forced_draw: "Обязательный прикуп", naturals: "Натуральные", multi_buy: "Несколько прикупов",
    deck_size: "Размер колоды", require_same_suit: "Нужна та же масть", after_ace: "После туза", games: "Игр" },
};
function optionLabel(name) {
  return (OPTION_LABELS[lang] && OPTION_LABELS[lang][name]) || OPTION_LABELS.en[name] || name.replace(/_/g, " ");
}

const RANKS = { en: { "2": "Two", "3": "Three", "4": "Four", "5": "Five", "6": "Six", "7": "Seven",
  "8": "Eight", "9": "Nine", T: "Ten", J: "Jack", Q: "Queen", K: "King", A: "Ace" },
  ru: { "2": "Двойка", "3": "Тройка", "4": "Четвёрка", "5": "Пятёрка", "6": "Шестёрка", "7": "Семёрка",
  "8": "Восьмёрка", "9": "Девятка", T: "Десятка", J: "Валет", Q: "Дама", K: "Король", A: "Туз" } };
const SUITS = { en: { S: "spades", H: "hearts", D: "diamonds", C: "clubs" },
  ru: { S: "пик", H: "червей", D: "бубен", C: "треф" } };
const SUIT_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RANK_SHORT = { en: { T: "10" }, ru: { T: "10", J: "В", Q: "Д", K: "К", A: "Т" } };
const CARD_RE = /^[2-9TJQKA][SHDC]$/;
const CARD_TOKEN = /\b([2-9TJQKA])([SHDC])\b/g;
const KEYWORDS = ["close", "exchange", "draw", "pass", "take", "buy", "stand"];
// lists of seats (not one value per seat), whatever their length
const SEAT_LIST_KEYS = new Set(["out", "punters", "dealt_to", "settled_seats", "winners", "losers", "seats"]);
const SEAT_KEYS = new Set(["leader", "closed_by", "starter", "banker", "dealer", "loser", "winner",
  "last_positive_scorer", "bonus_to", "trump_card_taker", "last_trick_bonus", "seat", "taker"]);

let lang = localStorage.getItem("cardplay.lang") || ((navigator.language || "en").startsWith("ru") ? "ru" : "en");
if (!TEXTS[lang]) lang = "en";
let fourColour = localStorage.getItem("cardplay.fourColour") === "1";

function t(key, vars) {
  let s = (TEXTS[lang] && TEXTS[lang][key]);
  if (s === undefined) s = TEXTS.en[key];
  if (s === undefined) s = key;
  if (vars) for (const k of Object.keys(vars)) s = s.split("{" + k + "}").join(String(vars[k]));
  return s;
}
function label(key) {
  return (LABELS[lang] && LABELS[lang][key]) || LABELS.en[key] || key.replace(/_/g, " ");
}
function cardName(c) {
  return lang === "ru" ? `${RANKS.ru[c[0]]} ${SUITS.ru[c[1]]}` : `${RANKS.en[c[0]]} of ${SUITS.en[c[1]]}`;
}
function cardShort(c) {
  const r = (RANK_SHORT[lang] && RANK_SHORT[lang][c[0]]) || RANK_SHORT.en[c[0]] || c[0];
  return r + SUIT_SYMBOL[c[1]];
}
function prettyText(text) {
  return String(text).replace(CARD_TOKEN, (m, r, s) => cardShort(r + s)).replace(/=([SHDC])$/, (m, s) => "=" + SUIT_SYMBOL[s]);
}
function levelName(level) { return t("level_" + level) === "level_" + level ? level : t("level_" + level); }

/* ------------------------------------------------------------------ DOM helpers */
function h(tag, attrs, ...kids) {
  const el = document.createElement(tag);
  if (attrs) for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "text") el.textContent = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (v === true) el.setAttribute(k, "");
    else el.setAttribute(k, v);
  }
  for (const kid of kids.flat(Infinity)) {
    if (kid === null || kid === undefined || kid === false) continue;
    el.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  }
  return el;
}
function cardImg(c, mini) {
  const style = fourColour ? "4c" : "2c";
  return h("img", { class: "card" + (mini ? " mini" : ""), src: `/static/cards/${style}/${c}.svg`,
    alt: cardName(c), width: mini ? 46 : 76, height: mini ? 64 : 106, draggable: "false" });
}
function backImg(mini, alt) {
  return h("img", { class: "card" + (mini ? " mini" : ""), src: "/static/cards/back.svg",
    alt: alt || t("card_back"), width: mini ? 46 : 76, height: mini ? 64 : 106 });
}
function announce(text) {
  const live = document.getElementById("live");
  live.textContent = "";
  setTimeout(() => { live.textContent = text; }, 30);
}
function banner(text) {
  const b = document.getElementById("banner");
  b.textContent = text || "";
  b.hidden = !text;
}
const main = () => document.getElementById("main");

function applyChrome() {
  document.documentElement.lang = lang;
  document.getElementById("lang").value = lang;
  document.getElementById("four-colour").checked = fourColour;
  document.getElementById("lang-label").textContent = t("language");
  document.getElementById("four-colour-label").textContent = t("four_colour");
  document.getElementById("skip-link").textContent = t("skip");
  document.getElementById("credits").textContent = t("credits");
  document.getElementById("credits-link").textContent = t("credits_link");
}

/* ------------------------------------------------------------------ lobby */
let catalog = null;
let lobbyTimer = null;

async function getJSON(url, opts) {
  const r = await fetch(url, opts);
  let body = null;
  try { body = await r.json(); } catch (e) { body = null; }
  if (!r.ok) throw new Error((body && (body.error || body.detail)) || r.statusText);
  return body;
}

function gameTitle(g) { return (g.title && (g.title[lang] || g.title.en)) || g.name; }

async function showLobby() {
  document.title = "cardplay";
  const m = main();
  m.replaceChildren(h("h1", { text: t("lobby_title") }));
  if (!catalog) catalog = (await getJSON("/api/games")).filter((g) => g.available);
  const form = h("form", { class: "panel", id: "new-game", "aria-labelledby": "new-game-h" });
  const tablesPanel = h("section", { class: "panel", "aria-labelledby": "open-h" });
  m.append(h("div", { class: "lobby" }, form, tablesPanel));

  const params = new URLSearchParams(location.search);
  const gameSel = h("select", { id: "game", name: "game" },
    catalog.map((g) => h("option", { value: g.name, text: gameTitle(g) })));
  // The flagship game is preselected so that a game against a bot is one click away.
  gameSel.value = params.get("game") || (catalog.some((g) => g.name === "sixty-six") ? "sixty-six" : gameSel.value);
  const optsBox = h("div", { class: "options" });
  const seatsBox = h("div", { class: "seats-config" });
  const levelSel = h("select", { id: "level", name: "level" });
  const nameInput = h("input", { type: "text", id: "name", maxlength: "40", autocomplete: "nickname" });
  nameInput.value = localStorage.getItem("cardplay.name") || "";
  const err = h("p", { class: "error", role: "alert" });

  const current = () => catalog.find((g) => g.name === gameSel.value);
  function optionValues() {
    const out = {};
    for (const el of optsBox.querySelectorAll("[data-option]")) {
      const g = current(); const o = g.options.find((x) => x.name === el.dataset.option);
      let v = el.value;
      if (o.choices) v = o.choices[Number(v)];
      else v = Number(v);
      if (v !== o.default) out[o.name] = v;
    }
    return out;
  }
  function players() {
    const g = current(); const o = optionValues();
    const p = g.options.find((x) => x.name === "players");
    return o.players !== undefined ? o.players : (p ? p.default : g.min_players);
  }
  function renderSeats() {
    const g = current(); const n = players();
    seatsBox.replaceChildren();
    for (let i = 0; i < n; i++) {
      const id = "seat-" + i;
      if (i === 0) { seatsBox.append(h("div", { class: "field" }, h("span", { class: "label", text: `${i}: ${t("seat_you")}` }))); continue; }
      const sel = h("select", { id, "data-seat": i },
        h("option", { value: "human", text: t("seat_person") }),
        g.levels.map((l) => h("option", { value: "bot:" + l, text: t("seat_bot", { level: levelName(l) }) })));
      sel.value = "bot:" + g.levels[g.levels.length - 1];
      seatsBox.append(h("div", { class: "field" }, h("label", { for: id, text: t("seat_n", { n: i }) }), sel));
    }
  }
  function renderOptions() {
    const g = current();
    optsBox.replaceChildren();
    for (const o of g.options) {
      const id = "opt-" + o.name;
      let input;
      if (o.choices) {
        input = h("select", { id, "data-option": o.name },
          o.choices.map((c, i) => h("option", { value: i, text: typeof c === "boolean" ? t(c ? "yes" : "no") : String(c) })));
        input.value = String(o.choices.indexOf(o.default));
      } else {
        input = h("input", { id, type: "number", "data-option": o.name, min: o.min ?? 1, max: o.max, step: 1 });
        input.value = o.default;
      }
      input.addEventListener("change", renderSeats);
      optsBox.append(h("div", { class: "field" }, h("label", { for: id, text: optionLabel(o.name) }), input));
    }
    levelSel.replaceChildren(...g.levels.map((l) => h("option", { value: l, text: levelName(l) })));
    levelSel.value = g.levels[g.levels.length - 1];
    renderSeats();
  }
  gameSel.addEventListener("change", renderOptions);

  async function create(seats) {
    err.textContent = "";
    localStorage.setItem("cardplay.name", nameInput.value);
    try {
      const r = await getJSON("/api/tables", { method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ game: gameSel.value, options: optionValues(), seats, name: nameInput.value }) });
      localStorage.setItem("cardplay.token." + r.table, JSON.stringify({ token: r.token, seat: r.seat }));
      navigate(r.url);
    } catch (e) { err.textContent = t("create_error", { message: e.message }); }
  }
  const playNow = h("button", { type: "button", id: "play-now", onclick: () => {
    const n = players();
    create([{ kind: "human" }, ...Array.from({ length: n - 1 }, () => ({ kind: "bot", level: levelSel.value }))]);
  } }, t("play_now"));
  const createBtn = h("button", { type: "button", class: "secondary", id: "create-table", onclick: () => {
    const seats = [{ kind: "human" }];
    for (const sel of seatsBox.querySelectorAll("select[data-seat]")) {
      seats.push(sel.value === "human" ? { kind: "human" } : { kind: "bot", level: sel.value.slice(4) });
    }
    create(seats);
  } }, t("create_table"));
  form.addEventListener("submit", (e) => e.preventDefault());
  form.append(
    h("h2", { id: "new-game-h", text: t("new_game") }),
    h("div", { class: "field" }, h("label", { for: "game", text: t("game") }), gameSel),
    h("fieldset", { class: "field" }, h("legend", { text: t("options") }), optsBox),
    h("div", { class: "field" }, h("label", { for: "name", text: t("your_name") }), nameInput),
    h("div", { class: "field" }, h("label", { for: "level", text: t("opponents") }), levelSel),
    h("div", { class: "row" }, playNow),
    h("fieldset", { class: "field" }, h("legend", { text: t("seats") }), seatsBox),
    h("div", { class: "row" }, createBtn), err);
  renderOptions();

  async function renderTables() {
    const data = await getJSON("/api/tables");
    const item = (x, open) => h("li", {},
      h("span", {}, h("strong", { text: gameTitle(x) }), " ", h("span", { class: "muted",
        text: `${t("players", { n: x.players })} · ${t("deal_n", { n: x.deal_number })}` + (open ? ` · ${t("seat_free", { n: x.open_seats.length })}` : "") })),
      h("span", { class: "row" },
        open ? h("a", { href: "/join/" + x.id, "data-link": "1", text: t("join") }) : null,
        h("a", { href: "/watch/" + x.id, "data-link": "1", text: t("watch") })));
    tablesPanel.replaceChildren(
      h("h2", { id: "open-h", text: t("open_tables") }),
      data.open.length ? h("ul", { class: "tables" }, data.open.map((x) => item(x, true))) : h("p", { class: "muted", text: t("none_open") }),
      h("h2", { text: t("playing_tables") }),
      data.playing.length ? h("ul", { class: "tables" }, data.playing.map((x) => item(x, false))) : h("p", { class: "muted", text: t("none_playing") }),
      h("button", { type: "button", class: "secondary", onclick: renderTables }, t("refresh")));
  }
  await renderTables();
  // the list of tables follows what others open and fill, while the lobby is shown
  lobbyTimer = setInterval(() => {
    if (!document.body.contains(tablesPanel)) { clearInterval(lobbyTimer); lobbyTimer = null; return; }
    if (!tablesPanel.contains(document.activeElement)) renderTables().catch(() => {});
  }, 5000);
}

/* ------------------------------------------------------------------ joining by invite */
async function showJoin(id) {
  const saved = localStorage.getItem("cardplay.token." + id);
  if (saved) return navigate("/t/" + id, true);
  main().replaceChildren(h("p", { text: t("connecting") }));
  try {
    const r = await getJSON(`/api/tables/${id}/join`, { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name: localStorage.getItem("cardplay.name") || "" }) });
    localStorage.setItem("cardplay.token." + id, JSON.stringify({ token: r.token, seat: r.seat }));
    navigate("/t/" + id, true);
  } catch (e) {
    main().replaceChildren(h("p", { class: "error", role: "alert", text: t("join_error", { message: e.message }) }),
      h("p", {}, h("a", { href: "/watch/" + id, "data-link": "1", text: t("watch_instead") }), " · ",
        h("a", { href: "/", "data-link": "1", text: t("back_lobby") })));
  }
}

/* ------------------------------------------------------------------ a table */
const T = { ws: null, id: null, token: null, seat: null, state: null, welcome: null, previous: null,
  seenPrevious: -1, retry: 0, closing: false, pending: false, selected: new Set(), lastVersion: -1,
  status: "", statusBad: false, shownTrick: false };

function seatName(i, seats) {
  if (i === null || i === undefined) return "—";
  const s = (seats || (T.state && T.state.seats) || [])[i];
  if (T.seat === i) return t("you");
  if (!s) return t("player_n", { n: i });
  if (s.kind === "bot") return t("bot", { level: levelName(s.level) });
  if (!s.claimed) return t("seat_open", { n: i });
  return s.name || t("player_n", { n: i });
}

function openTable(id, watch) {
  closeSocket();
  Object.assign(T, { id, state: null, welcome: null, previous: null, seenPrevious: -1, retry: 0,
    closing: false, pending: false, selected: new Set(), lastVersion: -1, status: "", statusBad: false });
  const saved = watch ? null : localStorage.getItem("cardplay.token." + id);
  T.token = saved ? JSON.parse(saved).token : null;
  if (!watch && !T.token) {
    main().replaceChildren(h("p", { text: t("no_seat") }),
      h("p", { class: "row" }, h("a", { href: "/join/" + id, "data-link": "1", text: t("join_seat") }),
        h("a", { href: "/watch/" + id, "data-link": "1", text: t("watch_instead") })));
    return;
  }
  main().replaceChildren(h("p", { text: t("connecting") }));
  connect();
}

function closeSocket() {
  if (T.ws) { T.closing = true; try { T.ws.close(); } catch (e) { /* already closed */ } T.ws = null; }
}

function connect() {
  const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
  T.ws = ws; T.closing = false;
  ws.onopen = () => {
    T.retry = 0;
    ws.send(JSON.stringify(T.token ? { type: "hello", table: T.id, token: T.token } : { type: "watch", table: T.id }));
  };
  ws.onmessage = (e) => onMessage(JSON.parse(e.data));
  ws.onclose = () => {
    if (T.ws !== ws || T.closing) return;
    banner(t("reconnecting"));
    T.pending = false;
    const wait = Math.min(5000, 300 * 2 ** T.retry++);
    setTimeout(() => { if (T.ws === ws) connect(); }, wait);
  };
}

function send(msg) {
  if (T.ws && T.ws.readyState === WebSocket.OPEN) T.ws.send(JSON.stringify(msg));
}

function onMessage(msg) {
  if (msg.type === "welcome") {
    banner("");
    T.welcome = msg; T.seat = msg.seat;
    document.title = `${(msg.title && (msg.title[lang] || msg.title.en)) || msg.game} · cardplay`;
  } else if (msg.type === "state") {
    banner("");
    const old = T.state;
    T.state = msg; T.pending = false;
    if ("previous" in msg) T.previous = msg.previous;
    if (!old || msg.version !== old.version) T.selected = new Set();
    if (old && msg.last && msg.version > old.version) {
      const who = msg.last.seat === T.seat ? null : seatName(msg.last.seat, msg.seats);
      let text = who ? t("played", { who, move: prettyText(msg.last.move) }) : t("you_played", { move: prettyText(msg.last.move) });
      if (T.seat !== null && msg.view.to_move === T.seat && !msg.is_over) text += " " + t("your_turn");
      announce(text);
    }
    if (!msg.full && msg.reply_to === undefined && T.status && !T.statusBad) T.status = "";
    if (msg.reply_to !== undefined) { T.status = ""; T.statusBad = false; }
    renderTable(old);
  } else if (msg.type === "error") {
    T.pending = false;
    if (msg.code === "bad_token" || msg.code === "no_table") {
      main().replaceChildren(h("p", { class: "error", role: "alert", text: t("err_" + msg.code) }),
        h("p", {}, h("a", { href: "/", "data-link": "1", text: t("back_lobby") })));
      closeSocket();
      return;
    }
    const key = "err_" + msg.code;
    T.status = t(key) !== key ? t(key) : t("err_generic", { message: msg.message });
    T.statusBad = true;
    if (T.state) renderTable(T.state);
    announce(T.status);
  } else if (msg.type === "record") {
    /* records are fetched over HTTP for download; nothing to do */
  }
}

function playMove(move) {
  const s = T.state;
  if (!s || T.pending || T.seat === null) return;
  if (!s.view.legal_moves.includes(move)) return;
  T.pending = true;
  T.status = ""; T.statusBad = false;
  send({ type: "move", move, version: s.version, id: s.version });
}

/* Move classification: the view's legal moves become card clicks, buttons and a stake form. */
function classify(legal) {
  const cardMoves = new Map(); const buttons = []; const stakes = []; const combos = [];
  for (const m of legal) {
    if (CARD_RE.test(m)) cardMoves.set(m, m);
    else if (/^stake \d+$/.test(m)) stakes.push(Number(m.slice(6)));
    else if (m.includes("+")) combos.push(m);
    else buttons.push(m);
  }
  return { cardMoves, buttons, stakes, combos };
}
function moveLabel(m) {
  let r;
  if (KEYWORDS.includes(m)) return t("m_" + m);
  if ((r = /^([KQ][SHDC])=(20|40)$/.exec(m))) return t("m_marriage", { card: cardShort(r[1]), n: r[2] });
  if ((r = /^AS=([SHDC])$/.exec(m))) return r[1] === "S" ? t("m_as_spade") : t("m_as_trump", { suit: SUIT_SYMBOL[r[1]] });
  if ((r = /^stake (\d+)$/.exec(m))) return t("m_stake", { n: r[1] });
  return prettyText(m.split("+").join(" + "));
}
function logText(m) {
  return KEYWORDS.includes(m) || /^stake \d+$/.test(m) ? moveLabel(m) : prettyText(m);
}
function moveAria(m) {
  let r;
  if (CARD_RE.test(m)) return cardName(m);
  if ((r = /^([KQ][SHDC])=(20|40)$/.exec(m))) return t("m_marriage", { card: cardName(r[1]), n: r[2] });
  if (m.includes("+")) return m.split("+").map((c) => CARD_RE.test(c.split("=")[0]) ? cardName(c.split("=")[0]) + (c.includes("=") ? " = " + c.split("=")[1] : "") : c).join(", ");
  return moveLabel(m);
}

function isPerSeat(v, n) {
  return Array.isArray(v) && v.length === n && v.every((x) => x === null || typeof x === "number" || typeof x === "string" && !CARD_RE.test(x));
}
function isCardList(v) { return Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === "string" && CARD_RE.test(x)); }
function isSeatCards(v) { return Array.isArray(v) && v.length > 0 && v.every((x) => x && typeof x === "object" && "card" in x && "seat" in x); }
function isPerSeatCards(v, n) { return Array.isArray(v) && v.length === n && v.every((x) => Array.isArray(x) && x.every((c) => typeof c === "string" && CARD_RE.test(c))); }

function fmtValue(key, v, seats) {
  if (v === null || v === undefined) return "—";
  if (typeof v === "boolean") return t(v ? "yes" : "no");
  if (typeof v === "number" && (SEAT_KEYS.has(key) || /_(by|to|seat|winner|leader|starter|scorer|taker)$/.test(key))) return seatName(v, seats);
  if (typeof v === "string") {
    if ((key.endsWith("suit") || key === "led" || key === "declared") && SUIT_SYMBOL[v]) return SUIT_SYMBOL[v];
    return prettyText(v);
  }
  if (Array.isArray(v)) {
    if (!v.length) return "—";
    if (v.every((x) => typeof x === "number") && (SEAT_LIST_KEYS.has(key) || key === "settled")) return v.map((s) => seatName(s, seats)).join(", ");
    if (key.endsWith("_range") && v.length === 2) return `${v[0]}–${v[1]}`;
    return v.map((x) => fmtValue("", x, seats)).join(" ");
  }
  if (typeof v === "object") {
    if ("seat" in v && "card" in v) return `${seatName(v.seat, seats)}: ${prettyText(v.card)}`;
    return Object.entries(v).filter(([, x]) => x !== null).map(([k, x]) => `${label(k)}: ${fmtValue(k, x, seats)}`).join("; ");
  }
  return String(v);
}

function cardRow(cards, mini, limit) {
  const shown = limit && cards.length > limit ? cards.slice(cards.length - limit) : cards;
  return h("div", { class: "cards" }, shown.map((c) => cardImg(c, mini)),
    shown.length < cards.length ? h("span", { text: `(+${cards.length - shown.length})` }) : null);
}
function seatCards(list, seats, mini, fresh) {
  return h("div", { class: "cards" }, list.map((x, i) => h("div", { class: "played" + (fresh && i >= fresh ? " enter" : "") },
    typeof x.card === "string" && CARD_RE.test(x.card) ? cardImg(x.card, mini) : h("span", { text: String(x.card) }),
    h("span", { text: seatName(x.seat, seats) }))));
}

/* The public state: trick, trump and piles as cards; per-seat lists in the seat boxes; the rest as
   labelled values. Game-specific touches only choose where keys go; unknown keys still show. */
const CENTRE_KEYS = ["trick", "tally", "pile", "trump_card", "turned_trump", "bonus_cards", "start_cards"];
const HIDDEN_KEYS = new Set(["tricks", "won", "deck_parts", "draws", "history"]);
// where things sit in the middle of the table: the play first, the stock last
const CENTRE_ORDER = ["trick", "tally", "pile", "count", "bank", "trump_card", "turned_trump", "bonus_cards",
  "start_cards", "talon", "stock", "stock_size"];
// numbers that are the heart of a game's table: shown large
const BIG_NUMBERS = new Set(["bank", "count"]);

function renderPublic(view, seats, perSeat) {
  const pub = view.public || {};
  const n = view.players;
  const centre = [];
  const facts = [];
  for (const [k, v] of Object.entries(pub)) {
    if (HIDDEN_KEYS.has(k)) continue;
    if (k === "last_trick") continue;
    if (isPerSeat(v, n) && !SEAT_LIST_KEYS.has(k)) { perSeat.push([k, v]); continue; }
    if (isPerSeatCards(v, n)) { perSeat.push([k, v]); continue; }
    if (k === "trick" || isSeatCards(v)) {
      const before = (T.prevPublic && Array.isArray(T.prevPublic[k])) ? T.prevPublic[k].length : 0;
      if (Array.isArray(v) && v.length) centre.push(h("div", { class: "pubgroup", "data-key": k }, h("h3", { text: k === "trick" ? t("table_cards") : label(k) }), seatCards(v, seats, false, before < v.length ? before : v.length)));
      continue;
    }
    if (k === "pile" && Array.isArray(v) && v.length && typeof v[0] === "object") {
      const cards = v.slice(-4).map((p) => ({ seat: p.seat, card: (p.cards && p.cards.length === 1) ? p.cards[0] : p.move }));
      const groups = v.slice(-4).map((p) => h("div", { class: "played" }, h("div", { class: "cards" }, (p.cards || []).map((c) => cardImg(c, true))), h("span", { text: seatName(p.seat, seats) })));
      centre.push(h("div", { class: "pubgroup", "data-key": k }, h("h3", { text: label(k) }), h("div", { class: "cards" }, groups)));
      void cards;
      continue;
    }
    if (isCardList(v)) {
      const mini = !CENTRE_KEYS.includes(k);
      const total = typeof pub[k + "_total"] === "number" ? ` (${pub[k + "_total"]})` : "";
      centre.push(h("div", { class: "pubgroup", "data-key": k }, h("h3", { text: label(k) + total }), cardRow(v, mini || v.length > 8, 12)));
      continue;
    }
    if (typeof v === "number" && BIG_NUMBERS.has(k)) {
      centre.push(h("div", { class: "pubgroup", "data-key": k }, h("h3", { text: label(k) }), h("div", { class: "bignum", text: String(v) })));
      continue;
    }
    if (typeof v === "string" && CARD_RE.test(v) && (k === "trump_card" || k === "turned_trump" || k.endsWith("_card"))) {
      if (k === "turned_trump" && pub.trump_card === v) continue;
      centre.push(h("div", { class: "pubgroup", "data-key": k }, h("h3", { text: label(k) }), cardImg(v, false)));
      continue;
    }
    if ((k === "talon" || k === "stock" || k === "stock_size") && typeof v === "number") {
      if (v === 0) continue;
      centre.push(h("div", { class: "pubgroup", "data-key": k }, h("h3", { text: label(k) }),
        h("div", { class: "stack" }, backImg(true, t("cards_left", { n: v })), h("span", { class: "count", "aria-hidden": "true", text: String(v) }))));
      continue;
    }
    if (v === null || (Array.isArray(v) && !v.length)) continue;
    facts.push([k, v]);
  }
  const box = [];
  if (facts.length) {
    box.push(h("div", { class: "pubgroup", "data-key": "facts" }, h("dl", { class: "kv" },
      facts.map(([k, v]) => [h("dt", { text: label(k) }), h("dd", { text: fmtValue(k, v, seats) })]))));
  }
  const rank = (node) => { const i = CENTRE_ORDER.indexOf(node.dataset.key); return i < 0 ? CENTRE_ORDER.length : i; };
  centre.sort((a, b) => rank(a) - rank(b));
  return [...centre, ...box];
}

function lastTrick(view) {
  const p = view.public || {};
  if (p.last_trick && p.last_trick.cards) return { cards: p.last_trick.cards, winner: p.last_trick.winner };
  if (Array.isArray(p.tricks) && p.tricks.length) {
    const last = p.tricks[p.tricks.length - 1];
    const n = view.players;
    const cards = (last.cards || []).map((c, i) => (typeof c === "object" ? c : { seat: last.leader !== undefined ? (last.leader + i) % n : i, card: c }));
    return { cards, winner: last.winner };
  }
  return null;
}

function scoreSheet(view, seats) {
  const m = view.match;
  if (!m) return null;
  const n = view.players;
  const head = h("tr", {}, h("th", { scope: "col", text: t("deal_col") }), Array.from({ length: n }, (_, i) => h("th", { scope: "col", text: seatName(i, seats) })));
  const rows = (m.results || []).map((r, d) => h("tr", {}, h("td", { text: String(d + 1) }), (r || []).map((x) => h("td", { text: x > 0 ? "+" + x : String(x) }))));
  const total = h("tr", {}, h("th", { scope: "row", text: t("total") }), (m.scores || []).map((x) => h("th", { text: String(x) })));
  return h("table", { class: "sheet" }, h("caption", { class: "sr-only", text: t("score_sheet") }), h("thead", {}, head), h("tbody", {}, rows, total));
}

function renderTable(old) {
  const s = T.state; if (!s) return;
  const view = s.view; const seats = s.seats; const n = view.players;
  const me = T.seat; const myTurn = me !== null && view.to_move === me && !s.is_over;
  const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.focusKey : null;
  const m = main();
  const title = T.welcome ? ((T.welcome.title && (T.welcome.title[lang] || T.welcome.title.en)) || s.game) : s.game;

  const headLine = h("div", { class: "table-head" },
    h("h1", { id: "table-title" }, title),
    h("span", { class: "muted", text: `${t("deal_n", { n: view.match ? view.match.deal_number : 1 })}` + (me !== null ? ` · ${t("your_seat", { n: me })}` : ` · ${t("spectating")}`) }),
    T.welcome && T.welcome.commitment ? h("span", { class: "commitment", id: "commitment", title: `${T.welcome.commitment} — ${t("commitment_hint")}`, text: t("commitment", { h: T.welcome.commitment.slice(0, 12) }) }) : null);

  // seats with their per-seat facts
  const perSeat = [];
  const pubNodes = renderPublic(view, seats, perSeat);
  const seatBoxes = h("div", { class: "seats", role: "list", "aria-label": t("seats") }, Array.from({ length: n }, (_, i) => {
    const info = seats[i] || {};
    const bits = [];
    if (view.match) bits.push(`${t("match_total")}: ${view.match.scores[i]}`);
    if (view.points && view.points.some((x) => x)) bits.push(`${label("points")}: ${view.points[i]}`);
    for (const [k, v] of perSeat) {
      const x = v[i];
      if (x === null || x === undefined) continue;
      if (Array.isArray(x)) { if (x.length) bits.push(`${label(k)}: ${x.map(prettyText).join(" ")}`); continue; }
      bits.push(`${label(k)}: ${prettyText(x)}`);
    }
    const flags = [];
    if (view.dealer === i) flags.push(t("dealer"));
    if (view.to_move === i && !s.is_over) flags.push(t("to_move"));
    if (info.kind === "human" && info.claimed && !info.connected) flags.push(info.bot_playing ? t("bot_holds") : t("away"));
    return h("div", { class: "seat" + (view.to_move === i && !s.is_over ? " turn" : ""), role: "listitem", "data-seat": i },
      h("div", { class: "name" }, `${seatName(i, seats)}`, flags.length ? h("span", { class: "facts away", text: ` · ${flags.join(" · ")}` }) : null),
      h("div", { class: "facts", text: bits.join(" · ") }));
  }));

  // hand and actions
  const { cardMoves, buttons, stakes, combos } = classify(myTurn ? view.legal_moves : []);
  // a card whose only legal plays carry a declaration (A♠=♥) points at those buttons
  const declared = new Map();
  for (const mv of buttons) {
    const r = /^([2-9TJQKA][SHDC])=/.exec(mv);
    if (r) declared.set(r[1], [...(declared.get(r[1]) || []), mv]);
  }
  const handNodes = (view.hand || []).map((c, idx) => {
    const plain = cardMoves.has(c);
    const decl = !plain && declared.has(c) ? declared.get(c) : null;
    const legal = plain || decl !== null;
    const inCombo = combos.some((m) => m.split("+").some((x) => x.split("=")[0] === c));
    const selectable = legal || inCombo;
    const click = () => {
      if (plain && !T.selected.size) playMove(c);
      else if (decl && decl.length === 1) playMove(decl[0]);
      else if (decl) { const b = document.querySelector(`[data-move="${CSS.escape(decl[0])}"]`); if (b) b.focus(); }
      else if (inCombo || plain) toggleSelect(c);
    };
    const b = h("button", { type: "button", class: "cardbtn" + (legal ? " legal" : "") + (T.selected.has(c) ? " selected" : ""),
      "data-card": c, "data-move": plain ? c : null, "data-focus-key": "card-" + idx, disabled: !selectable || T.pending,
      "aria-label": cardName(c), "aria-pressed": inCombo && !plain ? String(T.selected.has(c)) : null,
      onclick: click }, cardImg(c, false));
    if (old && old.view && !(old.view.hand || []).includes(c)) b.classList.add("enter");
    return b;
  });
  const choosing = cardMoves.size > 0 || combos.length > 0;
  const hand = h("div", { class: "hand" + (choosing ? " choosing" : ""), role: "group", "aria-label": me !== null ? t("hand") : t("hand_of", { who: "—" }), onkeydown: handKeys }, handNodes);

  const actionNodes = [];
  for (const mv of buttons) actionNodes.push(h("button", { type: "button", "data-move": mv, "data-focus-key": "mv-" + mv, disabled: T.pending, "aria-label": moveAria(mv), onclick: () => playMove(mv) }, moveLabel(mv)));
  if (combos.length) {
    if (T.selected.size) {
      const sel = [...T.selected].sort().join("+");
      const match = combos.concat([...cardMoves.keys()]).find((m) => m.split("+").map((x) => x.split("=")[0]).sort().join("+") === sel);
      actionNodes.push(h("button", { type: "button", "data-focus-key": "play-selected", disabled: !match || T.pending, onclick: () => { if (match) playMove(match); } }, t("play_selected")));
    }
    for (const mv of combos.slice(0, 24)) actionNodes.push(h("button", { type: "button", class: "secondary", "data-move": mv, "data-focus-key": "mv-" + mv, disabled: T.pending, "aria-label": moveAria(mv), onclick: () => playMove(mv) }, moveLabel(mv)));
  }
  if (stakes.length) {
    const lo = Math.min(...stakes), hi = Math.max(...stakes);
    const input = h("input", { type: "number", id: "stake-amount", min: lo, max: hi, step: 1, "aria-label": t("stake_amount"), "data-focus-key": "stake-input" });
    input.value = String(Math.max(lo, Math.min(hi, Math.round((lo + hi) / 4))));
    const go = () => { const v = Number(input.value); if (stakes.includes(v)) playMove("stake " + v); else { T.status = `${lo}–${hi}`; T.statusBad = true; renderTable(T.state); } };
    input.addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); go(); } });
    const quick = [...new Set([lo, Math.round((lo + hi) / 2), hi])].filter((v) => stakes.includes(v));
    actionNodes.push(h("div", { class: "stake" }, h("label", { for: "stake-amount", text: t("stake") }), input,
      h("button", { type: "button", "data-focus-key": "stake-go", disabled: T.pending, onclick: go }, t("stake")),
      quick.map((v) => h("button", { type: "button", class: "secondary", "data-move": "stake " + v, "data-focus-key": "stake-" + v, disabled: T.pending, onclick: () => playMove("stake " + v) }, String(v)))));
  }
  const status = h("p", { class: "status" + (T.statusBad ? " bad" : ""), id: "status", role: "status" },
    T.status || (s.is_over ? "" : myTurn ? t("your_turn") : me === null ? t("spectating") : t("waiting_for", { who: seatName(view.to_move, seats) })));

  const board = h("section", { class: "board", "aria-labelledby": "table-title", "data-version": s.version,
    "data-deal": view.match ? view.match.deal_number : 1, "data-over": s.is_over ? "1" : "0", "data-my-turn": myTurn ? "1" : "0" }, seatBoxes,
    h("div", { class: "centre", "aria-label": t("table_cards") }, pubNodes),
    me !== null ? h("div", { class: "hand-area" }, h("h2", { class: "sr-only", text: t("hand") }), hand,
      h("div", { class: "actions", role: "group", "aria-label": t("actions") }, actionNodes), status) : status);

  // the finished deal (until dismissed), the end of the match
  const notices = [];
  const prev = T.previous;
  const prevNumber = view.match ? view.match.results.length : 0;
  if (prev && !s.is_over && T.seenPrevious !== prevNumber) {
    const res = prev.result || [];
    notices.push(h("section", { class: "notice", "aria-labelledby": "deal-over-h", id: "deal-over" },
      h("h2", { id: "deal-over-h", text: t("deal_over", { n: prevNumber }) }),
      h("p", { text: `${t("result")}: ` + res.map((x, i) => `${seatName(i, seats)} ${x > 0 ? "+" + x : x}`).join(" · ") }),
      prev.hands ? h("div", {}, prev.hands.map((hd, i) => hd.length ? h("div", {}, h("span", { text: seatName(i, seats) + ": " }), cardRow(hd, true)) : null)) : null,
      prev.public && prev.public.outcome ? h("p", { text: fmtValue("outcome", prev.public.outcome, seats) }) : null,
      h("button", { type: "button", class: "secondary", id: "dismiss-deal", onclick: () => { T.seenPrevious = prevNumber; renderTable(T.state); } }, t("continue"))));
  }
  if (s.is_over) {
    const w = s.winners || [];
    let big = w.length ? t("winners", { who: w.map((i) => seatName(i, seats)).join(", ") }) : t("no_winner");
    if (me !== null && w.length) big = w.includes(me) ? t("you_win") : t("you_lose");
    notices.push(h("section", { class: "endscreen", id: "end-screen", "aria-labelledby": "end-h" },
      h("h2", { id: "end-h", text: t("match_over") }), h("p", { class: "big", text: big }),
      h("p", { text: `${t("scores")}: ` + view.match.scores.map((x, i) => `${seatName(i, seats)} ${x}`).join(" · ") }),
      scoreSheet(view, seats),
      h("p", { class: "row", style: "justify-content:center;margin-top:12px" },
        h("a", { href: `/api/tables/${T.id}/record`, download: `cardplay-${s.game}-${T.id}.json`, id: "download", text: t("download") }),
        h("a", { href: `/?game=${s.game}`, "data-link": "1", text: t("play_again") }),
        h("a", { href: "/", "data-link": "1", text: t("back_lobby") }))));
  }

  // side: last trick, score sheet, moves, invite, keyboard help
  const side = [];
  const lt = lastTrick(view) || (prev && lastTrick(prev));
  if (lt) {
    side.push(h("details", { class: "panel", id: "last-trick", open: T.shownTrick },
      h("summary", { text: t("last_trick"), onclick: (e) => { e.preventDefault(); T.shownTrick = !T.shownTrick; renderTable(T.state); } }),
      seatCards(lt.cards, seats, true), lt.winner !== undefined && lt.winner !== null ? h("p", { text: `${label("winner")}: ${seatName(lt.winner, seats)}` }) : null));
  }
  if (view.match) {
    side.push(h("details", { class: "panel", id: "score-sheet", open: T.shownSheet },
      h("summary", { text: t("score_sheet"), onclick: (e) => { e.preventDefault(); T.shownSheet = !T.shownSheet; renderTable(T.state); } }),
      scoreSheet(view, seats)));
  }
  const openSeats = seats.filter((x) => x.kind === "human" && !x.claimed);
  if (openSeats.length && !s.is_over) {
    const url = `${location.origin}/join/${T.id}`;
    const input = h("input", { type: "text", readonly: true, value: url, id: "invite-url", "aria-label": t("invite") });
    side.push(h("section", { class: "panel invite" }, h("p", { text: t("invite") }), input,
      h("button", { type: "button", class: "secondary", onclick: async () => { input.select(); try { await navigator.clipboard.writeText(url); } catch (e) { document.execCommand && document.execCommand("copy"); } announce(t("copied")); } }, t("copy"))));
  }
  const hist = view.history || [];
  side.push(h("section", { class: "panel", "aria-labelledby": "log-h" }, h("h2", { id: "log-h", text: t("moves_log") }),
    h("ol", { class: "log", start: Math.max(1, hist.length - 29) }, hist.slice(-30).map(([seat, mv]) => h("li", { text: `${seatName(seat, seats)}: ${logText(mv)}` })))));
  if (me !== null) side.push(h("p", { class: "kbd-help muted", text: t("keyboard_help") }));

  m.replaceChildren(headLine, ...notices, h("div", { class: "layout" }, board, h("aside", { class: "side" }, side)));
  T.prevPublic = view.public;
  // keep keyboard focus where it was
  if (focused) {
    const again = m.querySelector(`[data-focus-key="${CSS.escape(focused)}"]:not([disabled])`) || m.querySelector(".hand button:not([disabled])");
    if (again) again.focus();
  }
}

function toggleSelect(c) {
  if (T.selected.has(c)) T.selected.delete(c); else T.selected.add(c);
  renderTable(T.state);
}

function handKeys(e) {
  if (e.key !== "ArrowLeft" && e.key !== "ArrowRight") return;
  const btns = [...document.querySelectorAll(".hand button")];
  const i = btns.indexOf(document.activeElement);
  if (i < 0) return;
  e.preventDefault();
  const step = e.key === "ArrowRight" ? 1 : -1;
  for (let j = i + step; j >= 0 && j < btns.length; j += step) {
    if (!btns[j].disabled) { btns[j].focus(); return; }
  }
}

document.addEventListener("keydown", (e) => {
  if (!T.state || e.altKey || e.ctrlKey || e.metaKey) return;
  const tag = (e.target && e.target.tagName) || "";
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
  if (/^[1-9]$/.test(e.key)) {
    const legal = T.state.view.legal_moves || [];
    const mv = legal[Number(e.key) - 1];
    if (mv && T.seat !== null && T.state.view.to_move === T.seat) { e.preventDefault(); playMove(mv); }
  } else if (e.key === "l" || e.key === "L" || e.key === "д" || e.key === "Д") {
    T.shownTrick = !T.shownTrick; renderTable(T.state);
  } else if (e.key === "s" || e.key === "S" || e.key === "ы" || e.key === "Ы") {
    T.shownSheet = !T.shownSheet; renderTable(T.state);
  }
});

/* ------------------------------------------------------------------ routing */
function route() {
  const path = location.pathname;
  if (lobbyTimer) { clearInterval(lobbyTimer); lobbyTimer = null; }
  let r;
  if ((r = /^\/t\/([\w-]+)$/.exec(path))) return openTable(r[1], false);
  if ((r = /^\/watch\/([\w-]+)$/.exec(path))) return openTable(r[1], true);
  closeSocket(); T.state = null; T.seat = null;
  if ((r = /^\/join\/([\w-]+)$/.exec(path))) return showJoin(r[1]);
  return showLobby().catch((e) => main().replaceChildren(h("p", { class: "error", role: "alert", text: e.message })));
}
function navigate(url, replace) {
  if (replace) history.replaceState(null, "", url); else history.pushState(null, "", url);
  route();
  main().focus();
}
document.addEventListener("click", (e) => {
  const a = e.target.closest && e.target.closest("a[data-link]");
  if (!a || e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
  e.preventDefault();
  navigate(a.getAttribute("href"));
});
window.addEventListener("popstate", route);

document.addEventListener("DOMContentLoaded", () => {
  applyChrome();
  document.getElementById("lang").addEventListener("change", (e) => {
    lang = e.target.value; localStorage.setItem("cardplay.lang", lang); applyChrome();
    if (T.state) renderTable(T.state); else route();
  });
  document.getElementById("four-colour").addEventListener("change", (e) => {
    fourColour = e.target.checked; localStorage.setItem("cardplay.fourColour", fourColour ? "1" : "0");
    if (T.state) renderTable(T.state);
  });
  route();
});
