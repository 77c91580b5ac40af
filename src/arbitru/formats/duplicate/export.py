"""Results as files: CSV for spreadsheets, printable text and HTML for the wall (FISE-17: move by move, per
player, with bonuses, so every player can check), and each player's record sheet (FISE-6b).
"""

from __future__ import annotations

import html
import io
import json
from typing import Any

from arbitru import figures
from arbitru.figures import percent
from arbitru.formats import spreadsheet
from arbitru.formats.duplicate.results import GameResult, MoveLine, PlayerLine, Standing
from arbitru.messages import Text, joined, reader
from arbitru.textinput import number_order

FORMATS = ("text", "csv", "csv-moves", "html", "json")


def summary_csv(result: GameResult) -> str:
    """One row per player: place, totals, percentage, FISE-15 tie-break figures."""
    out = io.StringIO()
    w = spreadsheet.writer(out)
    w.writerow(
        [
            "place",
            "player",
            "name",
            "table",
            "points",
            "bonus",
            "total",
            "percent",
            "top_moves",
            "best_move",
            "playoff",
        ]
    )
    for line in result.lines:
        p = line.player
        w.writerow(
            [
                line.place,
                p.number,
                p.name or " + ".join(p.members),
                p.table,
                line.points,
                line.bonus,
                line.total,
                percent(line.percentage),
                line.top_moves,
                line.best_move,
                "yes" if line.playoff else "",
            ]
        )
    return out.getvalue()


def moves_csv(result: GameResult) -> str:
    """One row per player and move (FISE-17): what was written, what counted, bonus, reasons, running
    total."""
    out = io.StringIO()
    w = spreadsheet.writer(out)
    w.writerow(
        [
            "move",
            "player",
            "name",
            "position",
            "word",
            "declared",
            "computed",
            "score",
            "bonus",
            "reasons",
            "running",
            "master_score",
        ]
    )
    masters = {m.move: m for m in result.masters}
    for line in sorted(result.lines, key=lambda ln: number_order(ln.player.number)):
        for m in line.moves:
            v = m.verdict
            slip = v.slip if v else None
            w.writerow(
                [
                    m.move,
                    line.player.number,
                    line.player.name,
                    slip.position if slip else "",
                    slip.word if slip else "",
                    "" if slip is None or slip.score is None else slip.score,
                    "" if v is None or v.computed is None else v.computed,
                    m.score,
                    m.bonus or "",
                    " ".join(m.reasons),
                    m.running,
                    masters[m.move].score,
                ]
            )
    return out.getvalue()



#: who chose a master move other than the program's first (MasterLine.by), as the printed results say it
CHOSEN = {"referee": Text("by the referee"), "prepared": Text("prepared before the game")}


