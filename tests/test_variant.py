"""The variant loader: exact messages for a folder of broken files, extends, bounds, the schema."""
from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chimera_dsl import variant as variant_module
from chimera_dsl.cli import run
from chimera_dsl.errors import VariantError
from chimera_dsl.cards import MAX_DECK_CARDS
from chimera_dsl.matcher import MAX_COMBINATIONS
from chimera_dsl.language.patterns import MAX_PATTERN_LENGTH
from chimera_dsl.language import yamlsource
from chimera_dsl.variant import base_of, check_variant, load_variant, read_document, schema
from chimera_dsl.language.yamlsource import MAX_FILE_BYTES


ROOT = Path(__file__).resolve().parents[1]
FIXTURES = Path(__file__).resolve().parent / "variants"
OFFICIAL = ROOT / "variants" / "chimera.yaml"
FRENCH = ROOT / "variants" / "official" / "chimera-fr.yaml"
GERMAN = ROOT / "variants" / "official" / "chimera-de.yaml"
INVALID = sorted(p.name for p in (FIXTURES / "invalid").glob("*.yaml"))
VALID = sorted(p.name for p in (FIXTURES / "valid").glob("*.yaml"))
SHIPPED = sorted((ROOT / "variants").rglob("*.yaml"))


@pytest.fixture
def in_fixtures(monkeypatch):
    """Run from tests/variants, so that files are reported as invalid/NAME.yaml."""
    monkeypatch.chdir(FIXTURES)


# -- the folder of broken variants ------------------------------------------------------------
@pytest.mark.parametrize("name", INVALID)
def test_broken_variant_gives_exactly_the_expected_messages(in_fixtures, name):
    expected = Path("invalid", name).with_suffix(".expected").read_text(encoding="utf-8").rstrip("\n")
    problems = check_variant(f"invalid/{name}")
    assert "\n".join(str(p) for p in problems) == expected
    with pytest.raises(VariantError) as raised:
        load_variant(f"invalid/{name}")
    assert raised.value.problems == problems


def test_libyaml_and_the_pure_python_reader_give_the_same_answers(in_fixtures, monkeypatch):
    """Where libyaml is installed it reads well-formed files; the result must not depend on it."""
    files = [f"invalid/{n}" for n in INVALID] + [f"valid/{n}" for n in VALID]

    def reading(name):
        doc = read_document(name)
        places = {p: (w.source.label, w.line, w.column, w.style) for p, w in {**doc.values}.items()}
        keys = {p: (w.source.label, w.line, w.column) for p, w in doc.keys.items()}
        return [str(p) for p in doc.problems], places, keys, variant_module._plain(doc.tree) if doc.tree else None

    fast = {f: reading(f) for f in files}
    monkeypatch.setattr(yamlsource, "_FAST_LOADER", None)
    assert {f: reading(f) for f in files} == fast


def test_every_broken_variant_has_its_expected_output_and_no_output_is_orphaned():
    folder = FIXTURES / "invalid"
    assert len(INVALID) >= 30
    assert {p.stem for p in folder.glob("*.expected")} == {Path(n).stem for n in INVALID}


@pytest.mark.parametrize("name", VALID)
def test_valid_fixture_loads(in_fixtures, name):
    assert check_variant(f"valid/{name}") == []
    rules = load_variant(f"valid/{name}")
    assert rules.path == f"valid/{name}"
    assert rules.classify("P C" if "house" in name else "J J J")


