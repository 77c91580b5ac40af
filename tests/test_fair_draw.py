"""Draws nobody can foresee, committed before and revealed after (issue 28; RO-5.3, RO-4.4, FISE-10, FISE-16, GR-5A).

Real journals, the real CLI: two games created the same second draw differently; a game's secret stays in the
store until its results are final, then its commitment matches it; ``journal verify-draw`` accepts a true journal
and names the first draw that differs in one changed by hand; a typed seed is said openly; old journals with
short seeds replay, draw on and export as before.
"""

from __future__ import annotations

import hashlib
import json
import random
import re

from click.testing import CliRunner

from anticipation_support import RO, groups_with, lexicon
from arbitru.cli import cli
from arbitru.cli.journal import export_lines, replay_game
from arbitru.engine.tiles import Bag, alphabet
from arbitru.formats import drawcheck, fairness
from arbitru.formats.anticipation.draw import Draw as Groups
from arbitru.formats.anticipation.draw import GroupRules
from arbitru.formats.anticipation.game import AnticipationGame, secret_draw
from arbitru.formats.anticipation.variants import Settings as AntSettings
from arbitru.formats.duplicate import racks
from arbitru.formats.duplicate.game import GameError, Player, Session, Settings
from arbitru.formats.duplicate.rulesets import ruleset
from arbitru.journal import sealed
from arbitru.journal.store import Journal
from arbitru.lexicons.synthetic import load_lexicon

LEXICON = "synthetic:2000"


def duplicate_game(j: Journal, rules: str = "fise", lang: str = "en", seed: str = "", moves: int = 6) -> Session:
    lex = load_lexicon(LEXICON, lang)
    s = Session.create(j, Settings(ruleset(rules, moves=moves), lang, LEXICON, seed=seed), lex,
                       [Player("1", "Ana")])
    return s


def play_through(s: Session) -> None:
    """Rack, master, rack... to the end (the program places the top move; unplayable racks get new ones)."""
    s.play_auto()


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.output


def test_ro_5_3_fise_10_two_games_created_the_same_second_draw_differently(tmp_path):
    with Journal(tmp_path / "g.db") as j:
        for _ in range(5):  # two games in the same second of the server's clock
            a, b = duplicate_game(j), duplicate_game(j)
            if j.game(a.id).created[:19] == j.game(b.id).created[:19]:
                break
        assert j.game(a.id).created[:19] == j.game(b.id).created[:19]
        a.draw()
        b.draw()
        assert a.game.rack != b.game.rack
        secret_a, secret_b = sealed.secret_of(j, a.id), sealed.secret_of(j, b.id)
        assert secret_a and secret_b and secret_a != secret_b
        assert re.fullmatch(r"[0-9a-f]{64}", secret_a)  # 256 bits from the OS (secrets)
        assert a.settings.commitment == hashlib.sha256(f"{a.id}:{secret_a}".encode()).hexdigest()
        assert a.settings.seed == "" and secret_a not in json.dumps(j.game(a.id).settings)

        # anticipation: the groups and every lot of two games differ (RO-5.3: "prin tragere la sorți")
        rules = GroupRules(RO, lexicon())
        games = []
        for _ in range(2):
            seal, groups = secret_draw(rules)
            g = AnticipationGame.create(j, AntSettings(lexicon=lexicon().name), groups, lexicon=lexicon(), seal=seal)
            g.draw_all_lots()
            games.append(g)
        assert games[0].draw().groups != games[1].draw().groups  # type: ignore[union-attr]
        lots = [[lot.group for _, lot in sorted(g.order().lots.items())] for g in games]
        assert lots[0] != lots[1] and sorted(lots[0]) == list(range(2, 16))
        # every lot drawn by the program says so, under its label (RO-4.4: groups sent ahead, lots unforeseeable)
        assert all(e.payload["label"].startswith("lot:") for e in j.events(games[0].id, "lot"))


