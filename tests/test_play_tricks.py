"""`chimera play` in the trick-taking phases: what a person types names its card or its lay
whatever the order of the cards, a value alone names the one legal card of that value, and a
refusal says why (not held, not allowed now, not a card of the deck)."""
from __future__ import annotations

import random

import pytest

from chimera_dsl import load_variant
from chimera_dsl.engine import Game
from chimera_dsl.players.human import HumanPlayer, _Again

from scripted import ROOT

OTHERS = ROOT / "variants" / "others"


def first_state(name: str, kind: str, seed: int = 4, want=lambda state: True):
    """A game of ``name`` played by first choices up to a decision of ``kind`` where ``want`` holds."""
    rules = load_variant(OTHERS / name)
    state = Game(rules).new_game(seed=seed)
    for _ in range(500):
        if state.kind == kind and want(state):
            return state
        state.apply_action(state.legal_actions()[-1])
    raise AssertionError(f"no {kind} decision reached")


def choose(state, text: str):
    """What the person at the seat to act gets for ``text``, shown the table first as at the table."""
    seat = state.current_player()
    person, observation = HumanPlayer(), state.observation(seat)
    person.view(observation)
    return person.choose(text, observation, list(state.legal_actions()))


def two_card_lays(state) -> list:
    return [a for a in state.legal_actions() if a.kind == "lay" and bin(a.mask).count("1") == 2]


def refusal(state, text: str) -> str:
    with pytest.raises(_Again) as again:
        choose(state, text)
    return str(again.value)


def test_cards_laid_in_an_auction_may_be_typed_in_any_order():
    state = first_state("mu-3.yaml", "auction", want=two_card_lays)
    deck = state.game.rules.deck
    lay = two_card_lays(state)[0]
    names = deck.mask_names(lay.mask)
    assert choose(state, " ".join(reversed(names))) == lay
    assert choose(state, "lay " + ", ".join(names).upper()) == lay


def legal_cards(state) -> list[str]:
    deck = state.game.rules.deck
    return [deck.mask_names(a.mask)[0] for a in state.legal_actions() if a.kind == "card"]


def held_but_not_legal(state) -> list[str]:
    deck = state.game.rules.deck
    seat = state.current_player()
    return [n for n in deck.mask_names(state.observation(seat).held) if n not in legal_cards(state)]


def test_a_card_is_refused_with_the_reason_and_a_lone_value_names_the_legal_card():
    state = first_state("chibre.yaml", "tricks", want=lambda s: held_but_not_legal(s))
    deck = state.game.rules.deck
    seat = state.current_player()
    legal = legal_cards(state)
    barred = held_but_not_legal(state)[0]
    assert refusal(state, barred) == f"You may not play {barred} now; the rules let you play: {', '.join(legal)}."
    held = deck.mask_names(state.observation(seat).held)
    absent = next(n for n in deck.card_names if n not in held)
    assert refusal(state, absent) == f"You do not hold {absent}."
    assert refusal(state, "Z/hearts").startswith("unknown card 'Z/hearts'")
    values = [n.split("/")[0] for n in legal]
    lone = next(v for v in values if values.count(v) == 1)
    card = next(n for n in legal if n.split("/")[0] == lone)
    assert deck.mask_names(choose(state, lone).mask) == [card]


def test_a_trump_that_is_no_choice_lists_the_choices():
    state = first_state("chibre.yaml", "trump")
    assert refusal(state, "purple").startswith("purple is not one of your choices here: ")
    assert "hearts" in refusal(state, "purple")


def test_the_trump_question_offers_only_the_trumps_the_seat_may_choose():
    # Chibre's chooser names a colour or passes the choice to its partner: no value, no "none"
    state = first_state("chibre.yaml", "trump")
    seat = state.current_player()
    person, observation = HumanPlayer(), state.observation(seat)
    person.view(observation)
    assert person.prompt(observation, state.legal_actions()) == "Your trump (diamonds, hearts, spades, clubs, or pass)> "
    # Mü's choosers name a colour or a value of the cards they laid, the chief also no trump
    game, rng = Game(load_variant(OTHERS / "mu.yaml")), random.Random(3)
    state = game.new_game(seed=0)
    while state.phase != "chief_trump" or len(state.legal_actions()) > 12:   # random seats until a chief
        # chooses among at most 12 (a new game when one ends)
        state = game.new_game(seed=rng.randrange(1000)) if state.is_terminal() else state
        state.apply_action(rng.choice(state.legal_actions()))
    seat = state.current_player()
    person, observation = HumanPlayer(), state.observation(seat)
    person.view(observation)
    legal = state.legal_actions()
    words = [a for a in legal if a.kind == "trump"]
    question = person.prompt(observation, legal)
    assert question.startswith("Your trump (") and question.endswith(", or no trump)> ")
    laid = state.game.rules.deck.mask_names(state.table.laid[seat])
    named = question[len("Your trump ("):-len(")> ")].replace(", or ", ", ").replace(" or ", ", ").split(", ")
    assert len(named) == len(words) and all(
        w == "no trump" or any(w in (card.split("/")[0], card.split("/")[1]) for card in laid) for w in named)


def test_a_trump_question_with_many_choices_names_their_kinds():
    # past twelve choices the question names what kinds of trump there are, not each one
    from chimera_dsl.engine import PASS, Action, Observation
    person = HumanPlayer()
    person._trumps = [("colour", i) for i in range(4)] + [("rank", i) for i in range(9)] + [("none", -1)]
    observation = Observation.of(kind="trump", rules=load_variant(OTHERS / "chibre.yaml"))
    legal = [Action("trump", cards=i) for i in range(14)]
    assert person.prompt(observation, legal + [PASS]) == "Your trump (a colour, a rank, none, or pass)> "
    assert person.prompt(observation, legal[:13]) == "Your trump (a colour or a rank)> "


def test_the_help_of_a_trick_taking_game_speaks_of_its_own_cards():
    state = first_state("chibre.yaml", "tricks")
    text = refusal(state, "help")
    assert "H, P, C" not in text and "a bid" not in text
    seat = state.current_player()
    first = state.game.rules.deck.mask_names(state.observation(seat).held)[0]
    assert first in text
