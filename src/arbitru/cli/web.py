"""``arbitru serve`` and ``arbitru arbiter``: the web app. The command parses options, builds the app over the
journal (:func:`arbitru.web.app.create_app`) and runs it with uvicorn."""

from __future__ import annotations

import socket

import click

from arbitru.cli.common import Number, OneLineCommand, OneLineGroup, emit_json, journal_option, json_option

DEMO_PLAYERS = (("1", "Ana Popescu"), ("2", "Bogdan Ionescu"), ("3", "Carmen Dima"))


def lan_address() -> str:
    """This machine's address on the hall's network (for phones), or 127.0.0.1."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.255.255.255", 1))  # no packet is sent: it only picks the outgoing interface
            return str(s.getsockname()[0])
        except OSError:
            return "127.0.0.1"


DEMO_GAME = "demo"


def make_demo(db: str, lexicon: str | None) -> str:
    """The demo game: three players, the first rack on the stand; made once per journal (its id is
    :data:`DEMO_GAME`) and served again by every later ``serve --demo``. Returns its id."""
    from arbitru.formats.duplicate.game import Player, Session, Settings
    from arbitru.formats.duplicate.rulesets import ruleset
    from arbitru.journal.store import Journal
    from arbitru.lexicons.synthetic import load_lexicon

    with Journal(db, actor="arbiter") as j:
        if any(g.id == DEMO_GAME for g in j.games()):
            return DEMO_GAME
        lex = load_lexicon(lexicon, "ro")
        # a Romanian game, titled in Romanian like every other word on its pages
        settings = Settings(ruleset("romanian", moves=15), "ro", lexicon or lex.name, seed="demo",
                            title="Partidă demonstrativă")
        s = Session.create(j, settings, lex, [Player(n, name) for n, name in DEMO_PLAYERS], game_id=DEMO_GAME)
        s.draw()
        return s.id


@click.command(cls=OneLineCommand)
@journal_option()
@json_option("Print what is shown as JSON data.")
@click.option("--host", default="127.0.0.1", show_default=True, help="0.0.0.0 lets phones on the hall's network in.")
@click.option("--port", type=Number(1, 65535), default=8000, show_default=True)
@click.option("--demo", is_flag=True, help="Start with a ready demo game (three players, first rack drawn).")
@click.option("--demo-lexicon", default=None, help="Word list of the demo game (default: the Romanian list).")
@click.option("--workers", type=Number(1, 64), default=1, show_default=True,
              help="Worker processes (more than one needs --db postgresql://…).")
@click.option("--trust-proxy", "proxies", multiple=True, metavar="ADDR",
              help="A reverse proxy (address or network) whose X-Forwarded-For names the client; repeatable. "
                   "Without it the client is the socket's peer and the header is ignored.")
@click.option("--live-per-client", type=Number(1, 10_000), default=32, show_default=True,
              help="Open live connections (SSE) one client address may hold, per worker; more are answered 429.")
@click.option("--max-body", type=Number(4096, 2**31), default=25 * 1024 * 1024, show_default=True, metavar="BYTES",
              help="The largest request body taken (a registry import of 2,000,000 characters needs 25 MB); larger "
                   "ones are refused from their Content-Length, or as soon as they pass it.")
@click.option("--max-header", type=Number(1024, 1024 * 1024), default=16 * 1024, show_default=True, metavar="BYTES",
              help="The largest request line and headers; larger ones are answered 431 and closed.")
@click.option("--header-timeout", type=Number(1, 3600), default=10, show_default=True, metavar="SECONDS",
              help="Seconds a client has to send a request's line and headers; a slower one is closed.")
@click.option("--connections-per-client", type=Number(2, 100_000), default=64, show_default=True,
              help="Open connections one client address may hold, per worker (live pages included); more are "
                   "answered 503 and closed. A trusted proxy's are not counted.")
@click.option("--base-url", "public_url", default=None, metavar="URL",
              help="The address the phones use when a reverse proxy serves the app (https://scrabble.example.org): "
                   "the players' links and QR codes carry it. Default: http://HOST:PORT.")
def serve(
    journal: str, as_json: bool, host: str, port: int, demo: bool, demo_lexicon: str | None, workers: int,
    proxies: tuple[str, ...], live_per_client: int, max_body: int, max_header: int, header_timeout: int,
    connections_per_client: int, public_url: str | None,
) -> None:
    """Start the web app: arbiter console, projection screen, players' phones, results, JSON API. The pages no
    game fixes the language of (the index, logging in, security) are in 'arbitru --lang' when it is given, else
    in each visitor's browser's language."""
    import uvicorn

    from arbitru.journal.backends import PostgresBackend, backend_for
    from arbitru.journal.store import Journal
    from arbitru.web import assets, auth, security
    from arbitru.web.app import create_app, ready_to_serve
    from arbitru.web.wire import Wire, uvicorn_options

    for proxy in proxies:
        try:
            security.check_proxy(proxy)
        except ValueError:
            raise click.BadParameter(f"{proxy!r} is not an address or a network", param_hint="--trust-proxy") from None
    limits = security.Limits(trusted_proxies=proxies, live_per_client=live_per_client, max_body=max_body)
    wire = Wire(max_header=max_header, header_timeout=float(header_timeout), per_client=connections_per_client)
    try:
        wire.check(limits)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--live-per-client") from None

    if workers > 1 and not isinstance(backend_for(journal), PostgresBackend):
        raise click.ClickException("several workers share a PostgreSQL journal: give --db postgresql://…")
    if public_url is not None and not public_url.startswith(("http://", "https://")):
        raise click.BadParameter(f"{public_url!r} is not an http:// or https:// address", param_hint="--base-url")
    shown = lan_address() if host in ("0.0.0.0", "::") else host
    listening = f"http://{shown}:{port}"
    base = public_url.rstrip("/") if public_url else listening
    info: dict[str, object] = {"url": f"{base}/", "listening": f"{listening}/", "workers": workers}
    with Journal(journal, actor="arbiter") as j:
        info["journal"] = str(j.path)
        if not auth.has_arbiter(j):
            info["password"] = auth.reset_arbiter(j)
            if not as_json:
                click.echo(f"arbiter password (shown once; reset with 'arbitru arbiter password'): {info['password']}")
        secret = auth.server_secret(j)
        auth.remember_address(j, base)  # the address 'codes' then prints
    if assets.htmx_path() is None:
        assets.install()
    if demo:
        gid = make_demo(journal, demo_lexicon)
        players = [
            {"number": n, "name": name, "url": f"{base}/games/{gid}/play?code={auth.player_code(secret, gid, n)}"}
            for n, name in DEMO_PLAYERS
        ]
        info["demo"] = {"game": gid, "console": f"{base}/games/{gid}", "screen": f"{base}/games/{gid}/screen",
                        "players": players}
        if not as_json:
            click.echo(f"demo game {gid}: console {base}/games/{gid}  screen {base}/games/{gid}/screen")
            for p in players:
                click.echo(f"  player {p['number']} {p['name']}: {p['url']}")
    if as_json:
        emit_json(info)
    else:
        phones = f", phones at {base}/" if base != listening else ""
        click.echo(f"arbitru at {listening}/{phones} (journal {info['journal']}, "
                   f"{workers} worker{'s' if workers > 1 else ''}); Ctrl+C stops it")
    hall = hall_language(click.get_current_context())
    if workers > 1:
        import os

        from arbitru.web.app import ENV_BASE_URL, ENV_DB, ENV_LANG
        from arbitru.web.wire import to_env

        os.environ[ENV_DB] = journal
        os.environ[ENV_BASE_URL] = base
        if hall is not None:
            os.environ[ENV_LANG] = hall
        os.environ.update({**security.limits_to_env(limits), **to_env(wire)})
        from uvicorn.supervisors import Multiprocess

        config = uvicorn.Config("arbitru.web.app:create_app_from_env", factory=True, host=host, port=port,
                                workers=workers, **uvicorn_options(wire, limits, workers))
        # uvicorn's supervisor starts a worker again when one dies; the socket is ours (listening_socket)
        Multiprocess(config, sockets=[listening_socket(host, port)]).run()
        return
    app = create_app(journal, base_url=base, limits=limits, lang=hall)
    ready_to_serve(app)  # before the first request, not at the first close
    # the connections' limits (arbitru.web.wire); uvicorn's own X-Forwarded-For handling stays off: the app
    # decides whom to believe (--trust-proxy)
    uvicorn.run(app, host=host, port=port, **uvicorn_options(wire, limits))


def hall_language(ctx: click.Context) -> str | None:
    """The language given to the whole program (``arbitru --lang ro serve``), None when it was left as it is."""
    parent = ctx.parent
    if parent is None or parent.get_parameter_source("lang") in (None, click.core.ParameterSource.DEFAULT):
        return None
    lang = parent.params.get("lang")
    return lang if isinstance(lang, str) else None


def listening_socket(host: str, port: int) -> socket.socket:
    """The socket uvicorn's supervisor hands every worker. Each worker gets, in its place, a socket of its own on
    the same port (:class:`_WorkersPort`), so the kernel shares new connections out evenly between the workers
    (``SO_REUSEPORT``); one shared socket let whichever worker woke first take most of them.

    :raises click.ClickException: when the port cannot be had.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = _WorkersPort(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        _bind_reusing_port(sock, host, port)
    except OSError as e:
        sock.close()
        raise click.ClickException(f"cannot listen on {host}:{port}: {e.strerror}") from None
    sock.set_inheritable(True)
    return sock


class _WorkersPort(socket.socket):
    """The supervisor's socket: bound, never listening (so the kernel gives it no connection). Handed to a worker
    process it becomes :func:`worker_socket` on the same port, bound there."""

    def __reduce__(self) -> tuple[object, tuple[str, int]]:
        host, port = self.getsockname()[:2]
        return worker_socket, (host, port)


def worker_socket(host: str, port: int) -> socket.socket:
    """A worker's own socket on the port (TCP, so asyncio sets ``TCP_NODELAY`` on each connection: with protocol
    0, as uvicorn binds it, every answer waited ~40 ms for the phone's delayed ACK)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    _bind_reusing_port(sock, host, port)
    return sock


def _bind_reusing_port(sock: socket.socket, host: str, port: int) -> None:
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind((host, port))


@click.group(cls=OneLineGroup)
def arbiter() -> None:
    """The web app's arbiter account."""


@arbiter.command()
@journal_option()
@json_option("Print what is shown as JSON data.")
def password(journal: str, as_json: bool) -> None:
    """Set a new generated arbiter password and print it; the arbiter's open sessions end and his login's
    lock is lifted."""
    from arbitru.journal.store import Journal
    from arbitru.web import auth, security

    with Journal(journal, actor="arbiter") as j:
        new = auth.reset_arbiter(j)
        security.unlock(j, auth.ARBITER)
    if as_json:
        emit_json({"password": new})
    else:
        click.echo(new)


@arbiter.command(name="rotate-secret")
@journal_option()
@json_option("Print what is shown as JSON data.")
@click.option("--force", is_flag=True, help="Rotate even while games are not over (their printed codes stop working).")
def rotate_secret(journal: str, as_json: bool, force: bool) -> None:
    """Replace the secret that signs sessions and derives players' codes: every session ends (restart 'serve'
    to sign with the new one). Refused while a game is not over, unless --force."""
    from arbitru.journal.backends import journal_exists
    from arbitru.journal.store import Journal
    from arbitru.web import auth

    if not journal_exists(journal):
        raise click.ClickException(f"no journal {journal}")
    with Journal(journal, actor="arbiter") as j:
        auth.rotate_secret(j, force=force)
        where = auth.secret_file(j)
    shown = str(where) if where else "the web_secret table"
    if as_json:
        emit_json({"rotated": True, "secret": shown})
    else:
        click.echo(f"new secret in {shown}: every session has ended; restart 'arbitru serve'")


@click.command(cls=OneLineCommand)
@journal_option()
@json_option("Print what is shown as JSON data.")
@click.option("--base-url", default=None,
              help="Address the phones use (default: the one 'arbitru serve' last served this journal at).")
@click.option("--sheet", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Also write the printable sheet with QR codes (HTML) to this file.")
@click.argument("game")
def codes(journal: str, as_json: bool, base_url: str | None, sheet: str | None, game: str) -> None:
    """Print each player's code for GAME (derived: the same every time), and optionally the sheet to print."""
    import html

    import segno

    from arbitru.formats.duplicate.game import Session
    from arbitru.journal.backends import journal_exists
    from arbitru.journal.store import Journal
    from arbitru.web import auth

    if not journal_exists(journal):
        raise click.ClickException(f"no journal {journal}")
    with Journal(journal) as j:
        s = Session(j, game)
        secret = auth.server_secret(j)
        base_url = base_url or auth.served_address(j)
    rows = []
    listed = []
    for number, p in sorted(s.game.players.items(), key=lambda kv: (len(kv[0]), kv[0])):
        code = auth.player_code(secret, game, number)
        url = f"{base_url.rstrip('/')}/games/{game}/play?code={code}"
        listed.append({"player": number, "code": code, "name": p.label(), "url": url})
        if not as_json:
            click.echo(f"{number}\t{code}\t{p.label()}\t{url}")
        rows.append(
            f"<tr><td>{html.escape(p.label())}</td><td><code>{code}</code></td>"
            f"<td>{segno.make(url, error='m').svg_inline(scale=3)}</td></tr>"
        )
    if sheet:
        with open(sheet, "w", encoding="utf-8") as out:
            out.write(f"<!doctype html><meta charset=utf-8><title>codes {html.escape(game)}</title><table>"
                      + "".join(rows) + "</table>\n")
    if as_json:
        emit_json(listed)


commands = [serve, arbiter]
