"""`chimera play`: a person at one seat, driven here by scripted input streams.

Whole games are played through HumanPlayer against seeded bots; the person's output must
never show a card it may not see; mistyped and illegal input is answered and asked again;
ambiguous cards ask which reading; the end of the input leaves cleanly.
"""
from __future__ import annotations

import io
import json
import re
import subprocess
import sys

import pytest

from chimera_dsl.cli import run
from chimera_dsl.engine import PASS, Game
from chimera_dsl.players import make_player
from chimera_dsl.players.human import HumanPlayer, LeftTheTable, play_at_table, table_players
from chimera_dsl.tell.printer import Teller, tell
from chimera_dsl.tell.record import dumps, replay
from scripted import OFFICIAL, ROOT, deal, official, ranks_of, script, start, variant

TICHU = ROOT / "variants" / "house_rules" / "tichu-bombs.yaml"


class Typist(io.StringIO):
    """An input stream that answers each prompt from what the person was shown so far.

    It plays by typing cards, not numbers: the lowest card of the hand as a lead, the highest
    on a single (and, told that it does not beat, pass), pass otherwise.
    """

    def __init__(self, output: io.StringIO, limit: int = 5000):
        super().__init__()
        self.out = output
        self.limit = limit
        self.typed: list[str] = []
        self.answered = 0

    def readline(self, *args) -> str:
        if len(self.typed) >= self.limit:
            return ""
        shown = self.out.getvalue()
        again = "\n== Round " not in shown[self.answered:]
        self.answered = len(shown)
        prompt = shown[shown.rfind("\n") + 1:]
        hand = re.findall(r"your hand \(\d+ cards?\): (.*)", shown)[-1].split()
        if prompt.startswith("Give "):
            count = int(prompt.split()[1])
            line = ",".join(hand[:count])
        elif prompt.startswith("Your lead"):
            line = hand[0].lower()
        elif prompt.startswith("Beat ") and "[Single" in prompt and not again:
            line = hand[-1]
        else:
            line = "pass" if len(self.typed) % 2 else "-"
        self.typed.append(line)
        return line + "\n"


def numbered(count: int = 20000) -> io.StringIO:
    """Input that always takes the first legal choice."""
    return io.StringIO("#1\n" * count)


def play_scripted(rules, seed, seat, typed, players="random", target=60):
    out = io.StringIO()
    stream = typed(out) if callable(typed) else typed
    human = HumanPlayer(stream, out)
    game = Game(rules, target=target)
    state = play_at_table(game, table_players(players, game.players, seat, seed, human), seed, seat, human)
    return state, out.getvalue()


def assert_sees_only_its_own_cards(state, text: str, seat: int) -> None:
    """No hidden card of another seat or of the nest shows in the person's output."""
    lines = text.splitlines()
    deals = [i for i, line in enumerate(lines) if re.match(r"Round \d+: seat \d", line)]
    assert deals
    for i in deals:                 # the deal: one line per seat, then the nest
        for other in range(3):
            told = re.fullmatch(rf"  seat {other}(?: \(you\))?: (.*)", lines[i + 1 + other])
            assert told, lines[i + 1 + other]
            if other != seat:
                assert re.fullmatch(r"\d+ cards", told.group(1)), lines[i + 1 + other]
    for line in lines:
        if line.startswith("  exchange: seat ") and " gives " in line and ": " in line[len("  exchange: "):]:
            assert "(you)" in line, line
        if re.search(r"nest[^,;]*: ", line):
            assert line.endswith("nest: 3 cards, face down") or "the nest (you took it): " in line, line
    for event in state.events:
        if event["type"] == "deal":
            for other, hand in enumerate(event["hands"]):
                if other != seat:
                    assert " ".join(ranks_of(hand)) not in text


# -- whole games ------------------------------------------------------------------------------

@pytest.mark.parametrize("seed, seat, players", [(1, 0, "random"), (2, 1, "heuristic"), (3, 2, "random,heuristic")])
def test_a_whole_game_by_numbered_choices_sees_only_its_own_cards(seed, seat, players):
    state, text = play_scripted(official(), seed, seat, numbered(), players)
    assert state.is_terminal()
    assert "Game over after " in text and text.rstrip().splitlines()[-1].startswith("seat ")
    assert "Seats: " in text and f"{seat} human" in text
    assert text.count("your turn, seat ") >= 2
    assert_sees_only_its_own_cards(state, text, seat)
    # the human's decisions form a legal game record
    assert replay(json_events(state.events), official()).events[-1] == state.events[-1]


