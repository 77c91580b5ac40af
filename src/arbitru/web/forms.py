"""Forms, for every page: a form read and its CSRF token checked (:func:`read_form`), who may send it
(:func:`need`), numbers typed in it (:func:`whole`, :func:`whole_in`), a refusal shown beside the field it
concerns (:class:`Refused`) and the idempotency key of a phone's slip form (:func:`new_slip_key`). Part of the
web's house: it imports no route.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.formparsers import MultiPartException
from starlette.requests import Request
from starlette.responses import Response

from arbitru.formats.duplicate.slips import declared_score
from arbitru.journal import training
from arbitru.journal.store import Journal
from arbitru.textinput import MAX_DIGITS, MAX_INT, REASONS, InputError, ascii_number, check_whole, parse_signed
from arbitru.web import auth, i18n, security
from arbitru.web.house import client, device, identity, login_as, remember_device, web
from arbitru.web.i18n import Text

MAX_FIELD = 200
MAX_CSV = 20_000
#: the most fields of a form
MAX_FIELDS = 100
#: the most bytes one character takes in a form: four in UTF-8, each sent as ``%XX`` (``%F0%9F%98%80``)
FORM_BYTES_PER_CHAR = 12
#: a field is read up to this size at least (bytes), so that one too long is refused beside its own name
PART_FLOOR = 64 * 1024
#: the refusal of a training game's start beyond its client's share
TOO_MANY_STARTS = "too many training games started from this address: try again in %(seconds)s seconds"
#: the refusal of a player's door in the browser of the arbiter or a desk
STAFF_SESSION = ("you are logged in as the arbiter or a desk: log out first (or use another browser) to play; "
                 "your session stays open")
#: the language of a game created without one, by its rule set
LANG_BY_RULES = {"fise": "es", "greek": "el", "romanian": "ro"}


class Refused(Exception):
    """A form refused: the field it concerns and the message shown beside it; ``typed``: the form's fields as
    sent, when the door refused one of them (:func:`read_form`): the page shows them again, to be corrected."""

    def __init__(self, field: str, message: str, status: int = 422) -> None:
        super().__init__(message)
        self.field = field
        self.message = message
        self.status = status
        self.typed: dict[str, str] | None = None


def form_budget(limits: dict[str, int]) -> int:
    """The most bytes a form whose fields take ``limits`` characters (others :data:`MAX_FIELD`) can need: every
    field at its longest, each character at its costliest. A body larger than that is refused before it is read."""
    return FORM_BYTES_PER_CHAR * (sum(limits.values()) + MAX_FIELDS * MAX_FIELD) + PART_FLOOR + 64 * MAX_FIELDS


async def read_form(request: Request, limits: dict[str, int] | None = None) -> dict[str, str]:
    """The form's fields as text, its CSRF token checked; too long or undecodable fields are refused. A body
    larger than the form can need (:func:`form_budget`) is refused from its ``Content-Length`` before it is read,
    and any field as soon as it passes its longest possible size: beside the form, in the page's language."""
    limits = limits or {}
    budget = form_budget(limits)
    declared = security.declared_length(request.scope)
    too_long = Text("the form is too large: at most %(n)s characters in a field", n=max([MAX_FIELD, *limits.values()]))
    if declared is not None and declared > budget:
        raise Refused("form", too_long, 413)
    # a field past its longest possible size stops the reading at once; one merely past its limit (it may hold
    # costly characters) is read and refused beside its own name below
    longest = max(PART_FLOOR, FORM_BYTES_PER_CHAR * max([MAX_FIELD, *limits.values()]))
    try:
        form = await request.form(max_files=0, max_fields=MAX_FIELDS, max_part_size=longest)
    except security.BodyTooLarge:  # the server's limit on any body
        raise
    except (HTTPException, MultiPartException) as e:  # Starlette's refusal of the form, in its English
        why = str(e.detail if isinstance(e, HTTPException) else e)
        if "maximum size" in why:  # a field past its longest: refused as a field too long is (400)
            raise Refused("form", Text(REASONS[0], n=max([MAX_FIELD, *limits.values()])), 400) from None
        raise Refused("form", Text("the form could not be read: %(why)s", why=why), 400) from None
    except Exception as e:  # a malformed body is the sender's fault, said plainly
        raise Refused("form", Text("the form could not be read: %(why)s", why=str(e)), 400) from None
    fields: dict[str, str] = {}
    bad: Refused | None = None  # the first field refused; the others read on, to be shown again with it
    for key, value in form.multi_items():
        if not isinstance(value, str):
            raise Refused(key, Text("no files here"), 400)
        limit = limits.get(key, MAX_FIELD)
        if "\ufffd" in value or "\x00" in value:
            bad = bad or Refused(key, Text(REASONS[2]), 400)
            continue  # not text: never shown again
        if len(value) > limit:
            bad = bad or Refused(key, Text(REASONS[0], n=limit), 400)
        fields[key] = value.strip()[:limit]  # a field too long is shown again as much of it as it may hold
    w = web(request)
    sender = auth.check_csrf(w.secret, identity(request), fields.get("csrf", ""))
    if bad is not None:
        if sender:  # what was typed goes back only to the page that sent it
            bad.typed = fields
        raise bad
    if not sender:
        raise HTTPException(403, Text("the form's security token is missing or stale: reload the page and try again"))
    return fields


