"""`chimera rules`: the rulebook is generated from the variant and stays true to it."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

import chimera_dsl
from chimera_dsl.cli import run
from chimera_dsl.tell.rulebook import T, write_rulebook

ROOT = Path(__file__).resolve().parents[1]
OFFICIAL = ROOT / "variants" / "chimera.yaml"
HOUSE_RULES = sorted((ROOT / "variants" / "house_rules").glob("*.yaml"))
SECTIONS = ("cards", "deal", "bidding", "exchange", "play", "combinations", "beats", "scoring", "end")


def rulebook(capsys, *argv) -> tuple[int, str, str]:
    code = run(["rules", *map(str, argv)])
    out, err = capsys.readouterr()
    return code, out, err


def headings(text: str) -> list[str]:
    return [line[3:] for line in text.splitlines() if line.startswith("## ")]


def section(text: str, title: str) -> str:
    """The body of the section ``## title`` (up to the next heading)."""
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    assert match, f"no section {title!r}"
    return match.group(1)


def listed_paths(text: str, lang: str = "en") -> set[str]:
    return set(re.findall(r"^- `([^`]+)`", section(text, T[lang]["house"]), re.M))


def overlay_leaves(doc, prefix=(), base=None) -> set[str]:
    """Every leaf path a house-rule file sets (what it changes), but `extends`, `name`, `titles`,
    `labels` (words, no rule) and leaves it restates with the base's value; a mapping the base file does not have (``base``,
    its document) is one change, added whole."""
    out: set[str] = set()
    for key, value in doc.items():
        if not prefix and key in ("extends", "name", "titles", "labels"):
            continue
        path = prefix + (str(key),)
        known = base is None or (isinstance(base, dict) and key in base)
        if isinstance(value, dict) and value and known:
            out |= overlay_leaves(value, path, None if base is None else base[key])
        elif not (known and base is not None and base[key] == value):   # a leaf restated as it was changes nothing
            out.add(".".join(path))
    return out


@pytest.mark.parametrize("lang", ["en", "fr", "de"])
def test_every_section_is_present_in_order(capsys, lang):
    code, text, err = rulebook(capsys, OFFICIAL, "--lang", lang)
    assert code == 0, err
    assert text.startswith({"en": "# Chimera", "fr": "# Chimère", "de": "# Chimäre"}[lang])
    assert headings(text) == [T[lang][key] for key in SECTIONS]   # the official file extends nothing


@pytest.mark.parametrize("lang", ["en", "fr", "de"])
def test_every_combination_has_an_example_that_really_is_that_combination(capsys, lang):
    rules = chimera_dsl.load_variant(OFFICIAL)
    code, text, _ = rulebook(capsys, OFFICIAL, "--lang", lang)
    rows = {}
    for line in section(text, T[lang]["combinations"]).splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) == 4 and cells[0] not in (T[lang]["col_name"], "---"):
            rows[cells[0]] = cells
    assert len(rows) == len(rules.combinations) == 14
    for combo in rules.combinations:
        name = combo.names.get(lang) or combo.id
        _, what, example, tier = rows[name]
        assert example, f"{combo.id}: no example"
        readings = rules.classify(example.replace("-", " "))
        assert combo.id in {p.combination for p in readings}, f"{combo.id}: {example} is {readings}"
        assert int(tier) == combo.tier
        assert what


def test_the_official_rulebook_states_the_official_rules(capsys):
    code, text, _ = rulebook(capsys, OFFICIAL)
    assert "Bids: 20, 30, 40." in text
    assert "A bid of 40 ends the bidding at once." in text
    assert "0 cards for a bid of 20; 1 card for a bid of 30; 2 cards for a bid of 40" in text
    assert "each 2 is worth 10, each 11 is worth 5 (60 points in all)" in text
    assert "the Chimera scores 2 times the bid" in text and "the Chimera loses the bid" in text
    assert "reached 400 points" in text
    assert "No play may be made out of turn." in text
    assert "54 cards" in text


