"""The competition forms of Annex 3 (RO-3.3) as printable HTML (A4, a page per player), the ranking as CSV.

- ``slips.html``: 16 slips per player (14 turns and 2 spare), each with *Tur, Punctaj, Masa, Poz., Depunere*.
- ``annotation.html``: the annotation form: *Concurent, Masa*, the 15 groups, the 15×15 control grid (rows
  A–O,
  columns 1–15) and the table *Tur, Grupa, Poz, Depunere, Pct, Total*, *TOTAL*, *LOC*.
- ``results.html``: the same table filled from the correction, each placement's verdict with its rule, the
  warnings and penalties, the player's board in the control grid, the total and the place.
- ``ranking.html`` and ``ranking.csv``: the ranking (RO-6.6).
"""

from __future__ import annotations

import io
from html import escape
from pathlib import Path

from arbitru import figures
from arbitru.engine.layout import ROW_LETTERS, SIZE
from arbitru.formats import spreadsheet
from arbitru.formats.anticipation.game import GameState
from arbitru.formats.anticipation.variants import GROUPS, TURNS
from arbitru.formats.anticipation.verdicts import PlayerResult
from arbitru.messages import Text, say

SLIPS_PER_PLAYER = 16  # RO-3.3: at least 16 (14 turns and 2 spare)

CSS = """
@page { size: A4; margin: 12mm; }
body { font-family: "DejaVu Sans", Arial, sans-serif; font-size: 10pt; color: #000; }
.page { page-break-after: always; }
.page:last-child { page-break-after: auto; }
h1 { font-size: 14pt; margin: 0 0 4mm 0; }
h2 { font-size: 11pt; margin: 3mm 0 2mm 0; }
table { border-collapse: collapse; }
td, th { border: 1px solid #000; padding: 1mm 2mm; vertical-align: top; }
th { background: #eee; }
.slips { display: grid; grid-template-columns: 1fr 1fr; gap: 3mm; }
.slip { border: 1.5px solid #000; padding: 2mm; height: 24mm; break-inside: avoid; }
.slip table { width: 100%; }
.slip td { height: 7mm; }
.grid td, .grid th { width: 6mm; height: 6mm; padding: 0; text-align: center; font-size: 9pt; }
.grid th { background: #fff; border: none; }
.dw { background: #f7c6c6; } .tw { background: #e06666; } .dl { background: #c9e3f7; } .tl { background:
#5b9bd5; }
.wide { width: 100%; }
.small { font-size: 8pt; }
.invalid { color: #a00; }
.sheet { break-inside: avoid; font-size: 8.5pt; }
.sheet h1 { font-size: 12pt; margin-bottom: 2mm; } .sheet p { margin: 1mm 0; }
.sheet td, .sheet th { padding: 0.3mm 1mm; }
.sheet .small { font-size: 7pt; }
.sheet .grid, .sheet .foot { break-inside: avoid; }
.sheet .grid td, .sheet .grid th { width: 5mm; height: 5mm; font-size: 8pt; }
.foot { margin-top: 2mm; } .foot > tbody > tr > td { border: none; padding: 0 2mm 0 0; }
"""


def printable(title: str, body: str) -> str:
    return (
        f'<!DOCTYPE html>\n<html lang="ro"><head><meta charset="utf-8"><title>{escape(title)}</title>'
        f"<style>{CSS}</style></head><body>\n{body}\n</body></html>\n"
    )


def _grid(board_text: str | None = None, premium: bool = True) -> str:
    from arbitru.engine.layout import STANDARD

    rows = board_text.splitlines() if board_text else []
    out = ['<table class="grid"><tr><th></th>' + "".join(f"<th>{c + 1}</th>" for c in range(SIZE)) + "</tr>"]
    for r in range(SIZE):
        cells = []
        for c in range(SIZE):
            sq = r * SIZE + c
            cls = STANDARD.premium_name(sq).lower() if premium else ""
            letter = rows[r][c] if rows and rows[r][c] != "." else ""
            cells.append(f'<td class="{cls}">{escape(letter)}</td>')
        out.append(f"<tr><th>{ROW_LETTERS[r]}</th>{''.join(cells)}</tr>")
    out.append("</table>")
    return "".join(out)


