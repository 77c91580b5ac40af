"""The Romanian *partida de anticipație* (RO-*): draw, turns, slips, correction, ranking, variants, forms.

- :mod:`.draw` — the 15 groups (RO-1.1, RO-5.2.d–f), seeded or entered by hand.
- :mod:`.announce` — what is said and shown, as timed data (RO-4.3, RO-5.2.f–h, RO-5.5).
- :mod:`.turns` — lots and thinking times (RO-4.3, RO-5.3).
- :mod:`.slips` — slips exactly as written (RO-3.3, RO-5.3, RO-5.6).
- :mod:`.positions` — positions as written, read leniently (RO-3.2.c, RO-6.1c–d, RO-6.3a–b).
- :mod:`.verdicts` — the records: placement, slip and player verdicts, decisions, sanctions (RO-6.4, RO-6.5).
- :mod:`.correction` — each player's own board, placement by placement (RO-5.3, RO-6, RO-7.1, RO-8).
- :mod:`.ranking` — places (RO-6.6, RO-8.2).
- :mod:`.variants` — settings and the variants of RO-8.
- :mod:`.game` — the journal events and the replay.
- :mod:`.forms` — the Annex 3 forms, printable.
- :mod:`.simulate` — simulated games with known errors (tests, benchmark).
"""

from arbitru.formats.anticipation.draw import Draw, GroupRules, draw_groups, manual_draw
from arbitru.formats.anticipation.game import AnticipationGame, GameState, register_lexicon, resolve_lexicon
from arbitru.formats.anticipation.variants import VARIANTS, Settings

__all__ = [
    "VARIANTS",
    "AnticipationGame",
    "Draw",
    "GameState",
    "GroupRules",
    "Settings",
    "draw_groups",
    "manual_draw",
    "register_lexicon",
    "resolve_lexicon",
]
