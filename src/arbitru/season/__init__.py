"""The season: the layer above the game.

- :mod:`.registry`: one record per person across games, tournaments and years (journal events: registered,
  corrected, merged, rated);
- :mod:`.csvfile`: the registry and a federation's rating list as CSV;
- :mod:`.tournament`: a named event holding games of either format, its enrolment and withdrawals;
- :mod:`.outcome`: one game's result per registered player, read from a linked game or a recorded one;
- :mod:`.table`: a tournament's general table (FISE-15), per category and per club;
- :mod:`.championship`: ranking points per place over stages (RO-6.6), best N of M;
- :mod:`.ratings`: the FISE ratings (FISE-21 expected performance, FISE-22 mean of percentages).

Registry, tournaments and championships are stored in the journal like games (formats ``registry``,
``tournament``, ``championship``); every table and list is recomputed from their events.
"""