def need(request: Request, role: str) -> auth.Identity:
    """The identity, when it may do ``role``'s work (``arbiter``, ``desk``: arbiter or desk)."""
    me = identity(request)
    ok = me.can_run() if role == "arbiter" else me.can_enter_slips()
    if not ok:
        who = Text("this needs the arbiter: log in") if role == "arbiter" else Text("this needs a desk: log in")
        raise HTTPException(403 if me.role != "public" else 401, who)
    return me


def not_yours(start: str) -> HTTPException:
    """The refusal of another visitor's training game; ``start``: where to start one's own."""
    return HTTPException(403, Text("this training game is someone else's: start your own on %(page)s", page=start))


def own_player(request: Request, gid: str) -> auth.Identity:
    """The identity of a player signed in to game ``gid`` (with his code): only he sends his slips (403 else)."""
    me = identity(request)
    if me.role != "player" or me.game != gid:
        raise HTTPException(403, Text("join this game with your code first"))
    return me


async def player_of_code(request: Request, gid: str,
                         players: Callable[[Journal], Callable[[str], str | None]]) -> str:
    """The player of game ``gid`` whose code the join form sent (``players(journal)`` reads the game, then looks a
    code up), through the code door's throttle: refused beside the code, 429 while the door makes this client or
    game wait, 401 for a code of no player."""
    w = web(request)
    f = await read_form(request)
    not_staff(request, "code")
    known = device(request, f"{security.CODE}:{gid}")

    def find() -> str | None:
        with w.journal("") as j:
            lookup = players(j)
            return security.try_code(j, w.limits, gid, client(request), lambda: lookup(f.get("code", "")), known)

    try:
        player = await run_in_threadpool(find)
    except security.Throttled as t:
        raise Refused("code", Text("too many failed attempts: try again in %(n)s s", n=t.wait), 429) from None
    if player is None:
        raise Refused("code", Text("this code is not one of this game's players' codes"), 401)
    return player


def sign_in_player(request: Request, response: Response, gid: str, player: str) -> None:
    """The visitor becomes ``player`` of game ``gid`` (a new session; the one it replaces ends); the browser is
    remembered at the game's code door (:func:`remember_device`)."""
    login_as(request, response, auth.Identity(auth.new_sid(), "player", "", gid, player))
    remember_device(request, response, f"{security.CODE}:{gid}")


