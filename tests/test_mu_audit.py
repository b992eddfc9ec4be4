"""Mü read again against its text, as a user meets it: house files that extend mu.yaml, the
generated rulebook, what a seat sees, hand-edited records.

Each test here failed before the change it comes with.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from chimera_dsl import load_variant
from chimera_dsl.cli import run
from chimera_dsl.engine import PASS, Action, Deal, Game
from chimera_dsl.engine.phases.tricks import twin_mask
from chimera_dsl.variant import check_variant

ROOT = Path(__file__).resolve().parents[1]
OTHERS = ROOT / "variants" / "others"


def house(tmp_path: Path, text: str, base: str = "mu.yaml") -> Path:
    """A house file extending ``base`` (copied beside it with the files it extends)."""
    for name in ("mu.yaml", "mu-3.yaml", "mu-4.yaml", "mu-6.yaml", "gang-of-four.yaml"):
        (tmp_path / name).write_text((OTHERS / name).read_text(encoding="utf-8"), encoding="utf-8")
    path = tmp_path / "house.yaml"
    path.write_text(f"extends: {base}\n" + text, encoding="utf-8")
    return path


def messages(path: Path) -> list[str]:
    return [str(p) for p in check_variant(path)]


def dealt(rules, wanted: dict[int, list[str]], dealer: int = 0, max_rounds: int = 1):
    """A game whose first deal gives each seat the named cards (the rest filled in deck order)."""
    deck = rules.deck
    game = Game(rules, max_rounds=max_rounds)
    n, hand = game.round.players, game.round.deal.hand
    free = deck.full_mask
    masks = [0] * n
    for seat, names in wanted.items():
        masks[seat] = twin_mask(deck, names, free)
        free &= ~masks[seat]
    for seat in range(n):
        while masks[seat].bit_count() < hand:
            low = free & -free
            masks[seat] |= low
            free ^= low

    def deals():
        yield Deal(tuple(masks), 0, None)
        number = 2
        while True:
            yield game.deal(7, number, dealer)
            number += 1
    return game.new_game(1, deals=deals(), first_dealer=dealer)


def lay(state, *names: str) -> None:
    seat = state.current_player()
    mask = twin_mask(state.game.rules.deck, names, state.held[seat] & ~state.table.laid[seat])
    state.apply_action(Action("lay", mask=mask))


def passes(state, count: int) -> None:
    for _ in range(count):
        state.apply_action(PASS)


# -- scoring terms for a role no seat is scored as -----------------------------------------------
@pytest.mark.parametrize("role", ["vice", "deputy"])
def test_a_term_for_a_role_never_scored_is_refused_where_it_is_written(tmp_path, role):
    """A house rule « the vice scores 5 » was accepted and never counted: the round scores a
    seat as chief, partner or opponent (or each), never as the vice."""
    path = house(tmp_path, f"scoring:\n  points:\n    {role}: {{contract: 5}}\n")
    [message] = messages(path)
    assert message.startswith(f"{path}:4:") and f"scoring.points.{role}" in message
    assert "never count" in message and "each, bidder, others, partner" in message


def test_terms_of_the_roles_a_round_scores_stay_accepted(tmp_path):
    path = house(tmp_path, "scoring:\n  points:\n    partner: {contract: 5}\n    each: {extra: 1}\n")
    assert messages(path) == []


def test_a_bidder_term_in_a_round_without_a_bidder_is_refused(tmp_path):
    path = house(tmp_path, "scoring:\n  points:\n    others: 5\n", base="gang-of-four.yaml")
    [message] = messages(path)
    assert message.startswith(f"{path}:4:") and "no bidding or auction names a bidder" in message


# -- a hand-edited record ---------------------------------------------------------------------------
def test_a_chief_line_with_a_field_of_the_wrong_type_is_named_as_such(tmp_path, capsys):
    """The line naming the chief with ``"bid": "2"`` was reported as an unknown event type."""
    log = tmp_path / "game.jsonl"
    assert run(["run", str(OTHERS / "mu-3.yaml"), "--seed", "3", "--log", str(log), "--quiet", "--target", "40"]) == 0
    lines = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    at = next(i for i, e in enumerate(lines) if e["type"] == "chief")
    lines[at]["bid"] = str(lines[at]["bid"])
    log.write_text("".join(json.dumps(e) + "\n" for e in lines), encoding="utf-8")
    capsys.readouterr()
    assert run(["replay", str(log), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert f"{log}:{at + 1}: field 'bid' of a chief event must be a whole number" in err


# -- what a seat sees ---------------------------------------------------------------------------------
def test_a_laid_card_is_shown_in_front_of_its_seat_only_until_it_is_played():
    """« Les cartes enchéries resteront visibles bien qu'elles fassent toujours partie de la main
    du joueur pendant le jeu » : visible while held.  The person at the table was still shown
    a laid card in front of its seat after it had been played."""
    from chimera_dsl.players.human import HumanPlayer
    rules = load_variant(OTHERS / "mu-3.yaml")
    state = dealt(rules, {0: ["9/red", "8/red"], 1: ["5/blue"]})
    lay(state, "9/red")
    lay(state, "5/blue")
    passes(state, 1)
    lay(state, "8/red")                      # seat 0: two cards, the chief
    passes(state, 3)
    state.apply_action(next(a for a in state.legal_actions() if a.kind == "trump"))   # red, among its cards
    assert state.kind == "tricks" and state.current_player() == 0
    view = "\n".join(HumanPlayer().view(state.observation(1)))
    assert "seat 0 laid face up: 8/red 9/red" in view and "laid face up: 5/blue" in view
    nine = state.game.rules.deck.card_index["9/RED"]
    state.apply_action(next(a for a in state.legal_actions() if a.mask == 1 << nine))
    view = "\n".join(HumanPlayer().view(state.observation(1)))
    assert "seat 0 laid face up: 8/red\n" in view + "\n"
    assert state.observation(1).table["laid"][0] >> nine & 1          # the auction's record stays whole


# -- the generated rulebook ---------------------------------------------------------------------------
def rulebook(path: Path, lang: str = "en") -> str:
    from chimera_dsl.tell.rulebook import write_rulebook
    return write_rulebook(load_variant(path), lang)


def test_the_rulebook_for_three_tells_no_vice_and_no_partner():
    """« A 3 joueurs [...] Il n'y a pas de jeu d'équipe, ni de sous-Chef » : the rulebook of
    mu-3.yaml told how the vice is found, that the vice chooses a trump and that the chief
    names a partner (« Only when `players >= 4` »)."""
    text = rulebook(OTHERS / "mu-3.yaml").split("## Scoring")[0]
    assert "3 players, each playing alone." in text
    assert "vice" not in text.lower() and "partner" not in text.lower()
    fr = rulebook(OTHERS / "mu-3.yaml", "fr").split("## Comptage")[0]
    assert "sous-chef" not in fr.lower() and "partenaire" not in fr.lower()


@pytest.mark.parametrize("name", ["mu-4.yaml", "mu.yaml", "mu-6.yaml"])
def test_the_rulebook_tells_the_sides_the_vice_and_the_trump_layers(name):
    text = rulebook(OTHERS / name)
    assert ", in two sides each round: the chief and a partner the chief names, against the others." in text
    assert "\nWho laid most among the others is the vice (ties: the highest card laid, then the next;" in text
    assert "Only when" not in text
    vice, chief = text.split("## Trump (the vice)\n")[1].split("## Trump (the chief)\n")
    assert "When the round has no vice, nobody chooses this trump." in vice
    assert "This is trump layer 1, the strongest." in chief
    assert "Choosing no trump leaves this layer empty: the other layers' trumps stay." in chief


def test_the_rulebook_tells_how_trumps_rank_and_that_a_value_trump_leaves_its_colour():
    """« Une valeur choisie comme atout perd sa propriété de couleur, elle n'est plus qu'une
    carte d'atout et n'a pas à être fournie si elle est de même couleur que l'entame.  Si
    l'entame est un atout, on peut y répondre par n'importe laquelle carte d'atout du Chef ou du
    sous-Chef. »  and the two hierarchies of the text: the rulebook said none of it."""
    play = rulebook(OTHERS / "mu.yaml").split("## Play\n")[1].split("##")[0]
    assert ("A card made a trump by its value belongs to no colour any more: it never has to be played "
            "to follow its colour, and it answers a trump lead.") in play
    assert "A trump lead must be answered with a trump, of any layer, if possible." in play
    assert ("Among trumps, the card of the strongest layer wins; if both are of that layer, the one also of "
            "the next layer, and so on; then, in a trump colour, the stronger rank; cards that are trumps by "
            "their value alone are otherwise equal.") in play
    jeu = rulebook(OTHERS / "mu.yaml", "fr").split("## Jeu\n")[1]
    assert "Une valeur choisie comme atout perd sa couleur : elle n'a jamais à être fournie sur sa couleur" in jeu
    assert "Sur une entame d'atout, il faut jouer un atout, de n'importe quel rang, si on le peut." in jeu


def test_the_rulebook_follows_the_partner_knob_and_a_condition_on_the_round(tmp_path):
    """partner.when: players > 4 (the other reading) leaves the chief alone with four: the
    rulebook says so, and the game names no partner."""
    from chimera_dsl.players import make_player, play_game
    path = house(tmp_path, "phases:\n  partner:\n    when: players > 4\n", base="mu-4.yaml")
    text = rulebook(path)
    assert "4 players, each playing alone." in text and "## Partner" not in text
    state = play_game(Game(load_variant(path), max_rounds=2), [make_player("heuristic", s) for s in range(4)], 3)
    assert any(e["type"] == "chief" for e in state.events) and not any(e["type"] == "partner" for e in state.events)
    path.write_text("extends: mu.yaml\nphases:\n  partner:\n    when: round > 1\n", encoding="utf-8")
    text = rulebook(path)
    assert "## Partner" in text and "Only from round 2 on." in text


# -- sides, roles and refusals of a trick-taking round -----------------------------------------------
def _to_the_tricks(state):
    while state.kind != "tricks":
        state.apply_action(state.legal_actions()[0])
    return state


def test_with_three_players_the_two_opponents_are_not_partners():
    """« A 3 joueurs [...] Il n'y a pas de jeu d'équipe » : each opponent scores its own tricks,
    but each one's observation (and the table's « your partner » mark) names the other as its
    partner, while ``observation.table["side"]`` rightly says it plays alone."""
    rules = load_variant(OTHERS / "mu-3.yaml")
    state = dealt(rules, {0: ["9/red"]})
    lay(state, "9/red")
    passes(state, 3)
    _to_the_tricks(state)
    for seat in (1, 2):
        observation = state.observation(seat)
        assert observation.table["side"] == (seat,)
        assert observation.partner is None


def test_a_partner_phase_giving_its_own_role_scores_that_role(tmp_path):
    """partner.role names the partner's role; the file scores that role.  With ``role: ally``
    the ally never scored its bonus (it was scored as an opponent)."""
    from chimera_dsl.players import make_player, play_game
    path = house(tmp_path, "roles:\n  ally: {en: ally, fr: allié}\nphases:\n  partner:\n    role: ally\n"
                           "scoring:\n  points:\n    partner: null\n"
                           "    ally: {contract: \"if made == 1 then bonus else 0\"}\n")
    state = play_game(Game(load_variant(path), max_rounds=4), [make_player("heuristic", s) for s in range(5)], 1)
    checked = 0
    for end in (e for e in state.events if e["type"] == "round_end"):
        chief = next(e["seat"] for e in state.events if e["type"] == "chief" and e["round"] == end["round"])
        ally = next(e["partner"] for e in state.events if e["type"] == "partner" and e["round"] == end["round"])
        bonus = dict(end["parts"][chief]).get("contract", 0)
        if bonus > 0:
            assert dict(end["parts"][ally]).get("contract") == bonus
            checked += 1
    assert checked


def test_a_trump_outside_the_laid_cards_is_refused_saying_why():
    """« Le sous-Chef choisit l'atout le premier parmi les cartes qu'il a misées » : a trump
    outside them is refused, and the message says it must be among the cards laid."""
    from chimera_dsl.errors import IllegalActionError
    from chimera_dsl.engine.phases.tricks import trump_actions, trump_options
    rules = load_variant(OTHERS / "mu-3.yaml")
    state = dealt(rules, {0: ["9/red"]})
    lay(state, "9/red")
    passes(state, 3)
    assert state.kind == "trump"
    phase = state._round.phases[state._phase_index]
    blue = trump_options(state.game, phase).index(("colour", rules.deck.colours.index("blue")))
    with pytest.raises(IllegalActionError) as refused:
        state.apply_action(trump_actions(state.game, phase)[blue])
    assert "laid" in str(refused.value)


# -- trump layers -------------------------------------------------------------------------------------
def test_two_trump_phases_on_one_layer_are_refused_where_the_second_says_so(tmp_path):
    """Both phases setting layer 1 loaded, and the chief's choice overwrote the vice's."""
    path = house(tmp_path, "phases:\n  chief_trump:\n    layer: 1\n")
    [message] = messages(path)
    assert message.startswith(f"{path}:4:") and "phases.chief_trump.layer is 1, the layer vice_trump sets already" in message


def test_a_trump_layer_beyond_the_round_s_trump_phases_is_refused(tmp_path, capsys):
    """layer: 3 with two trump phases loaded, then the game stopped on an internal error."""
    path = house(tmp_path, "phases:\n  chief_trump:\n    layer: 3\n")
    [message] = messages(path)
    assert message.startswith(f"{path}:4:") and "the round has 2 trump phase(s): layers 0 to 1" in message
    assert run(["run", str(path), "--seed", "2", "--quiet"]) == 2
    assert "internal error" not in capsys.readouterr().err


# -- the text's sentences not asserted elsewhere -----------------------------------------------------
@pytest.mark.parametrize("one, two, vice", [
    (["8/red", "5/red"], ["9/blue", "0/blue"], 2),        # the higher top card: 9 beats 8
    (["9/red", "5/red"], ["9/blue", "3/blue"], 1),        # tops equal: the second card, 5 beats 3
    (["9/red", "5/red"], ["9/blue", "5/blue"], None),     # equal throughout: no vice
])
def test_the_vice_is_the_second_bidder_ties_broken_by_the_highest_laid_cards(one, two, vice):
    """« le sous-Chef est le second meilleur enchérisseur.  Cette fois, les égalités sont
    tranchées par la hauteur de la plus haute carte misée.  Puis de la seconde plus haute carte
    misée... »  Seat 0 lays three cards (the chief); seats 1 and 2 two each."""
    rules = load_variant(OTHERS / "mu.yaml")
    state = dealt(rules, {0: ["0/green", "2/green", "3/green"], 1: one, 2: two})
    lay(state, "0/green")
    lay(state, *one)
    lay(state, *two)
    passes(state, 2)
    lay(state, "2/green", "3/green")
    passes(state, 5)
    assert next(e for e in state.events if e["type"] == "chief")["seat"] == 0
    seconds = [e["seat"] for e in state.events if e["type"] == "second"]
    assert seconds == ([] if vice is None else [vice])
    # the vice chooses the first trump; without a vice the chief chooses at once
    assert state.kind == "trump" and state.current_player() == (0 if vice is None else vice)


def test_a_player_holding_the_colour_led_must_play_it_and_need_not_trump_or_win():
    """« Il n'y a nulle obligation de couper ou de monter à la carte, mais obligation de fournir
    la couleur demandée à l'entame. »"""
    rules = load_variant(OTHERS / "mu-3.yaml")
    deck = rules.deck
    state = dealt(rules, {0: ["9/red"]})
    lay(state, "9/red")
    passes(state, 3)
    state.apply_action(next(a for a in state.legal_actions() if a.kind == "trump"))
    table = state.table
    table.layers = [("colour", deck.colours.index("blue")), None]          # blue is the trump
    table.settle(deck)
    table.trick = [(2, deck.card_index["8/RED"])]
    holding = deck.cards_mask("3/red 9/red 5/blue 4/green")
    assert table.legal_mask(holding) == deck.cards_mask("3/red 9/red")      # red, high or low; no trump
    void = deck.cards_mask("5/blue 4/green")
    assert table.legal_mask(void) == void                                   # no red: trump or not
    table.trick = []


