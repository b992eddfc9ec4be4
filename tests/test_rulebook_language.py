"""The generated rulebooks read in the language asked for: card names from the file, German
cases, no words of another language in the sentences the code writes."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from chimera_dsl.tell.rulebook import write_rulebook
from chimera_dsl.variant import load_variant as load

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = sorted(ROOT.glob("variants/*.yaml")) + sorted(ROOT.glob("variants/*/*.yaml"))
CHIBRE = ROOT / "variants" / "others" / "chibre.yaml"

# Words that only one of the three languages writes (function words and the common nouns of
# the templates), matched as whole words and case-sensitively ("Dame" is German, "dame" French).
FOREIGN = {
    "en": {"der", "dem", "den", "und", "mit", "wird", "Spieler", "Karten", "Geber", "Stich",
           "le", "les", "du", "des", "et", "avec", "joueur", "joueurs", "cartes", "donneur", "pli",
           "valet", "dame", "roi"},
    "fr": {"the", "of", "and", "with", "each", "player", "players", "cards", "dealer", "trick",
           "der", "dem", "den", "und", "mit", "wird", "Spieler", "Karten", "Geber", "Stich"},
    "de": {"the", "of", "and", "with", "each", "player", "players", "cards", "dealer", "trick",
           "le", "les", "du", "et", "avec", "joueur", "joueurs", "cartes", "donneur", "pli",
           "valet", "dame", "roi", "as"},
}


def _file_words(value) -> set[str]:
    """Every text the variant file writes (names of combinations, roles, groups...)."""
    if isinstance(value, dict):
        return set().union(*(_file_words(v) for v in value.values()), *(_file_words(k) for k in value)) \
            if value else set()
    if isinstance(value, list):
        return set().union(*(_file_words(v) for v in value)) if value else set()
    return {value} if isinstance(value, str) and len(value) > 2 else set()


def _template_text(rules, lang: str) -> str:
    """The rulebook without what the file itself writes: its title, code spans, the names it
    gives its values (said in italics, as the file spells them) and its own words."""
    text = write_rulebook(rules, lang)
    text = "\n".join(line for line in text.splitlines() if not line.startswith("# "))
    text = re.sub(r"`[^`]*`", " ", text)
    text = re.sub(r"\*[^*\n]+\*", " ", text)
    for written in sorted(_file_words(rules.spec), key=len, reverse=True):
        text = re.sub(r"(?<!\w)" + re.escape(written) + r"(?!\w)", " ", text)
    return text


@pytest.mark.parametrize("lang", ["en", "fr", "de"])
@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: str(p.relative_to(ROOT / "variants")))
def test_no_word_of_another_language_in_the_sentences(path, lang):
    words = set(re.findall(r"[A-Za-zÀ-ÿ]+", _template_text(load(path), lang)))
    assert not words & FOREIGN[lang], sorted(words & FOREIGN[lang])


def test_chibre_in_german_names_its_cards_in_german_and_declines_the_dealer():
    text = write_rulebook(load(CHIBRE), "de")
    assert "36 Karten: 6, 7, 8, 9, 10, Bauer, Dame, König, Ass, in jeder Farbe" in text
    assert not re.search(r"\b(valet|dame|roi|as|jack|queen|king|ace)\b", text)
    assert "der Spieler nach dem Geber" in text and "nach der Geber" not in text
    assert "In der nächsten Runde gibt der Trumpfansager dieser Runde." in text
    assert "Den Trumpf bestimmt in der ersten Runde der Spieler mit der Karo 7; sonst" in text
    assert "Der Trumpfansager spielt zum ersten Stich aus" in text


@pytest.mark.parametrize("lang, deck, dealt, chooser", [
    ("en", "6, 7, 8, 9, 10, jack, queen, king, ace,", "The next round is dealt by the trump maker of this round.",
     "In the first round, the holder of the 7 of diamonds; otherwise"),
    ("fr", "6, 7, 8, 9, 10, valet, dame, roi, as,", "La manche suivante est donnée par celui qui fait atout de cette manche.",
     "À la première manche, le joueur qui a le 7 de carreau ; sinon"),
])
def test_chibre_in_english_and_french(lang, deck, dealt, chooser):
    text = write_rulebook(load(CHIBRE), lang)
    assert deck in text and dealt in text and chooser in text


def test_a_rank_named_in_other_languages_only_is_written_as_the_rank(tmp_path):
    source = CHIBRE.read_text(encoding="utf-8").replace("J: {en: jack, fr: valet, de: Bauer, it: fante}", "J: {fr: valet}")
    path = tmp_path / "chibre.yaml"
    path.write_text(source, encoding="utf-8")
    rules = load(path)
    assert "10, J, Dame, König, Ass," in write_rulebook(rules, "de")
    assert "10, J, queen, king, ace," in write_rulebook(rules, "en")
    assert "10, valet, dame, roi, as," in write_rulebook(rules, "fr")


@pytest.mark.parametrize("wrong, said", [
    ("J: {english: jack}", "unknown key 'english' in deck.names.J"),
    ("J: [jack]", "deck.names.J must be a name, or names per language"),
])
def test_a_misused_rank_name_is_a_located_error(tmp_path, capsys, wrong, said):
    from chimera_dsl.cli import run
    source = CHIBRE.read_text(encoding="utf-8").replace("J: {en: jack, fr: valet, de: Bauer, it: fante}", wrong)
    path = tmp_path / "chibre.yaml"
    path.write_text(source, encoding="utf-8")
    assert run(["rules", str(path)]) != 0
    err = capsys.readouterr().err
    assert f"{path}:" in err and said in err and "Traceback" not in err


def test_chimera_german_names_agree_with_their_numbers():
    text = write_rulebook(load(ROOT / "variants" / "chimera.yaml"), "de")
    assert "| Drilling mit einer angehängten Karte | 3 gleiche Karten aus Zahl oder Held + eine Karte aus beliebigem Wert" in text
    assert "Vierling mit zwei angehängten Paaren" in text
    assert " 1 angehängten" not in text and "+ 1 Karte" not in text and "| 1 Karte" not in text


@pytest.mark.parametrize("lang, first, chooses", [
    ("en", "The chief leads the first trick", "The vice chooses the trump"),
    ("fr", "Le Chef entame le premier pli", "Le sous-Chef choisit l'atout"),
    ("de", "Der Chef spielt zum ersten Stich aus", "Den Trumpf bestimmt der Vize"),
])
def test_a_role_that_plays_or_chooses_has_its_article(lang, first, chooses):
    text = write_rulebook(load(ROOT / "variants" / "others" / "mu.yaml"), lang)
    assert first in text and chooses in text


@pytest.mark.parametrize("lang, lines", [
    ("fr", ["en deux camps à chaque manche : la Cheffe et le partenaire qu'elle désigne",
            "qui a misé le plus est la Cheffe,", "parmi les autres est la sous-Cheffe (",
            "La sous-Cheffe choisit l'atout", "Quand la manche n'a pas de sous-Cheffe,",
            "La Cheffe désigne un partenaire", "La Cheffe entame le premier pli",
            "La Cheffe réussit le contrat"]),
    ("de", ["in zwei Parteien: die Chefin und ein Partner, den die Chefin wählt",
            "ausgelegt hat, ist die Chefin,", "ist die Vizechefin (", "Den Trumpf bestimmt die Vizechefin",
            "Hat die Runde keine Vizechefin,", "Die Chefin wählt einen Partner", "Die Chefin spielt zum ersten Stich aus",
            "Die Chefin erfüllt den Vertrag"]),
])
def test_a_trick_taking_rulebook_follows_a_feminine_role(tmp_path, lang, lines):
    """Roles of a trick-taking file given as feminine take feminine articles and pronouns in every
    sentence of its rulebook, as a climbing file's do."""
    house = tmp_path / "mu-feminine.yaml"
    house.write_text(f"extends: {ROOT / 'variants' / 'others' / 'mu.yaml'}\nroles:\n"
                     "  bidder: {en: chief, fr: Cheffe, de: Chefin, gender: {fr: feminine, de: feminine}}\n"
                     "  vice: {en: vice, fr: sous-Cheffe, de: Vizechefin, gender: {fr: feminine, de: feminine}}\n",
                     encoding="utf-8")
    text = write_rulebook(load(house), lang)
    for line in lines:
        assert line in text, line
    assert not re.search(r"\b(le|Le|der|Der|dem|den|keinen) (Cheffe|sous-Cheffe|Chefin|Vizechefin)\b", text)


