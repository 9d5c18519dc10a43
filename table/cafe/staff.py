"""The hall's staff page (`/staff`, docs/cafe.md): player cards enrolled at the hall, behind a staff sign-in.

- **Sign-in**: the staff password `cardtable hall --setup` made (staff.password). A session is a random token in
  an HttpOnly, SameSite=Strict cookie for /staff, kept in the hall's memory for 12 hours (a restarted hall signs
  staff out). A wrong password is answered after a second, one guess at a time from each address: at most one
  guess a second from a machine, and its guesses never keep staff at another machine waiting.
- **Forms**: every form sent must come from the hall's own staff page: its Origin header is the page's own and it
  carries its session's form token; anything else is refused and changes nothing.
- **Enrolment**: a name and a card's UID (typed, or typed by a USB reader) make a new player; or a card is added
  to a player the hall knows (a lost card). The hall keeps it and publishes it to every table (Hall.enrol).
"""
from __future__ import annotations

import asyncio
import hmac
import logging
import re
import secrets
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from table.screen.glyphs import undrawable
from table.storage.registry import NAME_CHARS, PLAYER_ID, UID, new_player_id, player_name_problem

if TYPE_CHECKING:
    from table.cafe.hall import Hall

log = logging.getLogger(__name__)

COOKIE = "cardtable-staff"
SESSION_S = 12 * 3600   # a sign-in lasts an evening
WRONG_S = 1.0           # the wait before a wrong password is answered
SEPARATORS = re.compile(r"[\s:-]")
NO_STORE = {"Cache-Control": "no-store"}
# the staff page's forms carry its origin (with the other pages' no-referrer, a browser sends "Origin: null")
SAME_ORIGIN = {"Referrer-Policy": "same-origin", **NO_STORE}


def card_uid(typed: str) -> str | None:
    """The UID a person or a USB reader typed ("04:a2:1c:..." or "04A21C..."), as the registry writes it; None
    when it is not one (4, 7 or 10 bytes in hex)."""
    uid = SEPARATORS.sub("", typed).upper()
    return uid if UID.fullmatch(uid) else None


@dataclass(frozen=True, slots=True)
class Session:
    """A staff member signed in: the form token their pages carry, and when the sign-in ends (monotonic s)."""

    form: str
    ends: float


class Staff:
    """The staff's sign-in with `password`, and the sessions open now."""

    def __init__(self, password: str, clock: Callable[[], float] = time.monotonic) -> None:
        self._password = password.encode()
        self._clock = clock
        self._sessions: dict[str, Session] = {}
        self._guessing: dict[str, tuple[asyncio.Lock, int]] = {}   # by client address: its lock, sign-ins at it

    async def sign_in(self, typed: str, client: str) -> str | None:
        """A new session's token when `typed`, sent from address `client`, is the password (None after a second
        when it is not)."""
        lock, waiting = self._guessing.get(client) or (asyncio.Lock(), 0)
        self._guessing[client] = lock, waiting + 1
        try:
            async with lock:
                if not hmac.compare_digest(typed.encode(), self._password):
                    log.warning("staff page: a wrong password from %s", client)
                    await asyncio.sleep(WRONG_S)
                    return None
        finally:
            lock, waiting = self._guessing[client]
            if waiting == 1:   # nobody else from there: forgotten
                del self._guessing[client]
            else:
                self._guessing[client] = lock, waiting - 1
        now = self._clock()
        self._sessions = {token: s for token, s in self._sessions.items() if s.ends > now}
        token = secrets.token_urlsafe(32)
        self._sessions[token] = Session(secrets.token_urlsafe(32), now + SESSION_S)
        return token

    def session(self, request: Request) -> Session | None:
        """The session of `request`'s cookie, if it is open."""
        found = self._sessions.get(request.cookies.get(COOKIE, ""))
        return found if found is not None and found.ends > self._clock() else None

    def sign_out(self, request: Request) -> None:
        self._sessions.pop(request.cookies.get(COOKIE, ""), None)


def same_origin(request: Request) -> bool:
    """Whether a form sent by `request` comes from a page of this site (its Origin header)."""
    host = request.headers.get("host")
    return host is not None and request.headers.get("origin") == f"{request.url.scheme}://{host}"