@pytest.mark.parametrize("path", SHIPPED + [FIXTURES / "valid" / n for n in VALID],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_what_loads_also_plays(path):
    """A file that validates must also run: the engine reads every rule it needs from it."""
    from chimera_dsl.engine import Game
    from chimera_dsl.players import make_player, play_game
    game = Game(load_variant(path), max_rounds=1)
    state = play_game(game, [make_player("random", seat) for seat in range(game.players)], seed=3)
    assert state.is_terminal()
    assert state.events[-1]["type"] == "game_end"


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_shipped_variant_loads(path):
    assert check_variant(path) == []


# -- the official readings --------------------------------------------------------------------
def test_french_and_german_rulebooks_differ_where_their_texts_do():
    fr, de, base = load_variant(FRENCH), load_variant(GERMAN), load_variant(OFFICIAL)
    assert fr.spec["bidding"]["passes_to_close"] == 3
    assert de.spec["bidding"]["passes_to_close"] == 2
    forced = de.spec["bidding"]["all_pass"]
    assert (forced["redeals_before_forced"], forced["forced_bidder"], forced["forced_bid"],
            forced["forced_bid_closes"]) == (1, "face_up_holder", 20, False)
    assert fr.base_path == de.base_path == OFFICIAL.resolve()
    assert [c.id for c in fr.combinations] == [c.id for c in de.combinations] == [c.id for c in base.combinations]
    # the German text is the official reading: its file changes nothing
    assert de.spec == {**base.spec, "name": de.spec["name"], "titles": de.spec["titles"]}


# The folder of the rulebooks' plain texts, when a checkout has them (they are not part of the
# repository): set CHIMERA_RULEBOOKS to check every quoted phrase against its rulebook.
RULEBOOKS = Path(os.environ["CHIMERA_RULEBOOKS"]) if os.environ.get("CHIMERA_RULEBOOKS") else None


def _comment_above(lines: list[str], i: int) -> str:
    """The comment on line ``i`` and the comment lines right above it."""
    out = [lines[i].split("#", 1)[1]] if "#" in lines[i] else []
    j = i - 1
    while j >= 0 and lines[j].strip().startswith("#"):
        out.insert(0, lines[j].strip().lstrip("#"))
        j -= 1
    return " ".join(" ".join(out).split())


@pytest.mark.parametrize("path, rulebook, knob, phrase", [
    (FRENCH, "000_3ce153ef94715fa3.txt", "  passes_to_close: 3", "soit lorsque 3 joueurs ont passé après une enchère"),
    (GERMAN, "001_9ad493323162dd71.txt", "  passes_to_close: 2", "nach einem Gebot 2 Spieler nacheinander passen"),
])
def test_each_official_value_quotes_its_rulebook(path, rulebook, knob, phrase):
    lines = path.read_text(encoding="utf-8").splitlines()
    assert phrase in _comment_above(lines, lines.index(knob))
    for i, line in enumerate(lines):
        body = line.split("#", 1)[0].strip()
        if body and not body.endswith(":") and body.split(":")[0] not in ("extends", "name", "titles"):
            assert "«" in _comment_above(lines, i), f"{path.name}:{i + 1}: no rulebook phrase"
    if RULEBOOKS is None or not (RULEBOOKS / rulebook).exists():
        pytest.skip("the rulebooks' texts are not here (set CHIMERA_RULEBOOKS to their folder)")
    source = RULEBOOKS / rulebook
    raw = re.sub(r"(?m)^\s*[-•]\s+", " ", source.read_text(encoding="utf-8").replace("**", ""))
    text = " ".join(raw.split())
    quoted = " ".join(_comment_above(lines, i) for i, l in enumerate(lines) if l.strip() and not l.strip().startswith("#"))
    quoted += " " + " ".join(l.strip().lstrip("#") for l in lines if l.strip().startswith("#"))
    for quote in " ".join(quoted.split()).split("«")[1:]:
        for piece in quote.split("»")[0].split("..."):
            assert piece.strip() in text, piece


# -- extends ----------------------------------------------------------------------------------
def test_extends_merges_maps_removes_nulls_and_replaces_lists(write_variant):
    child = write_variant(name="child.yaml", text=f"""extends: {OFFICIAL}
bidding:
  passes_to_close: 3
  levels: [20, 30]
exchange:
  count_by_bid: {{40: null}}
combinations:
  trio_chain_pairs: null
""")
    rules = load_variant(child)
    base = load_variant(OFFICIAL)
    assert rules.spec["bidding"]["passes_to_close"] == 3
    assert rules.spec["bidding"]["levels"] == [20, 30]                      # a list replaces
    assert rules.spec["bidding"]["top_bid_closes"] is True                  # the rest of the map stays
    assert rules.spec["exchange"]["count_by_bid"] == {20: 0, 30: 1}         # null removes one entry
    assert "trio_chain_pairs" not in rules.combination and "trio_chain_pairs" in base.combination
    assert len(rules.combinations) == len(base.combinations) - 1
    assert "extends" not in rules.spec
    assert not rules.classify("3 3 3 4 4 4 7 7 9 9")                      # the chain of fulls is gone
    assert base.classify("3 3 3 4 4 4 7 7 9 9")


def test_a_chain_of_extends_keeps_where_each_value_was_written(tmp_path, write_variant):
    middle = write_variant(name="middle.yaml", text=f"extends: {OFFICIAL}\nend:\n  target: 300\n")
    top = write_variant(name="top.yaml", text="extends: middle.yaml\n\nbidding:\n  passes_to_close: 3\n")
    doc = read_document(top)
    assert doc.where(("bidding", "passes_to_close")) == (str(top), 4, 20)
    assert doc.where(("end", "target")) == (str(tmp_path / "middle.yaml"), 3, 11)
    file, line, _ = doc.where(("bidding", "levels"))
    assert file == str(OFFICIAL) and OFFICIAL.read_text().splitlines()[line - 1].strip().startswith("levels:")
    rules = load_variant(top)
    assert rules.spec["end"]["target"] == 300 and rules.spec["bidding"]["passes_to_close"] == 3
    assert rules.base_path == middle.resolve() and base_of(top) == middle.resolve()
    assert rules.files == (top.resolve(), middle.resolve(), OFFICIAL.resolve())


def test_the_source_hash_covers_the_file_and_every_file_it_extends(write_variant):
    assert load_variant(OFFICIAL).source_hash == hashlib.sha256(OFFICIAL.read_bytes()).hexdigest()
    base = write_variant(name="base.yaml", text=OFFICIAL.read_text(encoding="utf-8"))
    child = write_variant(name="child.yaml", text="extends: base.yaml\nend: {target: 300}\n")
    first = load_variant(child).source_hash
    assert first == hashlib.sha256(child.read_bytes() + base.read_bytes()).hexdigest()
    base.write_text(base.read_text(encoding="utf-8") + "# a comment changes the bytes\n", encoding="utf-8")
    assert load_variant(child).source_hash != first


def test_a_relative_path_is_reported_as_given(in_fixtures):
    problems = check_variant("invalid/base-value-is-wrong.yaml")
    assert [p.file for p in problems] == ["invalid/bases/eighteen.yaml"]


# -- safety and bounds ------------------------------------------------------------------------
def test_a_python_tag_is_never_run(tmp_path, write_variant):
    marker = tmp_path / "ran"
    variant = write_variant(name="evil.yaml", text=f'extends: {OFFICIAL}\nname: !!python/object/apply:os.system ["touch {marker}"]\n')
    problems = check_variant(variant)
    assert not marker.exists()
    assert len(problems) == 1 and "not allowed" in problems[0].message and problems[0].line == 2


def test_a_file_over_the_size_bound_is_refused_unread(write_variant):
    variant = write_variant(name="big.yaml", text=f"extends: {OFFICIAL}\n" + "# padding\n" * (MAX_FILE_BYTES // 10 + 1))
    assert [str(p) for p in check_variant(variant)] == [
        f"{variant}:1:1: '{variant}' is larger than 1024 KiB, the most a variant file may be"]


def test_a_file_that_is_not_utf8_is_located(tmp_path):
    variant = tmp_path / "latin1.yaml"
    variant.write_bytes(b"extends: x.yaml\nname: caf\xe9\n")
    assert [str(p) for p in check_variant(variant)] == [
        f"{variant}:2:10: the file is not UTF-8 text (hint: save it as UTF-8)"]


def test_too_many_combinations(write_variant):
    lines = [f"extends: {OFFICIAL}", "combinations:"]
    lines += [f"  extra_{i}: {{pattern: single of any}}" for i in range(MAX_COMBINATIONS)]
    problems = check_variant(write_variant(name="many.yaml", text="\n".join(lines) + "\n"))
    assert [p.message for p in problems] == [
        f"combinations may hold at most {MAX_COMBINATIONS} entries, not {MAX_COMBINATIONS + 14}"]


def test_extends_chains_are_bounded(tmp_path, write_variant):
    write_variant(name="v0.yaml", text=f"extends: {OFFICIAL}\n")
    for i in range(1, 10):
        write_variant(name=f"v{i}.yaml", text=f"extends: v{i - 1}.yaml\n")
    assert check_variant(tmp_path / "v5.yaml") == []
    problems = check_variant(tmp_path / "v9.yaml")
    assert [p.message for p in problems] == ["more than 8 files extend one another"]


@pytest.mark.parametrize("name, message", [
    ("missing.yaml", "cannot read '{path}': no such file"),
    ("", "cannot read '{path}': it is a directory"),
])
def test_a_file_that_cannot_be_read_is_a_problem_not_an_exception(tmp_path, name, message):
    path = tmp_path / name if name else tmp_path
    problems = check_variant(path)
    assert [p.message for p in problems] == [message.format(path=path)]


def _containers(inner):
    return st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["a", "pattern", "ranks", "20"]),
                                                         inner, max_size=3)


_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 70) | st.sampled_from(["", "x", "1..12", "H", "bomb", "pair of H"]),
    _containers, max_leaves=6)


