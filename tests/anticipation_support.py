"""Shared helpers for the anticipation tests: a small Romanian word list, groups and games built to order.

The word list is composed for these tests (common Romanian words and inflected forms, diacritics folded, G-6);
tests that need the official list load it through the catalog.
"""

from __future__ import annotations

from collections import Counter
from functools import cache

from arbitru.engine.lexicon import Lexicon
from arbitru.engine.tiles import BLANK, alphabet
from arbitru.formats.anticipation.draw import Draw, GroupRules, parse_group, sort_group
from arbitru.formats.anticipation.game import AnticipationGame, register_lexicon
from arbitru.formats.anticipation.variants import Settings
from arbitru.journal.store import Journal

RO = alphabet("ro")

WORDS_RO = """
AI AL AM AN AR AS AU CA CE CI CU DA DE DO DU EA EI EL EU FA FI IA IE II IN IZ LA LE MA MI NA NE NI NU
OF OI OM OS PA PE PI RE SA SE SI TA TE TU UF UI UN ZI CASA CASE CASEI CASELE CASTA CASUTA MASA MESE
MESEI MESELE APA APE APEI APELE CAL CALUL CAI CAII CALE CALEA CAINE CAINI CAINELE PISICA PISICI
PISICILE OMUL OAMENI OAMENII LUNA LUNI LUNII SOARE SOARELE SORI STEA STELE STELELE CER CERUL CERURI
MARE MAREA MARI MARII RAU RAUL RAURI LAC LACUL LACURI MUNTE MUNTELE MUNTI MUNTII DEAL DEALUL DEALURI
VALE VALEA VAI PADURE PADURI PADUREA COPAC COPACI COPACUL FLOARE FLORI FLOAREA IARBA FRUNZA FRUNZE
ARBORE ARBORI PIATRA PIETRE NISIP PAMANT FOC FOCUL FOCURI AER AERUL NOR NORI NORUL PLOAIE PLOI ZAPADA
VANT VANTUL VANTURI GHEATA DRUM DRUMUL DRUMURI USA USI USILE PERETE PERETI SCAUN SCAUNE SCAUNUL PAT
PATUL PATURI LAMPA LAMPI CARTE CARTI CARTEA CARTILE CAIET CAIETE CREION STILOU SCOALA SCOLI ELEV ELEVI
ELEVA ELEVE PROFESOR CLASA CLASE LECTIE LECTII TATA TATI TATAL MAMA MAME MAMEI FRATE FRATI FRATELE SORA
SURORI BUNIC BUNICA BUNICI COPIL COPII COPILUL FATA FETE FETELE BAIAT BAIETI FEMEIE FEMEI BARBAT
BARBATI PRIETEN PRIETENI PRIETENA NUME NUMELE ANI ANUL ANII ZILE ZIUA ZILELE NOAPTE NOPTI NOAPTEA ORA
ORE ORELE MINUT MINUTE SECUNDA TIMP TIMPUL TIMPURI LUME LUMEA TARA TARI TARILE ORAS ORASE ORASUL SAT
SATE SATUL STRADA STRAZI PIATA PIETE MAGAZIN BANI BAN BANUL PAINE PAINI LAPTE LAPTELE UNT BRANZA CARNE
PESTE PESTI PESTELE OU OUA OUL SARE SARURI ZAHAR MIERE VIN VINUL VINURI BERE CAFEA CEAI CEAIUL SUPA
SUPE MAR MERE MARUL PARA PERE PRUNA PRUNE STRUGURE STRUGURI NUCA NUCI CARTOF CARTOFI CEAPA CEPE ROSIE
ROSII VARZA MORCOV MORCOVI CAP CAPUL CAPETE OCHI OCHII OCHIUL NAS NASUL NASURI GURA GURI DINTE DINTI
MANA MAINI MAINILE PICIOR PICIOARE BRAT BRATE DEGET DEGETE INIMA INIMI SANGE OASE OSUL PAR PARUL CORP
CORPURI HAINA HAINE CAMASA ROCHIE ROCHII PALARIE PANTOF PANTOFI CIZMA CIZME INEL INELE CEAS CEASURI
CEASUL TREN TRENURI TRENUL AVION AVIOANE MASINA MASINI BARCA BARCI NAVA NAVE ROATA ROTI PORT PORTURI
GARA GARI POD PODURI PODUL TURN TURNURI ZID ZIDURI CETATE REGE REGI REGELE REGINA PRINT DOMN DOMNI
DOMNUL DOAMNA SOLDAT SOLDATI ARMATA RAZBOI PACE PACEA LUPTA LUPTE SABIE SABII ARC ARCURI LUP LUPI LUPUL
URS URSI URSUL VULPE VULPI IEPURE IEPURI CERB CERBI OAIE CAPRA CAPRE VACA VACI PORC PORCI GAINA GAINI
RATA RATE MAGAR MAGARI CAMILA LEU LEI LEUL TIGRU TIGRI ELEFANT SARPE SERPI BROASCA PASARE PASARI VULTUR
VULTURI CORB CORBI PORUMBEL RANDUNICA ALBINA ALBINE FLUTURE FLUTURI MUSCA MUSTE FURNICA RAC RACI SCOICA
ARE AVEM AVETI AVEA AVUT ESTE SUNT ESTI SUNTEM SUNTETI ERA ERAU FOST FIE FACE FAC FACI FACEM FACETI
FACUT FACEA MERGE MERG MERGI MERGEM MERS MERGEA VINE VII VENIM VENIT VENI VENEA VEDE VAD VEZI VEDEM
VAZUT VEDEA ZICE ZIC ZICI ZIS ZICEA SPUNE SPUN SPUI SPUS DAU DAI DAT STA STAU STAI STAT STATEA LUA IAU
IEI LUAT PUNE PUN PUI PUS TINE TIN TII TINUT SCRIE SCRIU SCRII SCRIS CITI CITESC CITESTE CITIT CANTA
CANT CANTI CANTAT CANTARE JUCA JOC JOACA JUCAT JOCURI ALERGA ALERG ALEARGA ALERGAT SARI SAR SARIT INOTA
INOT INOATA INOTAT ZBURA ZBOR ZBOARA ZBURAT CADEA CAD CADE CAZUT RIDICA RIDIC RIDICAT MANCA MANANC
MANANCA MANCAT BEA BEAU BEI BEAT BAUT DORMI DORM DOARME DORMIT TRAI TRAIESC TRAIT MURI MOR MOARE MURIT
NASTE NASC NASCUT IUBI IUBESC IUBESTE IUBIT URI URASC URAT VORBI VORBESC VORBIT ASCULTA ASCULT ASCULTAT
PRIVI PRIVESC PRIVIT CAUTA CAUT CAUTAT GASI GASESC GASIT PIERDE PIERD PIERDUT CASTIGA CASTIG CASTIGAT
PLECA PLEC PLEACA PLECAT SOSI SOSESC SOSIT INTRA INTRU INTRAT IESI IES IESE IESIT URCA URC URCAT COBORI
COBOR COBORAT DESCHIDE DESCHID DESCHIS INCHIDE INCHID INCHIS TAIA TAI TAIE TAIAT COASE COS CUSUT SPALA
SPAL SPALAT GATI GATESC GATIT CUMPARA CUMPAR CUMPARAT VINDE VAND VANDUT PLATI PLATESC PLATIT LUCRA
LUCREZ LUCRAT INVATA INVAT INVATAT STI STIU STIE STIUT CREDE CRED CREZUT GANDI GANDESC GANDIT SIMTI
SIMT SIMTIT RADE RAD RAS PLANGE PLANG PLANS CERE CERUT AJUTA AJUT AJUTAT ARATA ARAT ARATAT ARDE ARD ARS
TRAGE TRAG TRAS DUCE DUC DUS ADUCE ADUC ADUS ROADE ROD ROS TESE TES TESUT LEGA LEG LEAGA LEGAT NOTA
NOTEZ NOTAT ARA SEMANA SEMAN CULEGE CULEG CULES SAPA SAP SAPAT TREC TRECE TRECUT RUPE RUP RUPT FUGI FUG
FUGE FUGIT PICA PIC PICAT SUNA SUN SUNAT TACE TAC TACUT RAMANE RAMAN RAMAS PUTEA POT POATE PUTUT VREA
VREAU VREI VRUT TREBUI TREBUIE PARE PARUT CRESTE CRESC CRESCUT BUN BUNA BUNE REA RELE MIC MICA MICI NOU
NOUA NOI VECHI VECHE FRUMOS FRUMOASA FRUMOSI URATA ALB ALBA ALBI ALBE NEGRU NEAGRA NEGRI NEGRE ROSU
VERDE VERZI GALBEN GALBENA ALBASTRU GRI LUNG LUNGA LUNGI SCURT SCURTA LAT LATA LATI INALT INALTA JOS
SUS CALD CALDA CALZI RECE USOR USOARA GREU GREA GRELE TARE MOALE DULCE DULCI ACRU ACRA AMAR AMARA SARAT
PLIN PLINA GOL GOALA GOI CURAT CURATA MURDAR DREPT DREAPTA STANG STANGA VIU VIE MORT MOARTA TANAR
TANARA TINERI BATRAN BATRANA BOGAT SARAC DESTEPT PROST PROASTA VESEL VESELA TRIST TRISTA LINISTIT
REPEDE INCET DEPARTE APROAPE ACUM AZI IERI MAINE ATUNCI AICI ACOLO UNDE CAND CUM CAT CINE CARE NIMIC
NIMENI TOT TOTI TOATE TOATA MULT MULTI MULTE MULTA PUTIN PUTINI FOARTE MAI PREA DAR SAU NICI DACA
PENTRU PRIN SUB DUPA INAINTE INAPOI LANGA SPRE DIN FARA PANA INTRE UNU UNA DOI DOUA TREI PATRU CINCI
SASE SAPTE OPT ZECE SUTA MIE XENON TAXI EXAMEN EXEMPLU TEXT SEX BOX FIX LUX RAZA RAZE ZAR ZARURI ZEU
ZEI ZEITA ZIAR ZIARE ZONA ZONE ZEBRA ZAMBET ZGOMOT ZINC ZOR OZON AZOT BRAD BRAZI HAZ VAZ CAZ CAZURI GAZ
GAZE HAR HARTA HARTI HOT HOTI HAI HAM HOTEL HOTELURI HRANA HORA HORE HAOS HAN HANUL HANURI HALA HALE
HAITA HAMAL HUMA JAR JUR JURA JURAT JOI JALE JUDE JUDET JUDECA JUMATATE JAF JUG JUPAN JENA JERTFA JAD
JOIA JURNAL JUCARIE JUCATOR GAND GANDURI GAURA GAURI GHEM GHIOCEL GRAS GRASA GRAU GRADINA GROAPA GUST
GUSTURI GOLF GHID GHIZI GEAM GEAMURI GER GERUL GEN GENURI GHEARA GIN GOANA GRIJA GRUP GRUPA GRUPURI
BAIE BAI BANCA BANCI BALTA BARBA BASM BASME BAT BATA BETE BLOC BLANA BOB BOBI BOU BOI BRATARA BRUMA
BUCATA BUZA BUZE BEC BECURI BAL BALURI BAR BARURI BIS BOT BOTURI FAG FAGI FAR FARURI FIER FIR FIRE FIU
FII FIICA FOAIE FOI FUM FURCA FURT FRIG FRUCT FRUCTE FAINA FAT FEL FELURI FAN FAZA FUGA FUND FUS VAS
VASE VARA VERI VIS VISE VITA VITE VAL VALURI VARF VARFURI VECIN VECINI VEST VESTE VIATA VIETI VIOARA
VIERME VOCE VOCI VIZITA VARSTA VIITOR VOIE VOINIC PAS PASI PAI PARC PARCURI PARTE PARTI POMI POM POMUL
PIPA POARTA PORTI POST PUII PUNTE PUT CAS CAR CARURI COT COATE CUI CUIE CUIB CERC CERCURI CINA CIOC
CLOPOT COADA COZI COASA CORN CORNURI CRUCE CUPTOR CUTIE CUVANT CUVINTE CANA CANI CEATA CIRES CIRESE
COLT COLTURI DARURI DOR DORURI DUH DULAP DANS DANSURI DOS DOP DOPURI DES DESE TEI TEST TOC TOCURI TUN
TUNURI TUR TURURI TOBA TOBE TORT TORTURI TUNS TALPA TOAMNA TREAPTA LAN LANURI LEMN LEMNE LINIE LIMBA
LIMBI LOC LOCURI LOT LOTURI LUT LUCRU LUCRURI LALEA LALELE MAC MACI MAL MALURI MIEL MIEI MOARA MOS MOSI
MUR MURE MUT MUTA MIT MITURI MOD MODURI MOTOR NOD NODURI NAI NOTE NORA RAMA RAME RANA RANI ROI ROIURI
RUDA RUDE RAND RANDURI SAC SACI SOC SOI SOIURI SOL SOLURI SORT SUC SUCURI SUD SEMN SEMNE SOBA SOBE SOMN
STUP STUPI SUFLET SUFLETE SAH SIR SIRURI SOARECE SOARECI TINTA AC ACE ACUL ALUNA ALUNE AMIC AMICI ARIE
ARTA ASI ASTA AUR AURUL ECOU ETAJ ETAJE IAD IARNA IERNI IAZ IAZURI IDEE IDEI ISTORIE IUTE OALA OALE
OBIECT OTET OASTE URA URME URMA UNCHI UNGHIE UMAR UMERI UNDA LEAC LEACURI SEARA SERI SERILE DIMINEATA
AMIAZA MARTI MIERCURI VINERI SAMBATA DUMINICA APRIL IUNIE IULIE AUGUST OCTOMBRIE ROMAN ROMANI ROMANA
ROMANE LATIN LATINA LATINE LATINI CANTEC CANTECE POEZIE POEZII POET POETI POETA TEATRU TEATRE FILM
FILME ARTIST ARTISTI ACTOR ACTORI ACTRITA SCENA SCENE ROL ROLURI NOTELE SPORT SPORTURI MINGE MINGI
ECHIPA ECHIPE ARBITRU ARBITRI MECI MECIURI GOLURI SCOR SCORURI TABLA TABLE LITERA LITERE LITERELE
CUVANTUL JOCUL JOCURILE PUNCT PUNCTE PUNCTAJ TURUL TURE RUNDA RUNDE ROST ROSTUL STARE STARI STAREA
STRAT STRATURI STEAG STEAGURI STINS STRIGAT SCARA SCARI SCOP SCOPURI SCRISOARE SCRISORI STRAIN STRAINI
SENIN SENINA SENINE SENINI SEMINTE SECRET SECRETE SEMINTIE NEAM NEAMURI RASA RASE ARIPA ARIPI ARSE ARSI
ARSA ARATE ARATI ALE ACT
""".split()  # noqa: SIM905 - a word list reads better as text


