"""Documents (PDF) made once, kept and served from what is kept: the results of 150 players, their Annex 3 sheets,
the blank forms of a hall, a tournament's table.

WeasyPrint lays out a sheet in about half a second: a hall's 150 sheets take a minute or more, and hundreds of
megabytes while they are laid out. So nothing an anonymous visitor asks makes a document more than once:

- a document is named after what it shows: the SHA-256 of its HTML (:class:`Document`), computed once per
  version of what it depends on (:meth:`~arbitru.web.house.Web.at_seq` and :meth:`~arbitru.web.house.Web.kept`:
  the blank forms, say, stay the same file from the first slip to the last); a changed game that changes the
  document makes a new file, and the file it supersedes is removed once the new one is made;
- it is made in parts (a few sheets each) by one of :data:`MAKERS` threads of this process, in the background
  (at most :data:`QUEUE` documents wait for one); the finished file and the progress live in files beside the
  journal (``games.db.documents/``), so every worker serves the same file and none starts a second maker while
  one is at work (the progress file is made with ``O_EXCL``);
- a request waits for its document at most :data:`WAIT` seconds without holding a thread (it polls from the
  event loop), and every request after the first waits on the same maker: a small game's PDF comes at once; a
  long one answers with a page showing how far the maker is, which asks again by itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import os
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, Response

from arbitru.web.house import attachment, web

#: how long a request waits for its document before it answers with the progress page (seconds)
WAIT = 3.0
#: a maker silent this long is taken for dead (its worker stopped): the next request starts another (seconds)
STALE = 120.0
#: documents made at once by this process (each holds its pages' layout in memory while it is made)
MAKERS = 2
#: documents waiting for a maker in this process, beyond which a new one is not started yet (its page asks again)
QUEUE = 16

_makers = ThreadPoolExecutor(max_workers=MAKERS, thread_name_prefix="arbitru-pdf")
#: the documents (their paths without suffix) waiting for a maker or being made in this process
_pending: set[Path] = set()
_lock = threading.Lock()
#: why the last maker of a document failed (WeasyPrint without its system libraries, say): told once
_failed: dict[Path, str] = {}


@dataclass(frozen=True)
class Progress:
    """How far the maker of a document is: ``done`` parts of ``total``."""

    done: int
    total: int


@dataclass(frozen=True)
class Document:
    """A document to make: the HTML of its parts (each a whole page) and their digest, which names its file."""

    parts: tuple[str, ...]
    digest: str

    @classmethod
    def of(cls, parts: Sequence[str]) -> Document:
        h = hashlib.sha256()
        for part in parts:
            h.update(hashlib.sha256(part.encode("utf-8", "surrogatepass")).digest())
        return cls(tuple(parts), h.hexdigest())


def folder(db: str) -> Path:
    """Where a journal's documents go: beside a SQLite file; in the temporary folder for a database URL."""
    if "://" in db or db == ":memory:":
        return Path(tempfile.gettempdir()) / f"arbitru-documents-{hashlib.sha256(db.encode()).hexdigest()[:16]}"
    return Path(f"{db}.documents")


def _safe(text: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in text)


def _stem(owner: str, what: str) -> str:
    """The start of every file name of ``owner``'s (a game's, a tournament's) document ``what``: its versions
    differ by their digest only (the owner's hash keeps two owners' names apart whatever their ids)."""
    return f"{_safe(owner)[:40]}-{hashlib.sha256(owner.encode()).hexdigest()[:8]}.{_safe(what)}."


def base(db: str, owner: str, what: str, doc: Document) -> Path:
    """The document's path without its suffix (``.pdf`` once made, ``.progress`` while made)."""
    return folder(db) / f"{_stem(owner, what)}{doc.digest[:32]}"


def _with(where: Path, suffix: str) -> Path:
    """The document's file ``suffix`` (its name holds dots: never :meth:`Path.with_suffix`)."""
    return where.parent / (where.name + suffix)


def progress(where: Path) -> Path | Progress | None:
    """The finished file, or how far its maker is, or None (nobody makes it)."""
    pdf = _with(where, ".pdf")
    if pdf.exists():
        return pdf
    marker = _with(where, ".progress")
    with _lock:
        here = where in _pending
    try:
        if not here and time.time() - marker.stat().st_mtime > STALE:
            return None
        data = json.loads(marker.read_text() or "{}")
        return Progress(int(data.get("done", 0)), int(data.get("total", 0)))
    except (OSError, ValueError):
        return Progress(0, 0) if here else None