def _paths(node, path=()):
    yield path
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, path + (key,))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _paths(value, path + (i,))


_OFFICIAL_DOC = yaml.safe_load(OFFICIAL.read_text(encoding="utf-8"))
_OFFICIAL_PATHS = [p for p in _paths(_OFFICIAL_DOC) if p]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(changes=st.lists(st.tuples(st.sampled_from(_OFFICIAL_PATHS), _VALUES), min_size=1, max_size=3))
def test_any_wrong_value_gives_located_problems_never_an_exception(tmp_path, changes):
    doc = yaml.safe_load(OFFICIAL.read_text(encoding="utf-8"))
    for path, value in changes:
        node = doc
        try:
            for step in path[:-1]:
                node = node[step]
            node[path[-1]] = value
        except (KeyError, IndexError, TypeError):
            continue
    variant = tmp_path / "fuzz.yaml"
    variant.write_text(yaml.safe_dump(doc, allow_unicode=True), encoding="utf-8")
    for problem in check_variant(variant):
        assert problem.file == str(variant) and problem.line >= 1 and problem.column >= 1


# -- the schema -------------------------------------------------------------------------------
def _property_schemas(node, path=()):
    if isinstance(node, dict):
        for name, sub in (node.get("properties") or {}).items():
            yield path + (name,), sub
        for key, sub in node.items():
            if isinstance(sub, (dict, list)):
                yield from _property_schemas(sub, path + (key,))
    elif isinstance(node, list):
        for i, sub in enumerate(node):
            yield from _property_schemas(sub, path + (i,))