def text(result: GameResult) -> str:
    """Printable results: master moves, ranking, bonuses, the move-by-move grid (FISE-17); its words and figures in
    the reader's language (the CLI's ``--lang``, :data:`arbitru.messages.reader`), through the pages' catalogs."""
    lang = reader.get()

    def n(value: int) -> str:  # a total as the language writes it ("1.234")
        return figures.number(value, lang)

    head = Text("%(title)s — %(rules)s; word list %(lexicon)s", title=result.title, rules=result.rules,
                lexicon=result.lexicon)
    lines = [f"{head}", ""]
    lines.append(f"{Text('Master moves')}")
    # a column is as wide as its heading in the reader's language, at least as wide as in English
    cols = _columns((Text("move"), ">4"), (Text("rack"), "<9"), (Text("position"), "<8"), (Text("word"), "<15"),
                    (Text("score"), ">5"), (Text("total"), ">6"))
    lines.append(_row(cols, [h for h, _ in cols], "  ", " ", " ", " ", " ") + f"  {Text('notes')}")
    for m in result.masters:
        notes: list[str] = []
        if m.ties > 1:
            notes.append(Text("%(n)s tied", n=m.ties))
        if m.by in CHOSEN:
            notes.append(CHOSEN[m.by])
        notes.extend(m.remarks)
        lines.append(
            _row(cols, [m.move, m.rack, m.position, m.word, m.score, n(m.running)], "  ", " ", " ", " ", " ")
            + "  " + (f"{joined(notes)}" if notes else "")
        )
    lines.append(f"{Text('Master total: %(n)s', n=n(result.master_total))}")
    if result.end:
        end = Text("End after move %(n)s: %(reason)s (%(rules)s)", n=result.end.after_move,
                   reason=result.end.reason, rules=", ".join(result.end.rules))
        lines.append(f"{end}")
    lines += ["", f"{Text('Ranking')}"]
    cols = _columns((Text("place"), ">5"), (Text("player"), "<24"), (Text("points"), ">6"), (Text("bonus"), ">5"),
                    (Text("total"), ">6"), ("%", ">7"), (Text("tops"), ">4"), (Text("best"), ">4"))
    gaps = ("  ", " ", " ", " ", " ", " ", " ")
    lines.append(_row(cols, [h for h, _ in cols], *gaps))
    for line in result.lines:
        flag = f"  {Text('playoff')}" if line.playoff else ""
        lines.append(
            _row(cols, [line.place, line.player.label(), n(line.points), n(line.bonus), n(line.total),
                        figures.percentage(line.percentage, lang), line.top_moves, line.best_move], *gaps)
            + flag
        )
    if result.sudden_death is not None:
        lines += ["", f"{Text('Sudden death (FISE-19): moves played, then the score of the last one')}"]
        for sd in result.sudden_death:
            out = Text("out at move %(n)s", n=sd.out_at) if sd.out_at else Text("still in")
            lines.append(
                f"{sd.place:>5}  {sd.name:<24} "
                f"{Text('%(n)s moves, last %(score)s', n=f'{sd.moves:>3}', score=f'{sd.last_score:>4}')}  ({out})"
            )
    if result.bonuses:
        lines += ["", f"{Text('Bonuses (FISE-11)')}"]
        for b in result.bonuses:
            bonus = Text("move %(move)s: player %(player)s +%(value)s (%(why)s)", move=b.move, player=b.player,
                         value=b.value, why=b.why)
            lines.append(f"  {bonus}")
    lines += ["", f"{Text('Move by move (FISE-17)')}"]
    header = f"{Text('player'):<24}" + "".join(f"{m.move:>5}" for m in result.masters) + f"{Text('total'):>7}"
    lines.append(header)
    lines.append(
        f"{Text('master'):<24}" + "".join(f"{m.score:>5}" for m in result.masters) + f"{n(result.master_total):>7}"
    )
    for line in sorted(result.lines, key=lambda ln: number_order(ln.player.number)):
        cells = "".join(f"{_cell(m):>5}" for m in line.moves)
        lines.append(f"{line.player.label():<24}{cells}{n(line.total):>7}")
    lines.append(
        f"{Text('(+b: bonus; z: 0 for a reason, see the CSV of moves; out: after the player is out, FISE-19)')}"
        if result.sudden_death is not None else f"{Text('(+b: bonus; z: 0 for a reason, see the CSV of moves)')}"
    )
    if result.unattributed:
        lines += ["", f"{Text('Slips nobody can be credited with (FISE-14)')}"]
        for v in result.unattributed:
            s = v.slip
            nobody = Text("move %(move)s: player %(player)s %(slip)s: %(why)s", move=s.move, player=s.player or "?",
                          slip=f"{s.position} {s.word}", why=[t for _, t in v.reasons])
            lines.append(f"  {nobody}")
    return "\n".join(lines) + "\n"


def _columns(*specs: tuple[str, str]) -> list[tuple[str, str]]:
    """A table's columns: each heading said in the reader's language, and its alignment and width (``">5"``)
    widened to the heading's."""
    said = [(f"{h}", spec) for h, spec in specs]
    return [(h, f"{spec[0]}{max(int(spec[1:]), len(h))}") for h, spec in said]


def _row(cols: list[tuple[str, str]], cells: list[object], *gaps: str) -> str:
    """One line of a table of :func:`_columns`: each cell at its column's width, ``gaps`` between them."""
    out = ""
    for i, ((_, spec), cell) in enumerate(zip(cols, cells, strict=True)):
        out += (gaps[i - 1] if i else "") + format(str(cell), spec)
    return out


def _cell(m: MoveLine) -> str:
    """A grid cell: the score, ``+b`` a bonus, ``z`` a 0 for a reason other than no slip, ``out`` after a
    player is out of a sudden-death game (FISE-19)."""
    if m.reasons == ["out"]:
        return "out"
    if m.reasons and m.reasons != ["no-slip"] and not m.score:
        return "z"
    return f"{m.score}" + (f"+{m.bonus}" if m.bonus else "")


