"""Mutations of variant files, card lists and game records, and the judge of what they give.

Shared by ``tests/test_fuzz.py`` (a short, seeded run in CI) and ``bench/fuzz_long.py`` (the
long run).  Every mutator takes a ``random.Random`` so that hypothesis can drive it
(``st.randoms()``) and a plain loop can too.  The promise checked is the project's: hostile
input gives a located error (exit 2) or a valid answer, never a crash (an exception that is
not a ChimeraError, exit 3, a traceback) and never a stall (a per-input deadline).
"""
from __future__ import annotations

import json
import os
import re
import signal
import threading
import time
import traceback
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from random import Random

import yaml
from click.testing import CliRunner

from chimera_dsl import load_variant
from chimera_dsl.cli import run
from chimera_dsl.errors import ChimeraError
from chimera_dsl.variant import check_variant

ROOT = Path(__file__).resolve().parents[1]
SEED_VARIANTS = sorted((ROOT / "variants").rglob("*.yaml")) + sorted((ROOT / "tests" / "variants" / "valid").glob("*.yaml"))
SECRET = "do-not-show-7f3a9c"       # written in a file a mutated record may name as its variant


# -- the judge ---------------------------------------------------------------------------------------
class Stall(BaseException):
    """The input ran past its deadline (a BaseException: no ``except Exception`` can swallow it)."""


WALL_FACTOR = 10        # a blocked input (no work done) is a stall after this many times its deadline


@contextmanager
def deadline(seconds: float):
    """Raise :class:`Stall` in this thread after ``seconds`` of the process's CPU time (SIGPROF),
    or ``WALL_FACTOR`` times as many seconds of wall-clock time (SIGALRM: a blocked read).

    CPU time measures the work an input causes whatever else the machine runs; only the main
    thread can take the signals.
    """
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return

    def on_cpu(signum, frame):
        raise Stall(f"still running after {seconds} s of CPU time")

    def on_wall(signum, frame):
        raise Stall(f"still running after {seconds * WALL_FACTOR} s")
    previous = signal.signal(signal.SIGPROF, on_cpu), signal.signal(signal.SIGALRM, on_wall)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    signal.setitimer(signal.ITIMER_REAL, seconds * WALL_FACTOR)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGPROF, previous[0])
        signal.signal(signal.SIGALRM, previous[1])


@dataclass
class Outcome:
    """What one input gave: accepted, rejected (a located error), crash or stall."""

    category: str
    detail: str = ""
    rules: object = field(default=None, repr=False)

    @property
    def bad(self) -> bool:
        return self.category in ("crash", "stall", "no-end")


def judged(call, seconds: float) -> Outcome:
    """Run ``call()`` (returning an Outcome) under a deadline; an exception is a crash."""
    start = time.process_time()
    try:
        with deadline(seconds):
            outcome = call()
    except Stall as stall:
        return Outcome("stall", str(stall))
    except Exception:           # noqa: BLE001 - anything escaping is what the fuzzing looks for
        return Outcome("crash", traceback.format_exc(limit=-6))
    if time.process_time() - start > seconds:
        return Outcome("stall", f"took {time.process_time() - start:.1f} s of CPU time")
    return outcome


def load_outcome(path: Path) -> Outcome:
    """The loader on one file: every problem located, or rules that load."""
    problems = check_variant(path)
    for problem in problems:
        if problem.file is None or problem.line is None or problem.column is None:
            return Outcome("crash", f"a problem without its place: {problem}")
    if problems:
        return Outcome("rejected", str(problems[0]))
    return Outcome("accepted", rules=load_variant(path))


def cli(argv: list[str]) -> tuple[int, str, str]:
    """Run the ``chimera`` command in-process with click's CliRunner streams: (exit code, out, err)."""
    runner = CliRunner()
    with runner.isolation() as streams:
        code = run([str(a) for a in argv])
        out = streams[0].getvalue()
        err = streams[1].getvalue() if len(streams) > 1 and streams[1] is not None else b""
    return code, out.decode("utf-8", "replace"), err.decode("utf-8", "replace")