def json_events(events):
    return [json.loads(line) for line in dumps(events).splitlines()]


@pytest.mark.parametrize("seed, seat", [(4, 0), (5, 1), (6, 2)])
def test_a_whole_game_typing_cards_against_bots(seed, seat):
    typist = {}

    def typed(out):
        typist["stream"] = Typist(out)
        return typist["stream"]

    state, text = play_scripted(official(), seed, seat, typed, "heuristic,random")
    assert state.is_terminal()
    assert_sees_only_its_own_cards(state, text, seat)
    typed_lines = typist["stream"].typed
    assert any(line in ("pass", "-") for line in typed_lines)
    # every card the human led, typed in lower case, was played as a single by seat (you)
    assert re.search(rf"seat {seat} \(you\) plays \S+ \[Single", text)
    mine = [e for e in state.events if e["type"] == "play" and e["seat"] == seat]
    assert mine and all(len(e["cards"]) == 1 for e in mine)


def test_a_whole_game_of_tichu_bombs_ends():
    import chimera_dsl
    rules = chimera_dsl.load_variant(TICHU)
    for seed in range(3):
        state, text = play_scripted(rules, seed, 1, numbered(), "heuristic,random", target=40)
        assert state.is_terminal()
        assert_sees_only_its_own_cards(state, text, 1)


def test_a_bomb_out_of_turn_is_offered():
    rules = variant({"play": {"out_of_turn": ["bomb"]}, "deal": {"first_dealer": 2}})
    state = start(rules, deal(rules, ["9 10 11", "7 8 H", "5 5 5 5 6 6 12"], nest="3", face_up=("9", 0)))
    script(state, "0 bid 20", "1 pass", "2 pass", "0 play 9")
    assert state.current_player() == 2 and state.interrupting
    action, out = decide(state, "12\n6 6\n5 5 5 5\n")
    assert "Play out of turn on 9 [Single, rank 9], or pass> " in out
    assert out.count("Out of turn you may only play a higher Bomb, or pass.") == 2
    assert action.play.combination == "bomb"
    state.apply_action(action)
    told = list(Teller(rules, seat=2, live=True).lines(state.events))
    assert "  seat 2 (you) plays out of turn 5 5 5 5 [Bomb, rank 5]" in told


def test_the_game_told_to_one_seat_hides_the_other_hands_and_the_exchange_between_others():
    from chimera_dsl.players import play_game
    game = Game(official(), target=100)
    state = play_game(game, [make_player("random", s) for s in range(3)], 9)
    everything = "\n".join(tell(state.events, official()))
    for seat in range(3):
        seen = "\n".join(Teller(official(), seat=seat).lines(state.events))
        assert_sees_only_its_own_cards(state, seen, seat)
        for event in (e for e in state.events if e["type"] == "deal"):
            assert " ".join(ranks_of(event["hands"][seat])) in seen
        # apart from the hidden cards, it is the same story
        assert seen.count("\n") == everything.count("\n")


def test_the_live_table_tells_each_bid_and_play_on_its_own_line():
    from chimera_dsl.players import play_game
    game = Game(official(), target=60)
    state = play_game(game, [make_player("random", s) for s in range(3)], 3)
    lines = list(Teller(official(), seat=0, live=True).lines(state.events))
    decisions = [e for e in state.events if e["type"] in ("bid", "play", "pass")]
    assert sum(1 for line in lines if re.match(r"  seat \d( \(you\))? (passes|bids \d|must bid|plays)", line)) \
        == len(decisions)
    assert sum(1 for line in lines if re.match(r"  trick \d+: seat \d( \(you\))? takes ", line)) \
        == sum(1 for e in state.events if e["type"] == "trick" and e["winner"] is not None)


# -- one decision at a time -------------------------------------------------------------------

def decide(state, typed: str, echo=False):
    """Ask the HumanPlayer at the seat to act, with ``typed`` as its input: (action, output)."""
    out = io.StringIO()
    human = HumanPlayer(io.StringIO(typed), out, echo=echo)
    seat = state.current_player()
    action = human.act(state.observation(seat), state.legal_actions())
    return action, out.getvalue()


def bidding_state():
    rules = variant({"deal": {"first_dealer": 2}})
    return start(rules, deal(rules, ["2 3 4 5 P 9 9", "7 7 7 H", "8 8 10 C"], nest="11", face_up=("9", 0)))


