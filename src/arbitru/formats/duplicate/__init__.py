"""Duplicate Scrabble (FISE, Greek, Romanian practice): racks by the rules, the master move, slips, bonuses,
rankings and variants, over the append-only journal. See docs/duplicate.md.

- :mod:`~arbitru.formats.duplicate.rulesets` — the rule sets as data (FISE-3, FISE-4, FISE-5, FISE-11, GR-5);
- :mod:`~arbitru.formats.duplicate.racks` — drawing racks under the rule of the move (FISE-4, FISE-10, GR-5A);
- :mod:`~arbitru.formats.duplicate.master` — the master move and its tie-breaks (FISE-7, GR-5E);
- :mod:`~arbitru.formats.duplicate.announce` — what is said and when (FISE-5, FISE-8, GR-5C);
- :mod:`~arbitru.formats.duplicate.slips` — slips and verdicts (FISE-6, FISE-14, GR-4, GR-6, GR-8.1);
- :mod:`~arbitru.formats.duplicate.variants` — duplicate with a blank (FISE-20); where sudden death and pairs
  live (FISE-19, GR-1);
- :mod:`~arbitru.formats.duplicate.game` — journal events, replay and the referee's actions; players and pairs;
- :mod:`~arbitru.formats.duplicate.results` — bonuses, totals, rankings, sudden death, standings (FISE-11,
  FISE-15, FISE-19, GR-7);
- :mod:`~arbitru.formats.duplicate.gcg`, :mod:`~arbitru.formats.duplicate.prepared`,
  :mod:`~arbitru.formats.duplicate.export` — files;
- :mod:`~arbitru.formats.duplicate.audit` — whole-game checks for tests and benchmarks.

Each module imports only modules listed above it (``gcg`` after ``game``; ``prepared`` after ``gcg``).
"""
