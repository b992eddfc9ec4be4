"""Many seeded games, in parallel, summed into figures: `chimera simulate` and `chimera compare`.

The work is split by seed, never by worker: unit ``i`` (a whole game, or a single round with
``single_rounds``) of a run with seed ``S`` is played with the seed :func:`unit_seed` ``(S, i)``,
and the units are cut into chunks whose size depends only on how many units there are.  Each
chunk comes back as a merged :class:`~chimera_dsl.study.summary.Summary`, and chunks are merged in
their order.  Sums of integers are exact, so the same seed gives the same figures with one
worker, all cores, or a Dask cluster.  Nothing but sums travels back: memory stays flat.

A comparison plays every unit under both variants with the same seed: the engine draws deal
``k`` of game ``s`` from ``random.Random(f"{s}:deal:{k}")``, so both variants see the same
deals wherever their decks agree, and the differences are paired unit by unit.

Backends: ``local`` (a process pool on this machine) and ``dask`` (``pip install
'chimera_dsl[dask]'``; a scheduler at ``address``, or a local cluster started for the run).
The scheduling is theirs; this module only splits the seeds.
"""
from __future__ import annotations

import contextlib
import hashlib
import logging
import multiprocessing
import os
import re
import signal
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Callable, Iterator, Sequence

from ..errors import ChimeraError
from ..tell.catalog import catalog
from .figures import (DEFAULT_SECONDS_PER_PLAY, designer_rank, with_derived_figures, fairness_difference, label_of,
                      scaled_difference, warnings_for)
from .stats import holm
from .summary import PairedFigures, Summary, compare as compare_figures

BACKENDS = ("local", "dask")
MAX_CHUNK = 40            # units per chunk, at most
TARGET_CHUNKS = 256       # aim for about this many chunks (for progress and load balance)


class SimulationError(ChimeraError):
    """A simulation cannot run as asked (a backend that is not installed, a bad option...)."""


@dataclass(frozen=True)
class VariantRef:
    """What a worker needs to rebuild a variant's rules, without reading any file."""

    path: str
    spec: dict
    source_hash: str

    @classmethod
    def of(cls, rules) -> "VariantRef":
        return cls(str(rules.path), rules.spec, rules.source_hash)


@dataclass(frozen=True)
class Task:
    """One chunk of units: ``start`` up to (not including) ``stop``."""

    variants: tuple[VariantRef, ...]
    seed: int
    start: int
    stop: int
    players: str
    target: int | None
    single_rounds: bool
    search_budget: str | None = None


@dataclass
class ChunkResult:
    """The merged figures of one chunk (one summary per variant) and, for two, their pairing."""

    summaries: list
    paired: PairedFigures | None = None

    def merge(self, other: "ChunkResult") -> "ChunkResult":
        for mine, theirs in zip(self.summaries, other.summaries):
            mine.merge(theirs)
        if self.paired is not None and other.paired is not None:
            self.paired.merge(other.paired)
        return self


@dataclass
class RunInfo:
    """How a run went: for the table header, the JSON and the report."""

    units: int
    unit: str                 # "games" or "rounds"
    seed: int
    players: str
    workers: int
    backend: str
    chunks: int
    seconds: float = 0.0
    variants: list = field(default_factory=list)
    search_budget: str | None = None
    notes: list = field(default_factory=list)      # what the run changed of what was asked, and why
    later_rounds: list = field(default_factory=list)   # with single rounds: the keys that speak of later rounds

    def as_dict(self) -> dict:
        out = {"units": self.units, "unit": self.unit, "seed": self.seed, "players": self.players,
               "workers": self.workers, "backend": self.backend, "chunks": self.chunks,
               "seconds": round(self.seconds, 3), "variants": self.variants}
        if self.search_budget is not None:
            out["search_budget"] = self.search_budget
        if self.notes:
            out["notes"] = list(self.notes)
        if self.later_rounds:
            out["later_rounds"] = list(self.later_rounds)
        return out