def test_illegal_bids_are_explained_and_asked_again():
    state = bidding_state()
    action, out = decide(state, "25\n7 7\np\n#99\n\nfoo\n30\n")
    assert action.kind == "bid" and action.bid == 30
    assert "You cannot bid 25: you may bid 20 or 30 or 40, or pass." in out
    assert "This is the bidding: you may bid 20 or 30 or 40, or pass." in out
    assert "P is a card (Pi Ya); to pass type pass or -." in out
    assert "#99 is not a choice" in out
    assert "Type your choice" in out
    assert out.count("Your bid (a number, or pass)> ") == 7
    assert "Traceback" not in out
    state.apply_action(action)
    action, out = decide(state, "-\n")
    assert action == PASS
    action, out = decide(state, "20\nPASS\n")
    assert action == PASS and "You cannot bid 20" in out


def test_the_view_shows_the_hand_face_up_card_bidding_and_scores():
    state = bidding_state()
    script(state, "0 bid 20")
    _, out = decide(state, "pass\n")
    assert "== Round 1, bidding: your turn, seat 1 (you) ==" in out
    assert "your hand (4 cards): 7 7 7 H" in out
    # the card as everyone saw it dealt, colour included, as `chimera run` and the record name it
    assert f"face-up card: {state.game.rules.deck.card_names[state.face_up_card]}, went to seat 0" in out
    assert state.game.rules.deck.card_names[state.face_up_card].startswith("9/")
    assert "bidding: seat 0 bids 20" in out
    assert "scores: seat 0 0, seat 1 (you) 0, seat 2 0; target 400" in out
    assert "2 3 4 5" not in out and "8 8 10" not in out and "11" not in out


def play_state():
    """Seat 0 is the Chimera at 20 (no exchange) and leads, holding P 2 3 4 5 and more."""
    state = bidding_state()
    return script(state, "0 bid 20", "1 pass", "2 pass")


def test_ambiguous_cards_ask_which_reading():
    state = play_state()
    action, out = decide(state, "p,2,3,4,5\n7\n2\n")
    assert action.play.combination == "straight" and action.play.rank == 6
    assert "2 3 4 5 P can be played 2 ways:" in out
    assert "  1) Straight, rank 5" in out and "  2) Straight, rank 6" in out
    assert "Type a number from 1 to 2, or back." in out
    # back returns to the main question
    action, out = decide(play_state(), "P 2 3 4 5\nback\n9 9\n")
    assert action.play.cards == ["9", "9"] and out.count("Your lead> ") == 2


def test_only_the_legal_reading_is_taken_without_asking():
    state = play_state()
    script(state, "0 play 2 3 4 5 P as straight 5")
    # seat 1 cannot beat a straight: it passes without being asked
    action, out = decide(state, "")
    assert action == PASS and "you have no other choice than to pass" in out
    state.apply_action(action)
    assert state.current_player() == 2


def test_illegal_plays_are_explained_and_asked_again():
    state = play_state()
    script(state, "0 play 9", "1 pass")
    action, out = decide(state, "7\n10 10\n8 10\nx\n8 8 8\npass\n")
    assert action == PASS
    assert "You do not hold 7." in out
    assert "You do not hold 2 x 10 (you hold 1)." in out
    assert "8 10 is not a combination of this game." in out
    assert "unknown card 'x'" in out
    assert "You do not hold 3 x 8 (you hold 2)." in out
    state.apply_action(action)
    # two passes in a row: seat 0 takes the trick and leads
    assert state.current_player() == 0
    action, out = decide(state, "pass\nh\n11\n")
    assert "You lead this trick and may not pass" in out
    assert "You do not hold H." in out
    assert action.play.cards == ["11"]


def test_a_lower_play_is_refused_with_the_reason():
    state = play_state()
    script(state, "0 play 9", "1 pass")
    action, out = decide(state, "8\n8 8\nC\n")
    assert "8 does not beat 9 [Single, rank 9]: rank 8 is not higher than 9." in out
    assert "8 8 does not beat 9 [Single, rank 9]: a Pair cannot be played on a Single: it must be a Single." in out
    assert action.play.cards == ["C"]