def test_the_schema_is_draft_2020_12_and_describes_every_property():
    data = schema()
    jsonschema.Draft202012Validator.check_schema(data)
    undescribed = [".".join(map(str, p)) for p, sub in _property_schemas(data)
                   if p[0] != "allOf" and "description" not in sub and not (sub.get("$ref") and "description" in
                                                        data["$defs"][sub["$ref"].split("/")[-1]])]
    assert undescribed == []


def test_every_object_of_the_schema_refuses_unknown_keys():
    def objects(node, path=()):
        if isinstance(node, dict):
            if "properties" in node:
                yield path, node
            for key, sub in node.items():
                yield from objects(sub, path + (key,))
        elif isinstance(node, list):
            for i, sub in enumerate(node):
                yield from objects(sub, path + (i,))
    open_objects = [p for p, node in objects(schema()) if node.get("additionalProperties") is not False
                    and p[:1] != ("allOf",)]
    assert open_objects == []


def test_the_schema_bounds_agree_with_the_matcher():
    data = schema()
    assert data["properties"]["combinations"]["maxProperties"] == MAX_COMBINATIONS
    assert data["$defs"]["combination"]["properties"]["pattern"]["maxLength"] == MAX_PATTERN_LENGTH
    deck = data["properties"]["deck"]["properties"]
    assert deck["ranks"]["maxItems"] == MAX_DECK_CARDS
    entry = deck["cards"]["items"]["properties"]
    assert entry["copies"]["maximum"] == entry["per_colour"]["maximum"] == MAX_DECK_CARDS


@pytest.mark.parametrize("knob", [
    "deal.first_dealer", "deal.dealer_rotates", "deal.cut.from", "deal.cut.to", "deal.face_up",
    "deal.face_up_in_nest", "deal.nest", "deal.hand", "bidding.opener", "bidding.levels",
    "bidding.top_bid_closes", "bidding.passes_to_close", "bidding.reenter_after_pass",
    "bidding.all_pass.redeals_before_forced", "bidding.all_pass.forced_bidder", "bidding.all_pass.forced_bid",
    "bidding.all_pass.forced_bid_closes", "nest.to", "nest.shown", "exchange.between", "exchange.simultaneous",
    "exchange.count_by_bid", "play.first_leader", "play.leader_may_pass", "play.passes_to_close_trick",
    "play.out_of_turn", "play.last_trick_to", "scoring.treasures", "end.target", "end.ties",
])
def test_every_knob_of_the_rulings_is_in_the_schema_and_has_a_value_in_the_official_file(knob):
    node, value = schema(), load_variant(OFFICIAL).spec
    for step in knob.split("."):
        node = node["properties"][step]
        value = value[step]


