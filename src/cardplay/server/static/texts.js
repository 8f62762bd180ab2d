/* cardplay browser UI: the words of the interface itself, in English and Russian, the names of
   ranks and suits, and the reader's choices (language, four-colour deck). The games' own words
   come from their declarations (GET /api/games). An ES module: the first the others import. */

/* ------------------------------------------------------------------ texts (English, Russian) */
export const TEXTS = {
  en: {
    skip: "Skip to content", language: "Language", four_colour: "Four-colour deck",
    credits: "Card images: Adrian Kennard, public domain (CC0)", credits_link: "credits",
    new_game: "New game", game: "Game", options: "Options", opponents: "Bot level",
    play_now: "Play now against bots", create_table: "Create a table", seats: "Seats",
    seat_you: "You", seat_person: "A person (invite)", seat_bot: "Bot: {level}",
    your_name: "Your name (optional)", open_tables: "Open tables", playing_tables: "Tables in play",
    none_open: "No open tables.", none_playing: "No tables in play.", refresh: "Refresh",
    join: "Join", watch: "Watch", seat_free: "{n} free seat(s)", players: "{n} players",
    deal_n: "Deal {n}", scores: "Scores", you: "You", player_n: "Player {n}", seat_open: "Seat {n} (free)", away: "away",
    bot_holds: "a bot plays while away", to_move: "to move", dealer: "dealer",
    your_turn: "Your turn.", waiting_for: "Waiting for {who}.", spectating: "You are watching.",
    hand: "Your hand", hand_of: "Hand of {who}", actions: "Actions", last_trick: "Last trick", score_sheet: "Score sheet", moves_log: "Moves", total: "Total",
    deal_over: "Deal {n} is over", result: "Result", continue: "Continue",
    match_over: "The match is over", you_win: "You win!", you_lose: "You lose.",
    winners: "Winners: {who}", no_winner: "No winner.", download: "Download the record",
    commitment: "shuffle committed: {h}…", commitment_hint: "SHA-256 of the server's seed, a salt, the game, its options and seats, shown before the first card; the match's seed is made from it and every player's own random part; the record reveals all of them, and `cardplay verify RECORD` checks them",
    waiting_players: "Waiting for every player: the cards are dealt once each person has taken a seat and added their random part.",
    check_record: "Check this record", check_failed: "The record could not be checked: {message}",
    check_commitment_ok: "The commitment shown before the first card matches the game, options, seats and seed.", check_commitment_bad: "The commitment does NOT match the record.",
    check_seed_ok: "The match was dealt from the server's seed and every player's random part.", check_seed_bad: "The match was NOT dealt from the seeds the record reveals.",
    check_signature_ok: "The server's signature is valid.", check_signature_bad: "The server's signature is NOT valid.",
    check_signature_unsupported: "This browser cannot check Ed25519 signatures: use `cardplay verify RECORD --key` for that.",
    check_old_scheme: "An older record: its commitment covers only the seed; use `cardplay verify`.",
    check_mine: "Your random part is in it: {value}", check_mine_unknown: "Your seat's random part: {value} (this browser did not keep the one it sent)",
    check_replay: "That every move replays is checked by `cardplay verify RECORD`.", err_waiting: "The cards are not dealt yet: someone is still to join.",
    back_lobby: "Back to the lobby", play_again: "New game", rematch: "Rematch: the same game again",
    unlisted: "Invite only: not in the lobby's lists, only people with the link can join (untick to let anyone join)",
    your_tables: "Your tables", table_over: "finished", see_table: "See the result", back_to_table: "Back to the table",
    invite: "Invite: send this link to a friend; its opener takes a free seat.",
    copy: "Copy link", copied: "Copied.", reconnecting: "Connection lost; reconnecting…",
    connecting: "Connecting…", no_seat: "You have no seat at this table.",
    join_seat: "Take a free seat", join_title: "You are invited to {game}", join_with: "At the table: {who}.", watch_instead: "Watch", stake: "Stake", stake_amount: "Stake amount",
    play_selected: "Play the selected cards", keyboard_help:
      "Keys: ←/→ move between cards, Enter plays, 1–9 play the n-th card of your hand, L last trick, S score sheet, ? rules, H a hint (against bots).",
    played: "{who} played {move}.", you_played: "You played {move}.",
    err_stale: "The table moved on; your view was refreshed.", err_out_of_turn: "It is not your turn.",
    err_illegal: "That move is not legal now.", err_invalid: "That move is not understood.",
    err_over: "The match is over.", err_bad_token: "Your seat token is not valid here.",
    repeating: "{move}: again, while it is the only move.", hint: "Hint", hint_working: "Thinking…", hint_best: "Best: {move}.",
    value_two: "Values: your expected result of the deal minus the opponent's.", value_many: "Values: your expected result of the deal.",
    values_exact: "Exact: every way the cards you have not seen can lie is counted.",
    hint_more: "…and {n} more moves, down to {worst}.",
    values_sampled: "Estimated over {n} deals dealt from what you can see and played out; ± is twice the standard error.",
    review_deal: "Review my moves", review_working: "Reviewing your moves…", review_h: "Your moves in this deal",
    review_summary: "{costly} of your {n} decisions cost something: {loss} {units} in all.",
    review_clean: "None of your {n} decisions cost anything measurable.",
    review_cost: "— cost {loss} {units}; {best} was best ({value})", review_best: "— best", review_fine: "— as good as the best",
    units_points: "points", err_no_help: "Hints and reviews are only for a game against bots alone.",
    err_busy: "Still working out the last request.", err_no_deal: "That deal is not finished yet.",
    err_unavailable: "Not possible just now; nothing changed. Try again in a moment.",
    err_rate: "Too many moves at once; wait a moment.",
    review_col: "Review", review_short: "Review", review_deal_n: "Review my moves in deal {n}", review_h_n: "Your moves in deal {n}",
    err_no_table: "No such table.", err_generic: "Error: {message}",
    m_marriage: "{card} and announce {n}", level_random: "random", level_heuristic: "heuristic",
    level_fast: "fast", level_strong: "strong", yes: "yes", no: "no",
    card_back: "face-down card", cards_left: "{n} cards", table_cards: "On the table",
    deal_col: "Deal", lobby_title: "Play cards in the browser",
    create_error: "Could not create the table: {message}", join_error: "Could not join: {message}",
    your_seat: "you are seat {n}", match_total: "Match", seat_n: "Seat {n}",
    offline: "The server cannot be reached; retry in a moment.", points: "Points", no_card_now: "No card can be played now; see the moves below.",
    must_suit: "Only {suit} may be played now: {cards}.", playable_now: "{card} cannot be played now. Playable: {cards}.",
    taken_by: "Taken by {who}", no_cards_yet: "No cards yet.", bot_level: "bot · {level}", person: "player",
    cards_in_hand: "{n} cards in hand", rules: "Rules", close: "Close", confirm_move: "{move}? This cannot be undone.", confirm_yes: "Yes", cancel: "Cancel",
    clear_selection: "Clear the selection", play_set: "Play {cards}", set_not_legal: "These cards cannot be played together now.",
    sets_n: "Sets you can play ({n})", sets_more: "…and {n} more: pick their cards in your hand.",
    pick_help: "Pick cards in your hand to play them together.", stake_range: "A stake from {lo} to {hi}.", last_deal: "How the last deal ended",
    no_moves_yet: "No moves yet.", levels_h: "Bot levels", moves_h: "Your moves", options_h: "Rules at this table",
    level_about_random: "plays any legal move at random: for learning the rules.",
    level_about_heuristic: "plays by rules of thumb a good club player uses; answers at once.",
    level_about_fast: "weighs each move over many sampled deals: a solid opponent.",
    level_about_strong: "searches longer than fast: the strongest opponent here.",
    invalid_number: "Enter a whole number from {lo} to {hi}.",
    http_429: "You are opening tables too fast; wait a minute and try again.",
    http_409: "This table cannot take you: every seat is taken or the match is over.",
    http_404: "No such table.", http_413: "The request is too large.",
    http_503: "The server is busy; try again in a moment.",
    // Play a person (seeks and pairing: seek.js)
    play_person: "Play a person", seek_preset: "Rules", seek_kind: "Game", seek_casual: "casual", seek_rated: "rated",
    seek_clock: "Clock", seek_clock_value: "{move} s a move + {reserve} s reserve", seek_no_clock: "no clock",
    seek_start: "Find an opponent", seek_sign_in: "Sign in to play rated games.", seek_error: "Could not seek a game: {message}",
    open_seeks: "People waiting for a game", no_seeks: "Nobody is waiting right now.", seek_someone: "a guest",
    seek_accept: "Accept", seek_accept_who: "Accept: play {game} with {who}",
    seek_waiting: "Looking for an opponent for {game}…", seek_waited: "Waiting for {s} s.",
    seek_cancel: "Cancel", seek_bots: "Play bots instead", seek_lost: "This search is not yours or no longer exists.",
    seek_over_cancelled: "The search was cancelled.", seek_over_expired: "The search expired.",
    seek_standard: "standard", seek_mine: "the options you chose last (New game)",
    /* accounts (accounts.js) */
    sign_in: "Sign in", sign_up: "Sign up", sign_out: "Sign out", sign_out_all: "Sign out everywhere",
    acct_name: "Name", acct_password: "Password (at least 8 characters)", acct_have: "Have an account? Sign in",
    acct_new: "New here? Sign up", acct_guest_note: "Playing needs no account; the tables you played here come with you.",
    acct_page: "Your account", acct_sessions: "Signed in on", acct_this: "this browser", acct_end: "Sign out there",
    acct_last: "last used {when}", acct_delete: "Delete the account", acct_delete_note: "Your games stay, without your name. Enter your password to confirm.",
    profile: "Profile", ratings: "Ratings", rating_line: "{rating} ± {dev}, games: {n}", provisional: "provisional",
    recent_games: "Recent games", your_unfinished: "Your unfinished tables", resume: "Resume", review: "Review",
    record: "Record", rated: "rated", casual: "casual", result_win: "won", result_loss: "lost", result_draw: "draw",
    vs: "against {who}", none_yet: "None yet.", leaderboard: "Leaderboard", rating: "Rating", rank: "#", games_n: "Games",
    rating_change: "{who}: {before} → {after}", rated_table: "Rated (signed-in people only)",
    acct_err_bad_credentials: "The name or the password is wrong.", acct_err_name_taken: "This name is taken; choose another.",
    acct_err_too_many_tries: "Too many tries; wait a minute and try again.",
    /* clocks (clock.js, the lobby's clock choice) */
    clock: "Clock (with other people)", clock_default: "Standard: {move} s a move + {reserve} s reserve",
    clock_quick: "Quick: {move} s a move + {reserve} s reserve", clock_slow: "Slow: {move} s a move + {reserve} s reserve",
    clock_none: "No clock (casual, between friends)", clock_left: "{who}: {time} left",
    clock_ten: "10 seconds left for your move.", clock_paused: "paused",
    timeout_you: "Time ran out: the bot played {move} for you.", timeout_other: "{who}'s time ran out: the bot played {move}.",
    forfeit_timeouts: "{who} forfeited: {n} timeouts in a row; a bot finishes the match.",
    forfeit_away: "{who} forfeited: away too long; a bot finishes the match.", forfeited: "forfeited",
    err_forfeited: "You forfeited this match on time; a bot plays your seat to the end.",
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
    deal_n: "Сдача {n}", scores: "Счёт", you: "Вы", player_n: "Игрок {n}", seat_open: "Место {n} (свободно)", away: "отошёл",
    bot_holds: "пока нет, играет бот", to_move: "ходит", dealer: "сдаёт",
    your_turn: "Ваш ход.", waiting_for: "Ждём: {who}.", spectating: "Вы зритель.",
    hand: "Ваши карты", hand_of: "Карты: {who}", actions: "Действия", last_trick: "Последняя взятка", score_sheet: "Запись счёта", moves_log: "Ходы", total: "Итого",
    deal_over: "Сдача {n} окончена", result: "Итог", continue: "Дальше",
    match_over: "Партия окончена", you_win: "Вы выиграли!", you_lose: "Вы проиграли.",
    winners: "Победители: {who}", no_winner: "Победителя нет.", download: "Скачать запись партии",
    commitment: "тасовка заверена: {h}…", commitment_hint: "SHA-256 от зерна сервера, соли, игры, её настроек и мест, показанный до первой карты; зерно партии получается из него и случайной части каждого игрока; запись партии раскрывает всё это, а `cardplay verify ЗАПИСЬ` проверяет",
    waiting_players: "Ждём всех игроков: карты сдаются, когда каждый занял место и добавил свою случайную часть.",
    check_record: "Проверить запись", check_failed: "Запись не удалось проверить: {message}",
    check_commitment_ok: "Обязательство, показанное до первой карты, совпадает с игрой, настройками, местами и зерном.", check_commitment_bad: "Обязательство НЕ совпадает с записью.",
    check_seed_ok: "Партия сдана из зерна сервера и случайных частей всех игроков.", check_seed_bad: "Партия сдана НЕ из зёрен, которые раскрывает запись.",
    check_signature_ok: "Подпись сервера верна.", check_signature_bad: "Подпись сервера НЕ верна.",
    check_signature_unsupported: "Этот браузер не умеет проверять подписи Ed25519: для этого есть `cardplay verify ЗАПИСЬ --key`.",
    check_old_scheme: "Старая запись: её обязательство покрывает только зерно; проверьте `cardplay verify`.",
    check_mine: "Ваша случайная часть в ней есть: {value}", check_mine_unknown: "Случайная часть вашего места: {value} (этот браузер не сохранил отправленную)",
    check_replay: "Что каждый ход воспроизводится, проверяет `cardplay verify ЗАПИСЬ`.", err_waiting: "Карты ещё не сданы: кто-то ещё не присоединился.",
    back_lobby: "В лобби", play_again: "Новая игра", rematch: "Реванш: ещё раз то же самое",
    unlisted: "Только по приглашению: стола нет в списках лобби, сесть можно лишь по ссылке (снимите галочку, чтобы сесть мог любой)",
    your_tables: "Ваши столы", table_over: "окончена", see_table: "Посмотреть итог", back_to_table: "Вернуться за стол",
    invite: "Приглашение: отправьте ссылку другу; открывший её займёт свободное место.",
    copy: "Копировать", copied: "Скопировано.", reconnecting: "Связь потеряна; переподключаемся…",
    connecting: "Подключение…", no_seat: "У вас нет места за этим столом.",
    join_seat: "Занять свободное место", join_title: "Вас приглашают: {game}", join_with: "За столом: {who}.", watch_instead: "Смотреть", stake: "Ставка", stake_amount: "Размер ставки",
    play_selected: "Сыграть выбранные карты", keyboard_help:
      "Клавиши: ←/→ — между картами, Enter — сыграть, 1–9 — n-я карта на руке, L — последняя взятка, S — счёт, ? — правила, H — подсказка (против ботов).",
    played: "{who}: {move}.", you_played: "Ваш ход: {move}.",
    err_stale: "Положение изменилось; вид обновлён.", err_out_of_turn: "Сейчас не ваш ход.",
    err_illegal: "Этот ход сейчас невозможен.", err_invalid: "Ход не распознан.",
    err_over: "Партия окончена.", err_bad_token: "Ваш ключ места здесь не действует.",
    repeating: "{move}: снова, пока других ходов нет.", hint: "Подсказка", hint_working: "Думаю…", hint_best: "Лучше всего: {move}.",
    value_two: "Оценки: ваш ожидаемый итог сдачи минус итог соперника.", value_many: "Оценки: ваш ожидаемый итог сдачи.",
    values_exact: "Точно: учтены все расклады карт, которых вы не видели.",
    hint_more: "…и ещё ходов: {n}, вплоть до {worst}.",
    values_sampled: "Оценка по {n} сдачам, разложенным из того, что вы видите, и доигранным; ± — две стандартные ошибки.",
    review_deal: "Разобрать мои ходы", review_working: "Разбираю ваши ходы…", review_h: "Ваши ходы в этой сдаче",
    review_summary: "Чего-то стоили решений: {costly} из {n}; всего потеряно {loss} {units}.",
    review_clean: "Ни одно из ваших решений ({n}) ничего заметного не стоило.",
    review_cost: "— потеря {loss} {units}; лучше было {best} ({value})", review_best: "— лучший ход", review_fine: "— не хуже лучшего",
    units_points: "очка", err_no_help: "Подсказки и разбор — только в игре против одних ботов.",
    err_busy: "Ещё считаю предыдущий запрос.", err_no_deal: "Эта сдача ещё не окончена.",
    err_unavailable: "Сейчас это невозможно; ничего не изменилось. Попробуйте чуть позже.",
    err_rate: "Слишком много ходов подряд; подождите немного.",
    review_col: "Разбор", review_short: "Разбор", review_deal_n: "Разобрать мои ходы в сдаче {n}", review_h_n: "Ваши ходы в сдаче {n}",
    err_no_table: "Такого стола нет.", err_generic: "Ошибка: {message}",
    m_marriage: "{card} и объявить {n}", level_random: "случайный", level_heuristic: "эвристический",
    level_fast: "быстрый", level_strong: "сильный", yes: "да", no: "нет",
    card_back: "карта рубашкой вверх", cards_left: "карт: {n}", table_cards: "На столе",
    deal_col: "Сдача", lobby_title: "Карточные игры в браузере",
    create_error: "Не удалось создать стол: {message}", join_error: "Не удалось сесть: {message}",
    your_seat: "вы — место {n}", match_total: "Партия", seat_n: "Место {n}",
    offline: "Сервер недоступен; попробуйте чуть позже.", points: "Очки", no_card_now: "Сейчас нельзя сыграть карту; см. ходы ниже.",
    must_suit: "Сейчас можно сыграть только {suit}: {cards}.", playable_now: "{card} сейчас сыграть нельзя. Можно: {cards}.",
    taken_by: "Взял: {who}", no_cards_yet: "Карт пока нет.", bot_level: "бот · {level}", person: "игрок",
    cards_in_hand: "карт на руке: {n}", rules: "Правила", close: "Закрыть", confirm_move: "{move}? Отменить будет нельзя.", confirm_yes: "Да", cancel: "Отмена",
    clear_selection: "Снять выбор", play_set: "Сыграть {cards}", set_not_legal: "Эти карты сейчас вместе не сыграть.",
    sets_n: "Наборы, которые можно сыграть ({n})", sets_more: "…и ещё {n}: выберите их карты на руке.",
    pick_help: "Выберите карты на руке, чтобы сыграть их вместе.", stake_range: "Ставка от {lo} до {hi}.", last_deal: "Чем кончилась последняя сдача",
    no_moves_yet: "Ходов пока нет.", levels_h: "Уровни ботов", moves_h: "Ваши ходы", options_h: "Правила за этим столом",
    level_about_random: "ходит любой возможной картой наугад: чтобы освоить правила.",
    level_about_heuristic: "играет по правилам опытного игрока; отвечает сразу.",
    level_about_fast: "взвешивает каждый ход на множестве возможных раскладов: крепкий соперник.",
    level_about_strong: "думает дольше быстрого: сильнейший соперник.",
    invalid_number: "Введите целое число от {lo} до {hi}.",
    http_429: "Вы открываете столы слишком часто; подождите минуту.",
    http_409: "За этот стол сесть нельзя: все места заняты или партия окончена.",
    http_404: "Такого стола нет.", http_413: "Слишком большой запрос.",
    http_503: "Сервер занят; попробуйте чуть позже.",
    // «Играть с человеком» (заявки и подбор: seek.js)
    play_person: "Играть с человеком", seek_preset: "Правила", seek_kind: "Партия", seek_casual: "без рейтинга", seek_rated: "на рейтинг",
    seek_clock: "Часы", seek_clock_value: "{move} с на ход + {reserve} с запаса", seek_no_clock: "без часов",
    seek_start: "Найти соперника", seek_sign_in: "Войдите, чтобы играть на рейтинг.", seek_error: "Не удалось подать заявку: {message}",
    open_seeks: "Ждут партии", no_seeks: "Сейчас никто не ждёт.", seek_someone: "гость",
    seek_accept: "Принять", seek_accept_who: "Принять: сыграть в {game} с {who}",
    seek_waiting: "Ищем соперника для игры «{game}»…", seek_waited: "Ждём {s} с.",
    seek_cancel: "Отменить", seek_bots: "Играть с ботами", seek_lost: "Эта заявка не ваша или её больше нет.",
    seek_over_cancelled: "Поиск отменён.", seek_over_expired: "Время заявки истекло.",
    seek_standard: "обычные", seek_mine: "параметры, выбранные вами в прошлый раз («Новая игра»)",
    /* учётные записи (accounts.js) */
    sign_in: "Войти", sign_up: "Зарегистрироваться", sign_out: "Выйти", sign_out_all: "Выйти везде",
    acct_name: "Имя", acct_password: "Пароль (не короче 8 символов)", acct_have: "Уже есть учётная запись? Войти",
    acct_new: "Впервые здесь? Зарегистрироваться", acct_guest_note: "Играть можно и без учётной записи; столы, сыгранные здесь, перейдут к вам.",
    acct_page: "Ваша учётная запись", acct_sessions: "Вход выполнен", acct_this: "этот браузер", acct_end: "Выйти там",
    acct_last: "последний раз {when}", acct_delete: "Удалить учётную запись", acct_delete_note: "Ваши партии останутся, но без вашего имени. Введите пароль для подтверждения.",
    profile: "Профиль", ratings: "Рейтинги", rating_line: "{rating} ± {dev}, партий: {n}", provisional: "предварительный",
    recent_games: "Последние партии", your_unfinished: "Ваши неоконченные столы", resume: "Продолжить", review: "Разбор",
    record: "Запись", rated: "рейтинговая", casual: "без рейтинга", result_win: "победа", result_loss: "поражение", result_draw: "ничья",
    vs: "против {who}", none_yet: "Пока нет.", leaderboard: "Таблица лидеров", rating: "Рейтинг", rank: "№", games_n: "Партий",
    rating_change: "{who}: {before} → {after}", rated_table: "На рейтинг (только вошедшие игроки)",
    acct_err_bad_credentials: "Неверное имя или пароль.", acct_err_name_taken: "Это имя занято; выберите другое.",
    acct_err_too_many_tries: "Слишком много попыток; подождите минуту.",
    clock: "Часы (с другими людьми)", clock_default: "Обычные: {move} с на ход + {reserve} с запаса",
    clock_quick: "Быстрые: {move} с на ход + {reserve} с запаса", clock_slow: "Медленные: {move} с на ход + {reserve} с запаса",
    clock_none: "Без часов (дружеская игра)", clock_left: "{who}: осталось {time}",
    clock_ten: "На ход осталось 10 секунд.", clock_paused: "пауза",
    timeout_you: "Время вышло: бот сыграл за вас {move}.", timeout_other: "У игрока {who} вышло время: бот сыграл {move}.",
    forfeit_timeouts: "{who}: поражение — {n} просрочки подряд; партию доиграет бот.",
    forfeit_away: "{who}: поражение — слишком долго не было на связи; партию доиграет бот.", forfeited: "поражение",
    err_forfeited: "Вы проиграли партию по времени; ваше место до конца играет бот.",
  },
};


