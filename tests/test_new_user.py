"""Traps a new user met writing games the project does not ship (Whist, Sheepshead, Daifugo)
from the documentation alone: each is now refused where it is written, or told right."""
from __future__ import annotations

from pathlib import Path

import pytest

import chimera_dsl
from chimera_dsl.cli import run
from scripted import problems, write  # noqa: E402  (the helpers next to this file)

# A climbing game of 52 cards and a joker, 3 low and 2 high (Daifugo's deck).
CLIMBING = """\
format: 1
name: a climbing sketch
players: 4
deck:
  ranks: ["3", "4", "5", "6", "7", "8", "9", "10", J, Q, K, A, "2", JK]
  colours: [clubs, diamonds, hearts, spades, joker]
  wild_colours: [joker]
  cards:
    - {ranks: "3..2", per_colour: 1, colours: [clubs, diamonds, hearts, spades]}
    - {ranks: JK, copies: 1, colour: joker}
  sequence: "3..2"
  groups: {plain: "3..2"}
deal: {hand: 13, rest: dealt}
play:
  first_leader: dealer_left
  round_ends_when: out_count >= players - 1
  effects:
    - {when: "play_has(8)", do: end_trick}
combinations:
  single: {pattern: "single of any"}
  pair: {pattern: "pair of plain, wild JK"}
  run: {pattern: "3+ consecutive singles of plain, same colour, wild JK"}
scoring:
  points: {each: "if place == 1 then 2 else 0"}
end: {rounds: 4, ties: shared}
"""


def test_the_sketch_loads_and_its_joker_stands_in_a_run(tmp_path):
    rules = chimera_dsl.load_variant(write(tmp_path, CLIMBING))
    assert rules.classify("5/clubs 6/clubs JK")


def test_a_wild_card_without_a_colour_in_a_same_colour_pattern_is_refused_at_its_rank(tmp_path):
    # a joker of no colour could never stand in a run of one colour: the file used to load and
    # silently play runs without it
    text = (CLIMBING.replace("colours: [clubs, diamonds, hearts, spades, joker]", "colours: [clubs, diamonds, hearts, spades]")
            .replace("  wild_colours: [joker]\n", "").replace(", colour: joker}", "}")
            .replace(", colours: [clubs, diamonds, hearts, spades]}", "}"))
    path = write(tmp_path, text)
    found = problems(path)
    assert len(found) == 1
    problem = found[0]
    assert "JK has no colour" in problem.message and "same colour" in problem.message
    assert "wild_colours" in problem.hint
    line = text.splitlines()[problem.line - 1]
    assert line[problem.column - 1:].startswith("JK\"}")


def test_the_rulebook_says_the_rank_at_the_place_play_rank_is_compared_with(tmp_path, capsys):
    # ranks 3 to 2: play_rank counts places, so play_rank == 8 holds for the 10; the rulebook used
    # to say "the rank of the play is 8", which a reader takes for the 8
    text = CLIMBING.replace('"play_has(8)"', '"play_rank == 8"')
    assert run(["rules", write(tmp_path, text)]) == 0
    line = next(l for l in capsys.readouterr().out.splitlines() if "ends at once" in l)
    assert "the rank of the play is 10," in line


def test_rank_of_a_rank_is_its_place_and_an_8_stops_the_trick(tmp_path):
    # play_rank == rank(8): a play ranked 8 (the 8's place, 6) ends the trick; the 10 (place 8) does not
    from chimera_dsl.engine import Game
    from chimera_dsl.players import make_player, play_game
    text = CLIMBING.replace('"play_has(8)"', '"play_rank == rank(8)"')
    rules = chimera_dsl.load_variant(write(tmp_path, text))
    stops, others = 0, 0
    for seed in range(6):
        final = play_game(Game(rules), [make_player("random", seed * 4 + s) for s in range(4)], seed)
        events = final.events
        for i, e in enumerate(events[:-1]):
            if e["type"] != "play":
                continue
            ended = events[i + 1]["type"] == "effect" and events[i + 1].get("do") == "end_trick"
            if e["rank"] == 6:
                assert ended
                stops += 1
            else:
                assert not ended
                others += 1
    assert stops and others


