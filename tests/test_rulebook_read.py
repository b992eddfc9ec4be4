"""The climbing rulebooks read as a player reads them: each sentence true for its file, and
nothing a file says left out (Dou Dizhu's three files, the house rules, the official files)."""
from __future__ import annotations

from pathlib import Path

from chimera_dsl.tell.rulebook import write_rulebook
from chimera_dsl.variant import load_variant as load

ROOT = Path(__file__).resolve().parents[1]
OTHERS = ROOT / "variants" / "others"


def _row(text: str, name: str) -> str:
    """The combination table's row of ``name``."""
    return next(line for line in text.splitlines() if line.startswith(f"| {name} |"))


def test_pattern_caps_and_not_extending_are_told():
    """rlcard's airplane caps the singles' ranks and refuses a trio next to the chain; OpenSpiel's
    allows that trio, DouZero's allows both: three tables that must not read the same."""
    rl = _row(write_rulebook(load(OTHERS / "doudizhu.yaml")), "Airplane with singles")
    assert "at most 3 attached cards of any one rank" in rl
    assert "the attached cards never hold a trio of a rank just below or above the chain" in rl
    op = _row(write_rulebook(load(OTHERS / "doudizhu-openspiel.yaml")), "Airplane with singles")
    assert "at most 3 attached cards of any one rank" in op and "just below" not in op
    dz = _row(write_rulebook(load(OTHERS / "doudizhu-douzero.yaml")), "Airplane with singles")
    assert "at most" not in dz and "just below" not in dz
    de = _row(write_rulebook(load(OTHERS / "doudizhu.yaml"), "de"), "Flugzeug mit Einzelkarten")
    assert "höchstens 3 angehängte Karten eines Werts" in de
    fr = _row(write_rulebook(load(OTHERS / "doudizhu.yaml"), "fr"), "Avion avec cartes seules")
    assert "ne contiennent jamais un brelan d'une valeur juste au-dessous ou au-dessus de la suite" in fr


def test_several_attached_groups_are_counted_in_words():
    """'2 × one card' and '2 × 2 cards of one rank' read as words."""
    text = write_rulebook(load(OTHERS / "doudizhu.yaml"))
    assert "with 2 single cards from any rank" in _row(text, "Four with two singles")
    assert "with 2 groups of 2 cards of one rank from plain" in _row(text, "Four with two pairs")
    assert " × one card" not in text
    de = write_rulebook(load(OTHERS / "doudizhu.yaml"), "de")
    assert "+ 2 Gruppen von je 2 gleichen Karten aus Normalkarten" in _row(de, "Vierling mit zwei Paaren")


def _section(text: str, title: str) -> str:
    return text.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]


def test_recorded_counts_are_not_told_as_points_and_names_are_explained():
    """Dou Dizhu's `bonuses` (bombs, rockets, springs) are counts the record keeps, not points;
    the terms read `won`, `bid`, `count(bomb)`...: the rulebook says what they are, in words."""
    scoring = _section(write_rulebook(load(OTHERS / "doudizhu.yaml")), "Scoring")
    assert "Points are computed" not in scoring
    facts, rest = scoring.split("In each round, a player scores the sum of the terms below that name it:")
    assert "- *stake* is the bid × 2 to the power (" in facts
    terms, rest = rest.split("These are counted and recorded with each round; they score no points themselves:")
    assert "- Each of the peasants (*stake*): *stake* if won, otherwise −*stake*" in terms
    assert "bombs" not in terms and "- *bombs* is how many plays of Bomb were made this round, by anyone." in rest
    assert "how many plays the landlord made this round is 1" in facts
    assert ("- Won: in a player's term, true when that player's side went out first: "
            "the landlord alone, or the peasants together") in rest
    de = _section(write_rulebook(load(OTHERS / "doudizhu.yaml"), "de"), "Wertung")
    assert "- Die Spielpartei gewinnt: wahr, wenn der Grundbesitzer zuerst alle Karten ausgespielt hat" in de
    fr = _section(write_rulebook(load(OTHERS / "doudizhu.yaml"), "fr"), "Comptage")
    assert "- Chacun des paysans (*mise*) : *mise* si gagné, sinon −*mise*" in fr