def html_page(result: GameResult) -> str:
    """The same as :func:`text`, as a printable HTML page, in the reader's language (``--lang``)."""
    lang = reader.get()

    def e(text: object) -> str:  # said in the reader's language, then escaped
        return html.escape(f"{text}")

    def n(value: int) -> str:
        return figures.number(value, lang)

    rows = []
    for m in result.masters:
        rows.append(
            f"<tr><td>{m.move}</td><td>{e(m.rack)}</td><td>{e(m.position)}</td><td>{e(m.word)}</td>"
            f"<td>{m.score}</td><td>{n(m.running)}</td><td>{e(joined(list(m.remarks)))}</td></tr>"
        )
    ranking = []
    for line in result.lines:
        ranking.append(
            f"<tr><td>{line.place}</td><td>{e(line.player.label())}</td><td>{n(line.points)}</td>"
            f"<td>{n(line.bonus)}</td><td>{n(line.total)}</td><td>{figures.percentage(line.percentage, lang)}</td>"
            f"<td>{line.top_moves}</td><td>{line.best_move}</td>"
            f"<td>{e(Text('playoff')) if line.playoff else ''}</td></tr>"
        )
    grid_head = "".join(f"<th>{m.move}</th>" for m in result.masters)
    grid = [
        f"<tr><th>{e(Text('master'))}</th>{''.join(f'<td>{m.score}</td>' for m in result.masters)}"
        f"<td>{n(result.master_total)}</td></tr>"
    ]
    for line in sorted(result.lines, key=lambda ln: number_order(ln.player.number)):
        cells = "".join(
            f'<td title="{e(" ".join(m.reasons) or m.written())}">{e(_cell(m))}</td>' for m in line.moves
        )
        grid.append(f"<tr><th>{e(line.player.label())}</th>{cells}<td>{n(line.total)}</td></tr>")
    bonuses = "".join(
        "<li>" + e(Text("move %(move)s: player %(player)s +%(value)s (%(why)s)", move=b.move, player=b.player,
                        value=b.value, why=b.why)) + "</li>"
        for b in result.bonuses
    )
    end = ("<p>" + e(Text("End after move %(n)s: %(reason)s (%(rules)s)", n=result.end.after_move,
                          reason=result.end.reason, rules=", ".join(result.end.rules))) + "</p>"
           if result.end else "")
    head = Text("%(title)s — %(rules)s; word list %(lexicon)s", title=result.title, rules=result.rules,
                lexicon=result.lexicon)
    return f"""<!DOCTYPE html>
<html lang="{lang}"><head><meta charset="utf-8"><title>{e(result.title)}</title>
<style>
body {{ font-family: sans-serif; font-size: 11pt; }}
table {{ border-collapse: collapse; margin-bottom: 1em; }}
td, th {{ border: 1px solid #999; padding: 2px 6px; text-align: right; }}
@media print {{ h2 {{ page-break-before: always; }} h2:first-of-type {{ page-break-before: avoid; }} }}
</style></head><body>
<h1>{e(result.title)}</h1>
<p>{e(head)}</p>
<h2>{e(Text("Ranking"))}</h2>
<table><tr><th>{e(Text("place"))}</th><th>{e(Text("player"))}</th><th>{e(Text("points"))}</th><th>{e(Text("bonus"))}</th>
<th>{e(Text("total"))}</th><th>%</th><th>{e(Text("top moves"))}</th><th>{e(Text("best move"))}</th><th></th></tr>
{"".join(ranking)}</table>
<h2>{e(Text("Master moves"))}</h2>
<table><tr><th>{e(Text("move"))}</th><th>{e(Text("rack"))}</th><th>{e(Text("position"))}</th><th>{e(Text("word"))}</th>
<th>{e(Text("score"))}</th><th>{e(Text("total"))}</th><th>{e(Text("notes"))}</th></tr>
{"".join(rows)}</table>
<p>{e(Text("Master total: %(n)s", n=n(result.master_total)))}</p>{end}
<h2>{e(Text("Bonuses (FISE-11)"))}</h2><ul>{bonuses or "<li>" + e(Text("none")) + "</li>"}</ul>
<h2>{e(Text("Move by move (FISE-17)"))}</h2>
<table><tr><th>{e(Text("player"))}</th>{grid_head}<th>{e(Text("total"))}</th></tr>
{"".join(grid)}</table>
</body></html>
"""


def player_sheet(result: GameResult, line: PlayerLine) -> str:
    """A player's record (FISE-6b): direction, position, word, score and running total of each move, beside
    the master moves."""
    out = [f"{line.player.label()} — {result.title}", ""]
    cols = _columns((Text("move"), ">4"), (Text("dir"), "<3"), (Text("position"), "<8"), (Text("word"), "<15"),
                    (Text("score"), ">5"), (Text("total"), ">6"), (Text("master"), "<24"), (Text("score"), ">5"),
                    (Text("total"), ">6"))
    gaps = ("  ", " ", " ", " ", " ", "   ", " ", " ")
    out.append(_row(cols, [h for h, _ in cols], *gaps))
    for m, master in zip(line.moves, result.masters, strict=True):
        v = m.verdict
        placement = v.placement if v else None
        direction = ("H" if placement.coord.horizontal else "V") if placement else ""
        slip = v.slip if v else None
        out.append(_row(cols, [m.move, direction, slip.position if slip else "", slip.word if slip else "", m.score,
                               m.running, master.position + " " + master.word, master.score, master.running], *gaps))
    return "\n".join(out) + "\n"


