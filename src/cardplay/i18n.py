"""User-facing texts of the command line in English and Russian.

:data:`MESSAGES` maps a language to its texts by key; texts are ``str.format`` templates and the
two languages use the same placeholders (the words of a game's state, options and moves are in
its declaration). :class:`Translator` looks a key up in one language, falling back to English
and then to the key itself, so a front-end added later never crashes on a missing text.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["LANGS", "MESSAGES", "Translator", "detect_lang"]

LANGS = ("en", "ru")

MESSAGES: dict[str, dict[str, str]] = {
    "en": {
        # argparse
        "description": "Seven classic card games: list them, read the rules, play against bots, "
                       "replay a saved match.",
        "cmd_games": "list the games",
        "cmd_rules": "show a game's rules and options",
        "cmd_play": "play a match against bots in the terminal",
        "cmd_replay": "step through a saved match record",
        "cmd_arena": "play bots against each other and measure them",
        "cmd_serve": "serve the browser UI and the game server (needs cardplay[web])",
        "cmd_db": "bring a PostgreSQL database's schema up to date (needs cardplay[multi])",
        "help_db_action": "upgrade: run every migration not yet applied",
        "db_upgraded": "the schema of {database} is at revision {revision}",
        "cmd_verify": "check a server's match record: its seed commitment and its moves",
        "cmd_review": "what each decision of a saved deal or match cost, by the bots' values",
        "help_review_seat": "review this seat's decisions (0 is the first; repeat for more; "
                            "default: every seat)",
        "help_review_deal": "review only this deal of a match (from 1; repeat for more)",
        "help_review_level": "the searcher that values the moves: random, heuristic, fast, "
                             "strong (default: strong)",
        "help_review_seed": "the seed of the sampled worlds (default 0: the same review every "
                            "time)",
        "help_review_json": "print the review as JSON",
        "review_banner": "{game}: {decisions} decisions reviewed by the {level} level.",
        "review_costly_h": "Costly decisions, the dearest first:",
        "review_none_costly": "No decision cost anything measurable.",
        "review_costly": "deal {deal}, move {move}, seat {seat}, {played}: cost {loss} {units}; "
                         "{best} was best",
        "review_exact": "(exact)",
        "review_noise": "(±{noise}, {worlds} worlds)",
        "review_seat": "Seat {seat}: {decisions} decisions, {costly} costly, {loss} {units} "
                       "given up.",
        "help_bot_level": "a bot: a level (random, heuristic, fast, strong, learned), "
                          "module:Class, path/file.py:Class or a saved policy file (.npz)",
        "help_arena_label": "the name of bot A in the report, then (given twice) of bot B",
        "help_arena_out": "write report.json, games.csv (and shares.png with matplotlib) there",
        "arena_bad_option": "--option takes K=V, not {kv!r}",
        "arena_bad_bot": "cannot use {spec!r} as a bot: {reason}. A bot is a level ({levels}), "
                         "module:Class, path/file.py:Class or a saved policy file (.npz)",
        "arena_bad_labels": "--label is given at most twice (bot A, then bot B)",
        "arena_bad_counts": "--deals and --matches must be >= 0 (not both 0) and --workers >= 1",
        "arena_wrote": "  wrote {path}",
        "arena_no_plot": "  shares.png not drawn: matplotlib is not installed "
                         "(pip install matplotlib)",
        "help_arena_workers": "worker processes (default 1); with --ray local, the CPUs of the "
                              "local Ray instance (default: all)",
        "help_arena_ray": "play the games as tasks on the Ray cluster at ADDRESS (HOST:PORT, "
                          "ray://HOST:PORT, auto), or on a new local Ray instance with 'local'; "
                          "needs cardplay[dist]",
        "arena_needs_dist": "arena --ray needs the dist extra: pip install 'cardplay[dist]'",
        "arena_ray_unavailable": "cannot use the Ray cluster at {address!r}: {reason}",
        "help_host": "the address to listen on (default: 127.0.0.1)",
        "help_port": "the port to listen on (default: 8000)",
        "help_data": "the data folder of the tables (default: $XDG_DATA_HOME/cardplay)",
        "help_database": "store the tables in PostgreSQL (postgresql://...) instead of SQLite "
                         "in the data folder; the schema is migrated on start",
        "help_broker": "join the other processes on the same database through Redis "
                       "(redis://...): each table's changes reach every process",
        "help_broker_prefix": "the prefix of this site's keys and channels in Redis",
        "help_lease_ttl": "seconds a process's lease on a table's bots lasts unless renewed "
                          "(another process takes the table over after it)",
        "help_limit_create_rate": "tables one client may create per minute (default: {default})",
        "help_limit_join_rate": "seats one client may take per minute (default: {default})",
        "help_limit_tables_per_client": "open tables one client may have (default: {default})",
        "help_limit_max_tables": "open tables in all (default: {default})",
        "help_limit_bot_tables_per_client": "tables of bots only one client may have playing "
                                            "(default: {default})",
        "help_limit_max_bot_tables": "tables of bots only playing at once, in all "
                                     "(default: {default})",
        "help_limit_bot_table_moves": "moves after which a table of bots only stops "
                                      "(default: {default})",
        "help_limit_table_moves": "moves after which a table with people stops "
                                  "(default: {default})",
        "help_limit_move_rate": "moves one client may send per minute (default: {default})",
        "help_limit_evict_after": "seconds with nobody connected before a table leaves memory; "
                                  "its record is kept (default: {default})",
        "help_limit_max_body": "bytes of an HTTP request body (default: {default})",
        "help_limit_ws_max_size": "bytes of a WebSocket frame, refused before it is read "
                                  "(default: {default})",
        "help_limit_max_connections": "open connections in all; more get 503 "
                                      "(default: {default})",
        "help_limit_header_timeout": "seconds a client may take to send a request's headers "
                                     "(default: {default})",
        "help_limit_keep_alive_timeout": "seconds an idle HTTP connection is kept "
                                         "(default: {default})",
        "help_limit_join_timeout": "seconds a WebSocket may stay open before hello or watch "
                                   "(default: {default})",
        "help_limit_ws_ping_interval": "seconds between WebSocket pings (default: {default})",
        "help_limit_ws_ping_timeout": "seconds to answer a ping before the socket is closed "
                                      "(default: {default})",
        "help_limit_max_coaching": "hints and reviews worked out at once, in all, in workers of "
                                   "their own (default: {default})",
        "help_limit_seek_rate": "seeks (Play a person) a client may make per minute "
                                "(default: {default})",
        "help_limit_seeks_per_client": "waiting seeks of one client (default: {default})",
        "help_limit_seeks_per_account": "waiting seeks of one account (default: {default})",
        "help_limit_seek_expiry": "seconds a seek waits without its owner polling before it "
                                  "expires (default: {default})",
        "help_limit_signin_rate": "sign-in tries one client may make per minute "
                                  "(default: {default})",
        "help_limit_signin_account_rate": "sign-in tries per minute at one account, from any "
                                          "client (default: {default})",
        "help_limit_signup_rate": "accounts one client may create per minute "
                                  "(default: {default})",
        "help_allow_origin": "a web origin (https://host[:port]) besides the server's own whose "
                             "pages may act here; repeatable; * allows any (default: none)",
        "help_signing_key": "the Ed25519 key file that signs finished records (default: "
                             "signing-key.pem in the data directory, made on first start); "
                             "every process of one site needs the same key",
        "help_verify_file": "a match record downloaded from the server (JSON)",
        "help_verify_key": "the server's public key: its GET /api/keys URL (or the site's "
                            "address), or a file holding that JSON, a PEM key or the base64 "
                            "key; without it the signature is not checked",
        "verify_ok": "verified: {detail}",
        "verify_not": "NOT verified: {detail}",
        "verify_failure": "  failed ({code}): {detail}",
        "verify_note": "  note: {detail}",
        "verify_signature_ok": "  signature: valid, by key {kid}",
        "verify_contribution": "  seat {seat}: contribution {value}",
        "verify_drawn": " (drawn by the server: the seat sent none)",
        "verify_bad_key": "cannot read the key {where}: {error}",
        "serve_needs_web": "cardplay serve needs the web extra: pip install 'cardplay[web]'",
        "serving": "cardplay is serving on {url} (data: {data}); Ctrl-C stops it",
        "serve_needs_multi": "--database and --broker need the extra 'multi': "
                             "pip install 'cardplay[multi]' ({error})",
        "help_lang": "language of the texts: en or ru (default: from LANG)",
        "help_game_name": "the game's name, as `cardplay games` lists it",
        "help_vs": "the bots' level ({levels}); default: heuristic where the game has one, "
                   "else random",
        "help_seed": "the match's seed (the same seed gives the same cards)",
        "help_seat": "your seat, 0 (the default) to players-1",
        "help_players": "number of players, where the game takes several",
        "help_option": "a game option as name=value (repeatable); `cardplay rules NAME` lists them",
        "help_save": "where to save the match record (default: cardplay-GAME-SEED.json)",
        "help_auto": "play forced moves (a single legal move) without asking",
        "help_hide_points": "do not show the running points of the deal (strict play)",
        "help_record_file": "a match record saved by `cardplay play` (JSON)",
        "help_replay_seat": "show only what this seat could see",
        "help_replay_all": "show every seat's view (the default)",
        "help_no_pause": "print the whole replay without waiting for Enter",
        # general
        "error_prefix": "error: {error}",
        "yes": "yes",
        "no": "no",
        "you": "You",
        "bot_seat": "Bot {seat}",
        "seat_n": "Seat {seat}",
        "unavailable": "(not available: {error})",
        # games / rules
        "col_game": "game",
        "col_players": "players",
        "col_option": "option",
        "col_default": "default",
        "col_values": "valid values",
        "games_hint": "Rules: cardplay rules NAME · play: cardplay play NAME",
        "players_line": "Players: {players}",
        "options_heading": "Options (cardplay play NAME --option name=value):",
        "no_options": "This game has no options.",
        "values_range": "a whole number from {lo} to {hi}",
        "values_positive": "a whole number, 1 or more",
        "values_any": "any value",
        "rules_hint": "Play it: cardplay play {game}",
        # play
        "bad_option_syntax": "an option is written name=value, not {text!r}",
        "unknown_game": "there is no game {name!r}; the games are {games}",
        "unknown_option": "there is no option {name!r}; the options are {valid}",
        "bad_option_value": "the option {name} cannot be {value!r}; it takes {valid}",
        "options_conflict": "these options do not go together: {error}",
        "players_fixed": "{game} is played by {players} players; it has no players option",
        "bad_seat": "there is no seat {seat}; seats are 0 to {last}",
        "play_banner": "{title} · seed {seed} · bots: {level} · your seat: {seat}",
        "play_help_short": "Enter a move's number or its notation; ? for help, q to quit.",
        "play_help": "Type the number of a move, or the move in notation (for example {example}; "
                     "cards as AS, TH, 10♥). Enter plays a forced move. q quits and saves the "
                     "record. After your first move of a deal only what changed is shown; ? "
                     "shows the whole table again.",
        "deal_number": "Deal {n}",
        "deal_starts": "Deal {n} begins; dealer: {who}.",
        "dealer_is": "dealer: {who}",
        "match_scores": "Match scores: {scores}",
        "deal_points": "Points in this deal: {points}",
        "hand_of": "Hand of {who}: {cards}",
        "your_hand": "Your hand: {cards}",
        "deal_result": "Result of the deal: {result}",
        "to_move": "To move: {who}",
        "your_moves": "Your moves:",
        "menu_run": "type {word} N, N from {lo} to {hi}",
        "forced": "Only one move: {move}. Press Enter (or 1) to play it.",
        "prompt": "Your move> ",
        "empty_input": "Nothing entered: type a number from 1 to {last} or a move's notation.",
        "bad_number": "There is no move {n}: choose 1 to {last}.",
        "not_a_move": "{text!r} is not a move of this game: type a number from 1 to {last}, "
                      "or a move as the menu writes it (such as {example}).",
        "not_in_deck": "{card} is not among this game's cards.",
        "not_held": "You do not hold {cards}.",
        "cannot_play_now": "{move} cannot be played now. You can play: {moves}",
        "level_random": "random",
        "level_heuristic": "heuristic",
        "level_fast": "fast search",
        "level_strong": "strong search",
        "level_expert": "expert search",
        "deal_nobody_scores": "Nobody scores in this deal.",
        "plays": "{who}: {move}",
        "deal_over": "Deal {n} is over.",
        "match_over": "The match is over. Final scores: {scores}",
        "you_win": "You win the match!",
        "winners": "Winner(s): {who}",
        "no_winner": "Nobody wins the match.",
        "interrupted": "Interrupted.",
        "end_of_input": "End of input: leaving the match.",
        "quit": "You left the match.",
        "record_saved": "Match record saved to {path}",
        "cannot_save": "cannot save the record to {path}: {error}",
        "cmd_tui": "play a match at a full-screen table in the terminal (needs cardplay[tui])",
        "help_tui_game": "the game's name, as `cardplay games` lists it; without it, the table "
                          "opens on a list of the games",
        "help_replay_tui": "show the replay at the full-screen table (needs cardplay[tui])",
        "tui_needs_extra": "the terminal table needs the tui extra: pip install 'cardplay[tui]'",
        "tui_pick_title": "Which game?",
        "tui_pick_hint": "↑/↓ choose · Enter play · Escape leave",
        "tui_replay_match_only": "the table replays match records; a deal record replays with "
                                 "cardplay replay FILE",
        "tui_vs": "bots: {level}",
        "tui_match": "Match: {scores}",
        "tui_dealer": "deals",
        "tui_to_move": "▶ to move",
        "tui_cards_in_hand": "{n} cards",
        "tui_points": "points {n}",
        "tui_taken_by": "(taken by {who})",
        "tui_no_last_trick": "No trick has been completed yet.",
        "tui_deal_col": "Deal",
        "tui_total": "Total",
        "tui_result": "Result",
        "tui_points_row": "Points",
        "tui_hand": "Your hand:",
        "tui_hand_of": "Hand of {who}:",
        "tui_type_move": "a move as written in the rules (such as K♥=20, stake 25), then Enter",
        "tui_waiting": "Waiting for {who}…",
        "tui_confirm": "{move}: this cannot be undone. Play it? y: yes · n: no",
        "tui_choose": "Which move with this card? (arrow keys, Enter; Escape: none)",
        "tui_keys_play": "←/→ choose a card · Enter or 1–9 play it · : type a move",
        "tui_keys_replay": "→, Space or Enter: next move",
        "tui_key_rules": "r rules",
        "tui_key_last_trick": "l last trick",
        "tui_key_sheet": "s score sheet",
        "tui_key_quit": "q quit",
        "tui_replay_move": "Move {i} of {total}",
        "tui_back": "Enter or Escape: back to the table",
        "tui_rules_title": "Rules: {game}",
        "tui_last_trick_title": "The last trick",
        "tui_sheet_title": "Score sheet",
        "tui_deal_end_title": "The deal is over",
        "tui_next_deal": "Enter: on to the next deal",
        "tui_end_title": "The match is over",
        "tui_end_hint": "Enter: leave the table",
        # replay
        "cannot_read": "cannot read {path}: {error}",
        "corrupt_record": "the record cannot be replayed: {error}",
        "replay_banner": "Replay of {game} (seed {seed}), {moves} moves.",
        "replay_prompt": "[Enter] next move, q quits> ",
        "replay_move": "Move {i}/{total}: {who} plays {move}",
        "replay_unfinished": "The record ends before the match does. Scores: {scores}",
    },
    "ru": {
        "description": "Семь классических карточных игр: список, правила, игра с ботами, "
                       "просмотр сохранённой партии.",
        "cmd_games": "список игр",
        "cmd_rules": "правила и настройки игры",
        "cmd_play": "сыграть партию с ботами в терминале",
        "cmd_replay": "пошаговый просмотр сохранённой партии",
        "cmd_arena": "сыграть ботов друг с другом и измерить их силу",
        "cmd_serve": "запустить игровой сервер и интерфейс в браузере (нужен cardplay[web])",
        "cmd_db": "обновить схему базы PostgreSQL (нужен cardplay[multi])",
        "help_db_action": "upgrade: применить все ещё не применённые миграции",
        "db_upgraded": "схема {database} на ревизии {revision}",
        "cmd_verify": "проверить запись партии с сервера: обязательство по зерну и ходы",
        "cmd_review": "во что обошёлся каждый ход сохранённой сдачи или партии, по оценкам ботов",
        "help_review_seat": "разобрать ходы этого места (0 — первое; можно несколько раз; "
                            "по умолчанию все места)",
        "help_review_deal": "разобрать только эту сдачу партии (с 1; можно несколько раз)",
        "help_review_level": "кто оценивает ходы: random, heuristic, fast, strong "
                             "(по умолчанию strong)",
        "help_review_seed": "зерно выборки миров (по умолчанию 0: разбор всегда один и тот же)",
        "help_review_json": "вывести разбор в JSON",
        "review_banner": "{game}: разобрано решений — {decisions}, оценщик — {level}.",
        "review_costly_h": "Дорогие решения, самые дорогие первыми:",
        "review_none_costly": "Ни одно решение ничего заметного не стоило.",
        "review_costly": "сдача {deal}, ход {move}, место {seat}, {played}: потеря {loss} {units}; "
                         "лучше было {best}",
        "review_exact": "(точно)",
        "review_noise": "(±{noise}, миров: {worlds})",
        "review_seat": "Место {seat}: решений — {decisions}, дорогих — {costly}, потеряно "
                       "{loss} {units}.",
        "help_bot_level": "бот: уровень (random, heuristic, fast, strong, learned), "
                          "module:Class, path/file.py:Class или файл сохранённой политики (.npz)",
        "help_arena_label": "имя бота A в отчёте, затем (второй раз) бота B",
        "help_arena_out": "записать туда report.json и games.csv (и shares.png при matplotlib)",
        "arena_bad_option": "--option принимает K=V, а не {kv!r}",
        "arena_bad_bot": "{spec!r} не годится как бот: {reason}. Бот — это уровень ({levels}), "
                         "module:Class, path/file.py:Class или файл сохранённой политики (.npz)",
        "arena_bad_labels": "--label указывают не больше двух раз (бот A, затем бот B)",
        "arena_bad_counts": "--deals и --matches должны быть >= 0 (не оба 0), --workers >= 1",
        "arena_wrote": "  записан {path}",
        "arena_no_plot": "  shares.png не нарисован: matplotlib не установлен "
                         "(pip install matplotlib)",
        "help_arena_workers": "число рабочих процессов (по умолчанию 1); с --ray local — число "
                              "процессоров локального экземпляра Ray (по умолчанию все)",
        "help_arena_ray": "играть партии задачами на кластере Ray по адресу ADDRESS (HOST:PORT, "
                          "ray://HOST:PORT, auto) или на новом локальном экземпляре Ray при "
                          "'local'; нужен cardplay[dist]",
        "arena_needs_dist": "для arena --ray нужно: pip install 'cardplay[dist]'",
        "arena_ray_unavailable": "кластер Ray по адресу {address!r} недоступен: {reason}",
        "help_host": "адрес для приёма соединений (по умолчанию 127.0.0.1)",
        "help_port": "порт (по умолчанию 8000)",
        "help_data": "папка с данными столов (по умолчанию $XDG_DATA_HOME/cardplay)",
        "help_database": "хранить столы в PostgreSQL (postgresql://...), а не в SQLite в "
                         "папке данных; схема обновляется при запуске",
        "help_broker": "связать процессы на одной базе через Redis (redis://...): изменения "
                       "каждого стола доходят до всех процессов",
        "help_broker_prefix": "префикс ключей и каналов этого сайта в Redis",
        "help_lease_ttl": "сколько секунд действует право процесса вести ботов стола без "
                          "продления (после этого стол берёт другой процесс)",
        "help_limit_create_rate": "сколько столов один клиент может открыть в минуту "
                                  "(по умолчанию {default})",
        "help_limit_join_rate": "сколько мест один клиент может занять в минуту "
                                "(по умолчанию {default})",
        "help_limit_tables_per_client": "открытых столов у одного клиента "
                                        "(по умолчанию {default})",
        "help_limit_max_tables": "открытых столов всего (по умолчанию {default})",
        "help_limit_bot_tables_per_client": "идущих столов только из ботов у одного клиента "
                                            "(по умолчанию {default})",
        "help_limit_max_bot_tables": "идущих столов только из ботов всего "
                                     "(по умолчанию {default})",
        "help_limit_bot_table_moves": "после скольких ходов стол только из ботов "
                                      "останавливается (по умолчанию {default})",
        "help_limit_table_moves": "после скольких ходов стол с людьми останавливается "
                                  "(по умолчанию {default})",
        "help_limit_move_rate": "ходов, которые один клиент может послать в минуту "
                                "(по умолчанию {default})",
        "help_limit_evict_after": "секунд без подключений, после которых стол выгружается из "
                                  "памяти; запись сохраняется (по умолчанию {default})",
        "help_limit_max_body": "байт в теле HTTP-запроса (по умолчанию {default})",
        "help_limit_ws_max_size": "байт в кадре WebSocket; больший отвергается до чтения "
                                  "(по умолчанию {default})",
        "help_limit_max_connections": "открытых соединений всего; сверх них — ответ 503 "
                                      "(по умолчанию {default})",
        "help_limit_header_timeout": "секунд на отправку заголовков запроса "
                                     "(по умолчанию {default})",
        "help_limit_keep_alive_timeout": "секунд хранится простаивающее HTTP-соединение "
                                         "(по умолчанию {default})",
        "help_limit_join_timeout": "секунд может быть открыт WebSocket до hello или watch "
                                   "(по умолчанию {default})",
        "help_limit_ws_ping_interval": "секунд между пингами WebSocket (по умолчанию {default})",
        "help_limit_ws_ping_timeout": "секунд на ответ на пинг, затем соединение закрывается "
                                      "(по умолчанию {default})",
        "help_limit_max_coaching": "подсказок и разборов, считаемых одновременно, всего, в "
                                   "своих процессах (по умолчанию {default})",
        "help_limit_seek_rate": "заявок («Играть с человеком») от одного клиента в минуту "
                                "(по умолчанию {default})",
        "help_limit_seeks_per_client": "ждущих заявок одного клиента (по умолчанию {default})",
        "help_limit_seeks_per_account": "ждущих заявок одной учётной записи "
                                        "(по умолчанию {default})",
        "help_limit_seek_expiry": "секунд, которые заявка ждёт без опроса владельцем, прежде "
                                  "чем истечь (по умолчанию {default})",
        "help_limit_signin_rate": "сколько попыток входа один клиент может сделать в минуту "
                                  "(по умолчанию {default})",
        "help_limit_signin_account_rate": "сколько попыток входа в одну учётную запись в "
                                          "минуту, с любых клиентов (по умолчанию {default})",
        "help_limit_signup_rate": "сколько учётных записей один клиент может создать в минуту "
                                  "(по умолчанию {default})",
        "help_allow_origin": "веб-источник (https://хост[:порт]), кроме собственного, чьи "
                             "страницы могут действовать здесь; можно несколько; * — любой "
                             "(по умолчанию никакой)",
        "help_signing_key": "файл ключа Ed25519, которым подписываются законченные партии "
                             "(по умолчанию signing-key.pem в каталоге данных, создаётся при "
                             "первом запуске); всем процессам одного сайта нужен один ключ",
        "help_verify_file": "запись партии, скачанная с сервера (JSON)",
        "help_verify_key": "открытый ключ сервера: адрес его GET /api/keys (или адрес "
                            "сайта), или файл с этим JSON, PEM-ключом или ключом в base64; "
                            "без него подпись не проверяется",
        "verify_ok": "проверено: {detail}",
        "verify_not": "НЕ проверено: {detail}",
        "verify_failure": "  не прошло ({code}): {detail}",
        "verify_note": "  заметка: {detail}",
        "verify_signature_ok": "  подпись: верна, ключ {kid}",
        "verify_contribution": "  место {seat}: вклад {value}",
        "verify_drawn": " (вытянут сервером: место его не прислало)",
        "verify_bad_key": "не удаётся прочесть ключ {where}: {error}",
        "serve_needs_web": "для cardplay serve нужно: pip install 'cardplay[web]'",
        "serving": "cardplay работает на {url} (данные: {data}); Ctrl-C — остановить",
        "serve_needs_multi": "для --database и --broker нужно дополнение 'multi': "
                             "pip install 'cardplay[multi]' ({error})",
        "help_lang": "язык текстов: en или ru (по умолчанию — из LANG)",
        "help_game_name": "название игры, как в `cardplay games`",
        "help_vs": "уровень ботов ({levels}); по умолчанию heuristic, если он есть для игры, "
                   "иначе random",
        "help_seed": "зерно партии (одно и то же зерно даёт те же карты)",
        "help_seat": "ваше место, от 0 (по умолчанию) до числа игроков минус 1",
        "help_players": "число игроков, если игра допускает разное",
        "help_option": "настройка игры в виде имя=значение (можно несколько); список — "
                       "`cardplay rules ИГРА`",
        "help_save": "куда сохранить запись партии (по умолчанию cardplay-ИГРА-ЗЕРНО.json)",
        "help_auto": "вынужденные ходы (единственный возможный) делать без вопроса",
        "help_hide_points": "не показывать текущие очки сдачи (строгая игра)",
        "help_record_file": "запись партии, сохранённая `cardplay play` (JSON)",
        "help_replay_seat": "показывать только то, что видит это место",
        "help_replay_all": "показывать всё, что видит каждое место (по умолчанию)",
        "help_no_pause": "вывести весь просмотр сразу, не дожидаясь Enter",
        "error_prefix": "ошибка: {error}",
        "yes": "да",
        "no": "нет",
        "you": "Вы",
        "bot_seat": "Бот {seat}",
        "seat_n": "Место {seat}",
        "unavailable": "(недоступна: {error})",
        "col_game": "игра",
        "col_players": "игроки",
        "col_option": "настройка",
        "col_default": "по умолчанию",
        "col_values": "допустимые значения",
        "games_hint": "Правила: cardplay rules ИГРА · играть: cardplay play ИГРА",
        "players_line": "Игроков: {players}",
        "options_heading": "Настройки (cardplay play ИГРА --option имя=значение):",
        "no_options": "У этой игры нет настроек.",
        "values_range": "целое число от {lo} до {hi}",
        "values_positive": "целое число, не меньше 1",
        "values_any": "любое значение",
        "rules_hint": "Сыграть: cardplay play {game}",
        "bad_option_syntax": "настройка пишется как имя=значение, а не {text!r}",
        "unknown_game": "игры {name!r} нет; игры: {games}",
        "unknown_option": "настройки {name!r} нет; настройки: {valid}",
        "bad_option_value": "настройка {name} не может быть {value!r}; допустимо: {valid}",
        "options_conflict": "эти настройки несовместимы: {error}",
        "players_fixed": "в {game} играют {players}; настройки числа игроков нет",
        "bad_seat": "места {seat} нет; места — от 0 до {last}",
        "play_banner": "{title} · зерно {seed} · боты: {level} · ваше место: {seat}",
        "play_help_short": "Введите номер хода или его запись; ? — справка, q — выход.",
        "play_help": "Введите номер хода или сам ход в записи игры (например, {example}; карты "
                     "как AS, TH, 10♥, Т♠). Enter делает вынужденный ход. q — выйти и сохранить "
                     "запись. После первого хода в сдаче показывается только то, что "
                     "изменилось; ? показывает весь стол снова.",
        "deal_number": "Сдача {n}",
        "deal_starts": "Начинается сдача {n}; сдаёт: {who}.",
        "dealer_is": "сдаёт: {who}",
        "match_scores": "Счёт партии: {scores}",
        "deal_points": "Очки в этой сдаче: {points}",
        "hand_of": "Карты ({who}): {cards}",
        "your_hand": "Ваши карты: {cards}",
        "deal_result": "Итог сдачи: {result}",
        "to_move": "Ходит: {who}",
        "your_moves": "Ваши ходы:",
        "menu_run": "наберите {word} N, N от {lo} до {hi}",
        "forced": "Ход только один: {move}. Нажмите Enter (или 1), чтобы сделать его.",
        "prompt": "Ваш ход> ",
        "empty_input": "Ничего не введено: наберите номер от 1 до {last} или запись хода.",
        "bad_number": "Хода с номером {n} нет: выберите от 1 до {last}.",
        "not_a_move": "{text!r} — не ход этой игры: наберите номер от 1 до {last} или ход, "
                      "как он записан в списке (например, {example}).",
        "not_in_deck": "Карты {card} в этой игре нет.",
        "not_held": "У вас на руке нет {cards}.",
        "cannot_play_now": "{move} сейчас сыграть нельзя. Можно: {moves}",
        "level_random": "случайный",
        "level_heuristic": "эвристический",
        "level_fast": "быстрый поиск",
        "level_strong": "сильный поиск",
        "level_expert": "экспертный поиск",
        "deal_nobody_scores": "В этой сдаче никто не получает очков.",
        "plays": "{who}: {move}",
        "deal_over": "Сдача {n} окончена.",
        "match_over": "Партия окончена. Итоговый счёт: {scores}",
        "you_win": "Вы выиграли партию!",
        "winners": "Победитель(и): {who}",
        "no_winner": "В партии нет победителя.",
        "interrupted": "Прервано.",
        "end_of_input": "Ввод закончился: выходим из партии.",
        "quit": "Вы вышли из партии.",
        "record_saved": "Запись партии сохранена в {path}",
        "cannot_save": "не удалось сохранить запись в {path}: {error}",
        "cmd_tui": "сыграть партию за полноэкранным столом в терминале (нужен cardplay[tui])",
        "help_tui_game": "название игры, как в `cardplay games`; без него стол открывается "
                          "списком игр",
        "help_replay_tui": "показать партию за полноэкранным столом (нужен cardplay[tui])",
        "tui_needs_extra": "для стола в терминале нужно: pip install 'cardplay[tui]'",
        "tui_pick_title": "Во что играем?",
        "tui_pick_hint": "↑/↓ выбрать · Enter играть · Escape выйти",
        "tui_replay_match_only": "стол показывает записи партий; запись одной сдачи "
                                 "показывает cardplay replay ФАЙЛ",
        "tui_vs": "боты: {level}",
        "tui_match": "Партия: {scores}",
        "tui_dealer": "сдаёт",
        "tui_to_move": "▶ ходит",
        "tui_cards_in_hand": "карт: {n}",
        "tui_points": "очки {n}",
        "tui_taken_by": "(взял: {who})",
        "tui_no_last_trick": "Ещё ни одной взятки.",
        "tui_deal_col": "Сдача",
        "tui_total": "Итого",
        "tui_result": "Итог",
        "tui_points_row": "Очки",
        "tui_hand": "Ваши карты:",
        "tui_hand_of": "Карты ({who}):",
        "tui_type_move": "ход, как он записан в правилах (например, К♥=20, stake 25), и Enter",
        "tui_waiting": "Ждём: {who}…",
        "tui_confirm": "{move}: это нельзя отменить. Сыграть? y или д — да · n или н — нет",
        "tui_choose": "Какой ход этой картой? (стрелки, Enter; Escape — никакой)",
        "tui_keys_play": "←/→ выбрать карту · Enter или 1–9 сыграть · : ввести ход",
        "tui_keys_replay": "→, пробел или Enter — следующий ход",
        "tui_key_rules": "r правила",
        "tui_key_last_trick": "l последняя взятка",
        "tui_key_sheet": "s счёт",
        "tui_key_quit": "q выход",
        "tui_replay_move": "Ход {i} из {total}",
        "tui_back": "Enter или Escape — назад к столу",
        "tui_rules_title": "Правила: {game}",
        "tui_last_trick_title": "Последняя взятка",
        "tui_sheet_title": "Запись счёта",
        "tui_deal_end_title": "Сдача окончена",
        "tui_next_deal": "Enter — к следующей сдаче",
        "tui_end_title": "Партия окончена",
        "tui_end_hint": "Enter — выйти из-за стола",
        "cannot_read": "не удалось прочитать {path}: {error}",
        "corrupt_record": "запись не воспроизводится: {error}",
        "replay_banner": "Просмотр партии {game} (зерно {seed}), ходов: {moves}.",
        "replay_prompt": "[Enter] следующий ход, q — выход> ",
        "replay_move": "Ход {i}/{total}: {who} — {move}",
        "replay_unfinished": "Запись кончается раньше партии. Счёт: {scores}",
    },
}

# Names of the keys of views' public state. A key missing here is shown as written, with
# underscores as spaces.
def detect_lang(environ: Mapping[str, str]) -> str:
    """``ru`` when the ``LANG`` environment variable starts with "ru", else ``en``."""
    return "ru" if environ.get("LANG", "").lower().startswith("ru") else "en"


class Translator:
    """The texts of one language: ``tr("key", name=value)``."""

    def __init__(self, lang: str = "en") -> None:
        self.lang = lang if lang in MESSAGES else "en"
        self._texts = MESSAGES[self.lang]

    def __call__(self, key: str, **values: Any) -> str:
        text = self._texts.get(key) or MESSAGES["en"].get(key) or key
        return text.format(**values) if values else text
