"""What the season's pages and the game-creation pages share: a page's language (the tournaments'), a tournament
looked up for a page, and the next game of a tournament as the creation form shows it. Part of the web's house."""

from __future__ import annotations

from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request

from arbitru import formats
from arbitru.errors import ArbitruError
from arbitru.season import registry, tournament
from arbitru.season.tournament import Tournament
from arbitru.web import i18n
from arbitru.web.house import Web
from arbitru.web.i18n import Text


def season_language(request: Request, j: Any) -> str:
    """A page of the whole season (registry, ratings, a player) in the language of the journal's tournaments
    when they share one (a federation's), else English; ``?lang=`` chooses another."""
    langs = {tournament.replay(j, tid).event.language for tid in tournament.tournaments(j)}
    return i18n.pick(request.query_params.get("lang"), langs.pop() if len(langs) == 1 else "en")


def tournament_language(request: Request, t: Tournament) -> str:
    """A tournament's pages in its language (the rule set's unless it names one); ``?lang=`` chooses another."""
    return i18n.pick(request.query_params.get("lang"), t.event.language)


def tournament_of(j: Any, tid: str) -> Tournament:
    """Tournament ``tid`` replayed; 404 when there is none."""
    try:
        return tournament.replay(j, tid)
    except ArbitruError:
        raise HTTPException(404, Text("no tournament %(id)s", id=repr(tid))) from None


def absent_from(form: Any) -> list[str]:
    """The registry ids ticked "absent" on a tournament game's creation page (fields ``absent:<id>``)."""
    return [k.split(":", 1)[1] for k, v in form.items() if k.startswith("absent:") and v]


def tournament_game_form(w: Web, request: Request, tid: str, game_format: formats.Format) -> dict[str, Any]:
    """What the game-creation page (``/games/new``, ``/anticipation/new``) shows for the next game of tournament
    ``tid``: its players (entry number, registry name, registry id; each with an "absent" box: not seated;
    anticipation: seated by rating, RO-5.1), the tournament's rule set and language, a title with the game's
    number."""
    with w.journal("") as j:
        t = tournament_of(j, tid)
        if formats.by_name(t.event.format) is not game_format:
            raise HTTPException(400, Text("%(name)s holds %(format)s games", name=t.event.name, format=t.event.format))
        reg = registry.load(j)
        number = len(t.games) + 1
        players = [(e.entry, reg.name(e.player), e.player) for e in t.players_of(number, reg)]
        seats = tournament.seating(t, reg, number) if game_format is formats.ANTICIPATION else []
    lang = tournament_language(request, t)
    form = {"title": f"{t.event.name} · {number}", "rules": t.event.rules, "lang": t.event.language,
            "tournament": t.id}
    return {"form": form, "tournament": t, "number": number, "entrants": players, "seats": seats, "lang": lang}