@pytest.mark.parametrize("lang, sentence", [
    ("en", "The chief makes the contract when *contract made*: that side then wins the round, otherwise the other side does."),
    ("fr", "Le Chef réussit le contrat si *contrat réussi* : son camp gagne alors la manche, sinon c'est l'autre camp."),
    ("de", "Der Chef erfüllt den Vertrag, wenn *Kontrakt erfüllt* zutrifft: Dann gewinnt diese Partei die Runde, sonst die andere Partei."),
])
def test_the_scoring_says_when_the_bidders_contract_is_made(lang, sentence):
    text = write_rulebook(load(ROOT / "variants" / "others" / "mu.yaml"), lang)
    scoring = text.split("\n## ")[-2]                 # the section before the end of the game
    assert sentence in scoring
    assert "contra" not in write_rulebook(load(CHIBRE), lang).lower()     # no bidder_won, no sentence


def _english_only_names(spec: dict, lang: str) -> set[str]:
    """The names a file gives in English that ``lang`` does not share: role, combination,
    card and group names, given as one word for every language or per language."""
    found = set()
    deck = spec.get("deck") or {}
    named = [*(spec.get("roles") or {}).values(), *(deck.get("names") or {}).values(),
             *((c or {}).get("names") for c in (spec.get("combinations") or {}).values())]
    for value in named:
        if isinstance(value, dict):
            english = value.get("en")
            if isinstance(english, str) and english != value.get(lang):
                found.add(english)
        elif isinstance(value, str):
            found.add(value)
    return found


