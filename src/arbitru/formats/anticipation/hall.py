"""What the hall sees without a correction: groups, lots, how far the draw is read, timers, seating, slips
entered, the stage of publication — folded from the journal in one pass, for the pages and the CLI (the
correction itself is :meth:`~arbitru.formats.anticipation.game.AnticipationGame.replay`)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from arbitru.formats.anticipation.clock import Timer, fold_timers
from arbitru.formats.anticipation.game import AnticipationGame, results_shown
from arbitru.formats.anticipation.order import HallOrder, Published
from arbitru.journal.store import Journal


@dataclass(frozen=True)
class HallState:
    """Groups, lots, reading, timers, seating and the slips entered (per player and turn: the one that counts,
    how many entries, a late one kept apart)."""

    game: AnticipationGame
    groups: list[str]
    lots: dict[int, dict[str, Any]]
    announced: int
    recap: bool
    timers: dict[str, Timer]
    seating: dict[str, int]
    names: dict[str, str]
    slips: dict[tuple[str, int], dict[str, Any]]
    blind: list[str]
    stage: str
    deadline: str
    last_seq: int
    #: the publication in force, when one is (its payload: ``unplayed`` turns when it ended the game early)
    published: dict[str, Any] | None = None

    @property
    def unplayed(self) -> list[int]:
        """The turns the publication in force left unplayed: it ended the game early (RO-5.5.j)."""
        return [int(t) for t in (self.published or {}).get("unplayed", ())]

    @property
    def current_turn(self) -> int:
        return max(self.lots) if self.lots else 0

    def results_shown(self, *, staff: bool) -> bool:
        """Whether results may be shown yet (RO-5.5.j, :func:`~arbitru.formats.anticipation.game.results_shown`)."""
        return results_shown(self.stage, staff=staff)

    def players(self) -> list[str]:
        return sorted(self.seating, key=lambda p: (self.seating[p], p))

    def label(self, player: str) -> str:
        name = self.names.get(player, player)
        return name if name == player else f"{name} ({player})"

    def order(self, now: float | None = None) -> HallOrder:
        """Where the game stands at the server time ``now`` (default: now): what is allowed (:mod:`.order`)."""
        return HallOrder(
            self.game.settings.variant == "blind",
            self.announced,
            self.recap,
            self.timers,
            frozenset(self.lots),
            time.time() if now is None else now,
            own_pace=self.game.settings.training,
            stage=self.stage,
        )


def hall_state(j: Journal, game: AnticipationGame) -> HallState:
    """The hall's state, folded from the journal in one pass."""
    groups: list[str] = []
    lots: dict[int, dict[str, Any]] = {}
    seating: dict[str, int] = {}
    names: dict[str, str] = {}
    slips: dict[tuple[str, int], dict[str, Any]] = {}
    blind: list[str] = []
    announced, recap = 0, False
    published = Published()
    clocks: list[dict[str, Any]] = []
    last = 0
    for e in j.iter_events(game.id):
        last = e.seq
        p = e.payload
        if e.kind == "draw":
            groups = list(p["groups"])
        elif e.kind == "lot":
            lots[int(p["turn"])] = dict(p)
        elif e.kind == "seating":
            for entry in p["players"]:
                seating[entry["player"]] = int(entry["table"])
                names[entry["player"]] = entry.get("name") or entry["player"]
        elif e.kind == "slip" and p.get("turn") is not None and not p.get("decided"):
            key = (str(p["player"]), int(p["turn"]))
            if p.get("late") and key in slips:
                slips[key]["late_after"] = e.seq
                continue
            slips[key] = {"seq": e.seq, "actor": e.actor, "recorded": e.recorded, "late": bool(p.get("late")),
                          "payload": p, "entries": slips.get(key, {}).get("entries", 0) + 1}
        elif e.kind == "blind_groups":
            blind.append(str(p["player"]))
        elif e.kind == "announced":
            if p.get("step") == "recap":
                recap = True
            else:
                announced = max(announced, int(p["group"]))
        elif e.kind == "clock":
            clocks.append(p)
        elif e.kind in ("publication", "decision"):
            published.fold(e.kind, e.seq, p)
    last_published = published.last
    deadline = str(last_published.get("deadline", "")) if last_published else ""
    return HallState(game, groups, lots, announced, recap, fold_timers(clocks), seating, names, slips, blind,
                     published.stage, deadline, last, last_published)