def cli_outcome(argv: list[str], json_wanted: bool = False, secret: str | None = None) -> Outcome:
    """A command's exit code and output judged: 0, 1 or 2, no traceback, JSON when asked, no secret."""
    code, out, err = cli(argv)
    if code not in (0, 1, 2) or "Traceback" in out + err or "internal error" in err:
        return Outcome("crash", f"exit {code}: {(err or out)[-800:]}")
    if secret is not None and secret in out + err:
        return Outcome("crash", "the output shows a file the record named as its variant")
    if json_wanted:
        try:
            json.loads(out)
        except ValueError:
            return Outcome("crash", f"--json gave no JSON (exit {code}): {out[:300]!r} {err[:300]!r}")
    return Outcome("accepted" if code in (0, 1) else "rejected", (err or out)[:200])


# -- values that break things ------------------------------------------------------------------------
ODD_STRINGS = ["", " ", "\x1b[2J", "\u202eevil", "\0", "a\nb", "𝔘𝔫𝔦", "e\u0301", "\u2028", "\ufeff", "\t",
               "1..3", "any", "of", "H", "h", "P P", "number|H", "'", '"', "*a", "&a", "!!int", "{", "[",
               "x" * 300, "é" * 50, "null", "true", "0x10", "1e999", "-", ":", "# c"]
HUGE_NUMBERS = ["9" * 16, "1" * 5000, "-" + "9" * 30, "0x" + "f" * 40, "0b" + "1" * 80, "1e400", ".inf", ".nan",
                "-.inf", "1_000_000_000_000_000", "1:2:3:4:5:6:7:8:9", "0o" + "7" * 30, "2" * 4301]
TAGS = ["!!python/object/apply:os.system ['true'] ", "!!python/name:os.system ", "!foo ", "!!binary ", "!!set ",
        "!!omap ", "!!timestamp ", "!!float ", "!!int ", "!!str ", "!!map ", "!!seq ", "!!bool ", "!!null ",
        "!<tag:yaml.org,2002:int> ", "!!merge "]
SYNTAX = list("[]{}:,-?&*!|>'\"%@`#\t\n ") + ["\r", "\x00", "\x85", "\u2028", "<<: ", "--- ", "...", "\\"]