def routes(hall: Hall, staff: Staff | None, page: Callable[..., Response], language: Callable[[Request], str]
           ) -> list[Route]:
    """The staff page's routes for `hall` (`staff` None: the hall was started without a staff password), drawn by
    `page` (as the other pages are) in `language`."""

    def staff_page(request: Request, status: int = 200, **context) -> Response:
        lang = language(request)
        session = staff.session(request) if staff else None
        if session:
            known = hall.cards()
            players = sorted({card["id"]: card["name"] for card in known.values()}.items(),
                             key=lambda player: player[1].casefold())
            context = {"cards": sorted(known.items(), key=lambda item: item[1]["name"].casefold()),
                       "shadowed": hall.shadowed(), "players": players, "form": session.form, **context}
        response = page(request, "staff.html", lang, status, live=False, off=staff is None, name_chars=NAME_CHARS,
                        **{"typed": {}, **context})
        response.headers.update(SAME_ORIGIN)
        return response

    def refused(request: Request, status: int, problem: str, **typed) -> Response:
        """The staff page again with what was wrong (`problem`, a message's key) and what was typed."""
        return staff_page(request, status, problem=problem, typed=typed)

    def back(request: Request, query: str = "") -> Response:
        return RedirectResponse(f"/staff?lang={language(request)}{query}", 303, headers=NO_STORE)

    async def show(request: Request) -> Response:
        enrolled = request.query_params.get("enrolled", "")
        card = hall.cards().get(enrolled) if staff and staff.session(request) else None
        return staff_page(request, done=card and {"uid": enrolled, "name": card["name"]})

    async def sign_in(request: Request) -> Response:
        if staff is None:
            return refused(request, 404, "staff_off")
        if not same_origin(request):
            return refused(request, 403, "staff_foreign_form")
        token = await staff.sign_in(str((await request.form()).get("password", "")),
                                    request.client.host if request.client else "")
        if token is None:
            return refused(request, 401, "staff_wrong_password")
        response = back(request)
        response.set_cookie(COOKIE, token, max_age=SESSION_S, path="/staff", httponly=True, samesite="strict",
                            secure=request.url.scheme == "https")
        return response

    async def sign_out(request: Request) -> Response:
        if not same_origin(request):
            return refused(request, 403, "staff_foreign_form")
        if staff is not None:
            staff.sign_out(request)
        response = back(request)
        response.delete_cookie(COOKIE, path="/staff", httponly=True, samesite="strict")
        return response

    async def enrol(request: Request) -> Response:
        session = staff.session(request) if staff else None
        if session is None:
            return refused(request, 401, "staff_signed_out")
        form = await request.form()
        token = str(form.get("form", "")).encode()
        if not same_origin(request) or not hmac.compare_digest(token, session.form.encode()):
            return refused(request, 403, "staff_foreign_form")
        typed, name, pid = (str(form.get(key, ""))[:64] for key in ("uid", "name", "player"))
        uid = card_uid(typed)
        if uid is None:
            return refused(request, 400, "staff_bad_uid", uid=typed, name=name, player=pid)
        if pid:   # another card for a player the hall knows
            name = next((card["name"] for card in hall.cards().values() if card["id"] == pid), "")
            if not (PLAYER_ID.fullmatch(pid) and name):
                return refused(request, 400, "staff_unknown_player", uid=typed)
        else:
            name = unicodedata.normalize("NFC", name)   # "é" typed as "e" and an accent is kept as "é"
            if cannot := undrawable(name):
                return refused(request, 400, "staff_name_undrawable", uid=typed, name=name, chars=cannot)
            if player_name_problem(name) is not None:
                return refused(request, 400, "staff_bad_name", uid=typed, name=name)
            if any(card["name"] == name for card in hall.cards().values()):
                return refused(request, 409, "staff_name_taken", uid=typed, name=name)
        owner = await run_in_threadpool(hall.enrol, uid, pid or new_player_id(), name)
        if owner is not None:
            return refused(request, 409, "staff_card_taken", uid=typed, name=name, player=pid, owner=owner)
        return back(request, f"&enrolled={uid}")

    async def shown_again(request: Request) -> Response:
        """A form's address opened as a page (its language link after a refusal, a reload): the staff page."""
        return back(request)

    forms = {"/staff/sign-in": sign_in, "/staff/sign-out": sign_out, "/staff/cards": enrol}
    return [Route("/staff", show), *(Route(path, done, methods=["POST"]) for path, done in forms.items()),
            *(Route(path, shown_again, methods=["GET"]) for path in forms)]