CLIMBING_OTHERS = [ROOT / "variants" / "others" / name for name in
                   ("doudizhu.yaml", "doudizhu-douzero.yaml", "doudizhu-openspiel.yaml", "gang-of-four.yaml")] + \
                  [ROOT / "variants" / "house_rules" / name for name in
                   ("gang-of-four-gangs-in-turn.yaml", "gang-of-four-last-card-may-pass.yaml")]


@pytest.mark.parametrize("lang", ["fr", "de"])
@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: str(p.relative_to(ROOT / "variants")))
def test_no_english_name_of_the_file_in_a_french_or_german_rulebook(path, lang):
    rules = load(path)
    # Pi Ya, a name without translation, is written alike in every language
    english = {n for n in _english_only_names(rules.spec, lang) if n != "Pi Ya"}
    text = re.sub(r"`[^`]*`", " ", write_rulebook(rules, lang).split("\n", 1)[1])
    own = {n for n in _file_words(rules.spec) if n not in english}      # "Straight Flush" is German too
    for name in sorted(own, key=len, reverse=True):
        text = re.sub(r"(?<!\w)" + re.escape(name) + r"(?!\w)", " ", text)
    leaked = sorted(n for n in english if re.search(r"(?<!\w)" + re.escape(n) + r"(?!\w)", text))
    assert not leaked


@pytest.mark.parametrize("path", CLIMBING_OTHERS, ids=lambda p: p.name)
def test_dou_dizhu_and_gang_of_four_name_everything_in_french_and_german(path):
    spec = load(path).spec
    names = [*(spec.get("roles") or {}).values(), *spec["deck"]["names"].values(),
             *(c["names"] for c in spec["combinations"].values())]
    missing = [n for n in names if not (isinstance(n, dict) and n.get("fr") and n.get("de"))]
    assert not missing


