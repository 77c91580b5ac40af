"""The web app's one JavaScript library, htmx: a pinned npm version with its registry integrity hash, fetched by
the set-up into the cache folder like the word lists (:mod:`arbitru.lexicons.sources`) and served from there: no
CDN at run time, nothing vendored in the repository.
"""

from __future__ import annotations

from pathlib import Path

from arbitru.lexicons.sources import NpmPackage, default_home, fetch_npm

HTMX = NpmPackage(
    "htmx.org",
    "2.0.8",
    "sha512-fm297iru0iWsNJlBrjvtN7V9zjaxd+69Oqjh4F/Vq9Wwi2kFisLcrLCiv5oBX0KLfOX/zG8AUo9ROMU5XUB44Q==",
)
HTMX_FILE = "dist/htmx.min.js"


def install(cache_dir: Path | None = None) -> Path:
    """Fetch htmx if it is not in the cache yet; its path.

    :raises LexiconError: when npm is missing or the download does not match the pinned hash.
    """
    return fetch_npm(HTMX, cache_dir or default_home()) / HTMX_FILE


def htmx_path(cache_dir: Path | None = None) -> Path | None:
    """The installed htmx file, or None."""
    path = (cache_dir or default_home()) / "npm" / HTMX.pin / HTMX_FILE
    return path if path.is_file() else None