def test_a_step_is_told_as_a_table_of_ranges():
    """Gang of Four's penalty reads step(): the rulebook gives its brackets as a table by cards left."""
    scoring = _section(write_rulebook(load(OTHERS / "gang-of-four.yaml")), "Scoring")
    assert "- Each player (*penalty*): the cards left in hand × the value of table 1 for the cards left in hand" in scoring
    assert ("| Up to 7 | 1 |\n| 8 to 10 | 2 |\n| 11 to 13 | 3 |\n| 14 to 15 | 4 |\n| More than 15 | 5 |"
            in scoring)
    assert "- The cards left in hand: in a player's term, the cards that player still holds when the round ends" in scoring
    fr = _section(write_rulebook(load(OTHERS / "gang-of-four.yaml"), "fr"), "Comptage")
    assert "| Jusqu'à 7 | 1 |\n| De 8 à 10 | 2 |" in fr
    assert "`" not in scoring + fr


def test_a_face_up_card_without_a_cut_range_still_has_its_cut_told():
    """'The top card of the lower part' needs a cut before it: a file with a face-up card and no
    cut range is cut anywhere, and the rulebook says so."""
    for lang, line in [("en", "The dealer cuts the deck anywhere, leaving cards in both parts."),
                       ("fr", "Le donneur coupe le paquet n'importe où, en laissant des cartes dans les deux piles."),
                       ("de", "Der Geber hebt beliebig ab; beide Hälften behalten Karten.")]:
        lines = write_rulebook(load(OTHERS / "doudizhu.yaml"), lang).splitlines()
        assert lines.index(line) + 1 == next(i for i, x in enumerate(lines) if "face" in x or "aufgedeckt" in x)
    chimera = write_rulebook(load(ROOT / "variants" / "chimera.yaml"))
    assert "cuts the deck anywhere" not in chimera and "cuts so that the upper part holds 22 to 32 cards" in chimera


def test_a_nest_without_an_exchange_is_titled_nest():
    """Dou Dizhu's landlord takes the nest and nobody exchanges: no 'exchange' in the title."""
    for lang, title in [("en", "## Nest"), ("fr", "## Terrier"), ("de", "## Versteck")]:
        lines = write_rulebook(load(OTHERS / "doudizhu.yaml"), lang).splitlines()
        assert title in lines and not any(x.startswith(title + " ") for x in lines)
    assert "## Nest and exchange" in write_rulebook(load(ROOT / "variants" / "chimera.yaml")).splitlines()


def test_which_rank_a_play_of_several_ranks_compares_by_is_told():
    """8-8-8-3 beats 7-7-7-K (the trio decides, not the attached card): 'a higher rank' alone
    does not say which of a play's ranks counts."""
    rules = load(OTHERS / "doudizhu.yaml")
    assert rules.beats("7 7 7 K", "8 8 8 3") and not rules.beats("8 8 8 3", "7 7 7 K")
    beats = _section(write_rulebook(rules), "What beats what")
    assert ("A play with attached cards ranks by its first part alone: Trio with a single, Trio with a pair, "
            "Airplane with singles, Airplane with pairs, Four with two singles, Four with two pairs.") in beats
    assert "A chain ranks by its highest rank: Chain, Pair chain, Airplane." in beats
    assert "Rocket." not in beats.split("Tier")[0]
    de = _section(write_rulebook(rules, "de"), "Was schlägt was")
    assert "Eine Folge zählt nach ihrem höchsten Wert: Straße, Paarstraße, Flugzeug." in de


HOUSE = ROOT / "variants" / "house_rules"


def _house(path: Path, lang: str = "en") -> str:
    from chimera_dsl.tell.rulebook import base_of
    text = write_rulebook(load(path), lang, base=load(base_of(path)), base_label="base.yaml")
    return text.split("\n## ", )[-1]