def test_ro_4_4_a_game_without_a_seed_keeps_no_seed_anyone_could_search_for(tmp_path):
    """The issue's attack: with the groups public (RO-4.4), the seed was found among 2^24 and every lot followed.
    A game left without a seed has none: its draws come from a 256-bit secret kept in the store, and a hall game's
    lots no longer follow from its public id."""
    with Journal(tmp_path / "g.db") as j:
        groups = Groups(groups_with({1: "AL"}), "manual")
        g = AnticipationGame.create(j, AntSettings(lexicon=lexicon().name), groups, lexicon=lexicon())
        assert g.settings.seed is None and len(g.settings.commitment) == 64
        lot = g.draw_lot()
        left = list(range(2, 16))
        secret = sealed.secret_of(j, g.id)
        assert secret is not None
        assert lot.group == fairness.Seal(g.id, secret).rng(fairness.lot_label(1, left)).choice(left)
        assert lot.label == fairness.lot_label(1, left)
        # the id no longer decides it: over many games, the lot from the id and the lot drawn agree by chance only
        same = 0
        for _ in range(30):
            h = AnticipationGame.create(j, AntSettings(lexicon=lexicon().name), groups, lexicon=lexicon())
            got = h.draw_lot().group
            same += got == random.Random(f"{h.id}:lot:1:{','.join(map(str, left))}").choice(left)
        assert same < 10  # about 1 in 14 by chance


def forged(export: list[str], seq: int, change) -> str:  # type: ignore[no-untyped-def]
    out = []
    for line in export:
        record = json.loads(line)
        if record.get("seq") == seq:
            change(record["payload"])
        out.append(json.dumps(record, ensure_ascii=False))
    return "\n".join(out) + "\n"


def test_fise_10_fise_16_verify_draw_accepts_a_true_journal_and_names_the_first_draw_changed_by_hand(tmp_path):
    db = str(tmp_path / "g.db")
    with Journal(db) as j:
        s = duplicate_game(j, moves=8)
        s.draw()
        s.lexicon = load_lexicon(LEXICON, "en")
        s.place_master()
        s.draw()
        step = s.new_rack()  # FISE-16: the referee gives a new rack, drawn from the secret too
        assert step.draws[0].source == "new-rack" and step.draws[0].label == f"new:2:{step.draws[0].attempt}"
        # the verdict is sealed while the game runs: verify-draw says so, and nothing is revealed
        code, out = run("journal", "verify-draw", db, s.id)
        assert code != 0 and "not revealed yet" in out
        play_through(s)
        gid = s.id
        draws = j.events(gid, "draw")
        export = export_lines(j, gid)
    secret = json.loads(export[0])["secret"]
    assert fairness.commitment(gid, secret) == json.loads(export[0])["settings"]["commitment"]

    # the true journal, from the journal file and from its export: every draw matches
    for source in (db, str(tmp_path / "true.jsonl")):
        (tmp_path / "true.jsonl").write_text("\n".join(export) + "\n", "utf-8")
        code, out = run("journal", "verify-draw", source, gid)
        assert code == 0, out
        assert "commitment" in out and "matches the secret" in out
        assert "every draw the program made matches" in out and "DIFFERS" not in out
        assert f"new rack (FISE-16), attempt {step.draws[0].attempt}" in out

    # a rack changed by hand (move 2's first draw: two tiles swapped for others of the bag) is named, first
    second = next(e for e in draws if e.payload["move"] == 2)
    alpha = s.game.alphabet

    def swap(p: dict) -> None:  # type: ignore[type-arg]
        tiles = list(p["drawn"])
        other = next(t for t in ("Q", "Z", "X", "J", "K") if t not in tiles)
        tiles[0] = other
        p["drawn"] = tiles

    (tmp_path / "forged.jsonl").write_text(forged(export, second.seq, swap), "utf-8")
    code, out = run("journal", "verify-draw", str(tmp_path / "forged.jsonl"), gid)
    assert code == 1, out
    assert f"FIRST DIFFERENCE: event {second.seq}, move 2, attempt 1" in out
    assert "DIFFERS: the secret gives" in out
    code, out = run("journal", "verify-draw", str(tmp_path / "forged.jsonl"), gid, "--json")
    report = json.loads(out)
    assert report["ok"] is False and report["first_difference"]["seq"] == second.seq
    assert all(d["ok"] for d in report["draws"] if d["seq"] < second.seq)
    assert alpha.name  # the tile set the labels are read with

    # a draw taken out (an unfavourable rack hidden, FISE-10's "no limit" abused): the next one no longer fits
    third = [e for e in draws if e.payload["move"] == 3]
    if len(third) >= 1:
        lines = [line for line in export if json.loads(line).get("seq") != third[0].seq]
        renumbered = []
        for line in lines:
            r = json.loads(line)
            if isinstance(r.get("seq"), int) and r["seq"] > third[0].seq:
                r["seq"] -= 1
            renumbered.append(json.dumps(r))
        (tmp_path / "hidden.jsonl").write_text("\n".join(renumbered) + "\n", "utf-8")
        code, out = run("journal", "verify-draw", str(tmp_path / "hidden.jsonl"), gid)
        assert code == 1 and ("FIRST DIFFERENCE" in out or "does not replay" in out), out

    # another secret than the one committed to
    head = json.loads(export[0])
    head["secret"] = "0" * 64
    (tmp_path / "other.jsonl").write_text("\n".join([json.dumps(head), *export[1:]]) + "\n", "utf-8")
    code, out = run("journal", "verify-draw", str(tmp_path / "other.jsonl"), gid)
    assert code == 1 and "does NOT match the secret" in out