def test_moves_lists_the_legal_choices_numbered_and_hash_picks_one():
    state = play_state()
    _, out = decide(state, "?\n? 9\n#2\n")
    listing = out.split("Your lead> ")[1]
    legal = state.legal_actions()
    assert f"{len(legal)} choices" in listing
    assert "  #1   2 [Single, rank 2]" in listing
    filtered = out.split("Your lead> ")[2]
    assert re.search(r", \d+ with 9:", filtered)
    assert all(" 9" in line or "9 " in line for line in filtered.splitlines()[1:] if line.startswith("  #"))
    action, _ = decide(play_state(), "#2\n")
    assert action == legal[1]
    _, out = decide(play_state(), "? C\n#1\n")            # no choice holds the Chimera card
    assert re.search(r"\d+ choices, none with C: type \? for them all\.\n", out.split("Your lead> ")[1])


def test_help_and_look():
    state = play_state()
    action, out = decide(state, "help\nlook\n2\n")
    assert "What you may type:" in out and "quit" in out
    assert out.count("your hand (8 cards): 2 3 4 5 9 9 11 P") == 2
    assert "nest (you took it): 11" in out
    assert action.play.cards == ["2"]


def test_the_exchange_asks_for_exactly_the_count():
    rules = variant({"deal": {"first_dealer": 2}})
    state = start(rules, deal(rules, ["2 3 4 5 P 9 9", "7 7 7 H", "8 8 10 C"], nest="11", face_up=("9", 0)))
    script(state, "0 bid 40", )
    assert state.phase == "exchange" and state.current_player() == 1
    action, out = decide(state, "7\n8 10\npass\nh h\n7 7 7\n7,H\n")
    assert "Give 2 cards to seat 2> " in out
    assert "Give exactly 2 cards, not 1." in out
    assert "You do not hold 8, 10." in out
    assert "You must give 2 card(s) in the exchange." in out
    assert "You do not hold 2 x H (you hold 1)." in out
    assert "Give exactly 2 cards, not 3." in out
    assert action.kind == "give" and rules.deck.names_of(action.cards) == ["7", "H"]
    state.apply_action(action)
    action, out = decide(state, "8 c\n")
    assert rules.deck.names_of(action.cards) == ["8", "C"]
    state.apply_action(action)
    _, out = decide(state, "2\n")           # seat 0, the Chimera, leads: it never sees the exchange
    assert "exchange" not in out and "7 H" not in out


def test_end_of_input_and_quit_leave_the_table():
    with pytest.raises(LeftTheTable) as gone:
        decide(bidding_state(), "25\n")
    assert gone.value.reason == "end of input"
    with pytest.raises(LeftTheTable) as gone:
        decide(bidding_state(), "QUIT\n")
    assert gone.value.reason == "quit"
    with pytest.raises(LeftTheTable) as gone:
        decide(play_state(), "P 2 3 4 5\n")     # the input ends while choosing a reading
    assert gone.value.reason == "end of input"


def test_leaving_in_a_whole_game_keeps_the_game_so_far():
    out = io.StringIO()
    human = HumanPlayer(io.StringIO("#1\n" * 5), out)
    game = Game(official(), target=60)
    with pytest.raises(LeftTheTable) as gone:
        play_at_table(game, table_players("random", 3, 0, 4, human), 4, 0, human)
    assert gone.value.state is not None and not gone.value.state.is_terminal()
    assert gone.value.state.events[0]["type"] == "game_start"


# -- the command ------------------------------------------------------------------------------

