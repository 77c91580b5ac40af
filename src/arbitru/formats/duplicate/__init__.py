"""Duplicate Scrabble (FISE, Greek, Romanian practice): racks by the rules, the master move, slips, bonuses,
rankings and variants, over the append-only journal. See docs/duplicate.md.

- :mod:`~arbitru.formats.duplicate.rulesets` — the rule sets as data (FISE-3, FISE-4, FISE-5, FISE-11, GR-5);
- :mod:`~arbitru.formats.duplicate.racks` — drawing racks under the rule of the move (FISE-4, FISE-10, GR-5A);
- :mod:`~arbitru.formats.duplicate.master` — the master move and its tie-breaks (FISE-7, GR-5E);
- :mod:`~arbitru.formats.duplicate.announce` — what is said and when (FISE-5, FISE-8, GR-5C);
- :mod:`~arbitru.formats.duplicate.slips` — slips and verdicts (FISE-6, FISE-14, GR-4, GR-6, GR-8.1);
- :mod:`~arbitru.formats.duplicate.results` — bonuses, totals, rankings, standings (FISE-11, FISE-15, GR-7);
- :mod:`~arbitru.formats.duplicate.variants` — sudden death, duplicate with a blank, pairs (FISE-19, FISE-20,
  GR-1);
- :mod:`~arbitru.formats.duplicate.game` — journal events, replay and the referee's actions;
- :mod:`~arbitru.formats.duplicate.gcg`, :mod:`~arbitru.formats.duplicate.export` — files;
- :mod:`~arbitru.formats.duplicate.audit` — whole-game checks for tests and benchmarks.
"""
