"""Tutorial tables ("Learn to play"): the routes that open one, and the scripted moves of its
other seats.

``GET /api/tutorials`` lists the games with a lesson; ``GET /api/tutorials/{game}`` is the
lesson a learner's browser follows (the learner's own moves and their texts, never the other
seats' moves: they would show those seats' cards early); ``POST /api/tutorials/{game}``
(body ``{"name"?}`` or none) opens a table for it: the lesson's game, options and seed (chosen
by the server, recorded as ``operator``), the learner at the lesson's seat, bots at the others,
unlisted, casual (never rated), without a clock, and answers as ``POST /api/tables`` does plus
``lesson``. At such a table the bots play the script's moves (:func:`tutorial_move`) while the
deal follows it, so the lesson is the same whatever the bots would choose; once a move leaves
the script (or the first deal ends) they play as themselves.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from .. import bots as bots_mod
from .. import tutorials
from ..engine import Game
from .limits import RateLimiter
from .tables import Table, TableError

if TYPE_CHECKING:
    from .hub import Hub

__all__ = ["tutorial_move", "tutorial_router"]

CheckedBody = Callable[..., Awaitable["dict[str, Any] | Response"]]


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status)


def _bot_level(game: Game) -> str:
    """The level of the bots that play on once the deal leaves the script."""
    try:
        bots_mod.load("heuristic", game, seed=0)
    except ValueError:
        return "random"
    return "heuristic"


def tutorial_move(table: Table, seat: int, view: Mapping[str, Any]) -> str | None:
    """The scripted move of a bot's ``seat`` at a tutorial table (from that seat's view), or
    None: not a tutorial table (its seed chosen by the server's own code, unlisted), or the
    deal has left the script."""
    stored = table.stored
    if stored.seed_source != "operator" or stored.listed:
        return None
    match = view.get("match") or {}
    return tutorials.scripted_move(table.game, stored.seed, seat,
                                   int(match.get("deal_number", 1)), view.get("history") or [])


def tutorial_router(hub: Hub, checked_body: CheckedBody, rate: RateLimiter,
                    client_key: Callable[[Any], str]) -> APIRouter:
    router = APIRouter()

    def found(game: str) -> tutorials.Tutorial | JSONResponse:
        tut = tutorials.find(game)
        if tut is None:
            return _error(404, "no_tutorial", f"no lesson for {game[:40]!r}; lessons: "
                                              f"{', '.join(tutorials.GAMES)}")
        return tut

    @router.get("/api/tutorials")
    async def api_tutorials() -> dict[str, Any]:
        return {"tutorials": list(tutorials.GAMES)}

    @router.get("/api/tutorials/{game}")
    async def api_lesson(game: str) -> Response:
        tut = found(game)
        if isinstance(tut, JSONResponse):
            return tut
        return JSONResponse(tutorials.lesson(tut))

    @router.post("/api/tutorials/{game}")
    async def api_open(game: str, request: Request) -> Response:
        body = await checked_body(request, rate, "new tables", empty_ok=True)
        if isinstance(body, Response):
            return body
        unknown = set(body) - {"name"}
        if unknown:
            return _error(400, "bad_request", f"unknown field {sorted(unknown)[0][:40]!r}; "
                                              f"a lesson takes only 'name'")
        tut = found(game)
        if isinstance(tut, JSONResponse):
            return tut
        g = tut.new_game()
        level = _bot_level(g)
        seats = [{"kind": "human"} if i == tut.learner else {"kind": "bot", "level": level}
                 for i in range(g.players)]
        try:
            table, seat, token = hub.create_table(
                g.name, dict(tut.options), seats, seed=tut.seed, name=body.get("name", ""),
                client=client_key(request.scope), operator_seed=True, listed=False,
                clock=None)
        except TableError as e:
            return _error(e.status, e.code or ("bad_request" if e.status == 400 else
                                               "rate_limited"), str(e))
        return JSONResponse({"table": table.id, "seat": seat, "token": token,
                             "url": f"/t/{table.id}", **table.fairness(),
                             "lesson": tutorials.lesson(tut)}, status_code=201)

    return router