@pytest.mark.parametrize("path", HOUSE_RULES, ids=lambda p: p.stem)
@pytest.mark.parametrize("lang", ["en", "fr", "de"])
def test_house_rules_section_lists_exactly_what_the_file_changes(capsys, path, lang):
    code, text, err = rulebook(capsys, path, "--lang", lang)
    assert code == 0, err
    assert headings(text)[-1] == T[lang]["house"]
    overlay = yaml.safe_load(path.read_text(encoding="utf-8"))
    base = yaml.safe_load((path.parent / overlay["extends"]).read_text(encoding="utf-8"))
    assert "extends" not in base      # every house rule extends a whole file
    assert listed_paths(text, lang) == overlay_leaves(overlay, base=base)
    assert f"`{overlay['extends']}`" in section(text, T[lang]["house"])


def test_house_rules_are_at_least_the_six_of_the_issue():
    assert {p.stem for p in HOUSE_RULES} >= {"no-redeal", "dealer-forced", "tichu-bombs", "big-exchange",
                                             "target-300", "double-treasures"}
    for path in HOUSE_RULES:
        text = path.read_text(encoding="utf-8")
        assert re.search(r"^extends: \.\./\S+\.yaml$", text, re.M), path.name
        comment = [line for line in text.splitlines() if line.startswith("# ") and "schema" not in line]
        assert len(comment) >= 2, f"{path.name}: say what it changes and why a group plays it"


def test_house_rules_section_shows_old_and_new_values(capsys):
    _, text, _ = rulebook(capsys, ROOT / "variants" / "house_rules" / "no-redeal.yaml")
    body = section(text, "House rules")
    assert "- `bidding.all_pass.forced_bidder`: `face_up_holder` → `first_passer`" in body
    assert "- `bidding.all_pass.forced_bid_closes`: `false` → `true`" in body
    bidding = section(text, "Bidding")
    assert "If everyone passes, the first player who passed must bid 20. That player becomes the Chimera at once." in bidding


def test_rulebook_follows_the_file_when_it_changes(tmp_path, capsys):
    """A value repeated from the base is not a difference; a dropped combination is; the text follows."""
    variant = tmp_path / "mine.yaml"
    variant.write_text(f"extends: {OFFICIAL}\n"
                       "end: {target: 500}\n"
                       "bidding: {passes_to_close: 2, levels: [20, 30, 40, 50]}\n"
                       "exchange: {count_by_bid: {50: 3}}\n"
                       "combinations: {trio_chain_pairs: null}\n"
                       "play: {out_of_turn: [bomb, flight]}\n", encoding="utf-8")
    code, text, err = rulebook(capsys, variant)
    assert code == 0, err
    assert listed_paths(text) == {"end.target", "bidding.levels", "combinations.trio_chain_pairs",
                                  "play.out_of_turn", "exchange.count_by_bid.50"}
    assert "3 cards for a bid of 50" in text
    assert "`combinations.trio_chain_pairs`: removed" in text
    assert "reached 500 points" in text and "A bid of 50 ends the bidding at once." in text
    assert "Chain of fulls" not in section(text, "Combinations")
    assert "These may be played out of turn: Bomb, Chimera's flight." in text


@pytest.mark.parametrize("lang, words, absent", [
    ("fr", ["Chimère", "chasseurs", "Héros", "rouge", "Combinaisons", "Trésors"], ["hunters", "Hero", "red"]),
    ("de", ["Chimäre", "Jäger", "Held", "rot", "Kombinationen", "Schätze"], ["hunters", "Hero", "red"]),
])
def test_french_and_german_rulebooks_use_their_language(capsys, lang, words, absent):
    _, text, _ = rulebook(capsys, ROOT / "variants" / "house_rules" / "big-exchange.yaml", "--lang", lang)
    for w in words:
        assert w in text, w
    body = text.split("\n", 1)[1]          # the title is the variant's own name
    for w in absent:
        assert not re.search(rf"\b{w}\b", body), w
    english = [v for v in T["en"].values() if isinstance(v, str) and "{" not in v and len(v) > 12]
    leaked = [sentence for sentence in english if sentence in text]
    assert not leaked