def test_the_house_rules_section_says_the_change_in_the_rulebooks_words():
    """The section listed only keys (`bidding.all_pass.forced_bidder`: `face_up_holder` →
    `dealer`): it now says first, section by section, the sentences that change."""
    house = _house(HOUSE / "dealer-forced.yaml")
    words, keys = house.split("In the file's keys:")
    assert ("- Bidding: If everyone passes, the same dealer deals again (once); if everyone passes on the next "
            "deal too, the dealer must bid 20. The others may overbid or pass as usual. (instead of: If everyone "
            "passes, the same dealer deals again (once); if everyone passes on the next deal too, the player "
            "holding the face-up card must bid 20. The others may overbid or pass as usual.)") in words
    assert "- `bidding.all_pass.forced_bidder`: `face_up_holder` → `dealer`" in keys
    fr = _house(HOUSE / "target-300.yaml", "fr")
    assert ("- Fin de la partie : Après une manche, si un joueur a atteint 300 points, la partie s'arrête. "
            "(au lieu de : Après une manche, si un joueur a atteint 400 points, la partie s'arrête.)") in fr
    de = _house(HOUSE / "double-treasures.yaml", "de")
    assert "- Karten: Schätze: jede 2 zählt 20, jede 11 zählt 10 (insgesamt 120 Punkte)." in de
    openspiel = _house(OTHERS / "doudizhu-openspiel.yaml")
    assert "- Combinations: no longer: Four with two pairs: 4 cards of one rank" in openspiel


def test_a_play_out_of_turn_says_when_by_whom_and_that_it_must_beat():
    """Tichu-style bombs: 'These may be played out of turn: Bomb.' did not say when, by whom,
    nor that the bomb must beat the play on the table (the engine offers it only then)."""
    text = write_rulebook(load(HOUSE / "tichu-bombs.yaml"))
    assert ("These may be played out of turn: Bomb. Right after any play, each player other than the one who "
            "made it and the one whose turn is next, in turn, may play one of them if it beats that play; "
            "play then goes on from that player.") in text
    de = write_rulebook(load(HOUSE / "tichu-bombs.yaml"), "de")
    assert "der Reihe nach eine davon spielen, wenn sie sticht; danach geht es nach ihm weiter." in de


def test_french_lists_set_their_semicolons_apart():
    """French sets ';' apart with a space, as the trick-taking rulebook already does: the deck,
    the exchange by bid, the bonuses and the clauses of a combination read '× 4 ; Pi Ya'."""
    text = write_rulebook(load(ROOT / "variants" / "official" / "chimera-fr.yaml"), "fr")
    assert "Héros × 4 ; Pi Ya, Chimère × 1." in text
    assert "0 carte pour une enchère de 20 ; 1 carte pour une enchère de 30 ; 2 cartes pour une enchère de 40" in text
    assert "jouée dans la manche ; 25 points" in text
    assert "avec la carte Chimère ; classée par sa plus haute carte" in text
    body = text.split("\n## Règles maison")[0]
    assert not [line for line in body.splitlines() if "; " in line.replace(" ; ", "")], "a French ';' without its space"
    assert "× 4; " in write_rulebook(load(ROOT / "variants" / "chimera.yaml"), "de")


def test_a_void_round_is_said_to_count_as_a_round_played():
    """OpenSpiel's file voids a round nobody bids in and lasts 12 rounds: a void round is one of
    them (the engine counts it), which 'nobody scores, and the next round is dealt' left open."""
    rules = load(OTHERS / "doudizhu-openspiel.yaml")
    assert ("If everyone passes, the round is void: nobody scores, it counts as a round played, "
            "and the next round is dealt.") in write_rulebook(rules)
    assert "sie zählt als gespielte Runde" in write_rulebook(rules, "de")
    assert "elle compte comme une manche jouée" in write_rulebook(rules, "fr")