def start(where: Path, doc: Document) -> None:
    """Make the document unless a maker is at it already, in any worker, or :data:`QUEUE` documents wait."""
    where.parent.mkdir(parents=True, exist_ok=True)
    marker = _with(where, ".progress")
    with _lock:
        if where in _pending or len(_pending) >= QUEUE:
            return
        with contextlib.suppress(OSError):
            if time.time() - marker.stat().st_mtime > STALE:
                marker.unlink()  # a dead maker's
        try:
            fd = os.open(marker, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            return  # another worker is making it
        os.close(fd)
        _pending.add(where)
    _makers.submit(_make, where, doc)


def render(html: str) -> object:
    """One part laid out by WeasyPrint (its pages)."""
    import weasyprint

    return weasyprint.HTML(string=html).render()


def _make(where: Path, doc: Document) -> None:
    marker = _with(where, ".progress")
    try:
        total = len(doc.parts)
        marker.write_text(json.dumps({"done": 0, "total": total}))
        documents = []
        for i, html in enumerate(doc.parts, 1):
            documents.append(render(html))
            marker.write_text(json.dumps({"done": i, "total": total}))
        tmp = _with(where, f".{os.getpid()}.{threading.get_ident()}.tmp")
        first = documents[0]
        first.copy([p for d in documents for p in d.pages]).write_pdf(tmp)  # type: ignore[attr-defined]
        del documents, first
        os.replace(tmp, _with(where, ".pdf"))
        _remove_superseded(where)
    except Exception as e:  # the next request is told (503) and starts another maker
        with _lock:
            _failed[where] = f"{type(e).__name__}: {e}"
        raise
    finally:
        with contextlib.suppress(OSError):
            marker.unlink()
        with _lock:
            _pending.discard(where)


def _remove_superseded(where: Path) -> None:
    """The owner's older versions of the document: removed once the new one is made (a request serving one
    this moment keeps its open file)."""
    stem = where.name[: where.name.rindex(".") + 1]
    for other in where.parent.glob(f"{stem}*.pdf"):
        if other != _with(where, ".pdf"):
            with contextlib.suppress(OSError):
                other.unlink()


async def wait(where: Path, seconds: float | None = None) -> Path | Progress | None:
    """The document once made, or its progress after ``seconds`` (default :data:`WAIT`): polled from the event
    loop, so a waiting request holds no thread."""
    deadline = time.monotonic() + (WAIT if seconds is None else seconds)
    while True:
        state = progress(where)
        if isinstance(state, Path) or state is None or time.monotonic() >= deadline:
            return state
        await asyncio.sleep(0.1)


def kept(request: Request, owner: str, seq: int, version: int, what: str,
         parts: Callable[[], Sequence[str]]) -> Document:
    """The document ``what`` of ``owner`` at journal position ``seq``: its parts computed once per ``version``
    (the seq of the last event that changes it), the first asker computing, the others waiting for it."""
    w = web(request)
    key = ("document", what)
    return w.at_seq(owner, seq, key, lambda: w.kept(owner, key, version, lambda: Document.of(parts())))


async def serve(request: Request, owner: str, seq: int, what: str, filename: str, lang: str,
                parts: Callable[[], Sequence[str]], version: int | None = None) -> Response:
    """The PDF when made (within :data:`WAIT`), else the progress page (202), which asks again by itself.
    ``parts``: each a whole HTML page, computed in a worker thread once per ``version`` (default ``seq``)."""
    doc = await run_in_threadpool(kept, request, owner, seq, seq if version is None else version, what, parts)
    return await serve_document(request, owner, what, filename, lang, doc)


async def serve_document(request: Request, owner: str, what: str, filename: str, lang: str,
                         doc: Document) -> Response:
    """:func:`serve` for a document whose parts the caller has (a page drawn per request): its file is still
    made once per content."""
    w = web(request)
    where = base(w.db, owner, what, doc)
    state = progress(where)
    if state is None:
        start(where, doc)
    state = await wait(where)
    with _lock:
        failed = _failed.pop(where, None)
    if failed is not None:
        raise HTTPException(503, f"the document could not be made: {failed}")
    if isinstance(state, Path):
        return FileResponse(state, media_type="application/pdf",
                            headers=attachment(filename))
    shown = state or Progress(0, 0)
    return w.render(request, "documents.html", status=202, lang=lang, done=shown.done, total=shown.total,
                    filename=filename)