def not_staff(request: Request, field: str) -> None:
    """A player's door (a code, a training game) in the browser of the arbiter or a desk would end their session:
    refused beside ``field``, the session kept.

    :raises Refused: 409 for a staff session.
    """
    if identity(request).can_enter_slips():
        raise Refused(field, Text(STAFF_SESSION), 409)


def whole(fields: dict[str, str], name: str, default: int | None = None) -> int | None:
    """A whole number typed in a form: ASCII digits (``²`` and ``١٢`` are not numbers), within storage's range."""
    text = fields.get(name, "")
    if not text:
        return default
    try:
        return check_whole(parse_signed(text, name) if len(text) <= MAX_DIGITS + 1 else None, name)
    except InputError:
        e = InputError(text, field=name, reason=REASONS[3], text=repr(text), low=-MAX_INT, high=MAX_INT)
        raise Refused(name, i18n.refusal(e)) from None


def whole_in(fields: dict[str, str], name: str, low: int, high: int) -> int | None:
    """A whole number from ``low`` to ``high`` typed in a form (None: left empty)."""
    text = fields.get(name, "")
    if not text:
        return None
    value = ascii_number(text)
    if value is None or not low <= value <= high:
        raise Refused(name, Text("%(text)s: a whole number from %(low)s to %(high)s", text=repr(text), low=low,
                                  high=high))
    return value


def declared(fields: dict[str, str], name: str = "score") -> int | None:
    """A slip's declared score typed in a form (None: left empty), as every slip's is read
    (:func:`~arbitru.formats.duplicate.slips.declared_score`): a whole number from 0, refused beside its field."""
    try:
        return declared_score(fields.get(name, ""))
    except InputError as e:
        raise Refused(name, i18n.refusal(e)) from None


#: a phone's slip form sent again with other fields after it was handed in (its answer lost, then corrected): the
#: API's refusal (:data:`~arbitru.formats.receipt.KEY_REUSED`) as a player on his phone reads it, who sees no key;
#: the page shows what he typed under a new key, so handing it in again is one tap
STALE_FORM = ("this form was already handed in, with other entries (#%(seq)s): what you sent now is not stored; "
              "check it and hand it in again")
#: a phone's slip sent from a page that still showed the rack the arbiter replaced (FISE-16): refused, as the slips
#: written for that rack are set aside
FORM_OF_A_REPLACED_RACK = ("this slip was written for a rack that was replaced (FISE-16): check your slip against "
                           "the new rack and hand it in again")
#: a phone's slip sent from a page that still showed an earlier move (the next rack reached the server before his
#: press reached it): refused, not stored as a slip for the move now open; the page shows the new rack and what he
#: typed
FORM_OF_A_CLOSED_MOVE = ("this slip was written for move %(n)s, which is closed; move %(m)s is open now: check your "
                         "slip against its rack and hand it in again")
#: the most of a refused field a phone's slip form shows again (a field past its limit is refused for its length)
MAX_TYPED = 200


def new_slip_key() -> str:
    """The idempotency key of one rendering of a phone's slip form (duplicate and anticipation): the form sent
    twice (a double tap, a resend after its answer was lost) is one slip; the page after a stored slip renders a
    new one."""
    return secrets.token_urlsafe(16)


def refused(e: InputError, field: str) -> Refused:
    """A door's refusal beside its field (``field`` when it names none), in the page's language."""
    return Refused(e.field or field, i18n.refusal(e))


def count_start(request: Request, j: Journal) -> None:
    """Count a training game's start against its client's limit; refused in the staff's browser (the trainee's
    session would end theirs: :func:`not_staff`).

    :raises Refused: 429, when the client's address has started its share of the window already; 409 for staff.
    """
    not_staff(request, "form")
    w = web(request)
    try:
        training.admit(j, training.client_key(w.secret, client(request)), time.time())
    except training.TooManyStarts as e:
        raise Refused("form", Text(TOO_MANY_STARTS, seconds=e.wait), 429) from None
