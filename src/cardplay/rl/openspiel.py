"""OpenSpiel Python games for every cardplay game (optional extra ``rl``).

>>> import pyspiel
>>> from cardplay.rl import openspiel
>>> openspiel.register()                       # ['cardplay_banchok', 'cardplay_chukhny', ...]
>>> game = pyspiel.load_game("cardplay_sixty_six", {"preset": "schnapsen"})
>>> state = game.new_initial_state()

Each registered game is one **deal** of a cardplay game, named ``cardplay_`` + the game's name
with ``_`` for ``-``. Its parameters are the game's options (RULES.md names and defaults; an
option that a preset sets has the default ``""``, meaning "as the preset says", and takes its
value as a string, ``{"pair_counts_ten": "true"}``), plus:

* ``dealer``: the dealer's seat, or -1 (default) for a chance node that draws it uniformly;
* ``max_moves``: 0 (default) for no limit beyond the game's own; N > 0 ends the episode after N
  moves. Polish Banchok has no bound on a bank's length, so it is capped at 2000 moves unless
  ``max_moves`` says otherwise;
* ``infostate``: ``"json"`` (default) or ``"compact"``, the information-state and observation
  strings (below);
* ``reward``: what the returns are, as in the PettingZoo and Gymnasium environments
  (:func:`cardplay.rl.table.shape_result`): ``"zero_sum"`` (default) each seat's result minus the
  mean of the others', ``"win"`` +1 to the best result split on ties (two players +1 / 0 / -1),
  ``"raw"`` the result.

Chance: after the dealer, one chance node per card deals the deck order, top card first
(outcome = card id 0..51, probability = copies left / cards left; two-deck games have two copies
of each card). The deal is then made from that order (``game.deal(deck=...)``), with a deal seed
derived from the order for the few rules that shuffle during a deal (Banchok's used cards).

Actions are the game's fixed action space (:mod:`cardplay.rl.actions`); action strings are its
notation. Returns are the deal's ``result`` (RULES.md 0.6) at the end as ``reward`` shapes it, 0
before; an episode cut by ``max_moves`` returns the deal's points so shaped in the chip games
(Banchok, Macao: net chips so far) and 0 elsewhere. The game type says zero-sum wherever the
returns are: with ``"zero_sum"`` and ``"win"`` in every game, with ``"raw"`` where the game's
facts say so (Macao and Banchok); ``min_utility`` and ``max_utility`` follow the choice.

Observations (``make_py_observer``): the observation tensor is the seat's view encoded by
:mod:`cardplay.rl.observations`, split into named pieces; the information-state tensor adds, per
relative seat, a plane of the cards that seat has put down and its number of moves (a summary of
the move history, not a perfect-recall encoding). The information-state string is the seat's full
view as canonical JSON (``View.to_json()``: own cards, public state and the whole move history;
perfect recall), the observation string the same without the history. With
``{"infostate": "compact"}`` both are the short keys of :mod:`cardplay.rl.infostate` instead
(the seat's cards, every move as one character, a digest of the observation vector; about 40
characters in Sixty-Six where the JSON has 900): what tabular methods such as outcome-sampling
MCCFR key their tables by. A public observer (``private_info=NONE``) leaves out the seat's own
cards and legal moves.

``resample_from_infostate`` deals a world consistent with the seat's view through
``game.sample_deal`` and replays it, so OpenSpiel's Python ISMCTS bot
(``open_spiel.python.algorithms.ismcts``) can play every game.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Callable
from itertools import repeat
from typing import Any

import numpy as np
import pyspiel

from ..cards import format_card
from ..engine import Deal, Game, derive_seed, game_class, games, load
from .actions import ActionSpace, action_space
from .infostate import InfoKeys, info_keys
from .observations import CARD_ID, Encoder, encoder
from .table import REWARDS, reward_bounds, shape_result

__all__ = ["CardplayGame", "CardplayState", "game_name", "register"]

# pyspiel asks for the player to move several times a step: plain ints, looked up once
INFOSTATES = ("json", "compact")
_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_REGISTERED: set[str] = set()


def game_name(name: str) -> str:
    """The OpenSpiel name of a cardplay game: ``two-ten-jack`` -> ``cardplay_two_ten_jack``."""
    return "cardplay_" + name.replace("-", "_")


def register(names: list[str] | None = None) -> list[str]:
    """Register cardplay games (default: all) with OpenSpiel; their OpenSpiel names.

    Registering twice is harmless."""
    out = []
    for name in names if names is not None else games():
        short = game_name(name)
        if short not in _REGISTERED and short not in pyspiel.registered_names():
            gtype = _game_type(name)
            pyspiel.register_game(gtype, _creator(name, gtype))
        _REGISTERED.add(short)
        out.append(short)
    return out


def _creator(name: str, gtype: Any) -> type[CardplayGame]:
    """A CardplayGame subclass for one game (OpenSpiel calls it with the parameters).

    A class, kept in a module dict, rather than a closure: OpenSpiel holds the creator until the
    interpreter exits, and releasing a closure over a pyspiel object then crashes."""
    cls = type(f"CardplayGame_{name.replace('-', '_')}", (CardplayGame,),
               {"cardplay_name": name})
    _GAME_TYPES[name] = gtype
    _CLASSES[name] = cls
    return cls


_GAME_TYPES: dict[str, Any] = {}
_CLASSES: dict[str, type[CardplayGame]] = {}


def _preset_keys(cls: type[Game]) -> set[str]:
    keys: set[str] = set()
    for values in cls._presets().values():
        keys.update(values)
    return keys


def _game_type(name: str) -> Any:
    cls = game_class(name)
    preset = _preset_keys(cls)
    params: dict[str, Any] = {}
    for f in dataclasses.fields(cls.Options):
        default = f.default
        if f.name in preset:
            params[f.name] = ""
        elif isinstance(default, (bool, int, float, str)):
            params[f.name] = default
    params["dealer"] = -1
    params["max_moves"] = 0
    params["reward"] = "zero_sum"
    params["infostate"] = "json"
    # the registered type describes the default reward, zero-sum in every game; a game made with
    # reward="raw" carries its own type (_utility)
    return _make_type(name, params, pyspiel.GameType.Utility.ZERO_SUM)


def _utility(zero_sum: bool) -> Any:
    return pyspiel.GameType.Utility.ZERO_SUM if zero_sum else \
        pyspiel.GameType.Utility.GENERAL_SUM


def _make_type(name: str, params: dict[str, Any], utility: Any) -> Any:
    cls = game_class(name)
    return pyspiel.GameType(
        short_name=game_name(name),
        long_name=f"cardplay {cls.title.get('en', name)}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=cls.max_players,
        min_num_players=cls.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


class _Shared:
    """What every state of one game shares: never copied, pickled by name and options."""

    def __init__(self, name: str, options: dict[str, Any], dealer: int, max_moves: int,
                 reward: str = "zero_sum", infostate: str = "json") -> None:
        if reward not in REWARDS:
            raise ValueError(f"{game_name(name)}: reward is one of {', '.join(REWARDS)}, "
                             f"not {reward!r}")
        if infostate not in INFOSTATES:
            raise ValueError(f"{game_name(name)}: infostate is one of "
                             f"{', '.join(INFOSTATES)}, not {infostate!r}")
        self.reward = reward
        self.infostate = infostate
        self.key = (name, tuple(sorted(options.items())), dealer, max_moves, reward, infostate)
        self.game: Game = load(name, **options)
        self.space: ActionSpace = action_space(self.game)
        self.encoder: Encoder = encoder(self.game)
        self.n = self.game.players
        if not -1 <= dealer < self.n:
            raise ValueError(f"{game_name(name)}: dealer is -1 (chance) or a seat from 0 to "
                             f"{self.n - 1}, not {dealer}")
        if max_moves < 0:
            raise ValueError(f"{game_name(name)}: max_moves is 0 (no limit) or positive")
        self.dealer = dealer
        facts = self.game.facts
        natural = facts.max_moves
        self.max_moves = min(natural, max_moves) if max_moves > 0 else natural
        self.truncates = self.max_moves < natural or facts.max_moves_is_cap
        deck = self.game.deck_cards()
        self.deck_size = len(deck)
        self.counts = [deck.count(c) for c in range(52)]
        self.cards = [c for c in range(52) if self.counts[c]]
        self.copies = max(self.counts)
        self.dealer_outcomes = [(s, 1.0 / self.n) for s in range(self.n)]
        self.points_pay = facts.points_pay

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self

    def __reduce__(self) -> tuple[Callable[..., _Shared], tuple[Any, ...]]:
        return _shared, self.key


_SHARED: dict[tuple[Any, ...], _Shared] = {}


def _shared(name: str, items: tuple[tuple[str, Any], ...], dealer: int,
            max_moves: int, reward: str = "zero_sum", infostate: str = "json") -> _Shared:
    key = (name, items, dealer, max_moves, reward, infostate)
    s = _SHARED.get(key)
    if s is None:
        s = _SHARED[key] = _Shared(name, dict(items), dealer, max_moves, reward, infostate)
    return s


class _DealBox:
    """A deal inside a state: copied with ``Deal.copy()``; pickled as its class and plain state
    (a deal holds ints, lists, tuples and dicts besides its game), its game by name and options."""

    def __init__(self, deal: Deal) -> None:
        self.deal = deal

    def __deepcopy__(self, memo: dict[int, Any]) -> _DealBox:
        return _DealBox(self.deal.copy())

    def __getstate__(self) -> dict[str, Any]:
        d = self.deal
        return {"game": d.game.name, "options": tuple(sorted(d.game.options_dict().items())),
                "class": type(d),
                "state": {k: v for k, v in d.__dict__.items() if k != "game"}}

    def __setstate__(self, state: dict[str, Any]) -> None:
        cls = state["class"]
        deal = cls.__new__(cls)
        deal.__dict__.update(state["state"])
        deal.game = _load(state["game"], state["options"])
        self.deal = deal


_LOADED: dict[tuple[str, tuple[tuple[str, Any], ...]], Game] = {}


def _load(name: str, items: tuple[tuple[str, Any], ...]) -> Game:
    g = _LOADED.get((name, items))
    if g is None:
        g = _LOADED[(name, items)] = load(name, **dict(items))
    return g


class CardplayGame(pyspiel.Game):
    """One deal of a cardplay game as an OpenSpiel game (one subclass per game)."""

    cardplay_name: str

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        name = self.cardplay_name
        gtype = _GAME_TYPES[name]
        spec = gtype.parameter_specification
        given = dict(params or {})
        for k in given:
            if k not in spec:
                raise ValueError(f"{game_name(name)}: unknown parameter {k!r}; valid: "
                                 f"{', '.join(sorted(spec))}")
        values = {k: v.value() if hasattr(v, "value") else v for k, v in spec.items()}
        values.update(given)
        dealer = int(values.pop("dealer"))
        max_moves = int(values.pop("max_moves"))
        reward = str(values.pop("reward"))
        infostate = str(values.pop("infostate"))
        options = {k: v for k, v in values.items() if v != ""}
        self.shared = _shared(name, tuple(sorted(options.items())), dealer, max_moves, reward,
                              infostate)
        g = self.shared.game
        lo, hi = reward_bounds(g.facts.result_bounds, reward)
        zero_sum = reward != "raw" or g.facts.zero_sum
        if not zero_sum:
            defaults = {k: v.value() if hasattr(v, "value") else v for k, v in spec.items()}
            gtype = _make_type(name, defaults, _utility(False))
        info = pyspiel.GameInfo(
            num_distinct_actions=self.shared.space.size,
            max_chance_outcomes=max(52, g.players),
            num_players=g.players,
            min_utility=lo,
            max_utility=hi,
            utility_sum=0.0 if zero_sum else None,
            max_game_length=self.shared.max_moves,
        )
        super().__init__(gtype, info, params or {})
        self.cardplay = g

    def new_initial_state(self) -> CardplayState:
        return CardplayState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> CardplayObserver:
        return CardplayObserver(self.shared, iig_obs_type, params)


class CardplayState(pyspiel.State):
    """A deal in progress: the dealer and deck are dealt by chance nodes, then the seats play."""

    # Class defaults, set on the instance once they change: pyspiel builds a fresh state to
    # probe the observer at every observation_tensor call, so a state starts cheaply.
    box: _DealBox | None = None
    moves = 0
    replay = 0  # moves already in an adopted deal (resampling)
    adopt: _DealBox | None = None
    # The legal codes of the position after `codes_at` moves, from _legal_actions: the move
    # that follows reuses them instead of asking the deal again.
    codes: list[int] | None = None
    codes_at = -1

    def __init__(self, game: CardplayGame) -> None:
        super().__init__(game)
        sh = game.shared
        self.shared = sh
        self.dealer = sh.dealer
        self.dealt: list[int] = []
        self.left = list(sh.counts)
        self.cards_left = list(sh.cards)  # the card ids with copies left, ascending

    # ---- pyspiel.State

    def current_player(self) -> int:
        box = self.box
        if box is None:
            return _CHANCE
        t = box.deal.to_move
        if t is None or self.moves >= self.shared.max_moves:
            return _TERMINAL
        return t

    def is_terminal(self) -> bool:
        box = self.box
        return box is not None and (box.deal.to_move is None or self.moves >= self.shared.max_moves)

    def _legal_actions(self, player: int) -> list[int]:
        box = self.box
        if box is None or player != box.deal.to_move or self.is_terminal():
            return []
        codes = self.codes = box.deal.legal_codes()
        self.codes_at = self.moves
        return self.shared.space.legal_actions(codes)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        sh = self.shared
        if self.dealer < 0:
            return list(sh.dealer_outcomes)
        total = sh.deck_size - len(self.dealt)
        if sh.copies == 1:  # every card left has probability 1 / total
            return list(zip(self.cards_left, repeat(1 / total)))
        by_copies = [k / total for k in range(sh.copies + 1)]
        return list(zip(self.cards_left,
                        map(by_copies.__getitem__, map(self.left.__getitem__, self.cards_left))))

    def _apply_action(self, action: int) -> None:
        sh = self.shared
        if self.box is None:
            # chance actions are checked like moves: an outcome chance_outcomes() does not
            # offer is refused before anything changes
            if self.dealer < 0:
                if not 0 <= action < sh.n:
                    raise ValueError(f"{game_name(sh.game.name)}: chance action {action} is not "
                                     f"a dealer (0..{sh.n - 1})")
                self.dealer = int(action)
                return
            if not (0 <= action < 52 and self.left[action] > 0):
                raise ValueError(f"{game_name(sh.game.name)}: chance action {action} is not a "
                                 f"card left to deal")
            self.dealt.append(int(action))
            self.left[action] -= 1
            if not self.left[action]:
                self.cards_left.remove(action)
            if len(self.dealt) == sh.deck_size:
                self._deal()
            return
        if self.replay:  # the adopted deal has played this move already
            self.moves += 1
            self.replay -= 1
            return
        deal = self.box.deal
        codes = self.codes
        if codes is None or self.codes_at != self.moves:
            codes = deal.legal_codes()
        code = sh.space.code_of(int(action), codes)
        if code is None:  # refused before anything changes
            raise ValueError(f"{game_name(sh.game.name)}: action {action} is not legal now")
        self.codes = None
        self.moves += 1
        deal.apply_code(code)

    def _deal(self) -> None:
        if self.adopt is not None:
            self.box, self.adopt = self.adopt, None
            return
        order = self.dealt
        seed = derive_seed(0, "openspiel-deal", tuple(order))
        # What game.deal(seed, deck=order, dealer=...) does, less checking the deck: the chance
        # nodes only ever deal the copies left, so the order holds the game's cards exactly.
        self.box = _DealBox(self.shared.game.deal_from_order(order, self.dealer, seed))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self.box is None and self.dealer < 0:
                return f"dealer {action}"
            return f"deal {format_card(action)}"
        return self.shared.space.text(action)

    def returns(self) -> list[float]:
        sh = self.shared
        if not self.is_terminal():
            return [0.0] * sh.n
        assert self.box is not None
        deal = self.box.deal
        if deal.to_move is None:
            return shape_result(deal.result or [0] * sh.n, sh.reward)
        if sh.points_pay:
            return shape_result(deal.points, sh.reward)
        return [0.0] * sh.n

    def __str__(self) -> str:
        if self.box is None:
            return (f"dealer {self.dealer}; dealt " +
                    " ".join(format_card(c) for c in self.dealt))
        d = self.box.deal
        return (f"dealer {d.dealer}; deck {' '.join(d.deck)}; moves " +
                " ".join(f"{s}:{d.game.move(c).text}" for s, c in d.history))

    # ---- resampling

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> CardplayState:
        """A state with the same information state for ``player_id``: a world drawn by
        ``game.sample_deal`` from the seat's view, dealt and replayed through the actions."""
        rng = random.Random(int(probability_sampler() * 2 ** 53))
        game = self.get_game()
        new = game.new_initial_state()
        if self.box is None:  # still dealing: nothing is known but the dealer
            if self.dealer >= 0 and self.shared.dealer < 0:
                new.apply_action(self.dealer)
            for _ in self.dealt:
                outcomes = new.chance_outcomes()
                new.apply_action(rng.choices([a for a, _ in outcomes],
                                             [p for _, p in outcomes])[0])
            return new
        sh = self.shared
        deal = self.box.deal
        sampled = sh.game.sample_deal(deal.view(player_id), rng)
        if sh.dealer < 0:
            new.apply_action(sampled.dealer)
        # The sampled deal is adopted as it is (some games build it directly rather than by
        # replaying its deck); the chance and move actions are applied for the history only.
        new.adopt = _DealBox(sampled)
        order = [CARD_ID[t] for t in sampled.deck]
        if sorted(order) == sorted(c for c in range(52) for _ in range(sh.counts[c])):
            for c in order:
                new.apply_action(c)
        else:
            new.dealt = order
            new.left = [0] * 52
            new.cards_left = []
            new._deal()
        new.replay = len(sampled.history)
        for _, code in sampled.history:
            new.apply_action(sh.space.action_of(code))
        return new


