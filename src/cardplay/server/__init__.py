"""The web server: a FastAPI app, the table hub, SQLite storage, the protocol and the browser UI.

Needs the optional extra ``web`` (``pip install 'cardplay[web]'``); ``cardplay serve`` starts it.
``create_app`` is imported lazily so that ``import cardplay.server.storage`` needs nothing but
the standard library.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .app import create_app

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from .app import create_app

        return create_app
    raise AttributeError(name)