def test_a_variant_may_name_its_roles_in_each_language(tmp_path):
    variant = tmp_path / "roles.yaml"
    variant.write_text(f"extends: {OFFICIAL}\nroles: {{bidder: {{en: Dragon, fr: Dragonne, de: Drachin}}}}\n",
                       encoding="utf-8")
    rules = chimera_dsl.load_variant(variant)
    assert "La Dragonne prend le terrier" in write_rulebook(rules, "fr")
    assert "The Dragon takes the nest" in write_rulebook(rules, "en")


def test_output_file_and_wrong_input(tmp_path, capsys):
    out = tmp_path / "rules.md"
    code, text, _ = rulebook(capsys, OFFICIAL, "-o", out)
    assert code == 0 and text == ""
    assert out.read_text(encoding="utf-8").startswith("# Chimera")
    code, _, err = rulebook(capsys, OFFICIAL, "--lang", "xx")
    assert code == 2 and "Traceback" not in err
    code, _, err = rulebook(capsys, tmp_path / "missing.yaml")
    assert code == 2 and "missing.yaml" in err and "Traceback" not in err
    broken = tmp_path / "broken.yaml"
    broken.write_text(f"extends: {OFFICIAL}\ncombinations: {{pair: {{pattern: 'pair of nothing'}}}}\n")
    code, _, err = rulebook(capsys, broken)
    assert code == 2 and "Traceback" not in err and "nothing" in err


def test_a_rulebook_tells_what_an_expression_scored_file_says():
    """Dou Dizhu's file: a nest shown to all, scores and an end written as expressions."""
    text = write_rulebook(chimera_dsl.load_variant(ROOT / "variants" / "others" / "doudizhu.yaml"))
    nest = section(text, "Nest")
    assert "The nest is shown to everyone." in nest and "not shown" not in nest
    scoring = section(text, "Scoring")
    assert ("- *stake* is the bid × 2 to the power (how many plays of Bomb were made this round, by anyone"
            " + how many plays of Rocket were made this round, by anyone + *spring*).") in scoring
    assert "- The landlord (*stake*): 2 × *stake* if won, otherwise −2 × *stake*" in scoring
    assert "`" not in scoring
    assert "The game lasts 12 rounds." in section(text, "End of the game")


def test_a_nest_given_to_nobody_is_not_taken_and_a_lowest_total_wins(tmp_path):
    house = tmp_path / "house.yaml"
    house.write_text(f"extends: {ROOT / 'variants' / 'chimera.yaml'}\nnest: {{to: nobody}}\n"
                     "end: {winner: lowest, ties: one_more_round}\n", encoding="utf-8")
    text = write_rulebook(chimera_dsl.load_variant(house))
    assert "nobody takes it" in section(text, "Nest and exchange")
    assert "takes the nest" not in section(text, "Nest and exchange")
    end = section(text, "End of the game")
    assert "The lowest total wins." in end and "one more round decides" in end


@pytest.mark.parametrize("lang", ["en", "fr", "de"])
def test_an_opener_and_forced_bidder_of_the_seat_vocabulary_are_told(tmp_path, lang):
    house = tmp_path / "house.yaml"
    house.write_text(f"extends: {ROOT / 'variants' / 'chimera.yaml'}\n"
                     "bidding: {opener: dealer, all_pass: {forced_bidder: dealer_left}}\n", encoding="utf-8")
    text = write_rulebook(chimera_dsl.load_variant(house), lang)
    bidding = section(text, T[lang]["bidding"])
    assert T[lang]["who_dealer"] in bidding and T[lang]["who_dealer_left"] in bidding