class CardplayObserver:
    """OpenSpiel's PyObserver for cardplay games (see the module docstring)."""

    def __init__(self, shared: _Shared, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"cardplay observers take no parameters, not {params}")
        self.shared = shared
        perfect_recall = bool(iig_obs_type.perfect_recall) if iig_obs_type is not None else False
        private = iig_obs_type.private_info if iig_obs_type is not None else \
            pyspiel.PrivateInfoType.SINGLE_PLAYER
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("cardplay observers show one seat's view (private_info "
                             "SINGLE_PLAYER) or the public part of it (NONE), not all seats'")
        self.private = private == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.perfect_recall = perfect_recall
        enc = shared.encoder
        n = shared.n
        size = enc.size + (n * 53 if perfect_recall else 0)
        self.tensor = np.zeros(size, np.float32)
        self.dict: dict[str, np.ndarray] = {}
        for block, (off, length) in enc.blocks.items():
            self.dict[block] = self.tensor[off:off + length]
        if perfect_recall:
            off = enc.size
            for i in range(n):
                self.dict[f"put_down_by_seat+{i}"] = self.tensor[off:off + 52]
                off += 52
            self.dict["moves_by_seat"] = self.tensor[off:off + n]
        # The fast path writes straight into the tensor (no vector to copy): its floats and its
        # bytes, and the zeros it starts from.
        self._writer = enc.fast_writer
        self._floats = self.tensor.data
        self._bytes = self._floats.cast("B")
        self._zeros = bytes(4 * size)
        self.keys: InfoKeys | None = info_keys(shared.game) if shared.infostate == "compact" \
            else None

    def set_from(self, state: CardplayState, player: int) -> None:
        t = self.tensor
        box = state.box
        if box is None:
            self._bytes[:] = self._zeros
            return
        deal = box.deal
        enc = self.shared.encoder
        if self._writer is not None:
            self._bytes[:] = self._zeros
            self._writer(deal, player, None, self._floats, self._bytes)
        else:
            t[:enc.size] = enc.encode_deal(deal, player)
        if not self.private:
            hand = enc.o_hand
            t[hand:hand + 52] = 0.0
        if self.perfect_recall:
            t[enc.size:] = 0.0  # the history planes below are written card by card
            n = self.shared.n
            space = self.shared.space
            off = enc.size
            limit = float(self.shared.max_moves)
            counts = [0] * n
            for s, code in deal.history:
                r = (s - player) % n
                counts[r] += 1
                for c in space.cards_of(code):
                    t[off + 52 * r + c] = 1.0
            for r in range(n):
                t[off + 52 * n + r] = counts[r] / limit

    def string_from(self, state: CardplayState, player: int) -> str:
        box = state.box
        if box is None:
            dealer = state.dealer if state.dealer >= 0 else "?"
            return f"p{player} dealer {dealer}; dealing {len(state.dealt)}/" \
                   f"{self.shared.deck_size}"
        if self.keys is not None:
            enc = self.shared.encoder
            vec = enc.encode_deal(box.deal, player)
            if not self.private:
                vec = vec.copy()
                vec[enc.o_hand:enc.o_hand + 52] = 0.0
            return self.keys.key_of(vec, box.deal, player, self.private, self.perfect_recall)
        d = box.deal.view(player).to_dict()
        d.pop("game", None)
        d.pop("options", None)
        d.pop("match", None)
        if not self.private:
            d.pop("hand", None)
            d.pop("legal_moves", None)
        if not self.perfect_recall:
            d.pop("history", None)
        return f"p{player} " + json.dumps(d, ensure_ascii=False, sort_keys=True,
                                          separators=(",", ":"))