def test_gr_5a_a_greek_game_redraws_whole_racks_from_its_secret_and_they_check(tmp_path):
    db = str(tmp_path / "g.db")
    with Journal(db) as j:
        s = duplicate_game(j, rules="greek", lang="el", moves=10)
        play_through(s)
        gid = s.id
        draws = [racks.Draw.from_payload(s.game.alphabet, e.payload) for e in j.events(gid, "draw")]
    assert all(d.label == fairness.rack_label(d.move, d.attempt, new=d.source == "new-rack") for d in draws)
    code, out = run("journal", "verify-draw", db, gid)
    assert code == 0, out
    # GR-5A: an illegal rack goes back whole; every attempt is listed and matches
    assert out.count("matches") >= len(draws)


def test_fise_16_a_hall_game_says_its_racks_came_from_the_hall_and_the_program_never_draws_one(tmp_path):
    db = str(tmp_path / "g.db")
    with Journal(db) as j:
        lex = load_lexicon(LEXICON, "en")
        s = Session.create(j, Settings(ruleset("fise", moves=3), "en", LEXICON, seed="", racks="hand"), lex)
        assert s.settings.commitment == "" and sealed.secret_of(j, s.id) is None
        tiles = racks.parse_tiles(s.game.alphabet, "AEINRST")
        s.draw(tiles)
        try:
            s.new_rack()  # issue 30 item 7: no tiles typed → refused, nothing drawn
        except GameError as e:
            assert "enter the tiles drawn in the hall" in str(e)
        else:
            raise AssertionError("a hand game's new rack was drawn by the program")
        assert len(j.events(s.id, "draw")) == 1
        s.end_game("done")
    code, out = run("journal", "verify-draw", db, s.id)
    assert code == 0, out
    assert "drawn by hand in the hall: the program drew none of them" in out
    assert "from the hall (typed, not drawn by the program)" in out