def slips_page(player: str = "", table: int | None = None) -> str:
    """One page of 16 blank slips (Annex 3)."""
    slips = []
    for _ in range(SLIPS_PER_PLAYER):
        slips.append(
            '<div class="slip"><table>'
            "<tr><td>Tur</td><td>Punctaj</td><td>Masa</td></tr>"
            '<tr><td>Poz.</td><td colspan="2">Depunere</td></tr>'
            "</table></div>"
        )
    who = f" — {escape(player)}" + (f", masa {table}" if table else "") if player else ""
    return f'<div class="page"><h1>Fluturași{who}</h1><div class="slips">{"".join(slips)}</div></div>'


def annotation_page(player: str = "", table: int | None = None, groups: list[str] | None = None) -> str:
    """The annotation form (Annex 3): player, table, groups, control grid, solution table."""
    group_rows = "".join(
        f"<tr><td>{i}</td><td>{escape(groups[i - 1]) if groups else ''}</td></tr>"
        for i in range(1, GROUPS + 1)
    )
    turns = "".join(
        f"<tr><td>{t}</td><td></td><td></td><td></td><td></td><td></td></tr>" for t in range(1, 15)
    )
    return (
        '<div class="page"><h1>ANTICIPAȚIE</h1>'
        f"<p>CONCURENT: <b>{escape(player)}</b> &nbsp;&nbsp; MASA: <b>{table or ''}</b></p>"
        '<table><tr><td style="border:none">'
        f"<table><tr><th>Grupa</th><th>Litere</th></tr>{group_rows}</table>"
        f'</td><td style="border:none">{_grid()}</td></tr></table>'
        '<h2>Soluția</h2><table class="wide"><tr><th>Tur</th><th>Grupa</th><th>Poz</th><th>Depunere</th>'
        f"<th>Pct</th><th>Total</th></tr>{turns}</table>"
        "<p>TOTAL: ________ &nbsp;&nbsp; LOC: ______</p></div>"
    )