@cache
def lexicon() -> Lexicon:
    lex = Lexicon.from_words(WORDS_RO, RO, name="test-ro")
    register_lexicon(lex)
    return lex


def groups_with(fixed: dict[int, str]) -> list[list[int]]:
    """15 groups meeting RO-5.2.d–e: the given ones as written, the rest filled from the tiles left.

    The rest are filled deterministically: one vowel and one consonant each first, then the other tiles in
    alphabetical order.
    """
    left = Counter(t for t, n in enumerate(RO.counts) for _ in range(n))
    groups: dict[int, list[int]] = {}
    for number, text in fixed.items():
        g = parse_group(RO, text)
        groups[number] = g
        left.subtract(g)
    assert all(n >= 0 for n in left.values()), f"fixed groups use tiles the set does not have: {-left}"
    pool = sorted(left.elements(), key=lambda t: (t == BLANK, t))
    vowels = [t for t in pool if t != BLANK and RO.is_vowel(t)]
    consonants = [t for t in pool if t != BLANK and not RO.is_vowel(t)]
    blanks = [t for t in pool if t == BLANK]
    empty = [n for n in range(2, 16) if n not in groups]
    for n in empty:
        groups[n] = [vowels.pop(0), consonants.pop()]
    rest = vowels + consonants + blanks
    for n in empty:
        while len(groups[n]) < 7:
            groups[n].append(rest.pop(0))
    if 1 not in groups:
        raise ValueError("give group 1")
    return [sort_group(groups[n]) for n in range(1, 16)]


