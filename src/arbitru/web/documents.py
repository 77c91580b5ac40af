"""Long documents (the results of 150 players, their Annex 3 sheets) made as PDF in the background, with progress.

WeasyPrint lays out a sheet in about half a second: a hall's 150 sheets take a minute or more. So a PDF is made
in parts (a few sheets each) by a thread of the worker first asked for it, its pages joined at the end. The
finished file and the progress live in files beside the journal (``games.db.documents/``), named after the game,
its journal position and the document, so every worker serves the same file and none starts a second maker
while one is at work; a changed game (a new position) makes a new file. A request waits a moment
(:data:`WAIT`): a small game's PDF comes at once; a long one answers with a page showing how far the maker is,
which asks again by itself.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, Response

from arbitru.web.house import web

#: how long a request waits for its document before it answers with the progress page (seconds)
WAIT = 3.0
#: a maker silent this long is taken for dead (its worker stopped): the next request starts another (seconds)
STALE = 120.0


@dataclass(frozen=True)
class Progress:
    """How far the maker of a document is: ``done`` parts of ``total``."""

    done: int
    total: int


def folder(db: str) -> Path:
    """Where a journal's documents go: beside a SQLite file; in the temporary folder for a database URL."""
    if "://" in db or db == ":memory:":
        return Path(tempfile.gettempdir()) / f"arbitru-documents-{hashlib.sha256(db.encode()).hexdigest()[:16]}"
    return Path(f"{db}.documents")


def _name(game: str, seq: int, what: str) -> str:
    safe = "".join(c if c.isalnum() or c in "-._" else "_" for c in what)
    return f"{game}-{seq}-{safe}"


def progress(db: str, game: str, seq: int, what: str) -> Path | Progress | None:
    """The finished file, or how far its maker is, or None (nobody makes it)."""
    base = folder(db) / _name(game, seq, what)
    pdf = base.with_suffix(".pdf")
    if pdf.exists():
        return pdf
    marker = base.with_suffix(".progress")
    try:
        if time.time() - marker.stat().st_mtime > STALE:
            return None
        data = json.loads(marker.read_text() or "{}")
        return Progress(int(data.get("done", 0)), int(data.get("total", 0)))
    except (OSError, ValueError):
        return None


def start(db: str, game: str, seq: int, what: str, parts: Callable[[], Sequence[str]]) -> None:
    """Make the document from ``parts`` (each a whole HTML page, computed in the maker's thread) unless a maker is
    at it already, in any worker."""
    where = folder(db)
    where.mkdir(parents=True, exist_ok=True)
    base = where / _name(game, seq, what)
    marker = base.with_suffix(".progress")
    with contextlib.suppress(OSError):
        if time.time() - marker.stat().st_mtime > STALE:
            marker.unlink()  # a dead maker's
    try:
        fd = os.open(marker, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return  # another request, here or in another worker, is making it
    os.close(fd)
    threading.Thread(target=_make, args=(base, parts), name=f"arbitru-pdf-{game}", daemon=True).start()


def _make(base: Path, parts: Callable[[], Sequence[str]]) -> None:
    import weasyprint

    marker = base.with_suffix(".progress")
    try:
        pages = list(parts())
        marker.write_text(json.dumps({"done": 0, "total": len(pages)}))
        documents = []
        for i, html in enumerate(pages, 1):
            documents.append(weasyprint.HTML(string=html).render())
            marker.write_text(json.dumps({"done": i, "total": len(pages)}))
        tmp = base.with_suffix(f".{os.getpid()}.tmp")
        documents[0].copy([p for d in documents for p in d.pages]).write_pdf(tmp)
        os.replace(tmp, base.with_suffix(".pdf"))
    finally:
        with contextlib.suppress(OSError):
            marker.unlink()


def wait(db: str, game: str, seq: int, what: str, seconds: float | None = None) -> Path | Progress | None:
    """The document once made, or its progress after ``seconds`` (default :data:`WAIT`)."""
    deadline = time.monotonic() + (WAIT if seconds is None else seconds)
    while True:
        state = progress(db, game, seq, what)
        if isinstance(state, Path) or state is None or time.monotonic() >= deadline:
            return state
        time.sleep(0.1)


def serve(request: Request, game: str, seq: int, what: str, filename: str, lang: str,
          parts: Callable[[], Sequence[str]]) -> Response:
    """The PDF when made (within :data:`WAIT`), else the progress page (202), which asks again by itself.
    Called in a worker thread (it waits)."""
    w = web(request)
    state = progress(w.db, game, seq, what)
    if state is None:
        start(w.db, game, seq, what, parts)
    state = wait(w.db, game, seq, what)
    if isinstance(state, Path):
        return FileResponse(state, media_type="application/pdf",
                            headers={"Content-Disposition": f'attachment; filename="{filename}"'})
    shown = state or Progress(0, 0)
    return w.render(request, "documents.html", status=202, lang=lang, done=shown.done, total=shown.total,
                    filename=filename)