def unit_seed(seed: int, index: int) -> int:
    """The seed of unit ``index`` of a run seeded ``seed`` (a 63-bit integer)."""
    digest = hashlib.sha256(f"chimera:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


class ChunkBounds(Sequence):
    """The chunks of ``count`` units as ``(start, stop)`` pairs, each made when it is read: a
    list of them would grow with the count (a billion games, 25 million chunks)."""

    def __init__(self, count: int):
        self.units = count
        self.size = max(1, min(MAX_CHUNK, -(-count // TARGET_CHUNKS)))

    def __len__(self) -> int:
        return -(-self.units // self.size)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        start = i * self.size
        return start, min(start + self.size, self.units)


class _Tasks(Sequence):
    """The tasks of a run, one per chunk, each made when it is read (see :class:`ChunkBounds`)."""

    def __init__(self, bounds: ChunkBounds, make: Callable[[int, int], "Task"]):
        self.bounds, self.make = bounds, make

    def __len__(self) -> int:
        return len(self.bounds)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        return self.make(*self.bounds[i])


def chunk_bounds(count: int) -> ChunkBounds:
    """Cut ``count`` units into chunks; the cut depends on ``count`` alone, never on workers."""
    return ChunkBounds(count)


def default_workers() -> int:
    """Every core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:                                   # not on Linux
        return max(1, os.cpu_count() or 1)


# -- in the worker ------------------------------------------------------------------------------

_RULES_CACHE: dict = {}
_GAME_CACHE: dict = {}


def _rules_of(ref: VariantRef):
    key = (ref.path, ref.source_hash)
    rules = _RULES_CACHE.get(key)
    if rules is None:
        from ..rules import Rules
        if len(_RULES_CACHE) > 8:
            _RULES_CACHE.clear()
        rules = _RULES_CACHE[key] = Rules.from_spec(ref.spec, path=ref.path, source_hash=ref.source_hash)
    return rules


def _game_of(ref: VariantRef, target: int | None, single_rounds: bool):
    """The engine's Game for a variant, kept per process: its caches stay warm from chunk to chunk."""
    from ..engine import Game

    key = (ref.path, ref.source_hash, target, single_rounds)
    game = _GAME_CACHE.get(key)
    if game is None:
        if len(_GAME_CACHE) > 8:
            _GAME_CACHE.clear()
        game = _GAME_CACHE[key] = Game(_rules_of(ref), target=target, max_rounds=1 if single_rounds else None)
    return game


class _Feeder:
    """Feeds a game's lines to a summary as each round ends, then drops them from the game's
    memory (a game of any length holds at most one round's lines), and counts the legal
    actions offered at each decision (what the players saw, which a record does not keep)."""

    def __init__(self, summary: Summary):
        self.summary = summary
        self.choices: list[int] = []
        self.round: int | None = None

    def watch(self, state) -> None:          # before each decision, and at the end
        over = state.is_terminal()
        if not over:
            self.choices.append(len(state.legal_actions()))
        if state.round == self.round and not over:
            return
        self.round = state.round
        lines = state.events
        chunk = list(lines)
        del lines[:]
        self.summary.feed_all(chunk, self.choices if over else None)


def run_chunk(task: Task) -> ChunkResult:
    """Play the units of one chunk under each variant and return their summed figures."""
    from ..players import parse_players, play_game

    games = [_game_of(ref, task.target, task.single_rounds) for ref in task.variants]
    rules = [game.rules for game in games]
    totals = [Summary.for_rules(r, whole_games=not task.single_rounds) for r in rules]
    paired = PairedFigures() if len(rules) == 2 else None
    for index in range(task.start, task.stop):
        seed = unit_seed(task.seed, index)
        units = []
        for game, total in zip(games, totals):
            players = parse_players(task.players, game.players, seed, task.search_budget)
            unit = total if paired is None else total.empty_copy()
            play_game(game, players, seed, watch=_Feeder(unit).watch)
            if paired is not None:
                units.append(unit)
                total.merge(unit)
        if paired is not None:
            paired.add(units[0], units[1])
    return ChunkResult(totals, paired)


# -- backends -----------------------------------------------------------------------------------

def _in_order(submit, tasks: Sequence[Task], window: int) -> Iterator[ChunkResult]:
    """Submit the tasks, at most ``window`` in flight (memory stays flat at any N), and yield
    their results in task order whatever order they finish in."""
    pending = {}
    next_submit = 0
    for i in range(len(tasks)):
        while next_submit < len(tasks) and next_submit < i + window:
            pending[next_submit] = submit(tasks[next_submit])
            next_submit += 1
        future = pending.pop(i)
        result = future.result()
        release = getattr(future, "release", None)     # a Dask future: let the cluster forget it
        if release is not None:
            release()
        yield result


def _local(tasks: Sequence[Task], workers: int) -> Iterator[ChunkResult]:
    """Chunk results in task order, from a process pool (or this process, for one worker)."""
    if workers <= 1 or len(tasks) <= 1:
        for task in tasks:
            yield run_chunk(task)
        return
    from concurrent.futures import ProcessPoolExecutor

    # fork on Linux: workers start at once and need no `if __name__ == "__main__"` guard in the
    # caller's script; elsewhere the platform's default
    fork = sys.platform == "linux" and "fork" in multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if fork else None)
    window = workers * 4
    pool = ProcessPoolExecutor(max_workers=min(workers, len(tasks)), mp_context=context)
    try:
        with _terminated_in_order(pool):
            yield from _in_order(lambda task: pool.submit(run_chunk, task), tasks, window)
    finally:                                   # interrupted or failed: drop what has not started
        pool.shutdown(wait=True, cancel_futures=True)


class _Terminated(SystemExit):
    """SIGTERM reached this process while its workers ran: leave as SIGTERM's default would
    (status 143), having stopped them first."""


@contextlib.contextmanager
def _terminated_in_order(pool):
    """SIGTERM stops the pool's worker processes too: by default it ends this process alone and
    leaves them waiting for work that never comes, adopted by init.  Only in the main thread,
    where signals are handled; a worker forked meanwhile inherits the handler, which there just
    ends it as SIGTERM would."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    parent = os.getpid()

    def on_term(signum, frame):
        if os.getpid() != parent:
            os._exit(128 + signum)
        # the workers first (the signal may arrive while the caller, not this generator, runs)
        for process in list((getattr(pool, "_processes", None) or {}).values()):
            process.terminate()
        raise _Terminated(128 + signum)

    previous = signal.signal(signal.SIGTERM, on_term)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _dask(tasks: Sequence[Task], workers: int, address: str | None) -> Iterator[ChunkResult]:
    """Chunk results in task order, scheduled by Dask distributed."""
    cluster = client = None
    try:
        try:
            if address:
                Client, _ = _dask_classes()
                client = Client(address, timeout="10s")
            else:
                # The local cluster's processes are born ignoring Ctrl-C (they inherit it while
                # they start), so only this process stops on it and closes them in order; a Ctrl-C
                # pressed during those seconds of start is held back and felt once they are up.
                # Dask is imported there too: the thread its import starts must hold it back.
                # The scheduler's web server listens on a free
                # port of this machine only, with no dashboard: no port 8787 to take, no warning
                # when it is in use.  Dask's own log is kept to critical errors: on a busy machine a
                # worker whose scheduler closed first logs a failed heartbeat with its traceback
                # (an error of Dask's log, harmless); a task's own error comes back as an exception.
                with _sigint_ignored(held_back=True):
                    Client, LocalCluster = _dask_classes()
                    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                           dashboard_address=None, silence_logs=logging.CRITICAL,
                                           scheduler_kwargs={"dashboard": False,
                                                             "dashboard_address": "127.0.0.1:0"})
                client = Client(cluster)
        except (OSError, TimeoutError, ValueError) as error:   # unreachable, or not an address
            raise SimulationError(f"cannot reach the Dask scheduler {address or '(local)'}: {error}") from None
        threads = sum(w.get("nthreads", 1) for w in client.scheduler_info()["workers"].values())
        yield from _in_order(lambda task: client.submit(run_chunk, task, pure=False), tasks, max(8, 4 * threads))
    finally:
        with _sigint_ignored():         # a second Ctrl-C does not break the closing into tracebacks
            if client is not None:
                client.close()
            if cluster is not None:
                cluster.close()


def _dask_classes():
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise SimulationError("the dask backend needs Dask distributed: pip install 'chimera_dsl[dask]'") from None
    return Client, LocalCluster


@contextlib.contextmanager
def _sigint_ignored(held_back: bool = False):
    """Ctrl-C ignored inside, by this process and every process it starts there (they inherit
    it).  Only in the main thread, where signals are handled; elsewhere nothing changes.

    ``held_back``: a Ctrl-C pressed inside is not lost but felt on leaving, as KeyboardInterrupt.
    The signal is blocked inside too, and Linux keeps a blocked signal pending even while it is
    ignored, if no thread takes it: threads started inside inherit the block and keep it, so
    that a later Ctrl-C reaches this thread alone; a thread started before may take it and lose
    it.  Multiprocessing's resource tracker is started first, as its start unblocks the signal."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    blocking = held_back and hasattr(signal, "pthread_sigmask")
    if blocking:
        from multiprocessing import resource_tracker
        resource_tracker.ensure_running()
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if blocking:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})    # one held back is felt here


def _results(tasks, backend: str, workers: int, address: str | None) -> Iterator[ChunkResult]:
    if backend == "local":
        if address:
            raise SimulationError("--address is for the dask backend")
        return _local(tasks, workers)
    if backend == "dask":
        return _dask(tasks, workers, address)
    raise SimulationError(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")


# -- the runs ----------------------------------------------------------------------------------

# what a file says only of rounds after the first: keys that name such a thing, and the words
# of an expression or a seat that read the round's number or the round before
_LATER_KEYS = ("first_round", "by_round", "hand_by_round")
_LATER_WORDS = re.compile(r"(?<![\w.])round(?![\w(])|previous_round\.")
_NOT_RULES = ("name", "game", "titles", "labels", "names", "looks", "format", "extends", "end")


def later_round_keys(rules) -> list[str]:
    """The keys of a file whose rule depends on the round's number or on the rounds before it
    (a transfer ``when: round > 1``, a seat of the previous round, hands by round, a value kept
    from round to round...), as dotted paths: a run of single rounds plays each as a game's
    first round, so those rules are never played as they are in later rounds.  Each is named
    once by its section and key, or its phase (``phases.tribute``)."""
    found: list[str] = []

    def walk(node, path: tuple) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if str(key) in _NOT_RULES:
                    continue
                if str(key) in _LATER_KEYS:
                    found.append(".".join(map(str, path + (key,))))
                    continue
                walk(value, path + (key,))
        elif isinstance(node, list):
            for i, item in enumerate(node):
                walk(item, path + (i,))
        elif isinstance(node, str) and _LATER_WORDS.search(node):
            found.append(".".join(map(str, path)))
    spec = rules.spec
    walk({k: v for k, v in spec.items() if k != "values"}, ())
    for name, value in (spec.get("values") or {}).items():
        if not isinstance(value, dict) or value.get("per", "game") != "round":
            found.append(f"values.{name}")
    # a phase, or a key of a section, once: phases.tribute, play.first_leader
    return list(dict.fromkeys(".".join(path.split(".")[:2]) for path in found))

def _run(rules_list, count: int, *, single_rounds: bool, seed: int, players: str | None,
         target: int | None, workers: int | None, backend: str, address: str | None,
         progress: Callable[[int], None] | None, search_budget: str | None = None) -> tuple[ChunkResult, RunInfo]:
    from ..players import default_player_spec, parse_players

    if count < 1:
        raise SimulationError(f"the number of {'rounds' if single_rounds else 'games'} must be at least 1")
    if target is not None and target <= 0:
        raise SimulationError(f"the target must be positive, not {target}")
    workers = default_workers() if workers is None else workers
    if workers < 1:
        raise SimulationError(f"--workers must be at least 1, not {workers}")
    notes = []
    cores = default_workers()
    if workers > cores and not address:     # more processes than cores only slows the run
        notes.append(f"--workers {workers} is more than the {cores} core{'s' if cores != 1 else ''} this "
                     f"process may use: {cores} worker process{'es' if cores != 1 else ''} run instead "
                     "(the figures do not depend on it)")
        workers = cores
    from ..engine import Game

    players = players or default_player_spec()
    for rules in rules_list:                     # bad rules or players fail here, not in a worker
        parse_players(players, Game(rules, target=target, max_rounds=1 if single_rounds else None).players, 0, search_budget)
    refs = tuple(VariantRef.of(r) for r in rules_list)
    bounds = chunk_bounds(count)
    if search_budget is not None:
        search_budget = str(search_budget)
    tasks = _Tasks(bounds, lambda lo, hi: Task(refs, seed, lo, hi, players, target, single_rounds, search_budget))
    info = RunInfo(count, "rounds" if single_rounds else "games", seed, players, workers, backend,
                   len(tasks), variants=[{"path": r.path, "name": r.name, "source_hash": r.source_hash}
                                         for r in rules_list], search_budget=search_budget, notes=notes,
                   later_rounds=sorted({k for r in rules_list for k in later_round_keys(r)}) if single_rounds else [])
    started = time.perf_counter()
    merged = None
    for task, result in zip(tasks, _results(tasks, backend, workers, address)):
        merged = result if merged is None else merged.merge(result)
        if progress is not None:
            progress(task.stop - task.start)
    info.seconds = time.perf_counter() - started
    return merged, info


def simulate(rules, count: int, *, single_rounds: bool = False, seed: int = 0, players: str | None = None,
             target: int | None = None, workers: int | None = None, backend: str = "local",
             address: str | None = None, progress=None, search_budget=None) -> tuple[Summary, RunInfo]:
    """Play ``count`` games (or single rounds) of ``rules`` and return their figures.

    ``search_budget`` goes to every ``search`` player (see :func:`~chimera_dsl.players.make_player`).
    """
    result, info = _run([rules], count, single_rounds=single_rounds, seed=seed, players=players,
                        target=target, workers=workers, backend=backend, address=address, progress=progress,
                        search_budget=search_budget)
    return result.summaries[0], info


@dataclass
class Comparison:
    """Two variants played on the same seeds: their figures and the paired differences."""

    a: Summary
    b: Summary
    paired: PairedFigures
    info: RunInfo
    same_deals: bool

    def differences(self) -> list:
        """Every figure's difference B - A, in the order figures are shown, each with its p-value
        adjusted by Holm's method over all of them (:data:`CORRECTION`)."""
        found = compare_figures(self.a, self.b, self.paired)
        for d, adjusted in zip(found, holm([d.p for d in found])):
            d.p_adjusted = adjusted
        return found


# how `compare` reads many differences together: a difference is significant when its p-value,
# adjusted by Holm's step-down method over every figure compared, is below 5%
CORRECTION = "holm"


def compare(rules_a, rules_b, count: int, *, single_rounds: bool = False, seed: int = 0,
            players: str | None = None, target: int | None = None, workers: int | None = None,
            backend: str = "local", address: str | None = None, progress=None,
            search_budget=None) -> Comparison:
    """Play ``count`` games (or single rounds) of both variants on the same seeds (``search_budget``:
    as for :func:`simulate`)."""
    result, info = _run([rules_a, rules_b], count, single_rounds=single_rounds, seed=seed, players=players,
                        target=target, workers=workers, backend=backend, address=address, progress=progress,
                        search_budget=search_budget)
    same = rules_a.deck.cards == rules_b.deck.cards and (rules_a.spec.get("deal") == rules_b.spec.get("deal"))
    return Comparison(result.summaries[0], result.summaries[1], result.paired, info, same)


# -- presenting the figures ----------------------------------------------------------------------

def _is_rate(fig: dict) -> bool:
    return "rate" in fig


def format_value(fig: dict) -> str:
    """A figure's value, as people read it (rates in percent)."""
    if _is_rate(fig):
        return f"{100 * fig['rate']:.1f}%"
    return f"{fig['mean']:.2f}"


def format_interval(fig: dict, rate: bool | None = None) -> str:
    """A figure's 95% interval, as people read it ("-" when there is none)."""
    lo, hi = fig["ci95"]
    if lo is None or hi is None:
        return "-"
    if _is_rate(fig) if rate is None else rate:
        return f"{100 * lo:.1f}% .. {100 * hi:.1f}%"
    return f"{lo:.2f} .. {hi:.2f}"


def simulation_data(summary: Summary, info: RunInfo, seconds_per_play: float = DEFAULT_SECONDS_PER_PLAY) -> dict:
    """What `chimera simulate --json` prints (and the report shows)."""
    data = {"run": {**info.as_dict(), "seconds_per_play": seconds_per_play}, **summary.as_dict()}
    data["figures"] = with_derived_figures(data["figures"], seconds_per_play)
    data["warnings"] = warnings_for(info.players, later_rounds=info.later_rounds)
    return data


def comparison_data(comparison: Comparison, seconds_per_play: float = DEFAULT_SECONDS_PER_PLAY) -> dict:
    """What `chimera compare --json` prints (and the report shows): each figure of A and B, and
    their paired differences; the first seat's advantage and the seat fairness too."""
    a, b = comparison.a, comparison.b
    data_a, data_b = a.as_dict(), b.as_dict()
    for data in (data_a, data_b):
        data["figures"] = with_derived_figures(data["figures"], seconds_per_play)
    labels = {**{n: f["label"] for n, f in data_b["figures"].items()},
              **{n: f["label"] for n, f in data_a["figures"].items()}}
    differences = []
    found = comparison.differences()
    for d in found:
        row = {"label": labels.get(d.name) or a.label(d.name), **d.as_dict()}
        differences.append(row)
        turns = {"turns_per_game": "minutes_per_game", "turns_per_round": "minutes_per_round"}.get(d.name)
        if turns:
            differences.append(scaled_difference(row, turns, seconds_per_play / 60, labels[turns]))
        if d.name == "position_1_win_rate":
            differences.append(_advantage_difference(row, a.fair_share(), b.fair_share()))
    fairness = fairness_difference(a.seat_fairness(), b.seat_fairness())
    if fairness is not None:
        differences.append({"label": label_of("seat_fairness"), "p": None, "p_adjusted": None, **fairness})
    # what a designer asks first (fairness, success, length, shape), then the mechanics; in each
    # group the significant differences first, then in the group's order, the smallest p first
    shown = {name: i for i, name in enumerate(d["figure"] for d in differences)}

    def place(d: dict) -> tuple:
        group, rank = designer_rank(d["figure"])
        return (group, not d["significant"], rank, d["p"] if d["p"] is not None else 1.0, shown[d["figure"]])
    differences.sort(key=place)
    tested = sum(d.p is not None for d in found)
    correction = {"method": CORRECTION, "alpha": 0.05, "family": tested,
                  "about": f"Holm's step-down correction over the {tested} paired differences: a difference is "
                           "significant when its adjusted p-value is below 0.05; the minutes and the first seat's "
                           "advantage share the p-value of the turns and the win rate they are read from; the "
                           "seat fairness's bootstrap interval is read alone"}
    return {"run": {**comparison.info.as_dict(), "seconds_per_play": seconds_per_play},
            "same_deals": comparison.same_deals, "correction": correction, "a": data_a, "b": data_b,
            "differences": differences, "warnings": warnings_for(comparison.info.players,
                                                                     later_rounds=comparison.info.later_rounds)}


def _advantage_difference(row: dict, fair_a: float, fair_b: float) -> dict:
    """The first seat's advantage in both variants and its paired difference: position 1's win
    rate less a fair share (:meth:`Summary.fair_share`), so the interval is the win rate's, shifted."""
    shift = fair_b - fair_a
    lo, hi = row["ci95"]
    a = None if row["a"] is None else row["a"] - fair_a
    b = None if row["b"] is None else row["b"] - fair_b
    diff = None if row["difference"] is None else row["difference"] - shift
    return {**row, "figure": "first_seat_advantage", "label": label_of("first_seat_advantage"), "a": a, "b": b,
            "difference": diff, "ci95": [None if lo is None else lo - shift, None if hi is None else hi - shift]}


def _words(lang: str) -> dict:
    """The tables' words in ``lang``: the catalogs' ``cli`` section."""
    return catalog(lang)["cli"]


def _say(words: dict, key: str, n: int | None = None, **fields) -> str:
    text = words[key]
    if isinstance(text, list):
        text = text[0] if n == 1 else text[1]
    return text.format(n=n, **fields)


def _labeller(data: dict, lang: str, names: dict | None):
    """A figure's label in ``lang``: the data's own in English (or without ``names``), else said
    again from the catalog with ``names``: the roles and combinations in that language
    (``bidder``, ``others``, ``combinations``, and ``fields``: the bidder's name with its articles)."""
    if lang == "en" or not names:
        return lambda name, label: label
    pace = data["run"].get("seconds_per_play", DEFAULT_SECONDS_PER_PLAY)

    def label(name: str, _label: str) -> str:
        text = label_of(name, names["bidder"], names["others"], names.get("combinations"), lang, names.get("fields"),
                        names.get("bonuses"))
        if name in ("minutes_per_game", "minutes_per_round"):
            text = catalog(lang)["figures"]["at_pace"].format(label=text, seconds=f"{pace:g}")
        return text
    return label


def _header(info: RunInfo, words: dict) -> str:
    rate = info.units / info.seconds if info.seconds else 0.0
    budget = _say(words, "budget", budget=info.search_budget) if info.search_budget is not None else ""
    unit = words.get("unit_" + info.unit, info.unit)
    return _say(words, "run", info.workers, units=info.units, unit=unit, seed=info.seed, players=info.players,
                budget=budget, workers=info.workers, backend=info.backend, seconds=f"{info.seconds:.1f}",
                rate=f"{rate:.1f}")


def _signed(x: float, rate: bool) -> str:
    return f"{100 * x:+.1f}%" if rate else f"{x:+.2f}"


def render_simulation(data: dict, console, lang: str = "en", names: dict | None = None) -> None:
    """The figures of a simulation as a table on a rich console, in ``lang``; ``names``: the
    variant's roles and combinations in that language (:func:`_labeller`)."""
    from rich.table import Table

    words = _words(lang)
    label = _labeller(data, lang, names)
    run = data["run"]
    variant = run["variants"][0]
    title = names["title"] if lang != "en" and names and names.get("title") else variant["name"]
    table = Table(title=f"{title} ({variant['path']})", caption=_header(_info_of(run), words),
                  title_justify="left", caption_justify="left")
    table.add_column(words["figure"])
    table.add_column(words["value"], justify="right")
    table.add_column(words["interval"], justify="right")
    table.add_column(words["n"], justify="right")
    previous = None
    for name, fig in data["figures"].items():
        group = _group(name)
        if previous is not None and group != previous:
            table.add_section()
        previous = group
        table.add_row(label(name, fig["label"]), format_value(fig), format_interval(fig), str(fig["n"]))
    advantage = data.get("first_seat_advantage")
    fairness = data.get("seat_fairness")
    if advantage or fairness:
        table.add_section()
    if advantage:
        lo, hi = advantage["ci95"]
        table.add_row(label_of("first_seat_advantage", lang=lang), _signed(advantage["mean"], True),
                      f"{_signed(lo, True)} .. {_signed(hi, True)}", str(advantage["n"]))
    if fairness:
        rate = fairness["unit"] == "rate"
        show = (lambda x: f"{100 * x:.1f}%") if rate else (lambda x: f"{x:.2f}")
        lo, hi = fairness["ci95"]
        table.add_row(_say(words, "fairness_games" if rate else "fairness_points", label=label_of("seat_fairness", lang=lang)),
                      show(fairness["mean"]), f"{show(lo)} .. {show(hi)}", str(fairness["n"]))
    console.print(table)


def render_comparison(data: dict, console, lang: str = "en", names: dict | None = None,
                      title_b: str | None = None) -> None:
    """Each figure of both variants with the difference: what a designer asks first (fairness,
    success, length), significance after Holm's correction; in ``lang``, with ``names`` (the
    roles, combinations and title of variant A in that language, :func:`_labeller`) and B's title."""
    from rich.table import Table

    words = _words(lang)
    label = _labeller(data, lang, names)
    run = data["run"]
    a, b = run["variants"]
    note = words["same_deals" if data["same_deals"] else "other_deals"]
    own = lang != "en" and names
    title_a = names.get("title") or a["name"] if own else a["name"]
    title_b = title_b or b["name"] if own else b["name"]
    table = Table(title=f"A: {title_a} ({a['path']})\nB: {title_b} ({b['path']})",
                  caption=_say(words, "compared", correction_family(data), run=_header(_info_of(run), words),
                               deals=note), title_justify="left",
                  caption_justify="left")
    for column, justify in ((words["figure"], "left"), ("A", "right"), ("B", "right"), ("B - A", "right"),
                            (words["interval"], "right"), ("", "left")):
        table.add_column(column, justify="left" if justify == "left" else "right")
    for d in data["differences"]:
        rate = is_rate_figure(d, data)
        show = (lambda x: "-" if x is None else f"{100 * x:.1f}%") if rate else \
            (lambda x: "-" if x is None else f"{x:.2f}")
        diff = "-" if d["difference"] is None else _signed(d["difference"], rate)
        table.add_row(label(d["figure"], d["label"]), show(d["a"]), show(d["b"]), diff,
                      format_interval({"ci95": d["ci95"]}, rate), "*" if d["significant"] else "",
                      style="bold" if d["significant"] else None)
    console.print(table)


def correction_family(data: dict) -> int:
    """How many figures a comparison's significance was corrected over (Holm's family)."""
    return (data.get("correction") or {}).get("family", len(data["differences"]))


def is_rate_figure(d: dict, data: dict) -> bool:
    """Is this row of a comparison a rate (shown in percent)?"""
    if d["figure"] == "first_seat_advantage":
        return True
    if d["figure"] == "seat_fairness":
        return d.get("unit") == "rate"
    return any(_is_rate(data[side]["figures"].get(d["figure"], {})) for side in ("a", "b"))


def _group(name: str) -> str:
    for prefix in ("bidder_success_at", "bidder_points_at", "final_bid", "position_", "bidder_at", "player_",
                   "plays_of", "bonus_"):
        if name.startswith(prefix):
            return prefix
    if name in ("bidder_success", "others_round_win_rate", "bidder_points_per_round", "others_points_per_round",
                "role_gap_per_round"):
        return "roles"
    if name in ("rounds_per_game", "turns_per_game", "minutes_per_game", "lead_changes_per_game",
                "winning_total", "decided_in_last_round", "drama", "decisiveness"):
        return "game"
    if name in ("choices_per_decision", "meaningful_decision_rate"):
        return "decisions"
    return "round"


def _info_of(run: dict) -> RunInfo:
    return RunInfo(run["units"], run["unit"], run["seed"], run["players"], run["workers"], run["backend"],
                   run["chunks"], run["seconds"], run["variants"], run.get("search_budget"))