def new_game(
    tmp_path,
    fixed: dict[int, str],
    lots: list[int] | None = None,
    *,
    variant: str = "classic",
    seating: list[tuple[str, int, str]] | None = None,
    db: str = "games.db",
) -> AnticipationGame:
    """A game with hand-made groups and lots (turn k plays lots[k-1]), in a journal under ``tmp_path``."""
    lex = lexicon()
    journal = Journal(tmp_path / db)
    settings = Settings(variant=variant, lexicon=lex.name)
    groups = groups_with(fixed)
    draw = Draw(groups, "manual")
    game = AnticipationGame.create(
        journal, settings, None if variant == "blind" else draw, lexicon=lex, seating=seating or ()
    )
    for turn, group in enumerate(lots or [], 1):
        game.draw_lot(turn, group)
    return game


def rules(variant: str = "classic", blank_counts: str = "neither") -> GroupRules:
    return GroupRules(RO, lexicon(), variant=variant, blank_counts=blank_counts)


COLUMNS = "player,table,turn,position,word,score,turn_total,note"


def csv_text(rows: list[tuple[object, ...]], header: str = COLUMNS) -> str:
    """Slip rows as CSV (fields quoted when they hold a comma or a quote)."""
    import csv
    import io

    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(header.split(","))
    for r in rows:
        w.writerow(["" if x is None else x for x in r])
    return out.getvalue()