def call(capsys, monkeypatch, typed: str, *argv):
    monkeypatch.setattr(sys, "stdin", io.StringIO(typed))
    code = run([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_play_command_plays_a_game_and_writes_a_record_that_replays(capsys, monkeypatch, tmp_path):
    log = tmp_path / "game.jsonl"
    code, out, err = call(capsys, monkeypatch, "#1\n" * 20000, "play", OFFICIAL, "--seat", 1, "--seed", 8,
                          "--target", 50, "--players", "random", "--log", log)
    assert code == 0, err
    # a seat is never told a seed (the seed deals every hand), even one it chose
    assert out.startswith("Chimera (official rules): target 50 points, 3 players\n"
                          "Seats: 0 random, 1 human, 2 random\n")
    assert "Game over after" in out
    code, replayed, err = call(capsys, monkeypatch, "", "replay", log, "--quiet")
    assert code == 0, err
    assert replayed.strip() == out.strip().splitlines()[-1]


def test_without_a_seed_the_deals_are_secret_and_no_seed_is_written(capsys, monkeypatch, tmp_path):
    """Without --seed nothing the person at the table sees, nor the record, deals the hands:
    each deal comes from the system's secure source (game_start.seed is null) and the record
    still replays from its deals."""
    log = tmp_path / "game.jsonl"
    code, out, err = call(capsys, monkeypatch, "#1\n" * 20000, "play", OFFICIAL, "--seat", 0,
                          "--target", 50, "--players", "random", "--log", log)
    assert code == 0, err
    assert "seed" not in out
    events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert events[0]["type"] == "game_start" and events[0]["seed"] is None
    code, _, err = call(capsys, monkeypatch, "", "replay", log, "--quiet")
    assert code == 0, err


def test_end_of_input_exits_0_with_a_note_and_the_record_so_far(capsys, monkeypatch, tmp_path):
    log = tmp_path / "game.jsonl"
    code, out, err = call(capsys, monkeypatch, "pass\n", "play", OFFICIAL, "--seed", 8, "--players", "random",
                          "--log", log)
    assert code == 0
    assert "You left the table in round 1 (end of input); the game was not finished." in out
    assert "record of the unfinished game so far" in err and "Traceback" not in out + err
    events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert events[0]["type"] == "game_start" and events[-1]["type"] != "game_end"
    assert [e for e in events if e["type"] == "bid" and e["seat"] == 0][0]["bid"] is None
    code, _, err = call(capsys, monkeypatch, "", "replay", log)
    assert code == 2 and "the record ends before the game does" in err


def test_quit_without_log_exits_0(capsys, monkeypatch):
    code, out, err = call(capsys, monkeypatch, "quit\n", "play", OFFICIAL, "--seed", 1)
    assert code == 0 and "(quit)" in out and err == ""


@pytest.mark.parametrize("argv, message", [
    (["--seat", "3"], "--seat must be a seat from 0 to 2, not 3"),
    (["--players", "random,random,random"], "one name for all of them or 2 names, not 3"),
    (["--players", "human,random"], "names the computer players only"),
    (["--players", "genius"], "unknown player 'genius'"),
    (["--target", "0"], "Invalid value for '--target'"),
])
def test_play_refuses_bad_options_with_exit_2(capsys, monkeypatch, argv, message):
    code, out, err = call(capsys, monkeypatch, "", "play", OFFICIAL, "--seed", 1, *argv)
    assert code == 2 and message in err and "Traceback" not in err


def test_play_of_a_missing_variant_is_exit_2(capsys, monkeypatch, tmp_path):
    code, out, err = call(capsys, monkeypatch, "", "play", tmp_path / "nope.yaml")
    assert code == 2 and "Traceback" not in err


def test_play_end_to_end_with_piped_input(tmp_path):
    log = tmp_path / "game.jsonl"
    typed = "what\n" + "#1\n" * 20000
    done = subprocess.run([sys.executable, "-m", "chimera_dsl", "play", str(OFFICIAL), "--seat", "2",
                           "--seed", "11", "--target", "40", "--players", "heuristic,random", "--log", str(log)],
                          input=typed, capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    out = done.stdout
    assert "This is the bidding: you may bid" in out
    assert "Game over after" in out and "seat 2 (you)" in out
    state = replay(json_events_from(log), official())
    assert state.is_terminal()
    assert_sees_only_its_own_cards(state, out, 2)


def json_events_from(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_play_end_to_end_eof_at_once(tmp_path):
    done = subprocess.run([sys.executable, "-m", "chimera_dsl", "play", str(OFFICIAL), "--seed", "2",
                           "--players", "random"], input="", capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0 and "Traceback" not in done.stderr
    assert "You left the table in round 1 (end of input)" in done.stdout



def test_a_hand_of_one_card_is_told_in_the_singular():
    rules = variant({"deal": {"first_dealer": 2}})
    state = start(rules, deal(rules, ["2 3 4 5 P 9 9", "H", "8 8 10 C"], nest="11", face_up=("9", 0)))
    script(state, "0 bid 20")
    _, out = decide(state, "pass\n")
    assert "your hand (1 card): H" in out and "1 cards" not in out


def test_where_colours_count_the_hand_is_told_with_its_colours():
    import chimera_dsl
    game = Game(chimera_dsl.load_variant(ROOT / "variants" / "others" / "gang-of-four.yaml"))
    state = game.new_game(3)
    seat = state.current_player()
    out = io.StringIO()
    with pytest.raises(LeftTheTable):
        HumanPlayer(io.StringIO("quit\n"), out).act(state.observation(seat), state.legal_actions())
    line = next(line for line in out.getvalue().splitlines() if "your hand (16 cards):" in line)
    assert line.split(": ", 1)[1].split() == list(state.observation(seat).cards)
