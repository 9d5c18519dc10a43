"""The hall's web pages (docs/cafe.md): the hall screen (`/`, every table) and a spectator page per table
(`/table/NAME`), kept live by server-sent events (`/events`, `/table/NAME/events`): each change the hall keeps sends
the card of the table it concerns, which replaces the card on the page; and the café's players (`/players`,
`/players/PID`) and their monthly league (`/league?month=YYYY-MM`), from the games stored (table/cafe/league.py);
and the staff page (`/staff`, table/cafe/staff.py), where staff enrol player cards.
Starlette on uvicorn, in a thread of the hall's process; Jinja2 escapes everything a page shows.
"""
from __future__ import annotations

import asyncio
import logging
import re
import socket
import threading
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

import uvicorn
from jinja2 import Environment, FileSystemLoader
from markupsafe import Markup
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates

from table.cafe.league import League
from table.cafe.mqtt import NAME, CafeError
from table.cafe.staff import Staff, routes
from table.cafe.view import card, language, shown_uid, when
from table.screen.i18n import Translator

if TYPE_CHECKING:
    from table.cafe.hall import Hall

HERE = Path(__file__).parent
ON_HALL, ON_TABLE = 3, 12   # finished games shown per table on the hall screen and on its spectator page
KEEPALIVE_S = 15            # an event stream with no change sends a comment this often (a gone reader is noticed)
HEADERS = {"Content-Security-Policy": "default-src 'self'", "X-Content-Type-Options": "nosniff",
           "Referrer-Policy": "no-referrer"}
MONTH = re.compile(r"[0-9]{4}-(0[1-9]|1[0-2])")   # a league's month, YYYY-MM

log = logging.getLogger(__name__)


class Bulletin:
    """The names of the tables that changed, told from the hall's MQTT thread to every event stream of the pages'
    event loop; each stream takes in what changed since it last looked."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._streams: set[Stream] = set()

    def listen(self, tables: set[str] | None) -> Stream:
        """A new stream's watch of `tables` (None: every table), in the event loop."""
        self._loop = asyncio.get_running_loop()
        stream = Stream(tables)
        self._streams.add(stream)
        return stream

    def forget(self, stream: Stream) -> None:
        self._streams.discard(stream)

    def notify(self, table: str | None) -> None:
        """Table `table` changed (None: the pages stop); from any thread."""
        loop = self._loop
        if loop is None:   # no stream yet
            return
        try:
            loop.call_soon_threadsafe(self._tell, table)
        except RuntimeError:   # the pages' loop has ended
            pass

    def close(self) -> None:
        """End every stream (the hall stops)."""
        self.notify(None)

    def _tell(self, table: str | None) -> None:
        for stream in self._streams:
            if table is None or stream.tables is None or table in stream.tables:
                stream.changed.add(table)
                stream.event.set()


class Stream:
    """One event stream's watch of `tables` (None: every table): those changed since it last looked."""

    def __init__(self, tables: set[str] | None) -> None:
        self.tables = tables
        self.changed: set[str | None] = set()
        self.event = asyncio.Event()

    async def next(self, timeout: float) -> set[str] | None:
        """The tables changed (empty: none for `timeout` seconds; None: the pages stop)."""
        try:
            await asyncio.wait_for(self.event.wait(), timeout)
        except TimeoutError:
            return set()
        self.event.clear()
        changed, self.changed = self.changed, set()
        return None if None in changed else changed