def test_ro_5_3_anticipation_verify_draw_checks_the_groups_and_every_lot(tmp_path):
    db = str(tmp_path / "g.db")
    with Journal(db) as j:
        rules = GroupRules(RO, lexicon())
        seal, groups = secret_draw(rules)
        g = AnticipationGame.create(j, AntSettings(lexicon=lexicon().name), groups, lexicon=lexicon(), seal=seal)
        for _ in range(3):
            g.draw_lot()
        g.draw_lot(group=g.order().remaining()[0], drawn_by="arbiter")  # a lot drawn in the hall
        g.draw_all_lots()
        assert drawcheck.account(j, g.id).secret == ""  # lots all drawn, results not final: still sealed
        g.publish("final", confirmed=True)
        shown = drawcheck.account(j, g.id)
        assert shown.secret == seal.secret and fairness.commitment(g.id, shown.secret) == shown.commitment
        export = export_lines(j, g.id)
    code, out = run("journal", "verify-draw", db, g.id)
    assert code == 0, out
    # the groups and the 13 lots the program drew match; turn 4's, drawn in the hall, is listed as such
    assert "every draw the program made matches: 14 of 14 (1 not drawn by the program" in out
    assert re.search(r"lot of turn 4 .* from the hall", out), out

    lot5 = next(json.loads(x) for x in export if json.loads(x).get("kind") == "lot"
                and json.loads(x)["payload"]["turn"] == 5)
    (tmp_path / "forged.jsonl").write_text(
        forged(export, lot5["seq"], lambda p: p.update(group=p["group"])), "utf-8")
    code, _ = run("journal", "verify-draw", str(tmp_path / "forged.jsonl"), g.id)
    assert code == 0  # the same journal written again checks

    # swap the groups of turns 5 and 6: turn 5 is named first
    lot6 = next(json.loads(x) for x in export if json.loads(x).get("kind") == "lot"
                and json.loads(x)["payload"]["turn"] == 6)
    text = forged(export, lot5["seq"], lambda p: p.update(group=lot6["payload"]["group"]))
    text = forged(text.splitlines(), lot6["seq"], lambda p: p.update(group=lot5["payload"]["group"]))
    (tmp_path / "swapped.jsonl").write_text(text, "utf-8")
    code, out = run("journal", "verify-draw", str(tmp_path / "swapped.jsonl"), g.id)
    assert code == 1, out
    assert f"FIRST DIFFERENCE: event {lot5['seq']}, lot of turn 5" in out


def test_ro_5_3_a_typed_seed_is_said_openly_and_checks_from_the_seed(tmp_path):
    db = str(tmp_path / "g.db")
    code, out = run("duplicate", "new", "-j", db, "--lexicon", LEXICON, "--lang", "en", "--seed", "2026")
    assert code == 0, out
    assert "draw from a known seed: anyone who knows it knows the racks (seed 2026)" in out
    gid = out.split()[1]
    with Journal(db) as j:
        assert sealed.secret_of(j, gid) is None
        s = Session(j, gid, load_lexicon(LEXICON, "en"))
        s.draw()
        shown = drawcheck.account(j, gid)
    assert shown.known and shown.to_dict()["note"] == fairness.KNOWN_SEED
    code, out = run("journal", "verify-draw", db, gid)
    assert code == 0 and "known seed (2026)" in out and "matches" in out, out


def old_journal() -> tuple[str, str, list[str]]:
    """A journal as the program wrote before secrets: a duplicate game with the short random seed
    ``secrets.token_hex(4)`` gave, its draws recorded without labels, each attempt drawn with
    ``random.Random(f"{seed}:{move}:{attempt}")`` (written out here, not by the library)."""
    seed = "1a2b3c4d"
    settings = Settings(ruleset("fise", moves=4), "en", LEXICON, seed=seed)
    data = settings.to_dict()
    del data["commitment"]  # not in the settings of old journals
    gid = "0ld0ld0ld0ld"
    alpha = alphabet("en")
    bag = Bag(alpha)
    pool = list(bag.tiles)
    events = [("player", {"number": "1", "name": "Ana", "table": "", "members": []})]
    attempt = 1
    while True:
        bag.random = random.Random(f"{seed}:1:{attempt}")
        drawn = bag.draw(7)
        bag.put_back(drawn)
        legal, cond, reason = racks.judge(settings.rules.racks, alpha, 1, drawn, pool)
        events.append(("draw", {"move": 1, "attempt": attempt, "kept": [], "drawn": racks.labels(alpha, drawn),
                                "fixed": [], "returned": [], "legal": legal, "condition": cond, "reason": str(reason),
                                "source": "seed"}))
        if legal:
            break
        attempt += 1
    lines = [json.dumps({"kind": "arbitru-journal-game", "version": 1, "id": gid, "format": "duplicate",
                         "created": "2026-01-01T00:00:00+00:00", "settings": data}, ensure_ascii=False, sort_keys=True)]
    for seq, (kind, payload) in enumerate(events, 1):
        lines.append(json.dumps({"seq": seq, "kind": kind, "payload": payload, "recorded": "2026-01-01T00:00:01+00:00",
                                 "actor": "cli:old"}, ensure_ascii=False, sort_keys=True))
    return gid, seed, lines