def results_page(state: GameState, r: PlayerResult) -> str:
    """A player's results sheet (Annex 3) filled from the correction, with every verdict and its rule."""
    name = state.names.get(r.player, r.player)
    rows = []
    running = 0
    for turn in range(1, TURNS + 1):
        sv = r.slips.get(turn)
        groups = state.order.groups_of(turn)
        group_text = " + ".join(str(g) for g in groups)
        if sv is None or not sv.placements:
            reason = say(sv.reason, "ro") if sv else ""  # the sheets are in the format's language (RO-3.1)
            rows.append(
                f"<tr><td>{turn}</td><td>{group_text}</td><td></td><td class='small'>{escape(reason)}</td>"
                f"<td></td><td>{running}</td><td></td></tr>"
            )
        for v in sv.placements if sv else []:
            if v.on_board:
                running += v.points
            cls = "" if v.on_board else ' class="invalid"'
            verdict = (v.rule + ": " if v.rule else "") + say(v.reason, "ro")
            extra = "; ".join(say(n, "ro") for n in v.notes)
            rows.append(
                f"<tr{cls}><td>{turn}</td><td>{v.group or ''}</td>"
                f"<td>{escape(v.position or v.written_position)}</td>"
                f"<td>{escape(v.word or v.written_word)}</td><td>{v.points if v.on_board else 0}</td>"
                f"<td>{running}</td><td class='small'>{escape(verdict)}"
                f"{('<br>' + escape(extra)) if extra else ''}</td></tr>"
            )
    deductions = []
    for turn in sorted(r.slips):
        sv = r.slips[turn]
        if sv.warning:
            cost = f"−{sv.warning_cost}" if sv.warning_cost else "0"
            deductions.append(
                f"<tr><td>{turn}</td><td>{sv.warning.rule}</td><td>{escape(say(sv.warning.text, 'ro'))} "
                f"({escape(say(Text('warning %(n)s', n=sv.warning_number), 'ro'))})</td><td>{cost}</td></tr>"
            )
        for v in sv.placements:
            if v.penalty:
                deductions.append(
                    f"<tr><td>{turn}</td><td>{v.penalty_rule}</td>"
                    f"<td>{escape(say(Text('technical penalty'), 'ro'))}</td><td>−{v.penalty}</td></tr>"
                )
    for s in r.sanctions:
        status = f" ({say(Text('withdrawn'), 'ro')})" if s["withdrawn"] else ""
        rule = "RO-7.1" if s["kind"] == "cheating" else "RO-6.4"
        deductions.append(
            f"<tr><td>{s['turn'] or ''}</td><td>{rule}</td><td>{escape(s['reason'])}{status}</td>"
            f"<td>{'' if s['withdrawn'] or s['kind'] == 'cheating' else '−20'}</td></tr>"
        )
    for a in r.adjustments:
        deductions.append(
            f"<tr><td></td><td>RO-6.5</td><td>{escape(a['reason'])}</td><td>{a['points']:+d}</td></tr>"
        )
    ded = (
        (
            "<h2>Avertismente, penalizări, decizii</h2><table class='wide'><tr><th>Tur</th><th>Regula</th>"
            f"<th>Motiv</th><th>Puncte</th></tr>{''.join(deductions)}</table>"
        )
        if deductions
        else ""
    )
    place = r.eliminated or (str(r.place) if r.place else "")
    # one sheet, one page: the board (the control grid) beside the deductions and the total, never split
    return (
        f'<div class="page sheet"><h1>Rezultate — {escape(name)}</h1>'
        f"<p>CONCURENT: <b>{escape(name)}</b> &nbsp;&nbsp; MASA: <b>{r.table or ''}</b> &nbsp;&nbsp; "
        f"Lista: {escape(state.lexicon_name)}</p>"
        '<table class="wide"><tr><th>Tur</th><th>Grupa</th><th>Poz</th><th>Depunere</th><th>Pct</th>'
        "<th>Total</th>"
        f"<th>Corectură</th></tr>{''.join(rows)}</table>"
        f'<table class="foot wide"><tr><td>{ded}'
        f"<p>TOTAL: <b>{r.total}</b> &nbsp;&nbsp; LOC: <b>{escape(place)}</b></p></td>"
        f'<td style="width: 82mm">{_grid(r.board.to_text() if r.board else None)}</td></tr></table></div>'
    )


def ranking_csv(state: GameState) -> str:
    out = io.StringIO()
    w = spreadsheet.writer(out)
    w.writerow(
        [
            "place",
            "player",
            "name",
            "table",
            "total",
            "placements",
            "penalties",
            "warnings",  # how many technical warnings (RO-6.2): the first 3 cost 0, each one after −5
            "warning_costs",
            "disciplinary",
            "eliminated",
            "dropped_out",
            "ranking_points",
        ]
    )
    points = ranking_points_of(state)
    for r in state.ranking:
        w.writerow(
            [
                r.place or "",
                r.player,
                state.names.get(r.player, r.player),
                r.table or "",
                r.total,
                r.placement_points,
                r.penalties,
                sum(1 for sv in r.slips.values() if sv.warning),
                r.warning_costs,
                r.disciplinary,
                r.eliminated,
                r.dropped_out or "",
                points.get(r.player, ""),
            ]
        )
    return out.getvalue()


def ranking_points_of(state: GameState) -> dict[str, int]:
    """The ranking points the final ranking awarded (RO-5.5.j), as corrected by decisions since; none before it."""
    return state.ranking_points()