@pytest.mark.parametrize("lang, lines", [
    ("de", ["Wer am höchsten bietet, wird der Grundbesitzer; die anderen Spieler sind die Bauern.",
            "Der Grundbesitzer nimmt das Versteck (3 Karten) auf und legt nichts ab. Das Versteck wird allen gezeigt.",
            "Der Grundbesitzer eröffnet den ersten Stich", "| Flugzeug mit Paaren | ", "aus Normalkarten",
            "| Rakete | ", "schwarzer Joker, roter Joker × 1", "- Folgekarten: 3, 4,"]),
    ("fr", ["Le plus offrant devient le propriétaire ; les autres joueurs sont les paysans.",
            "Le propriétaire prend le terrier (3 cartes) sans défausser. Le terrier est montré à tous.",
            "Le propriétaire entame le premier pli", "| Avion avec paires | ", "parmi cartes ordinaires",
            "| Fusée | ", "joker noir, joker rouge × 1", "- cartes enchaînables : 3, 4,"]),
    ("en", ["The highest bidder becomes the landlord; the other players are the peasants.",
            "| Airplane with pairs | ", "from plain", "| Rocket | ", "black joker, red joker × 1", "- runs: 3, 4,"]),
])
def test_dou_dizhu_reads_in_each_language(lang, lines):
    text = write_rulebook(load(ROOT / "variants" / "others" / "doudizhu.yaml"), lang)
    assert [line for line in lines if line not in text] == []
    assert "Die Grundbesitzer" not in text and "la propriétaire" not in text


def test_gang_of_four_sets_off_german_seat_clauses_with_commas():
    text = write_rulebook(load(ROOT / "variants" / "others" / "gang-of-four.yaml"), "de")
    assert "danach gibt, wer in der vorigen Runde zuerst alle Karten ausgespielt hat, die nächste Runde." in text
    assert "Ab Runde 2: wer am Ende der vorigen Runde die meisten Karten hielt, gibt 1 Karte ab (Empfänger: wer " \
           "in der vorigen Runde" in text
    assert "sonst wer die mehrfarbig 1 hält, eröffnet den ersten Stich" in text
    assert "Phönix × 2; Drache × 1" in text and "Straße < Flush < Full House < Straight Flush" in text
    french = write_rulebook(load(ROOT / "variants" / "others" / "gang-of-four.yaml"), "fr")
    assert "Le joueur sorti le premier à la manche précédente (à défaut, le joueur qui tient le 1 de multicolore) entame" in french


def _bidder(tmp_path, names: str) -> Path:
    path = tmp_path / "role.yaml"
    path.write_text(f"extends: {ROOT / 'variants' / 'chimera.yaml'}\nroles: {{bidder: {names}}}\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("lang, lines", [
    ("de", ["Wer am höchsten bietet, wird der Zauberer;", "Der Zauberer nimmt das Versteck",
            "Hat der Zauberer zuerst alle Karten ausgespielt: er erhält das 2-fache seines Gebots;",
            "25 Punkte für den Zauberer für jede", "ausgespielt: der Zauberer verliert sein Gebot;"]),
    ("fr", ["Le plus offrant devient le Sorcier ;", "Le Sorcier prend le terrier",
            "Si le Sorcier est le premier à poser toutes ses cartes : il gagne 2 fois son enchère",
            "25 points au Sorcier pour chaque", "cartes : le Sorcier perd son enchère"]),
])
def test_a_masculine_bidder_takes_masculine_articles_pronouns_and_possessives(tmp_path, lang, lines):
    path = _bidder(tmp_path, "{en: Wizard, fr: Sorcier, de: Zauberer, gender: {fr: masculine, de: masculine}}")
    text = write_rulebook(load(path), lang)
    assert [line for line in lines if line not in text] == []
    assert "Die Zauberer" not in text and "La Sorcier" not in text and "ihr Gebot" not in text