def odd_value(rng: Random, depth: int = 0):
    """A value of some type a variant file may not expect."""
    kind = rng.randrange(9 if depth < 3 else 6)
    if kind == 0:
        return rng.choice(ODD_STRINGS)
    if kind == 1:
        return rng.choice([0, -1, 1, 2, 3, 7, 8, 17, 63, 64, 200_001, 10 ** 14, 2 ** 31])
    if kind == 2:
        return rng.choice([True, False, None])
    if kind == 3:
        return rng.choice([0.5, -2.5, 1e300, float("inf")])
    if kind == 4:
        return rng.choice(["single of any", "pair of number|H", "3+ consecutive pairs of number",
                           "trio of number + single of any", "P + C", "5..12 consecutive singles of number, wild P",
                           "quad of any + 2 pairs of any, distinct", "single of nothing", "pair of 1..99"])
    if kind == 5:
        return rng.choice(["1..12", "H", [1, 2, 3], "3..1", ["P", "C"]])
    if kind == 6:
        return [odd_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    if kind == 7:
        return {rng.choice(["a", "to", "from", "copies", "ranks", "en", 20, "points"]): odd_value(rng, depth + 1)
                for _ in range(rng.randrange(3))}
    value = odd_value(rng, depth + 1)
    for _ in range(rng.choice([5, 20, 33, 40])):        # deep nesting
        value = [value]
    return value


# -- variant files -----------------------------------------------------------------------------------
def seed_text(path: Path) -> str:
    """A seed variant's text with its extends made absolute (so that a copy anywhere still finds it)."""
    text = path.read_text(encoding="utf-8")

    def absolute(match: re.Match) -> str:
        return f"{match.group(1)}{(path.parent / match.group(2)).resolve()}"
    return re.sub(r"(?m)^(extends:\s*)(\S+)", absolute, text)


def _places(tree, path=()) -> list[tuple]:
    """Every (container, key) of a plain YAML tree."""
    out = []
    items = tree.items() if isinstance(tree, dict) else enumerate(tree) if isinstance(tree, list) else []
    for key, child in items:
        out.append((tree, key))
        out.extend(_places(child, path + (key,)))
    return out


def _mutate_tree(tree, rng: Random) -> None:
    places = _places(tree)
    if not places:
        return
    container, key = rng.choice(places)
    action = rng.randrange(7)
    if action == 0:
        del container[key]
    elif action == 1:
        container[key] = odd_value(rng)
    elif action == 2:
        other, other_key = rng.choice(places)
        if other is not container or other_key != key:
            try:
                container[key], other[other_key] = other[other_key], container[key]
            except (KeyError, IndexError):
                pass
    elif action == 3 and isinstance(container, dict):          # a key renamed, or written in another case
        value = container.pop(key)
        name = str(key)
        container[rng.choice([name.upper(), name.lower(), name + "s", name[:-1] or "x", name + "_", 20])] = value
    elif action == 4:
        value = container[key]
        for _ in range(rng.choice([3, 31, 40])):
            value = [value] if rng.random() < 0.5 else {"k": value}
        container[key] = value
    elif action == 5 and isinstance(container, dict):
        container[rng.choice(["extends", "format", "zzz", "deck", "names", "treasures", "levels", "1..3"])] = \
            odd_value(rng)
    elif action == 6 and isinstance(container[key], list) and container[key]:
        container[key] = container[key] * rng.choice([2, 40, 300])


def _mutate_text(text: str, rng: Random) -> str:
    lines = text.split("\n")
    action = rng.randrange(11)
    if action == 0 and lines:                                  # a line deleted or duplicated (a key twice)
        i = rng.randrange(len(lines))
        if rng.random() < 0.5:
            del lines[i]
        else:
            lines.insert(i, lines[i])
    elif action == 1 and len(lines) > 1:
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif action == 2:                                          # a tag before a value
        spots = [m.end() for m in re.finditer(r": ", text)]
        if spots:
            at = rng.choice(spots)
            return text[:at] + rng.choice(TAGS) + text[at:]
    elif action == 3:                                          # a number made huge
        spots = list(re.finditer(r"(?<![\w.])\d+(?![\w.])", text))
        if spots:
            m = rng.choice(spots)
            return text[:m.start()] + rng.choice(HUGE_NUMBERS) + text[m.end():]
    elif action == 4:                                          # an anchor and an alias
        spots = [m.end() for m in re.finditer(r": ", text)]
        if len(spots) >= 2:
            a, b = sorted(rng.sample(spots, 2))
            line_end = text.find("\n", b)
            line_end = len(text) if line_end < 0 else line_end
            return text[:a] + "&a " + text[a:b] + rng.choice(["*a", "*b", "*a # x", "[*a, *a]"]) + text[line_end:]
    elif action == 5:                                          # an alias bomb or a merge at the top
        bomb = "".join(f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]\n" for i in range(1, rng.choice([3, 6])))
        return "l0: &l0 [x]\n" + bomb + (f"<<: *l0\n" if rng.random() < 0.3 else "") + text
    elif action == 6:                                          # syntax characters
        at = rng.randrange(len(text) + 1)
        return text[:at] + "".join(rng.choice(SYNTAX) for _ in range(rng.randrange(1, 4))) + text[at:]
    elif action == 7:                                          # indentation changed
        if lines:
            i = rng.randrange(len(lines))
            lines[i] = rng.choice(["  ", "\t", " "]) + lines[i] if rng.random() < 0.6 else lines[i].lstrip()
    elif action == 8:
        return text[:rng.randrange(len(text) + 1)]             # cut short
    elif action == 9:                                          # odd unicode inside a value
        spots = [m.end() for m in re.finditer(r": ", text)]
        if spots:
            at = rng.choice(spots)
            odd = rng.choice(ODD_STRINGS)
            return text[:at] + json.dumps(odd) + text[text.find("\n", at) if "\n" in text[at:] else len(text):]
    else:                                                      # extends pointing somewhere odd
        target = rng.choice(["\\0x.yaml", "/dev/zero", "/dev/null", ".", "missing.yaml", "x" * 5000, "", "loop.yaml",
                             "pipe.yaml", "self.yaml", "../" * 50 + "etc/passwd", "~/.bashrc", "secret.txt"])
        head = f'extends: "{target}"'
        return re.sub(r"(?m)^extends:.*$", lambda m: head, text) if "extends:" in text else head + "\n" + text
    return "\n".join(lines)


def mutate_variant(text: str, rng: Random) -> bytes:
    """A variant file's text with 1 to 3 mutations (of its data, its text or its bytes)."""
    for _ in range(rng.randrange(1, 4)):
        choice = rng.random()
        if choice < 0.4:
            try:        # the fuzzer's own reading: a text it cannot read is mutated as text
                tree = yaml.safe_load(text)
                if isinstance(tree, (dict, list)):
                    _mutate_tree(tree, rng)
                    text = yaml.safe_dump(tree, sort_keys=False, allow_unicode=True,
                                          default_flow_style=rng.choice([False, None, True]),
                                          width=rng.choice([80, 10 ** 6]))
                    continue
            except Exception:   # noqa: BLE001 - pyyaml constructors raise many kinds on odd tags
                pass
        text = _mutate_text(text, rng)
    data = text.encode("utf-8", "surrogatepass")
    if rng.random() < 0.05 and data:                             # a byte that is not UTF-8
        at = rng.randrange(len(data))
        data = data[:at] + bytes([rng.choice([0xff, 0xc3, 0x80, 0x00])]) + data[at + 1:]
    return data


def prepare_folder(folder: Path) -> None:
    """The odd files a mutated extends may name: a FIFO, a symlink loop, a file holding a secret."""
    folder.mkdir(parents=True, exist_ok=True)
    if not (folder / "pipe.yaml").exists() and hasattr(os, "mkfifo"):
        os.mkfifo(folder / "pipe.yaml")
    if not (folder / "loop.yaml").is_symlink():
        os.symlink(folder / "loop2.yaml", folder / "loop.yaml")
        os.symlink(folder / "loop.yaml", folder / "loop2.yaml")
    (folder / "secret.txt").write_text(f"password: {SECRET}\n", encoding="utf-8")


def variant_input(folder: Path, rng: Random, seeds: list[tuple[Path, str]]) -> Path:
    """A mutated variant file written in ``folder`` (as self.yaml)."""
    _, text = rng.choice(seeds)
    path = folder / "self.yaml"
    path.write_bytes(mutate_variant(text, rng))
    return path


# -- card lists --------------------------------------------------------------------------------------
def card_list(rng: Random, ranks: list[str], colours: list[str], deck: list[tuple] | None = None) -> str:
    """Cards as a person might type them: often cards the deck holds (drawn from ``deck``), or not."""
    tokens = []
    count = rng.choice([0, 1, 2, 3, 4, 5, 8, 17, 20, 60, 300])
    if deck and rng.random() < 0.6:                             # a hand the deck can hold
        for rank, colour in rng.sample(deck, min(count, len(deck))):
            token = ranks[rank] + (f"/{colour}" if colour and rng.random() < 0.3 else "")
            tokens.append(token.lower() if rng.random() < 0.1 else token)
        count = rng.choice([0, 0, 0, 1])
    for _ in range(count):
        roll = rng.random()
        if roll < 0.8:
            token = rng.choice(ranks)
            if colours and rng.random() < 0.2:
                token += "/" + rng.choice(colours + ["", "nocolour", "red/blue"])
            tokens.append(token.lower() if rng.random() < 0.1 else token)
        else:
            tokens.append(rng.choice(ODD_STRINGS + HUGE_NUMBERS + ["/", "0", "-1", "99", ",", "P/", "/red"]))
    separator = rng.choice([" ", ",", ", ", "  ", "\t", ";"])
    return separator.join(tokens)


def cards_outcome(rules, rng: Random) -> Outcome:
    """classify, beats and moves on mutated card lists: an answer or a ChimeraError.

    Text that is no list of cards, a hand the deck cannot hold or an ``over`` that is no
    combination is refused with a CardError: the input is then rejected.
    """
    ranks = [str(r) for r in rules.deck.ranks]
    colours = [str(c) for c in rules.deck.colours]
    deck = list(rules.deck.cards)
    cards = card_list(rng, ranks, colours, deck)
    over = " ".join(ranks[r] for r, _ in rng.sample(deck, rng.randrange(1, 5))) if rng.random() < 0.5 else \
        card_list(rng, ranks, colours, deck)
    try:
        rules.classify(cards)
        rules.explain_beats(over, cards)
        sum(1 for _ in rules.iter_legal_plays(cards, over=over if rng.random() < 0.5 else None))
    except ChimeraError as error:
        return Outcome("rejected", str(error))
    return Outcome("accepted")


# -- game records ------------------------------------------------------------------------------------
def odd_json(rng: Random) -> str:
    """A JSON text (or almost) that a record's field should not hold."""
    return rng.choice(["1" * 5000, "9" * 41, "-0", "1e999", "NaN", "Infinity", '"\\ud800"', '"\\udc00x"',
                       '"\\u001b[2J"', "[" * 1000 + "]" * 1000, "[" * 40 + "]" * 40, "{}", "[]", "null", "true",
                       '"7"', "[\"7\", \"x\"]", "[[]]", '{"card": 5}', "-1", "3", "0", "99", '"' + "x" * 70000 + '"',
                       '"\\u0000"', "[1, 2, 3]", '"P P"', "2.5", "[\"99\"]"])


def _event(text: str):
    """The fuzzer's own reading of a line: a JSON value, or None when it cannot read it."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def mutate_record(lines: list[str], rng: Random, folder: Path) -> bytes:
    """A game record with 1 to 3 mutations (lines, fields, values, the variant it names)."""
    lines = list(lines)
    for _ in range(rng.randrange(1, 4)):
        action = rng.randrange(8)
        i = rng.randrange(len(lines)) if lines else 0
        if action == 0 and lines:
            del lines[i]
        elif action == 1 and lines:
            lines.insert(i, lines[i])
        elif action == 2 and len(lines) > 1:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        elif action in (3, 4) and lines:                       # a field's value replaced
            event = _event(lines[i])
            if not isinstance(event, dict) or not event:
                continue
            name = rng.choice(list(event) + ["type", "extra"])
            text = json.dumps({k: v for k, v in event.items() if k != name})
            lines[i] = text[:-1] + (", " if len(text) > 2 else "") + json.dumps(name) + ": " + odd_json(rng) + "}"
        elif action == 5 and lines:                            # a field removed or a value changed in place
            event = _event(lines[i])
            if isinstance(event, dict) and event:
                name = rng.choice(list(event))
                if rng.random() < 0.5:
                    del event[name]
                else:
                    event[name] = odd_value(rng)
                lines[i] = json.dumps(event, ensure_ascii=rng.random() < 0.5)
        elif action == 6 and lines:                            # the variant it names
            event = _event(lines[0])
            if isinstance(event, dict):
                event["variant_path"] = rng.choice([str(folder / "secret.txt"), "/dev/zero", str(folder / "pipe.yaml"),
                                                    str(folder / "loop.yaml"), "missing.yaml", "", "x\0y", 5, str(folder)])
                event["variant_hash"] = rng.choice([event.get("variant_hash"), 5, "", "0" * 64, "g" * 64])
                lines[0] = json.dumps(event)
        else:                                                  # text damage
            text = "\n".join(lines)
            at = rng.randrange(len(text) + 1)
            text = text[:at] + rng.choice(["", "}", "{", "\"", "\n", "\\", "\x00", "]" * 3]) + text[at + rng.randrange(3):]
            lines = text.split("\n")
    return ("\n".join(lines) + "\n").encode("utf-8", "surrogatepass")


def record_input(folder: Path, rng: Random, records: list[list[str]]) -> tuple[Path, list[str]]:
    """A mutated record written in ``folder``, and the options to replay it with."""
    path = folder / "game.jsonl"
    path.write_bytes(mutate_record(rng.choice(records), rng, folder))
    options = rng.choice([[], ["--json"], ["--quiet"], ["--variant", str(ROOT / "variants" / "chimera.yaml")]])
    return path, options


def short_records(folder: Path, seeds=(3, 5)) -> list[list[str]]:
    """Records of short games written by ``chimera run --log`` (random players, a low target)."""
    out = []
    for seed in seeds:
        path = folder / f"seed-{seed}.jsonl"
        code, _, err = cli(["run", ROOT / "variants" / "chimera.yaml", "--seed", seed, "--target", "30",
                            "--players", "random", "--log", path, "--quiet"])
        assert code == 0, err
        out.append(path.read_text(encoding="utf-8").splitlines())
    return out


# -- accepted variants play ----------------------------------------------------------------------------
def plays_to_the_end(rules, seed: int, max_actions: int = 20_000) -> str | None:
    """None if one round of random players ends; else what went wrong (the loader should have refused)."""
    from chimera_dsl.engine import Game
    from chimera_dsl.players import make_player
    try:
        game = Game(rules, max_rounds=1)
        players = [make_player("random", seed + seat) for seat in range(game.players)]
        state = game.new_game(seed, player_names=[p.name for p in players])
        for _ in range(max_actions):
            if state.is_terminal():
                return None
            seat = state.current_player()
            state.apply_action(players[seat].act(state.observation(seat), state.legal_actions()))
        return f"no end after {max_actions} actions (phase {state.phase}, round {state.round})"
    except Stall:
        raise
    except Exception as error:      # noqa: BLE001
        return f"{type(error).__name__}: {error}"


def tamper_meaning(events: list[dict], rng: Random) -> tuple[list[dict], int] | None:
    """One change to what a record says (a card for another of its rank, a bonus added, a part
    relabelled, two different lines swapped), and the 1-based line changed first; None when
    the change drawn finds nothing to change.  Replay must refuse the result at that line or
    after it: no such change leaves the game the rules give."""
    events = json.loads(json.dumps(events))
    deal = next(e for e in events if e["type"] == "deal")
    deck = sorted({c for h in deal["hands"] for c in h} | set(deal["nest"]))
    action = rng.randrange(4)
    if action == 0:                                     # a card for another card of its rank
        spots = [(i, k) for i, e in enumerate(events) if e["type"] in ("play", "trick", "exchange")
                 for k, c in enumerate(e["cards"]) if "/" in c]
        rng.shuffle(spots)
        for i, k in spots:
            cards = events[i]["cards"]
            others = [c for c in deck if c.split("/")[0] == cards[k].split("/")[0] and c not in cards]
            if others:
                cards[k] = rng.choice(others)
                return events, i + 1
        return None
    ends = [i for i, e in enumerate(events) if e["type"] == "round_end" and "parts" in e]
    if not ends:
        return None
    i = rng.choice(ends)
    if action == 1:
        events[i]["bonuses"] = {**events[i]["bonuses"], "forged": rng.randrange(1, 100)}
        return events, i + 1
    if action == 2:
        parts = events[i]["parts"]
        seats = [s for s, seat in enumerate(parts) if seat]
        if not seats:
            return None
        seat = parts[rng.choice(seats)]
        seat[rng.randrange(len(seat))][0] = "forged"
        return events, i + 1
    i = rng.randrange(1, len(events) - 1)               # two different lines swapped
    if events[i] == events[i + 1]:
        return None
    events[i], events[i + 1] = events[i + 1], events[i]
    return events, i + 1


# -- the recent keys composed ----------------------------------------------------------------------------
SHIPPED = sorted((ROOT / "variants").glob("*/*.yaml")) + [ROOT / "variants" / "chimera.yaml"]


def flat_spec(path: Path, depth: int = 0) -> dict:
    """A variant file's plain tree with the files it extends written in (maps merge, null removes),
    so that a composed copy stands alone."""
    tree = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    base = tree.pop("extends", None)
    if base is None or depth > 8:
        return tree

    def merged(under: dict, over: dict) -> dict:
        out = dict(under)
        for key, value in over.items():
            if value is None:
                out.pop(key, None)
            elif isinstance(value, dict) and isinstance(out.get(key), dict):
                out[key] = merged(out[key], value)
            else:
                out[key] = value
        return out
    parent = flat_spec((path.parent / base).resolve(), depth + 1)
    if "titles" not in tree:
        parent.pop("titles", None)
    return merged(parent, tree)


PLACES = ["1", "2", "last", "last - 1", "3", "0", "last - 5"]
SEATS = ["dealer", "dealer_left", {"next_of": "dealer"}, "previous_round.first_out", "bidder",
         ["previous_round.first_out", "dealer"], "previous_round.most_cards_left"]


def _place_seat(rng: Random):
    seat = f"previous_round.place({rng.choice(PLACES)})"
    return [seat, rng.choice(["dealer", "dealer_left"])] if rng.random() < 0.6 else seat


def _teams(players: int, rng: Random) -> list:
    seats = list(range(players))
    if rng.random() < 0.6 and players % 2 == 0:
        return [seats[0::2], seats[1::2]]
    rng.shuffle(seats)
    cut = rng.randrange(1, players) if players > 1 else 1
    return [sorted(seats[:cut]), sorted(seats[cut:])] if rng.random() < 0.8 else [[0, 1], [1, 2]]


def _ingredients(spec: dict, rng: Random) -> list:
    """Each recent key of the language, as a change to ``spec`` (a climbing or trick file alike)."""
    deal = spec.setdefault("deal", {}) if isinstance(spec.get("deal"), dict) else spec.setdefault("deal", {})
    play = spec.get("play") if isinstance(spec.get("play"), dict) else spec.setdefault("play", {})
    combos = [c for c in (spec.get("combinations") or {})] or ["single", "pair"]
    players = spec.get("players") if isinstance(spec.get("players"), int) else 4

    def sits_out():
        deal["sits_out"] = rng.choice(SEATS + [_place_seat(rng)])
        if rng.random() < 0.5:
            spec["players"] = players + 1

    def teams():
        play["teams"] = _teams(spec.get("players", players), rng)
        play["round_ends_when"] = rng.choice(["team_out or out_count >= players - 1", "team_out",
                                              "out_count >= players - 1", "team_out and out_count >= 2"])
        if rng.random() < 0.3:
            spec.setdefault("end", {})["ties"] = rng.choice(["play_on", "shared", "one_more_round"])

    def effects():
        entries = []
        for _ in range(rng.randrange(1, 4)):
            when = rng.choice([f"play_is({rng.choice(combos)})", "play_size >= 4", "play_rank == 1", "reversed",
                               "out_count > 0", "play_tier > 0"])
            entry = rng.choice([{"when": when, "do": "reverse_order"},
                                {"when": when, "do": {"lead_to": "partner"}},
                                {"at": "trick_end", "when": when, "do": {"trick_to": "opponent"}},
                                {"at": "trick_end", "do": "reverse_order"},
                                {"at": "play", "when": when, "do": {"trick_to": "opponent"}}])
            if rng.random() < 0.6:
                entry.pop("when", None) if rng.random() < 0.2 else None
            entries.append(entry)
        play["effects"] = entries

    def pass_final():
        play["pass_final"] = rng.random() < 0.8

    def rest_dealt():
        deal["rest"] = "dealt"
        if isinstance(deal.get("hand"), int) and rng.random() < 0.5:
            deal["hand"] = max(1, deal["hand"] - rng.randrange(1, 4))

    def places():
        seat = _place_seat(rng)
        where = rng.randrange(3)
        if where == 0:
            deal.pop("dealer_rotates", None)
            deal["next_dealer"] = seat
        elif where == 1:
            play["first_leader"] = seat
        else:
            spec.setdefault("phases", {})["given"] = {"kind": "transfer", "when": rng.choice(["round > 1", "round > 0"]),
                                                       "from": seat, "to": _place_seat(rng), "count": 1,
                                                       "choose": rng.choice(["highest", "player"])}
            names = list(spec.get("round") or ["deal"] + [n for n in ("bidding", "nest") if n in spec]
                         + ["play", "scoring"])
            names.insert(names.index("play") if "play" in names else len(names), "given")
            spec["round"] = names
        if "round_ends_when" not in play and rng.random() < 0.7:
            play["round_ends_when"] = "out_count >= players - 1"

    def unless():
        table = spec.get("combinations")
        if isinstance(table, dict) and table:
            name = rng.choice(list(table))
            if isinstance(table[name], dict):
                table[name]["unless"] = rng.sample(combos, min(len(combos), rng.randrange(1, 3)))

    def sum_others():
        scoring = spec.setdefault("scoring", {})
        points = scoring.get("points")
        each = points.get("each") if isinstance(points, dict) else None
        if isinstance(each, dict) and each and rng.random() < 0.7:
            each["others"] = f"-sum_others({rng.choice(list(each))}) / {rng.choice([1, 2, 'players'])}"
        else:
            scoring.clear()
            scoring["points"] = {"each": {"paid": rng.choice(["-cards_left", "-(cards_left * 2)", "0"]),
                                          "collected": rng.choice(["if out_first then -sum_others(paid) else 0",
                                                                   "-sum_others(paid)", "sum_others(later)"])}}

    def draw():
        # a stock drawn from after each trick: a smaller hand, the turned card under or on the stock
        play["draw"] = rng.choice([1, 1, 2])
        if isinstance(deal.get("hand"), int) and rng.random() < 0.8:
            deal["hand"] = max(1, deal["hand"] // rng.choice([2, 3]))
        if rng.random() < 0.5:
            deal["turn_up"] = True
            play["stock_top"] = rng.choice(["face_up", "face_down"])
        if rng.random() < 0.4:
            play["follow"] = "none"

    return [sits_out, teams, effects, pass_final, rest_dealt, places, unless, sum_others, draw]


def compose_recent(path: Path, rng: Random) -> dict:
    """A shipped file with 1 to 4 of the language's recent keys put in (``deal.sits_out``, climbing
    ``play.teams`` with ``team_out``, ``play.effects``, ``play.pass_final``, ``deal.rest: dealt``,
    ``previous_round.place(K)`` seats, ``unless``, ``sum_others``, ``play.draw`` with ``stock_top`` and
    ``follow: none``), and sometimes its play kind swapped."""
    spec = flat_spec(path)
    spec.pop("titles", None)
    if rng.random() < 0.15 and isinstance(spec.get("play"), dict):
        kind = "tricks" if spec["play"].get("kind", "play") == "play" else "play"
        spec["play"] = {"kind": kind, "first_leader": "dealer_left"}
        if kind == "play" and "combinations" not in spec:
            spec["combinations"] = {"single": {"pattern": "single of any"}, "pair": {"pattern": "pair of any"}}
    for change in rng.sample(_ingredients(spec, rng), rng.randrange(1, 5)):
        change()
    return spec


def composed_input(folder: Path, rng: Random, path: Path | None = None) -> Path:
    """A composed file (:func:`compose_recent`) of ``path`` or of a shipped file drawn, written in ``folder``."""
    spec = compose_recent(path or rng.choice(SHIPPED), rng)
    out = folder / "composed.yaml"
    out.write_text(yaml.safe_dump(spec, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return out


ROUND_BOUND = 5_000         # decisions one round may take (the longest shipped round takes a few hundred)


def game_ends(rules, seed: int, bound: int = 50_000) -> tuple[str, str]:
    """A whole game of random players, judged: ("ends", ""), or ("slow", why): after ``bound``
    decisions rounds still end and the totals are not stuck tied past the end (the loader proved
    an end that random play has not reached yet, e.g. zero-sum points far from the target), or
    ("no-end", why): a round that takes more than ``ROUND_BOUND`` decisions, or totals tied at
    the best past the end while ``end.ties`` plays on (a side whose totals never part)."""
    from chimera_dsl.engine import Game
    from chimera_dsl.players import make_player
    game = Game(rules)
    players = [make_player("random", seed * 10 + seat) for seat in range(game.players)]
    state = game.new_game(seed)
    round_started, last_round = 0, state.round
    for decision in range(bound):
        if state.is_terminal():
            return "ends", ""
        if state.round != last_round:
            round_started, last_round = decision, state.round
        elif decision - round_started > ROUND_BOUND:
            return "no-end", f"round {state.round} still going after {ROUND_BOUND} decisions (phase {state.phase})"
        seat = state.current_player()
        state.apply_action(players[seat].act(state.observation(seat), state.legal_actions()))
    end = state._round.end
    totals = list(state.totals)
    if len(end.leaders(totals)) > 1 and end.ties == "play_on" and end.over(totals, state.round, game.target):
        return "no-end", f"totals {totals} tied at the best past the end after {state.round} rounds, ties: play_on"
    return "slow", f"not over after {bound} decisions ({state.round} rounds, totals {totals})"


def refusal_or_end(path: Path, seed: int, bound: int = 50_000) -> Outcome:
    """A located refusal ("rejected"), or a whole game that ends ("accepted"); a game still going
    at the bound whose rounds end is "slow" (see :func:`game_ends`), one that does not end is
    "no-end", an exception escaping is left to :func:`judged` (a crash)."""
    outcome = load_outcome(path)
    if outcome.category != "accepted":
        return outcome
    verdict, why = game_ends(outcome.rules, seed, bound)
    return outcome if verdict == "ends" else Outcome(verdict, why, outcome.rules)