export const RANKS = { en: { "2": "Two", "3": "Three", "4": "Four", "5": "Five", "6": "Six", "7": "Seven",
  "8": "Eight", "9": "Nine", T: "Ten", J: "Jack", Q: "Queen", K: "King", A: "Ace" },
  ru: { "2": "Двойка", "3": "Тройка", "4": "Четвёрка", "5": "Пятёрка", "6": "Шестёрка", "7": "Семёрка",
  "8": "Восьмёрка", "9": "Девятка", T: "Десятка", J: "Валет", Q: "Дама", K: "Король", A: "Туз" } };
export const SUITS = { en: { S: "spades", H: "hearts", D: "diamonds", C: "clubs" },
  ru: { S: "пик", H: "червей", D: "бубен", C: "треф" } };
export const SUIT_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
export const RANK_SHORT = { en: { T: "10" }, ru: { T: "10", J: "В", Q: "Д", K: "К", A: "Т" } };
export const CARD_RE = /^[2-9TJQKA][SHDC]$/;
export const CARD_TOKEN = /\b([2-9TJQKA])([SHDC])\b/g;


/* Bots get names, one per seat, so that the bots at a table are told apart in the log and on
   the score sheet. */
export const BOT_NAMES = { en: ["Ada", "Boris", "Clara", "Dmitri", "Eva", "Fedor"],
  ru: ["Ада", "Борис", "Клара", "Дмитрий", "Ева", "Фёдор"] };

/* ------------------------------------------------------------------ the reader's choices
   Read everywhere, set only here (an imported binding is read-only: the setters change it for
   every module at once). */
export let lang = localStorage.getItem("cardplay.lang") || ((navigator.language || "en").startsWith("ru") ? "ru" : "en");
if (!TEXTS[lang]) lang = "en";
export let fourColour = localStorage.getItem("cardplay.fourColour") === "1";

/** @param {string} value */
export function setLang(value) {
  lang = TEXTS[value] ? value : "en";
  localStorage.setItem("cardplay.lang", lang);
}
/** @param {boolean} value */
export function setFourColour(value) {
  fourColour = value;
  localStorage.setItem("cardplay.fourColour", value ? "1" : "0");
}

/* A word of the interface in the reader's language, with {name} filled from vars. */
export function t(key, vars) {
  let s = (TEXTS[lang] && TEXTS[lang][key]);
  if (s === undefined) s = TEXTS.en[key];
  if (s === undefined) s = key;
  if (vars) for (const k of Object.keys(vars)) s = s.split("{" + k + "}").join(String(vars[k]));
  return s;
}