@pytest.mark.parametrize("name", ["mu.yaml", "mu-3.yaml"])
def test_each_player_scores_the_points_of_the_cards_it_took(name):
    """« Tout d'abord, les joueurs marquent leurs points individuellement » : each seat's card
    points are those of the tricks it took itself, not its side's."""
    from chimera_dsl.players import make_player, play_game
    rules = load_variant(OTHERS / name)
    game = Game(rules, max_rounds=1)
    checked = 0
    for seed in range(12):
        state = play_game(game, [make_player("heuristic", seed * 10 + s) for s in range(game.players)], seed)
        taken = [0] * game.players
        for e in state.events:
            if e["type"] == "trick":
                taken[e["winner"]] += e["points"]
            elif e["type"] == "round_end":
                assert [dict(p).get("cards", 0) for p in e["parts"]] == taken
                assert sum(taken) == (60 if name == "mu.yaml" else 36)
                checked += 1
    assert checked


def test_a_dispute_is_told_as_such_not_as_everyone_passing(capsys):
    """« Si plusieurs joueurs ont enchéri le même nombre de cartes pour la place de Chef, alors la
    main n'est pas jouée, mais se termine en Dispute. [...] Les cartes sont mélangées et
    redistribuées. »  ``chimera run`` told the new deal after a dispute as « everyone passed »."""
    assert run(["run", str(OTHERS / "mu-3.yaml"), "--seed", "1", "--players", "random"]) == 0
    lines = capsys.readouterr().out.splitlines()
    disputes = [i for i, line in enumerate(lines) if line.startswith("  dispute between ")]
    assert disputes
    after = [lines[i + 1] if lines[i + 1] else lines[i + 2] for i in disputes]
    # dealt again, or, when its points end the game (this seed's last), no new deal
    assert set(after[:-1]) == {"  the same dealer deals again"} and after[-1].startswith("Game over")
    assert not any("everyone passed" in line for line in lines)


