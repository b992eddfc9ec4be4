"""Tichu (variants/others/tichu.yaml): each rule quoted in the file, held here by a scripted deal,
and every command on the file.  The keys it brought (effects lead_to, trick_to, wish, move at
round_end; play.floating; play.teams in climbing play; the transfer from each to each other)
are general: tests/test_effects.py, test_wish.py, test_round_end_moves.py, test_transfer_each.py
say what they do for any file."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from chimera_dsl import load_variant
from scripted import act_cards as _act
from chimera_dsl.cli import run
from chimera_dsl.engine import PASS, Deal, Game
from chimera_dsl.players import make_player, play_game
from chimera_dsl.tell.record import replay

ROOT = Path(__file__).resolve().parents[1]
TICHU = ROOT / "variants" / "others" / "tichu.yaml"


@pytest.fixture(scope="module")
def rules():
    return load_variant(TICHU)


@pytest.fixture(scope="module")
def no_pass(tmp_path_factory):
    """Tichu without the pass of cards, so that a scripted deal is what each seat plays, and seat 0
    (after the dealer, seat 3) leading the first trick wherever the Mah Jong is."""
    path = tmp_path_factory.mktemp("tichu") / "tichu-no-pass.yaml"
    path.write_text(f"extends: {TICHU}\nround: [deal, play, scoring]\nphases: null\n"
                    "deal: {first: null, rest_after: null}\nplay: {first_leader: dealer_left}\n", encoding="utf-8")
    return load_variant(path)


def _game(rules, *hands, dealer=3):
    deck = rules.deck
    deal = Deal(tuple(deck.cards_mask(h) if h else 0 for h in hands), 0, None)
    return Game(rules, max_rounds=1).new_game(0, deals=iter([deal]), first_dealer=dealer)




def _plays(state):
    return {" ".join(a.play.cards) for a in state.legal_actions() if a.kind == "play"}


def test_the_mah_jong_leads_and_its_wish_must_be_met_when_it_can_be(no_pass):
    # [TRS] "if the wished for card can legally be played it must be played"
    state = _game(no_pass, "1 9/jade", "8/jade 3/swords", "Q/jade 4/swords", "8/swords K/jade")
    _act(state, 0, "1")
    assert state.wishing is not None                     # the player of the Mah Jong wishes
    eight = no_pass.deck.index["8"]
    state.apply_action(next(a for a in state.legal_actions() if a.kind == "wish" and a.cards == eight))
    assert state.current_player() == 1
    assert _plays(state) == {"8/jade"} and PASS not in state.legal_actions()   # it must play its 8
    _act(state, 1, "8/jade")
    assert state.wish is None                            # met
    assert PASS in state.legal_actions()                 # seat 2 may pass again
    _act(state, 2, "Q/jade")


def test_the_phoenix_single_lies_half_a_rank_above_the_single_it_beats(no_pass):
    # [TRS] "Phoenix is 1.5 when leading, or exactly 0.5 higher than the previous single"
    state = _game(no_pass, "7/jade 2/jade", "P 3/swords", "7/swords 8/swords 2/stars", "X 4/stars", dealer=3)
    _act(state, 0, "7/jade")
    _act(state, 1, "P")
    assert _plays(state) == {"8/swords"}                 # a 7 does not beat 7.5, an 8 does
    _act(state, 2, "8/swords")
    assert "X" in _plays(state)
    led = _game(no_pass, "P 5/jade", "1 2/jade", "3/jade", "4/jade", dealer=3)
    _act(led, 0, "P")                                    # led: 1.5
    assert _plays(led) == {"2/jade"}                     # the Mah Jong does not beat it, a 2 does
    dragon = _game(no_pass, "X 5/jade", "P 2/jade", "3/jade", "4/jade", dealer=3)
    _act(dragon, 0, "X")
    assert "P" not in _plays(dragon)                     # [BSW] not on the Dragon


def test_the_dog_passes_the_lead_to_the_partner_and_no_bomb_takes_it(no_pass):
    # [BSW] "can only be played as a lead ... the lead goes to the partner"
    state = _game(no_pass, "D 5/jade", "9/jade 9/swords 9/stars 9/pagodas 3/jade", "6/jade 7/jade", "8/jade 2/jade",
                  dealer=3)
    assert "D" in _plays(state)
    _act(state, 0, "D")
    assert not state.interrupting                        # [FAQ] bombs cannot take the hound
    assert state.current_player() == 2 and state.last_play is None     # the partner leads
    trick = [e for e in state.events if e["type"] == "trick"][-1]
    assert trick["cards"] == ["D"]
    # a bomb out of turn: seat 2, after seat 1 whose turn is next, is offered one on a single
    offered = _game(no_pass, "5/jade 2/jade", "6/swords 3/jade", "9/jade 9/swords 9/stars 9/pagodas 3/stars",
                    "8/jade 2/swords", dealer=3)
    _act(offered, 0, "5/jade")
    assert offered.interrupting and offered.current_player() == 2
    assert {frozenset(p.split()) for p in _plays(offered)} == {frozenset("9/jade 9/swords 9/stars 9/pagodas".split())}
    on_single = _game(no_pass, "5/jade 2/jade", "D 3/jade", "6/jade", "7/jade", dealer=3)
    _act(on_single, 0, "5/jade")
    assert "D" not in _plays(on_single)                  # never an answer


def test_a_trick_won_by_the_dragon_goes_to_an_opponent_of_the_winners_choice(no_pass):
    # [BGA] "a trick won with the Dragon must be given to an opponent"
    state = _game(no_pass, "X 5/jade", "A/jade 3/jade", "6/jade 7/jade", "8/jade 2/jade", dealer=3)
    _act(state, 0, "X")
    _act(state, 1, None)
    _act(state, 2, None)
    _act(state, 3, None)
    assert state.choosing == (1, 3)
    state.apply_action(next(a for a in state.legal_actions() if a.cards == 3))
    trick = [e for e in state.events if e["type"] == "trick"][-1]
    assert trick["winner"] == 0 and trick["given_to"] == 3
    assert state.current_player() == 0                  # the winner leads on
    bombed = _game(no_pass, "X 5/jade", "9/jade 9/swords 9/stars 9/pagodas 3/jade", "6/jade 7/jade", "8/jade 2/jade",
                   dealer=3)
    _act(bombed, 0, "X")
    _act(bombed, 1, "9/jade 9/swords 9/stars 9/pagodas")              # a bomb takes the Dragon
    while bombed.current_player() != 1 or bombed.last_play is not None:
        bombed.apply_action(PASS)
    trick = [e for e in bombed.events if e["type"] == "trick"][-1]
    assert trick["winner"] == 1 and "given_to" not in trick          # [FAQ] "No": a bombed Dragon


def test_bombs_rank_by_kind_and_length(rules):
    # [BSW] "Bombs: Four of a kind; and one-coloured straights.  Size of the bomb"
    assert rules.beats("A/jade A/swords A/stars A/pagodas", "2/jade 3/jade 4/jade 5/jade 6/jade")
    assert not rules.beats("2/jade 3/jade 4/jade 5/jade 6/jade", "A/jade A/swords A/stars A/pagodas")
    assert rules.beats("9/swords 10/swords J/swords Q/swords K/swords", "2/jade 3/jade 4/jade 5/jade 6/jade 7/jade")
    assert not rules.beats("2/jade 3/jade 4/jade 5/jade 6/jade 7/jade", "9/swords 10/swords J/swords Q/swords K/swords")
    assert rules.beats("X", "2/jade 2/swords 2/stars 2/pagodas")                   # a bomb beats the Dragon
    assert [p.combination for p in rules.classify("2/jade 3/jade 4/jade 5/jade 6/jade")] == ["sf5"]


def test_the_phoenix_completes_pairs_triples_full_houses_straights_and_stairs_never_bombs(rules):
    # [TRS] "Phoenix may stand in for the missing mate", "may complete the triple", "may help
    # form either part"; no part of a bomb
    read = lambda cards: sorted({p.combination for p in rules.classify(cards)})
    assert read("7/jade P") == ["pair"]
    assert read("7/jade 7/swords P") == ["triple"]
    assert read("7/jade 7/swords P K/jade K/stars") == ["full_house"]
    assert read("7/jade 7/swords 7/stars K/jade P") == ["full_house_phoenix_pair"]
    assert read("1 2/jade 3/swords P 5/stars") == ["straight"]                     # [TRS] the Mah Jong as 1
    assert read("4/jade 4/swords 5/jade P") == ["stairs"]
    assert read("9/jade 9/swords 9/stars P") == []                                  # no bomb with the Phoenix
    assert rules.beats("3/jade 3/swords 3/stars 2/jade 2/swords", "4/jade 4/swords P 2/stars 2/pagodas")
    assert rules.beats("4/jade 4/swords P 2/stars 2/pagodas", "5/jade 5/swords 5/stars 3/jade P")


def test_the_last_player_pays_and_a_double_victory_scores_200(no_pass):
    # [BSW] "The last player ... must give his remaining hand cards to the opponents and the
    # tricks he has won to the player who went out first."
    state = _game(no_pass, "K/jade", "5/jade 10/jade", "K/swords 2/jade", "3/jade 4/jade 5/swords", dealer=3)
    _act(state, 0, "K/jade")                             # out first: place 1
    _act(state, 1, None)
    _act(state, 2, None)
    _act(state, 3, None)                                 # seat 0 took K/jade (10); seat 1 leads on
    _act(state, 1, "5/jade")
    _act(state, 2, "K/swords")
    _act(state, 3, None)
    _act(state, 1, None)                                 # seat 2 takes 5 + K (15)
    _act(state, 2, "2/jade")                             # place 2: seat 2 (team 0 out: a double victory)
    end = [e for e in state.events if e["type"] == "round_end"][-1]
    assert end["places"][:2] == [0, 2]
    assert end["points"] == [200, 0, 200, 0]             # [TRS] 200, and the cards are not counted
    state = _game(no_pass, "K/jade", "5/jade 10/jade", "K/swords 2/jade 2/swords", "3/jade", dealer=3)
    _act(state, 0, "K/jade")                             # place 1
    _act(state, 1, None)
    _act(state, 2, None)
    _act(state, 3, None)
    _act(state, 1, "5/jade")
    _act(state, 2, "K/swords")
    _act(state, 3, None)
    _act(state, 1, None)                                 # seat 2 takes 5 + K: 15
    _act(state, 2, "2/jade")
    _act(state, 3, "3/jade")                             # out: place 2
    _act(state, 1, "10/jade")                            # out: place 3; seat 2 is last, holding 2/swords
    end = [e for e in state.events if e["type"] == "round_end"][-1]
    assert end["places"] == [0, 3, 1, 2]
    # seat 2's tricks (15) go to seat 0; its hand (no points) to seat 3; the last trick (10/jade,
    # 3/jade, 2/jade) is seat 1's
    assert end["treasures"] == [25, 10, 0, 0]
    assert end["points"] == [25, 10, 25, 10]


def test_every_seat_passes_one_card_to_each_other(rules):
    state = Game(rules).new_game(4)
    while state.kind == "calls":                          # no Grand Tichu
        state.apply_action(state.legal_actions()[0])
    asked = []
    while state.kind == "transfer":
        asked.append((state.current_player(), state.observation(state.current_player()).give_to))
        state.apply_action(state.legal_actions()[0])
    assert sorted(asked) == sorted((g, r) for g in range(4) for r in range(4) if g != r)
    assert all(len(e["cards"]) == 1 for e in state.events if e["type"] == "exchange")
    # [BSW] "The player with the 1 (Mahjongg) has the first lead": after the pass of cards
    assert state.current_player() == state.holder_of(rules.deck.numbers_of(rules.deck.cards_mask("1"))[0])


def test_random_games_end_and_replay(rules):
    for seed in range(4):
        final = play_game(Game(rules, max_rounds=3), [make_player("random", seed * 4 + s) for s in range(4)], seed)
        assert final.is_terminal()
        lines = json.loads(json.dumps(final.events))
        assert replay(lines, rules).returns() == final.returns()
        for end in (e for e in lines if e["type"] == "round_end"):
            assert end["points"][0] == end["points"][2] and end["points"][1] == end["points"][3]
            double = sum(1 for s in range(4) if end["cards_left"][s]) == 2
            assert sum(end["treasures"]) == (0 if double else 100)


def test_every_command_works(tmp_path, capsys):
    path = str(TICHU)
    assert run(["validate", path]) == 0
    log = tmp_path / "game.jsonl"
    assert run(["run", path, "--seed", "2", "--players", "heuristic,random,search,random", "--search-budget", "6",
                "--target", "300", "--log", str(log)]) == 0
    told = capsys.readouterr().out
    assert "places:" in told
    assert run(["replay", str(log)]) == 0
    assert capsys.readouterr().out.strip().splitlines()[-1] == told.strip().splitlines()[-1]
    for lang, words in (("en", "Dragon"), ("fr", "Phénix"), ("de", "Hund"), ("it", "Fenice")):
        assert run(["rules", path, "--lang", lang]) == 0
        assert words in capsys.readouterr().out
    assert run(["simulate", path, "--games", "6", "--workers", "1", "--target", "200"]) == 0
    assert "6 games" in capsys.readouterr().out
    assert run(["beats", path, "--over", "A/jade", "X"]) == 0
    assert run(["classify", path, "4/jade 4/swords 5/jade P"]) == 0
    assert "stairs" in capsys.readouterr().out


def test_the_default_player_gives_the_dragon_to_the_opponent_with_most_cards_and_wishes_for_unseen(no_pass):
    state = _game(no_pass, "X 5/jade", "A/jade 3/jade", "6/jade 7/jade", "8/jade 2/jade 4/swords", dealer=3)
    _act(state, 0, "X")
    for seat in (1, 2, 3):
        _act(state, seat, None)
    player = make_player("heuristic", 0)
    choice = player.act(state.observation(0), state.legal_actions())
    assert choice.kind == "trick_to" and choice.cards == 3          # 3 cards against 2
    wish = _game(no_pass, "1 A/jade 9/jade", "8/jade 3/swords", "Q/jade 4/swords", "8/swords K/jade")
    _act(wish, 0, "1")
    choice = player.act(wish.observation(0), wish.legal_actions())
    assert choice.kind == "wish" and no_pass.deck.ranks[choice.cards] == "K"   # not the A it holds


def test_a_tichu_is_called_before_the_first_card_and_scores_100_either_way(no_pass):
    # [BGA] "at any time before playing his first card, a player can call 'Tichu', a 100-point bet"
    state = _game(no_pass, "K/jade", "5/jade 10/jade", "K/swords 2/jade", "3/jade 4/jade 5/swords", dealer=3)
    calls = [a for a in state.legal_actions() if a.kind == "call"]
    assert len(calls) == 1
    state.apply_action(calls[0])                          # seat 0 calls Tichu: still its turn
    assert state.current_player() == 0 and not [a for a in state.legal_actions() if a.kind == "call"]
    _act(state, 0, "K/jade")                              # and goes out first
    _act(state, 1, None)
    assert not [a for a in state.legal_actions() if a.kind == "call"] or state.current_player() == 2
    for seat in (2, 3):
        _act(state, seat, None)
    _act(state, 1, "5/jade")
    _act(state, 2, "K/swords")
    _act(state, 3, None)
    _act(state, 1, None)
    _act(state, 2, "2/jade")                              # a double victory with the Tichu
    end = [e for e in state.events if e["type"] == "round_end"][-1]
    assert end["points"] == [300, 0, 300, 0]              # 200 for the double, 100 for the Tichu
    failed = _game(no_pass, "K/jade 3/swords", "A/jade", "2/swords", "4/swords", dealer=3)
    failed.apply_action(next(a for a in failed.legal_actions() if a.kind == "call"))
    _act(failed, 0, "K/jade")
    _act(failed, 1, "A/jade")                             # seat 1 goes out first: the Tichu fails
    end = [e for e in failed.events if e["type"] == "round_end"]
    while not end:
        failed.apply_action(failed.legal_actions()[0])
        end = [e for e in failed.events if e["type"] == "round_end"]
    assert end[-1]["points"][0] - end[-1]["treasures"][0] - end[-1]["treasures"][2] == -100


def test_grand_tichu_is_called_on_eight_cards(rules):
    # [BGA] "Each player receives eight cards and may call 'Grand Tichu'"
    state = Game(rules, max_rounds=1).new_game(7)
    assert state.phase == "grand"
    for _ in range(4):
        seat = state.current_player()
        assert len(state.observation(seat).cards) == 8
        state.apply_action(state.legal_actions()[-1] if seat == 1 else state.legal_actions()[0])
    assert state.phase == "pass_cards" and len(state.observation(0).cards) == 14
    assert [e["call"] for e in state.events if e["type"] == "call"].count("grand_tichu") == 1


def test_random_games_reach_the_target(rules):
    for seed in range(3):
        final = play_game(Game(rules), [make_player("random", seed * 4 + s) for s in range(4)], seed)
        assert final.is_terminal() and max(final.totals) >= 1000
