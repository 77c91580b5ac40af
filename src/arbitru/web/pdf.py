"""Printable sheets as PDF (results, forms, players' codes, standings): WeasyPrint, with Debian's Pango libraries."""

from __future__ import annotations

from starlette.exceptions import HTTPException


def pdf_of(html: str) -> bytes:
    """The page ``html`` as PDF; 503 when the system libraries WeasyPrint needs are missing."""
    try:
        import weasyprint
    except OSError as e:  # the Python package is there, the system libraries are not
        raise HTTPException(503, f"PDF needs Pango (apt-get install libpango-1.0-0 libpangoft2-1.0-0): {e}") from None
    pdf: bytes = weasyprint.HTML(string=html).write_pdf()
    return pdf
