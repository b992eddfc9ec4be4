"""Games driven by hand: variants with changed knobs, injected deals and scripted actions.

    rules = variant({"deal": {"first_dealer": 2}})
    state = start(rules, deal(rules, ["3 3 3 3 7", "4 8", "1 6"], nest="9", face_up=("7", 0)))
    script(state, "0 bid 20", "1 pass", "2 pass", "0 play 3 3 3 3", ...)

A step is ``SEAT VERB [CARDS] [as COMBINATION RANK]``: the seat must be the one to act, and
the action must be among the legal ones (a play is found among them by its cards).
"""
from __future__ import annotations

import copy
import functools
import json
import textwrap
from pathlib import Path

import chimera_dsl
from chimera_dsl.engine import PASS, Game, State, bid_action, give_action
from chimera_dsl.rules import Rules

ROOT = Path(__file__).resolve().parents[1]
OFFICIAL = ROOT / "variants" / "chimera.yaml"


@functools.lru_cache(maxsize=None)
def official() -> Rules:
    return chimera_dsl.load_variant(OFFICIAL)


def _merge(base: dict, changes: dict) -> dict:
    out = dict(base)
    for key, value in changes.items():
        same = [k for k in out if str(k) == str(key)]    # JSON turned the YAML's numbers into strings
        if same:
            out[key] = out.pop(same[0])
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out


@functools.lru_cache(maxsize=None)
def _variant(changes_json: str) -> Rules:
    base = official()
    spec = _merge(copy.deepcopy(base.spec), json.loads(changes_json))
    return Rules.from_spec(spec, path=base.path, source_hash="test:" + changes_json)


def variant(changes: dict | None = None) -> Rules:
    """The official rules with some knobs changed (nested dicts, merged key by key)."""
    if not changes:
        return official()
    return _variant(json.dumps(changes, sort_keys=True))


def deal(rules: Rules, hands: list[str], nest: str = "", face_up: tuple[str, int] | None = None):
    """An injected deal: hands as card strings per seat, the nest, (face-up card, its holder)."""
    d = rules.deck
    keys = [d.parse_key(h) if h.strip() else 0 for h in hands]
    nest_key = d.parse_key(nest) if nest.strip() else 0
    face = None if face_up is None else (d.index[face_up[0].upper()], face_up[1])
    return keys, nest_key, face


def start(rules: Rules, *deals, seed=0, target=None, max_rounds=None) -> State:
    """A game whose deals are the given ones, in order."""
    return Game(rules, target=target, max_rounds=max_rounds).new_game(seed, deals=iter(deals))


def action_of(state: State, text: str):
    """The legal action a step describes (asserting the seat to act)."""
    words = text.split()
    seat, verb, rest = int(words[0]), words[1], words[2:]
    assert state.current_player() == seat, f"{text!r}: seat {state.current_player()} is to act"
    legal = state.legal_actions()
    if verb == "pass":
        assert PASS in legal, f"{text!r}: passing is not legal"
        return PASS
    if verb == "bid":
        action = bid_action(int(rest[0]))
        assert action in legal, f"{text!r}: not a legal bid"
        return action
    deck = state.game.rules.deck
    reading = None
    if "as" in rest:
        i = rest.index("as")
        reading = (rest[i + 1], int(rest[i + 2]))
        rest = rest[:i]
    key = deck.parse_key(" ".join(rest)) if rest else 0
    if verb == "give":
        action = give_action(key)
        assert action in legal, f"{text!r}: not a legal gift"
        return action
    assert verb == "play", text
    found = [a for a in legal if a.kind == "play" and a.play.key == key
             and (reading is None or (a.play.combination, a.play.rank) == reading)]
    assert found, f"{text!r}: not a legal play (legal: {[a.play for a in legal if a.kind == 'play'][:8]}...)"
    assert len(found) == 1, f"{text!r}: several readings, say which with 'as COMBINATION RANK'"
    return found[0]


def script(state: State, *steps: str) -> State:
    """Apply each step in turn."""
    for text in steps:
        state.apply_action(action_of(state, text))
    return state


def events_of(state: State, kind: str) -> list[dict]:
    return [e for e in state.events if e["type"] == kind]


def ranks_of(cards: list[str]) -> list[str]:
    """Card names without their colours (``7/red`` -> ``7``), for comparing by rank."""
    return [c.split("/")[0] for c in cards]


def act_cards(state: State, seat: int, cards: str | None) -> None:
    """Seat ``seat`` (which must be to act) passes (``None``), or plays or gives these very
    cards (``7/red``): the legal action naming exactly them."""
    assert state.current_player() == seat, f"seat {state.current_player()} is to act, not {seat}"
    legal = state.legal_actions()
    if cards is None:
        assert PASS in legal, f"seat {seat} may not pass"
        state.apply_action(PASS)
        return
    mask = state.game.rules.deck.cards_mask(cards)
    found = [a for a in legal if (a.play.mask if a.kind == "play" and a.play is not None else a.mask) == mask]
    assert found, f"{cards} is not legal for seat {seat}: " \
                  f"{[' '.join(a.play.cards) for a in legal if a.kind == 'play' and a.play is not None][:12]}"
    state.apply_action(found[0])



def write(tmp_path: Path, text: str, name: str = "mine.yaml") -> str:
    """The variant file ``name`` in a test's temporary folder, holding ``text`` (dedented)."""
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return str(path)


def problems(path: str) -> list:
    """The problems the loader finds in the file at ``path`` (it must refuse it)."""
    from chimera_dsl.errors import VariantError
    try:
        chimera_dsl.load_variant(path)
    except VariantError as error:
        return error.problems
    raise AssertionError(f"{path} loaded, where a problem was expected")