def ranking_heading(state: GameState) -> str:
    """RO-5.5.j, Annex 3: *Clasament provizoriu* with the deadline for contests, then *Clasament final*; the
    title and the date."""
    last = state.publications[-1] if state.publications else {}
    stage = last.get("stage", "")
    title = str(last.get("title") or state.game_id)
    name = {"provisional": "Clasament provizoriu", "final": "Clasament final"}.get(stage, "Clasament")
    lines = [f"<h1>{name} — {escape(title)}</h1>"]
    if last.get("date"):
        lines.append(f"<p>Data: {escape(figures.date(str(last['date']), 'ro'))}</p>")
    if stage == "provisional":
        lines.append(
            f"<p><b>Rezultate provizorii.</b> Contestații până la: <b>{escape(str(last.get('deadline', '')))}</b>"
            " (RO-5.5.j)</p>"
        )
    return "".join(lines)


def _percent(p: float | None) -> str:
    """A share of the maximum as the sheets' language writes it ("87,5"), none when there is no maximum."""
    return "—" if p is None else figures.number(p, "ro", 1)


def ranking_page(state: GameState) -> str:
    mx = state.maximum_summary() if state.maximum else None
    points = ranking_points_of(state)
    rows = "".join(
        f"<tr><td>{r.place or '—'}</td><td>{escape(state.names.get(r.player, r.player))}</td>"
        f"<td>{r.table or ''}</td>"
        f"<td>{r.total}</td>" + (f"<td>{_percent(mx['percent'][r.player])} %</td>" if mx else "")
        + (f"<td>{points.get(r.player, 0)}</td>" if points else "")
        + f"<td class='small'>{escape(say(r.eliminated, 'ro'))}"
        f"{(' ' + say(Text('dropped out in turn %(n)s', n=r.dropped_out), 'ro')) if r.dropped_out else ''}</td></tr>"
        for r in state.ranked()
    )
    # RO-5.5.k: an eliminated player does not figure in the ranking; he is named apart, with why
    out = "".join(f"<li>{escape(state.names.get(r.player, r.player))}: {escape(say(r.eliminated, 'ro'))}</li>"
                  for r in state.eliminated())
    eliminated = (f'<h2>Eliminați (RO-5.5.k), nu figurează în clasament</h2><ul id="eliminated">{out}</ul>'
                  if out else "")
    maximum = f"<p>Maxim: {mx['total']} (căutare cu lățimea {mx['beam']})</p>" if mx else ""
    return (
        f'<div class="page">{ranking_heading(state)}{maximum}<table class="wide">'
        f"<tr><th>Loc</th><th>Concurent</th><th>Masa</th><th>Total</th>{'<th>% din maxim</th>' if mx else ''}"
        f"{'<th>Puncte de clasament</th>' if points else ''}<th></th></tr>{rows}</table>{eliminated}</div>"
    )


def write_forms(state: GameState, out: Path, *, with_groups: bool = False) -> list[Path]:
    """Write every form into ``out``; returns the files written."""
    out.mkdir(parents=True, exist_ok=True)
    players = state.players()
    seat = state.seating
    files = {
        "slips.html": printable(
            "Fluturași",
            "\n".join(slips_page(state.names.get(p, p), seat.get(p)) for p in players) or slips_page(),
        ),
        "annotation.html": printable(
            "Formular de adnotare",
            "\n".join(
                annotation_page(
                    state.names.get(p, p), seat.get(p), state.groups_text() if with_groups else None
                )
                for p in players
            )
            or annotation_page(),
        ),
        "results.html": printable("Rezultate", "\n".join(results_page(state, r) for r in state.ranking)),
        "ranking.html": printable("Clasament", ranking_page(state)),
        "ranking.csv": ranking_csv(state),
    }
    written = []
    for name, text in files.items():
        path = out / name
        path.write_text(text, "utf-8")
        written.append(path)
    return written