def play(tmp_path, fixed: dict[int, str], lots: list[int], rows: list[tuple[object, ...]], **kw):
    """A game with these groups and lots, the slips stored, the state replayed."""
    game = new_game(tmp_path, fixed, lots, **kw)
    if rows:
        game.import_slips_csv(csv_text(rows))
    return game, game.replay()


def verdict(state, player: str, turn: int, index: int = 1):
    return next(v for v in state.results[player].slips[turn].placements if v.index == index)


# --- a scripted game for the crash test ---------------------------------------------------------------------

SCRIPT_GROUPS = {1: "AL", 2: "BDEIOTU", 3: "ACEINRT", 4: "AEINSTV", 5: "ADEIORT", 6: "ACEILNO"}
SCRIPT_WORDS = [
    ("H7", "AL"),
    ("H6", "CAL"),
    ("9G", "VEST"),
    ("6F", "ARC"),
    ("F5", "LAC"),
    ("G9", "VEST"),
    ("Z99", "CASA"),
    ("", "PAS"),
    ("10G", "VEST"),
]


def scripted_slips(players: int = 40) -> list:
    """Slips of a scripted game, in the order they are entered: turn by turn, player by player."""
    from arbitru.formats.anticipation.slips import Slip, SlipRow

    out = []
    for turn in range(1, 15):
        for p in range(players):
            position, word = SCRIPT_WORDS[(p + turn) % len(SCRIPT_WORDS)]
            note = "Anulez turul 2" if (p + turn) % 11 == 0 and turn > 2 else ""
            rows = [SlipRow(1, str(p + 1), str(turn), position, word, str((p * turn) % 30), "", note)]
            out.append(Slip(f"P{p:02d}", turn, rows, "script", str(turn)))
    return out


def run_scripted_game(db: str, game_id: str = "crash") -> None:
    """Create the scripted game and enter its slips one per transaction, printing each committed seq."""
    import sys

    lex = lexicon()
    journal = Journal(db)
    game = AnticipationGame.create(
        journal,
        Settings(lexicon=lex.name),
        Draw(groups_with(SCRIPT_GROUPS), "manual"),
        lexicon=lex,
        game_id=game_id,
    )
    for turn in range(1, 15):
        seq = journal.append(game.id, "lot", {"turn": turn, "group": turn + 1, "drawn_by": f"table {turn}"})
        print(seq, flush=True)
    for i, slip in enumerate(scripted_slips()):
        (seq,) = game.enter_slips([slip])
        print(seq, flush=True)
        if i % 97 == 96:
            seq = game.record_correction(game.replay(), slip.turn)
            print(seq, flush=True)
    sys.stdout.write("done\n")