def test_the_rulebook_says_rank_of_a_rank_by_its_name(tmp_path, capsys):
    text = CLIMBING.replace('"play_has(8)"', '"play_rank == rank(8)"')
    assert run(["rules", write(tmp_path, text)]) == 0
    out = capsys.readouterr().out
    line = next(l for l in out.splitlines() if "ends at once" in l)
    assert "8" in line and "rank(" not in line


def test_an_expression_in_a_list_entry_is_placed_at_its_character(tmp_path):
    # play.effects[0].when: the error used to point at the value's first character, without the line
    text = CLIMBING.replace('"play_has(8)"', '"play_hass(8)"')
    problem = problems(write(tmp_path, text))[0]
    line = text.splitlines()[problem.line - 1]
    assert line[problem.column - 1:].startswith('play_hass(8)')
    assert "play_hass" in str(problem) and "^" in str(problem)


WHIST = """\
format: 1
name: a whist sketch
players: 4
deck:
  ranks: ["2", "3", "4", "5", "6", "7", "8", "9", "10", J, Q, K, A]
  colours: [clubs, diamonds, hearts, spades]
  cards:
    - {ranks: "2..A", per_colour: 1}
deal: {hand: 13, face_up: true}
play: {kind: tricks, first_leader: dealer_left, teams: [[0, 2], [1, 3]], trump: turned}
scoring:
  points: {each: {tricks: "max(0, side_tricks - 6)"}}
end: {target: 5, ties: shared}
"""


def test_a_trick_taking_rulebook_tells_the_card_dealt_face_up_and_its_trump(tmp_path, capsys):
    # every card dealt, one turned face up into a hand for trump: the rulebook said neither
    path = write(tmp_path, WHIST)
    assert run(["rules", path]) == 0
    out = capsys.readouterr().out
    assert "turned face up" in out and "The colour of the turned card is trump for the round." in out
    assert run(["rules", path, "--lang", "fr"]) == 0
    assert "atout" in capsys.readouterr().out.split("##")[2]


def test_a_plain_order_naming_a_rank_twice_is_refused_at_the_second(tmp_path):
    # a typo (A for 2 at the end) loaded, the ace ranking where its first mention put it and the 2
    # ranking nowhere; trump_order and a solo game's plain_order already refused it
    order = '[A, K, Q, J, "10", "9", "8", "7", "6", "5", "4", "3", A]'
    text = WHIST.replace("trump: turned}", f"trump: turned, plain_order: {order}}}")
    found = problems(write(tmp_path, text))
    assert len(found) == 1 and "names A a second time" in found[0].message
    line = text.splitlines()[found[0].line - 1]
    assert line[found[0].column - 1:].startswith("A]")


SOLO_WITH_PARTNER = """\
format: 1
name: a picker and a partner
players: 5
deck:
  ranks: ["7", "8", "9", K, "10", A, J, Q]
  colours: [diamonds, hearts, spades, clubs]
  cards:
    - {ranks: "7..Q", per_colour: 1}
roles: {bidder: {en: picker}, partner: {en: partner}}
deal: {nest: 2, hand: 6}
round: [deal, picking, partner, play, scoring]
phases:
  picking:
    kind: solo
    bids: games
    stock: taken
    games:
      picker: {trump: diamonds, top_trumps: [Q/clubs, Q/spades, Q/hearts, Q/diamonds, J/clubs, J/spades, J/hearts, J/diamonds]}
  partner: {kind: partner}
play: {kind: tricks, plain_order: [A, "10", K, "9", "8", "7"], points: {A: 11, "10": 10, K: 4, Q: 3, J: 2}}
scoring:
  bidder_won: "bidder_side_points >= 61"
  points:
    bidder: "if bidder_won then 2 else -2"
    partner: "if bidder_won then 1 else -1"
    others: "if bidder_won then -1 else 1"
end: {rounds: 4, ties: shared}
"""