def test_forced_bidder_is_a_seat_of_the_one_vocabulary_the_engine_reads():
    from chimera_dsl.engine.seats import NAMES
    node = schema()["properties"]["bidding"]["properties"]["all_pass"]["properties"]["forced_bidder"]
    assert node["$ref"] == "#/$defs/seat"
    assert {"face_up_holder", "dealer", "first_passer"} <= set(NAMES)   # the three readings of the rulings
    described = schema()["$defs"]["seat"]["description"]
    assert all(name in described for name in NAMES)
    assert schema()["properties"]["end"]["properties"]["ties"]["enum"] == ["play_on", "shared", "one_more_round"]


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: str(p.relative_to(ROOT)))
def test_an_editor_checking_one_file_alone_finds_nothing_wrong(path):
    """Editors validate each file by itself: a small file that extends another must pass too."""
    def keys_as_strings(node):
        if isinstance(node, dict):
            return {str(k): keys_as_strings(v) for k, v in node.items()}
        if isinstance(node, list):
            return [keys_as_strings(v) for v in node]
        return node
    data = keys_as_strings(yaml.safe_load(path.read_text(encoding="utf-8")))
    errors = [e.message for e in jsonschema.Draft202012Validator(schema()).iter_errors(data)]
    assert errors == []
    assert path.read_text(encoding="utf-8").startswith("# yaml-language-server: $schema=")


def test_defaults_fill_what_a_file_leaves_out(in_fixtures):
    spec = load_variant("valid/minimal.yaml").spec
    assert spec["play"] == {"first_leader": "bidder", "leader_may_pass": False, "out_of_turn": [],
                            "last_trick_to": "player_out", "passes_to_close_trick": 1}
    assert spec["bidding"]["passes_to_close"] == 1 and spec["bidding"]["all_pass"]["forced_bid"] == 1
    assert spec["deal"]["face_up"] is False and spec["end"]["ties"] == "play_on"


# -- the command line -------------------------------------------------------------------------
def test_validate_prints_every_problem_and_exits_2(in_fixtures, capsys):
    code = run(["validate", "valid/minimal.yaml", "invalid/several.yaml"])
    out, err = capsys.readouterr()
    assert code == 2
    assert out == "valid/minimal.yaml: ok\n"
    assert err == Path("invalid/several.expected").read_text(encoding="utf-8")


def test_problems_keep_the_path_of_the_value_they_are_about(in_fixtures):
    problems = check_variant("invalid/several.yaml")
    assert [p.path for p in problems] == [("deal", "hand"), ("bidding", "levels", "2"), ("bidding",),
                                          ("play", "out_of_turn", "0"), ("combinations", "bomb", "pattern"),
                                          ("end", "target")]
    assert problems[4].offset == len("quad of number|H, wild")


def test_validate_json_gives_each_problem_its_place(in_fixtures, capsys):
    code = run(["validate", "--json", "invalid/levels-not-increasing.yaml"])
    data = json.loads(capsys.readouterr().out)
    assert code == 2 and data["valid"] is False
    assert data["files"]["invalid/levels-not-increasing.yaml"] == [
        {"file": "invalid/levels-not-increasing.yaml", "line": 3, "column": 20,
         "message": "bid levels must go up: 30 comes after 40",
         "hint": "list the levels lowest first, e.g. [20, 30, 40]"}]


@pytest.mark.parametrize("name", ["python-tag.yaml", "alias-bomb.yaml", "circular-a.yaml", "empty.yaml"])
def test_the_validate_command_exits_2_without_a_traceback(name):
    done = subprocess.run([sys.executable, "-m", "chimera_dsl", "validate", f"invalid/{name}"],
                          capture_output=True, text=True, cwd=FIXTURES)
    assert done.returncode == 2
    assert "Traceback" not in done.stdout + done.stderr
    assert done.stderr == (FIXTURES / "invalid" / name).with_suffix(".expected").read_text(encoding="utf-8")


def test_the_official_files_validate(capsys):
    code = run(["validate", str(OFFICIAL), str(FRENCH), str(GERMAN)])
    out, err = capsys.readouterr()
    assert code == 0 and err == ""
    assert out.count(": ok\n") == 3


def test_a_phase_section_written_as_a_string_is_a_located_problem_not_a_crash(tmp_path):
    from chimera_dsl.variant import check_variant
    path = tmp_path / "mine.yaml"
    mu = Path(__file__).resolve().parents[1] / "variants" / "others" / "mu.yaml"
    path.write_text(f"extends: {mu}\nscoring: ' '\n")
    problems = check_variant(path)
    assert any("scoring must be a map" in str(p) for p in problems), problems