@pytest.mark.parametrize("name, lang, says", [
    ("mu.yaml", "en", ["Where:\n- The number of top trump cards: how many cards of the deck the strongest trump makes trumps",
                       "- The player's own trick points: the card points of the tricks the player took itself"]),
    ("mu.yaml", "fr", ["- L'enchère : ce qu'a misé le Chef",
                       "- Les points de plis du joueur lui-même : les points des cartes des plis que le joueur a faits lui-même"]),
    ("chibre.yaml", "en", ["- The side's trick points: the card points of the tricks the player's side took, the last trick's "
                           "and the all-tricks bonus included",
                           "- The side's announcements: the announcement points the player's side scores with the round (nothing "
                           "when they score at once)"]),
])
def test_the_rulebook_says_what_the_facts_its_scoring_reads_mean(name, lang, says):
    """« Tout d'abord, les joueurs marquent leurs points individuellement » : the generated
    rulebook gave the scoring as bare expressions (`each cards` = `own_trick_points`), leaving a
    reader to guess that a Mü player scores its own tricks and a Chibre player its team's."""
    text = rulebook(OTHERS / name, lang)
    for sentence in says:
        assert sentence in text, sentence


@pytest.mark.parametrize("lang, says", [
    ("en", "Among trumps, in a trump colour the stronger rank wins; cards that are trumps by their value alone are equal."),
    ("fr", "Entre atouts, dans une couleur d'atout la plus forte valeur l'emporte ; les cartes atouts par leur seule "
           "valeur sont égales."),
])
def test_the_rulebook_for_three_ranks_trumps_without_speaking_of_layers(lang, says):
    """« A 3 joueurs [...] ni de sous-Chef » : one trump only, yet the rulebook of mu-3.yaml ranked
    trumps by « the card of the strongest layer ... the one also of the next layer »."""
    text = rulebook(OTHERS / "mu-3.yaml", lang)
    play = text.split("## Play\n" if lang == "en" else "## Jeu\n")[1].split("##")[0]
    assert says in play
    assert not re.search(r"\blayer", play) and "rang d'atout" not in play