def test_fise_10_old_journals_with_short_seeds_replay_draw_on_and_export_exactly_as_before(tmp_path):
    gid, seed, lines = old_journal()
    (tmp_path / "old.jsonl").write_text("\n".join(lines) + "\n", "utf-8")
    db = str(tmp_path / "g.db")
    code, out = run("journal", "import", db, str(tmp_path / "old.jsonl"))
    assert code == 0, out
    with Journal(db) as j:
        assert export_lines(j, gid) == lines  # exported exactly as it came (no secret, nothing added)
        before = replay_game(j, gid)
        s = Session(j, gid, load_lexicon(LEXICON, "en"))
        assert s.settings.known_seed and not s.settings.commitment
        s.place_master()
        bag_before, leave = list(s.game.bag.tiles), list(s.game.rack)
        step = s.draw()  # the next rack, from the old seed exactly as the old program drew it
        first = step.draws[0]
        bag = Bag(s.game.alphabet, tiles=bag_before)
        bag.random = random.Random(f"{seed}:2:{first.attempt}")
        assert first.attempt == 1 and tuple(bag.draw(7 - len(leave))) == first.drawn
        shown = drawcheck.account(j, gid)
    assert shown.kind == "known-seed" and shown.seed == seed and before.events == len(lines) - 1
    code, out = run("journal", "verify-draw", db, gid)
    assert code == 0 and "every draw the program made matches" in out, out


def test_fise_16_a_game_copied_to_another_store_keeps_drawing_from_its_secret(journal_spec, tmp_path):
    """On SQLite and PostgreSQL: the secret is kept in the store, `journal copy` carries it (a game moved mid-way
    still draws from the secret it committed to), and the copy's draws check against it."""
    from arbitru.cli.journal import copy_games

    with Journal(journal_spec) as source:
        s = duplicate_game(source, moves=5)
        s.draw()
        gid = s.id
        secret = sealed.secret_of(source, gid)
        assert secret is not None and drawcheck.account(source, gid).secret == ""
        target_db = str(tmp_path / "copy.db")
        with Journal(target_db) as target:
            copy_games(source, target, [gid])
            assert sealed.secret_of(target, gid) == secret
            copied = Session(target, gid, load_lexicon(LEXICON, "en"))
            play_through(copied)
            assert drawcheck.account(target, gid).secret == secret  # over: shown
    code, out = run("journal", "verify-draw", target_db, gid)
    assert code == 0 and "every draw the program made matches" in out, out


def test_fise_10_ro_5_3_the_variants_draw_from_the_secret_too_and_check(tmp_path):
    """FISE-20 (a blank on every rack) and RO-8.1 (avocalic): their draws come from the secret and check."""
    db = str(tmp_path / "g.db")
    with Journal(db) as j:
        lex = load_lexicon(LEXICON, "es")
        s = Session.create(j, Settings(ruleset("fise", moves=5), "es", LEXICON, seed="", variant="joker"), lex)
        play_through(s)
        joker = s.id
        assert s.settings.commitment and all(e.payload.get("label") for e in j.events(joker, "draw"))
        rules = GroupRules(RO, lexicon(), variant="avocalic")
        seal, groups = secret_draw(rules)
        g = AnticipationGame.create(j, AntSettings(variant="avocalic", lexicon=lexicon().name), groups,
                                    lexicon=lexicon(), seal=seal)
        g.draw_all_lots()
        g.publish("final", confirmed=True)
        avocalic = g.id
    for gid in (joker, avocalic):
        code, out = run("journal", "verify-draw", db, gid)
        assert code == 0 and "every draw the program made matches" in out, out