def test_a_declarer_who_names_a_partner_is_not_told_alone_against_the_others(tmp_path, capsys):
    # a solo phase followed by a partner phase (Sheepshead's picker): the game and the rulebook said
    # "alone against the others", then named the partner
    path = write(tmp_path, SOLO_WITH_PARTNER)
    assert run(["run", path, "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "plays picker" in out and "as partner" in out and "alone" not in out
    for lang in ("en", "fr", "de", "it"):
        assert run(["rules", path, "--lang", lang]) == 0
        book = capsys.readouterr().out
        assert not any(w in book for w in ("alone against", "seul contre", "allein gegen", "solo, contro")), lang


def test_a_trick_play_without_first_leader_is_led_from_the_dealer_s_left(tmp_path):
    # the format's default for a trick play; the schema's climbing default (bidder) was filled in,
    # and the file refused: "the first leader is the bidder, but the variant has no bidding"
    from chimera_dsl.engine import Game
    from chimera_dsl.players import make_player, play_game
    rules = chimera_dsl.load_variant(write(tmp_path, WHIST.replace("first_leader: dealer_left, ", "")))
    final = play_game(Game(rules), [make_player("random", s) for s in range(4)], 3)
    deals = [e for e in final.events if e["type"] == "deal"]
    leads = [next(e for e in final.events[final.events.index(d):] if e["type"] == "card") for d in deals]
    assert leads and all(lead["seat"] == (d["dealer"] + 1) % 4 for d, lead in zip(deals, leads))


def test_a_solo_phase_names_the_bidder_who_may_lead(tmp_path):
    # first_leader: bidder after a solo phase not called 'bidding': refused as "no bidding" before
    text = SOLO_WITH_PARTNER.replace("play: {kind: tricks,", "play: {kind: tricks, first_leader: bidder,")
    assert chimera_dsl.load_variant(write(tmp_path, text)).path
    # and without any phase naming a bidder, the message says which phases would
    text = WHIST.replace("first_leader: dealer_left", "first_leader: bidder")
    found = problems(write(tmp_path, text))
    assert len(found) == 1 and "no phase of the round names a bidder" in found[0].message


def test_a_fact_written_as_a_condition_is_said_as_the_number_it_counts(tmp_path, capsys):
    # "schneider is the bidding side's card points is at most 30 or ..." read as nonsense; the
    # fact is 1 when its condition holds, else 0, and the rulebook now says so
    text = SOLO_WITH_PARTNER.replace("scoring:\n", 'scoring:\n  facts:\n    schneider: "bidder_side_points <= 30"\n')
    path = write(tmp_path, text)
    assert run(["rules", path]) == 0
    assert "*schneider* is 1 when the bidding side's card points are at most 30, otherwise 0." \
        in capsys.readouterr().out
    assert run(["rules", path, "--lang", "fr"]) == 0
    assert "vaut 1 quand" in capsys.readouterr().out


def test_the_documented_whist_deal_turns_the_dealer_s_card_for_trump(tmp_path):
    # docs/variant-format.md, play.trump: turned: an upper part of 4 cards puts the face-up card 48th
    from chimera_dsl.engine import Game
    from chimera_dsl.players import make_player, play_game
    text = WHIST.replace("deal: {hand: 13, face_up: true}", "deal: {hand: 13, face_up: true, cut: {from: 4, to: 4}}")
    rules = chimera_dsl.load_variant(write(tmp_path, text))
    final = play_game(Game(rules), [make_player("random", s) for s in range(4)], 5)
    deals = [e for e in final.events if e["type"] == "deal"]
    assert deals and all(d["face_up"]["seat"] == d["dealer"] for d in deals)
    assert all(d["face_up"]["card"] in d["hands"][d["dealer"]] for d in deals)


def test_a_cut_of_one_size_is_told_as_that_size(tmp_path, capsys):
    # "the upper part holds 4 to 4 cards"
    text = WHIST.replace("deal: {hand: 13, face_up: true}", "deal: {hand: 13, face_up: true, cut: {from: 4, to: 4}}")
    assert run(["rules", write(tmp_path, text)]) == 0
    out = capsys.readouterr().out
    assert "The dealer cuts so that the upper part holds 4 cards." in out and "4 to 4" not in out


def test_an_8_that_stops_the_trick_as_its_player_goes_out_hands_the_lead_on_under_final_passes(tmp_path):
    # play.pass_final and an effect end_trick: a player going out on the 8 passed the lead to the
    # next seat still in that had not passed, or, every other seat having passed, to itself with no
    # cards left; the game then offered that seat no action (an IndexError in the random player)
    from chimera_dsl.engine import Game
    from chimera_dsl.players import make_player
    text = CLIMBING.replace("  round_ends_when: out_count >= players - 1\n",
                            "  round_ends_when: out_count >= players - 1\n  pass_final: true\n")
    text = text.replace("end: {rounds: 4, ties: shared}", "end: {rounds: 1, ties: shared}")
    rules = chimera_dsl.load_variant(write(tmp_path, text))
    checked = 0
    for seed in range(400):
        state = Game(rules).new_game(seed)
        players = [make_player("random", seed * 4 + s) for s in range(4)]
        while not state.is_terminal():
            legal = state.legal_actions()
            assert legal, f"seed {seed}: seat {state.current_player()} has no action"
            state.apply_action(players[state.current_player()].act(None, legal))
        passed: set = set()
        events = state.events
        for i, e in enumerate(events):
            passed = set() if e["type"] == "trick" else passed | ({e["seat"]} if e["type"] == "pass" else set())
            if e["type"] == "effect" and e["do"] == "end_trick" and events[i - 1].get("place") \
                    and e["lead"] in passed | {e["seat"]}:
                assert e["lead"] != e["seat"]          # a seat that passed in the trick leads the next
                checked += 1
        if checked >= 3:
            break
    assert checked >= 3


@pytest.mark.parametrize("written, hint", [
    ("left_of_dealer", "write {left_of: dealer}"),
    ("dealer_right", "write {right_of: dealer}"),
    ("next_of_bidder", "write {next_of: bidder}"),
])
def test_a_seat_beside_another_written_as_one_word_is_told_the_map_to_write(tmp_path, written, hint):
    # 'left_of_dealer' was answered "did you mean 'dealer'?", the seat the file did not mean
    found = problems(write(tmp_path, WHIST.replace("first_leader: dealer_left", f"first_leader: {written}")))
    assert len(found) == 1 and f"'{written}' names no seat" in found[0].message
    assert found[0].hint.startswith(hint)


def test_ranks_a_plain_order_leaves_out_are_told_equal(tmp_path, capsys):
    # Sheepshead's queens and jacks are trumps in every game, so its plain order leaves them out;
    # the rulebook ranked them "7 > J > Q", an order the play does not have
    assert run(["rules", write(tmp_path, SOLO_WITH_PARTNER)]) == 0
    assert "strongest first: A > 10 > K > 9 > 8 > 7 > J = Q." in capsys.readouterr().out


def test_the_terminal_table_lists_a_solo_game_by_name_and_shows_no_target_in_a_game_of_rounds(tmp_path):
    # `?` listed the game as "#2 game" while the prompt asked for "picker", and a game of a number
    # of rounds showed "target 0"
    import subprocess
    import sys
    path = write(tmp_path, SOLO_WITH_PARTNER)
    typed = "?\n" + "#1\n" * 40 + "quit\n"
    done = subprocess.run([sys.executable, "-m", "chimera_dsl", "play", path, "--seat", "0", "--seed", "3"],
                          input=typed, capture_output=True, text=True, timeout=120,
                          cwd=str(Path(__file__).resolve().parent.parent))
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Your choice (pass, picker)> " in out
    assert "  #2   picker" in out and "  #2   game" not in out
    assert "scores: seat 0 (you) 0," in out and "target 0" not in out
    assert " is the picker" in out and "the picker at 0" not in out


def test_the_german_rulebook_says_who_names_a_game_first_in_the_dative(tmp_path, capsys):
    # "Beginnend mit der Spieler nach dem Geber": after "mit" the seat is dative, as the bids say it
    assert run(["rules", write(tmp_path, SOLO_WITH_PARTNER), "--lang", "de"]) == 0
    out = capsys.readouterr().out
    assert "Beginnend mit dem Spieler nach dem Geber sagt jeder Spieler" in out
    assert "mit der Spieler" not in out


def test_a_partner_phase_before_the_solo_phase_is_told_which_phases_name_a_bidder(tmp_path):
    # the hint named only bidding and auction, while the file's solo phase, put after, names one too
    text = SOLO_WITH_PARTNER.replace("round: [deal, picking, partner, play, scoring]",
                                     "round: [deal, partner, picking, play, scoring]")
    found = problems(write(tmp_path, text))
    assert len(found) == 1 and "a partner phase needs a bidder" in found[0].message
    assert "solo phase names a bidder too" in found[0].hint