def test_gender_defaults_to_masculine_and_french_elides_before_a_vowel(tmp_path):
    # Chimera's gender (feminine) is replaced by a map without fr: the default, masculine
    path = _bidder(tmp_path, "{en: Emperor, fr: empereur, de: Kaiserin, gender: {de: feminine, fr: null}}")
    french, german = write_rulebook(load(path), "fr"), write_rulebook(load(path), "de")
    assert "L'empereur prend le terrier" in french and "25 points à l'empereur pour" in french
    assert "Si l'empereur est le premier" in french
    assert "Die Kaiserin nimmt das Versteck" in german and "sie erhält das 2-fache ihres Gebots" in german


def test_chimera_keeps_its_feminine_articles():
    german = write_rulebook(load(ROOT / "variants" / "chimera.yaml"), "de")
    french = write_rulebook(load(ROOT / "variants" / "chimera.yaml"), "fr")
    assert "Hat die Chimäre zuerst alle Karten ausgespielt: sie erhält das 2-fache ihres Gebots;" in german
    assert "25 Punkte für die Chimäre für jede" in german
    assert "Si la Chimère est la première à poser toutes ses cartes : elle gagne" in french
    assert "25 points à la Chimère pour chaque" in french


@pytest.mark.parametrize("gender, said", [
    ("{fr: neuter}", "roles.bidder.gender.fr must be one of masculine, feminine; not 'neuter'"),
    ("{de: male}", "roles.bidder.gender.de must be one of masculine, feminine, neuter; not 'male'"),
    ("feminine", "roles.bidder.gender"),
])
def test_a_misused_gender_is_a_located_error(tmp_path, capsys, gender, said):
    from chimera_dsl.cli import run
    path = _bidder(tmp_path, f"{{en: Emperor, fr: empereur, de: Kaiser, gender: {gender}}}")
    assert run(["rules", str(path)]) != 0
    err = capsys.readouterr().err
    assert f"{path}:2:" in err and said in err and "Traceback" not in err


def test_a_group_named_per_language_and_a_misspelt_group_name(tmp_path, capsys):
    from chimera_dsl.cli import run
    source = (ROOT / "variants" / "others" / "doudizhu.yaml").read_text(encoding="utf-8")
    path = tmp_path / "d.yaml"
    path.write_text(source.replace("plain: {en: plain, fr: cartes ordinaires, de: Normalkarten, it: carte normali}",
                                   "plain: {fr: ordinaires}"), encoding="utf-8")
    rules = load(path)
    assert "- plain: 3, 4" in write_rulebook(rules, "de") and "aus plain" in write_rulebook(rules, "de")
    assert "- ordinaires : 3, 4" in write_rulebook(rules, "fr")
    path.write_text(source.replace("plain: {en: plain,", "plian: {en: plain,"), encoding="utf-8")
    assert run(["rules", str(path)]) != 0
    err = capsys.readouterr().err
    line = source.splitlines().index("    plain: {en: plain, fr: cartes ordinaires, de: Normalkarten, it: carte normali}") + 1
    assert f"{path}:{line}:" in err and "unknown rank or group 'plian'" in err and "Traceback" not in err
    assert "did you mean 'plain'?" in err                          # a group, not only the ranks, is offered


@pytest.mark.parametrize("lang, said", [("en", "- The opponents (*contract*)"), ("fr", "- Les adversaires (*contrat*)"),
                                        ("de", "- Die Gegner (*Kontrakt*)"), ("it", "- Gli avversari (*contratto*)")])
def test_the_others_term_takes_a_plural_article(lang, said):
    """The other players are named in the plural (``roles.others``): their scoring term is
    "Les adversaires", never "L'adversaires" (an elided singular article)."""
    text = write_rulebook(load(ROOT / "variants" / "others" / "mu.yaml"), lang)
    assert said in text and "L'adversaires" not in text