def app(hall: Hall, bulletin: Bulletin, staff: Staff | None = None) -> Starlette:
    """The pages of `hall`, kept live by `bulletin`; its staff page signed in to by `staff` (None: no staff
    password, the staff page says so)."""
    environment = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=True)
    environment.filters["uid"] = shown_uid
    templates = Jinja2Templates(env=environment)
    fragment = templates.get_template("card.html")

    def cards(names: set[str] | None, lang: str, spectator: bool) -> list[Markup]:
        """The cards of the tables `names` (None: every table) the hall knows, as HTML: a spectator page's with
        more games, the hall's with a link to each table's spectator page."""
        count = ON_TABLE if spectator else ON_HALL
        return [Markup(fragment.render(card=card(name, status, live, hall.latest(name, count), lang),
                                       t=Translator(lang), lang=lang, spectator=spectator))
                for name, status, live in hall.tables() if names is None or name in names]

    def page(request: Request, template: str, lang: str, status: int = 200, live: bool = True, **context):
        other = "en" if lang == "fr" else "fr"
        return templates.TemplateResponse(request, template, {
            "lang": lang, "t": Translator(lang), "other": other,
            "switch": request.url.include_query_params(lang=other).query,   # this page in the other language
            "events": f"{request.url.path.rstrip('/')}/events?lang={lang}" if live else "",
            "game_name": lambda game: Translator(lang, game)("game_name"), "when": lambda game: when(game.ended),
            **context}, status_code=status, headers=HEADERS)

    def notice(request: Request, status: int, title: str, said: str, **params) -> Response:
        """A page saying only `said` (a message's key, with `params`) under the title `title` (a key)."""
        return page(request, "notice.html", _language(request), status, live=False, title=title, notice=said,
                    said=params)

    async def not_found(request: Request, error: HTTPException) -> Response:
        return notice(request, 404, "hall_not_found_title", "hall_not_found")

    def league() -> League:
        return League((body for *_, body in hall.games()),
                      enrolled={card["id"]: card["name"] for card in hall.cards().values()})

    async def players_page(request: Request):
        found = await run_in_threadpool(league)
        records = sorted(found.records.values(), key=lambda record: record.name.casefold())
        return page(request, "players.html", _language(request), live=False, records=records)

    async def player_page(request: Request):
        found, lang = await run_in_threadpool(league), _language(request)
        record = found.records.get(request.path_params["pid"])
        if record is None:
            return notice(request, 404, "hall_players", "hall_unknown_player")
        return page(request, "player.html", lang, live=False, record=record, met=found.partners(record.pid))

    async def league_page(request: Request):
        asked = request.query_params.get("month")
        if asked and not MONTH.fullmatch(asked):
            return notice(request, 400, "hall_league", "hall_bad_month", month=asked[:20])
        found, lang = await run_in_threadpool(league), _language(request)
        months = found.months()
        month = asked or (months[0] if months else datetime.now().strftime("%Y-%m"))
        t = Translator(lang)
        return page(request, "league.html", lang, live=False, month=month, months=months,
                    standings=found.standings(month), evenings=found.evenings,
                    month_name=lambda month: t(f"hall_month_{int(month[5:])}", year=month[:4]))

    def hall_page(request: Request):
        lang = _language(request)
        return page(request, "hall.html", lang, cards=cards(None, lang, False))

    def table_page(request: Request):
        name, lang = request.path_params["name"], _language(request)
        found = cards({name}, lang, True) if NAME.fullmatch(name) else []
        return page(request, "table.html", lang, 200 if found else 404, cards=found, name=name[:40])

    async def events(request: Request) -> StreamingResponse:
        """Server-sent events: every card of the page at once, then each card that changes."""
        name, lang = request.path_params.get("name"), _language(request)
        stream = bulletin.listen(None if name is None else {name})

        async def sent():
            try:
                changed = stream.tables
                while True:
                    for html in await run_in_threadpool(cards, changed, lang, name is not None):
                        yield "event: table\n" + "".join(f"data: {line}\n" for line in html.splitlines()) + "\n"
                    while (changed := await stream.next(KEEPALIVE_S)) == set():
                        yield ": still here\n\n"
                    if changed is None:
                        return
            finally:
                bulletin.forget(stream)

        return StreamingResponse(sent(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no", **HEADERS})

    return Starlette(routes=[
        Route("/", hall_page), Route("/events", events), Route("/table/{name}", table_page),
        Route("/table/{name}/events", events), Route("/players", players_page), Route("/players/{pid}", player_page),
        Route("/league", league_page), *routes(hall, staff, page, _language),
        Mount("/static", StaticFiles(directory=HERE / "static")),
    ], exception_handlers={404: not_found})


def _language(request: Request) -> str:
    return language(request.query_params.get("lang"), request.headers.get("accept-language", ""))


def listening(address: tuple[str, int]) -> socket.socket:
    """A socket listening at `address` (host, port) for the pages; CafeError when it cannot."""
    host, port = address
    listener = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)   # started again at once after a stop
    try:
        listener.bind(address)
        listener.listen()
    except OSError as error:   # taken, or no such address here
        listener.close()
        raise CafeError(f"the pages cannot be served at {host}:{port}: {error.strerror}") from None
    return listener


class Pages:
    """`hall`'s pages served on the socket `listener` in a thread of their own, live by `bulletin`, its staff
    signing in by `staff`."""

    def __init__(self, hall: Hall, bulletin: Bulletin, listener: socket.socket, staff: Staff | None = None) -> None:
        self.socket = listener
        self.bulletin = bulletin
        self.server = uvicorn.Server(uvicorn.Config(app(hall, bulletin, staff), log_config=None, access_log=False,
                                                    lifespan="off", timeout_graceful_shutdown=2))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [listener]}, name="pages",
                                       daemon=True)

    def start(self) -> None:
        self.thread.start()
        log.info("the hall's pages at http://%s:%d/", *self.socket.getsockname()[:2])

    def stop(self) -> None:
        """End the event streams, then the server."""
        self.bulletin.close()
        self.server.should_exit = True
        self.thread.join(5)
        self.socket.close()