def standings_text(rows: list[Standing]) -> str:
    """Standings over several games (FISE-15), its words and figures in the reader's language (``--lang``)."""
    lang = reader.get()
    cols = _columns((Text("place"), ">5"), (Text("player"), "<24"), (Text("places"), "<20"),
                    (Text("mean place"), ">10"), (Text("mean %"), ">8"), (Text("total"), ">6"))
    gaps = ("  ", " ", " ", " ", " ")
    out = [_row(cols, [h for h, _ in cols], *gaps)]
    for s in rows:
        places = " ".join("-" if p is None else str(p) for p in s.places)
        out.append(_row(cols, [s.place, s.name, places, figures.number(s.mean_place, lang, 2),
                               figures.percentage(s.mean_percentage, lang), figures.number(s.total, lang)], *gaps))
    return "\n".join(out) + "\n"


def standings_csv(rows: list[Standing]) -> str:
    out = io.StringIO()
    w = spreadsheet.writer(out)
    w.writerow(["place", "player", "places", "mean_place", "mean_percent", "total", "games"])
    for s in rows:
        w.writerow(
            [
                s.place,
                s.name,
                " ".join("-" if p is None else str(p) for p in s.places),
                f"{float(s.mean_place):.4f}",
                percent(s.mean_percentage, 4),
                s.total,
                s.games,
            ]
        )
    return out.getvalue()


def move_dict(m: MoveLine) -> dict[str, Any]:
    """One player's move as JSON data: as written, as judged, what counted."""
    v = m.verdict
    slip = v.slip if v else None
    return {
        "move": m.move,
        "position": slip.position if slip else None,
        "word": slip.word if slip else None,
        "declared": slip.score if slip else None,
        "computed": v.computed if v else None,
        "score": m.score,
        "bonus": m.bonus,
        "top": m.top,
        "reasons": list(m.reasons),
        "rules": v.rules() if v else [],
        "why": [text for _, text in v.reasons] if v else [],
        "notes": list(v.notes) if v else [],
        "running": m.running,
    }


def result_dict(result: GameResult) -> dict[str, Any]:
    """Everything the text results show, as JSON data (FISE-17): master moves, ranking with every move, bonuses,
    the sudden-death ranking, slips nobody can be credited with."""
    end = result.end
    return {
        "game": result.game_id,
        "title": result.title,
        "rules": result.rules,
        "lexicon": result.lexicon,
        "masters": [
            {
                "move": m.move,
                "rack": m.rack,
                "position": m.position,
                "word": m.word,
                "score": m.score,
                "top": m.top,
                "running": m.running,
                "by": m.by,
                "ties": m.ties,
                "remarks": list(m.remarks),
            }
            for m in result.masters
        ],
        "master_total": result.master_total,
        "end": None
        if end is None
        else {"after_move": end.after_move, "reason": end.reason, "rules": list(end.rules), "kind": end.kind},
        "ranking": [
            {
                "place": line.place,
                "player": line.player.number,
                "name": line.player.name or " + ".join(line.player.members),
                "table": line.player.table,
                "points": line.points,
                "bonus": line.bonus,
                "total": line.total,
                "percent": percent(line.percentage),
                "top_moves": line.top_moves,
                "best_move": line.best_move,
                "playoff": line.playoff,
                "moves": [move_dict(m) for m in line.moves],
            }
            for line in result.lines
        ],
        "bonuses": [{"move": b.move, "player": b.player, "value": b.value, "why": b.why} for b in result.bonuses],
        "sudden_death": None
        if result.sudden_death is None
        else [
            {
                "place": sd.place,
                "player": sd.player,
                "moves": sd.moves,
                "last_score": sd.last_score,
                "out_at": sd.out_at,
            }
            for sd in result.sudden_death
        ],
        "unattributed": [
            {
                "move": v.slip.move,
                "player": v.slip.player,
                "position": v.slip.position,
                "word": v.slip.word,
                "why": [text for _, text in v.reasons],
            }
            for v in result.unattributed
        ],
    }


def standings_dict(rows: list[Standing]) -> list[dict[str, Any]]:
    """Standings over several games as JSON data (FISE-15)."""
    return [
        {
            "place": s.place,
            "player": s.name,
            "registry_id": s.player or None,
            "places": list(s.places),
            "mean_place": f"{float(s.mean_place):.4f}",
            "mean_percent": percent(s.mean_percentage, 4),
            "total": s.total,
            "games": s.games,
        }
        for s in rows
    ]


def render(result: GameResult, fmt: str) -> str:
    """A result in one of :data:`FORMATS`."""
    if fmt == "text":
        return text(result)
    if fmt == "csv":
        return summary_csv(result)
    if fmt == "csv-moves":
        return moves_csv(result)
    if fmt == "html":
        return html_page(result)
    if fmt == "json":
        return json.dumps(result_dict(result), ensure_ascii=False) + "\n"
    raise ValueError(f"unknown format {fmt!r}; known: {', '.join(FORMATS)}")
