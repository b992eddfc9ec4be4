"""Many seeded games, in parallel, summed into figures: `chimera simulate` and `chimera compare`.

The work is split by seed, never by worker: unit ``i`` (a whole game, or a single round with
``single_rounds``) of a run with seed ``S`` is played with the seed :func:`unit_seed` ``(S, i)``,
and the units are cut into chunks whose size depends only on how many units there are.  Each
chunk comes back as a merged :class:`~chimera_dsl.summary.Summary`, and chunks are merged in
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

import hashlib
import multiprocessing
import os
import sys
import time
from dataclasses import dataclass, field
from typing import Callable, Iterator, Sequence

from .errors import ChimeraError
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

    def as_dict(self) -> dict:
        out = {"units": self.units, "unit": self.unit, "seed": self.seed, "players": self.players,
               "workers": self.workers, "backend": self.backend, "chunks": self.chunks,
               "seconds": round(self.seconds, 3), "variants": self.variants}
        if self.search_budget is not None:
            out["search_budget"] = self.search_budget
        return out


def unit_seed(seed: int, index: int) -> int:
    """The seed of unit ``index`` of a run seeded ``seed`` (a 63-bit integer)."""
    digest = hashlib.sha256(f"chimera:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def chunk_bounds(count: int) -> list[tuple[int, int]]:
    """Cut ``count`` units into chunks; the cut depends on ``count`` alone, never on workers."""
    size = max(1, min(MAX_CHUNK, -(-count // TARGET_CHUNKS)))
    return [(start, min(start + size, count)) for start in range(0, count, size)]


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
        from .rules import Rules
        if len(_RULES_CACHE) > 8:
            _RULES_CACHE.clear()
        rules = _RULES_CACHE[key] = Rules.from_spec(ref.spec, path=ref.path, source_hash=ref.source_hash)
    return rules


def _game_of(ref: VariantRef, target: int | None, single_rounds: bool):
    """The engine's Game for a variant, kept per process: its caches stay warm from chunk to chunk."""
    from .engine import Game

    key = (ref.path, ref.source_hash, target, single_rounds)
    game = _GAME_CACHE.get(key)
    if game is None:
        if len(_GAME_CACHE) > 8:
            _GAME_CACHE.clear()
        game = _GAME_CACHE[key] = Game(_rules_of(ref), target=target, max_rounds=1 if single_rounds else None)
    return game


def run_chunk(task: Task) -> ChunkResult:
    """Play the units of one chunk under each variant and return their summed figures."""
    from .players import parse_players, play_game

    games = [_game_of(ref, task.target, task.single_rounds) for ref in task.variants]
    rules = [game.rules for game in games]
    totals = [Summary.for_rules(r, whole_games=not task.single_rounds) for r in rules]
    paired = PairedFigures() if len(rules) == 2 else None
    for index in range(task.start, task.stop):
        seed = unit_seed(task.seed, index)
        units = []
        for game, total in zip(games, totals):
            players = parse_players(task.players, game.players, seed, task.search_budget)
            state = play_game(game, players, seed)
            if paired is None:
                total.feed_all(state.events)
                continue
            unit = total.empty_copy().feed_all(state.events)
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
        yield from _in_order(lambda task: pool.submit(run_chunk, task), tasks, window)
    finally:                                   # interrupted or failed: drop what has not started
        pool.shutdown(wait=True, cancel_futures=True)


def _dask(tasks: Sequence[Task], workers: int, address: str | None) -> Iterator[ChunkResult]:
    """Chunk results in task order, scheduled by Dask distributed."""
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise SimulationError("the dask backend needs Dask distributed: pip install 'chimera_dsl[dask]'") from None
    cluster = None
    try:
        if address:
            client = Client(address, timeout="10s")
        else:
            cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                   dashboard_address=None)
            client = Client(cluster)
    except (OSError, TimeoutError, ValueError) as error:   # unreachable, or not an address
        raise SimulationError(f"cannot reach the Dask scheduler {address or '(local)'}: {error}") from None
    try:
        threads = sum(w.get("nthreads", 1) for w in client.scheduler_info()["workers"].values())
        yield from _in_order(lambda task: client.submit(run_chunk, task, pure=False), tasks, max(8, 4 * threads))
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _results(tasks, backend: str, workers: int, address: str | None) -> Iterator[ChunkResult]:
    if backend == "local":
        if address:
            raise SimulationError("--address is for the dask backend")
        return _local(tasks, workers)
    if backend == "dask":
        return _dask(tasks, workers, address)
    raise SimulationError(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")


# -- the runs ----------------------------------------------------------------------------------

def _run(rules_list, count: int, *, single_rounds: bool, seed: int, players: str | None,
         target: int | None, workers: int | None, backend: str, address: str | None,
         progress: Callable[[int], None] | None, search_budget: str | None = None) -> tuple[ChunkResult, RunInfo]:
    from .players import default_player_spec, parse_players

    if count < 1:
        raise SimulationError(f"the number of {'rounds' if single_rounds else 'games'} must be at least 1")
    if target is not None and target <= 0:
        raise SimulationError(f"the target must be positive, not {target}")
    workers = default_workers() if workers is None else workers
    if workers < 1:
        raise SimulationError(f"--workers must be at least 1, not {workers}")
    from .engine import Game

    players = players or default_player_spec()
    for rules in rules_list:                     # bad rules or players fail here, not in a worker
        parse_players(players, Game(rules, target=target).players, 0, search_budget)
    refs = tuple(VariantRef.of(r) for r in rules_list)
    bounds = chunk_bounds(count)
    if search_budget is not None:
        search_budget = str(search_budget)
    tasks = [Task(refs, seed, lo, hi, players, target, single_rounds, search_budget) for lo, hi in bounds]
    info = RunInfo(count, "rounds" if single_rounds else "games", seed, players, workers, backend,
                   len(tasks), variants=[{"path": r.path, "name": r.name, "source_hash": r.source_hash}
                                         for r in rules_list], search_budget=search_budget)
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
        """Every figure's difference B - A, most significant first."""
        return compare_figures(self.a, self.b, self.paired)


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
    lo, hi = fig["ci95"]
    if lo is None or hi is None:
        return "-"
    if _is_rate(fig) if rate is None else rate:
        return f"{100 * lo:.1f}% .. {100 * hi:.1f}%"
    return f"{lo:.2f} .. {hi:.2f}"


def simulation_data(summary: Summary, info: RunInfo) -> dict:
    """What `chimera simulate --json` prints (and the report shows)."""
    return {"run": info.as_dict(), **summary.as_dict()}


def comparison_data(comparison: Comparison) -> dict:
    """What `chimera compare --json` prints (and the report shows)."""
    return {"run": comparison.info.as_dict(), "same_deals": comparison.same_deals,
            "a": comparison.a.as_dict(), "b": comparison.b.as_dict(),
            "differences": [{"label": _label(d.name), **d.as_dict()} for d in comparison.differences()]}


def _label(name: str) -> str:
    from .summary import label_of
    return label_of(name)


def _header(info: RunInfo) -> str:
    rate = info.units / info.seconds if info.seconds else 0.0
    budget = f" (search budget {info.search_budget})" if info.search_budget is not None else ""
    return (f"{info.units} {info.unit}, seed {info.seed}, players {info.players}{budget}, "
            f"{info.workers} worker{'s' if info.workers != 1 else ''} ({info.backend}), "
            f"{info.seconds:.1f} s ({rate:.1f} {info.unit}/s)")


def render_simulation(data: dict, console) -> None:
    """The figures of a simulation as a table on a rich console."""
    from rich.table import Table

    run = data["run"]
    variant = run["variants"][0]
    table = Table(title=f"{variant['name']} ({variant['path']})", caption=_header(_info_of(run)),
                  title_justify="left", caption_justify="left")
    table.add_column("figure")
    table.add_column("value", justify="right")
    table.add_column("95% interval", justify="right")
    table.add_column("n", justify="right")
    previous = None
    for name, fig in data["figures"].items():
        group = _group(name)
        if previous is not None and group != previous:
            table.add_section()
        previous = group
        table.add_row(fig["label"], format_value(fig), format_interval(fig), str(fig["n"]))
    advantage = data.get("first_seat_advantage")
    if advantage:
        lo, hi = advantage["ci95"]
        table.add_section()
        table.add_row("first seat's advantage (win rate - fair share)", f"{100 * advantage['value']:+.1f}%",
                      f"{100 * lo:+.1f}% .. {100 * hi:+.1f}%", str(advantage["n"]))
    console.print(table)


def render_comparison(data: dict, console) -> None:
    """Each figure of both variants with the difference, most significant first."""
    from rich.table import Table

    run = data["run"]
    a, b = run["variants"]
    note = ("same seeds and the same deals" if data["same_deals"] else
            "same seeds; the decks or deals differ, so the deals do too")
    table = Table(title=f"A: {a['name']} ({a['path']})\nB: {b['name']} ({b['path']})",
                  caption=f"{_header(_info_of(run))}; {note}; differences paired by seed; "
                          "* significant at 95%", title_justify="left", caption_justify="left")
    for column, justify in (("figure", "left"), ("A", "right"), ("B", "right"), ("B - A", "right"),
                            ("95% interval", "right"), ("", "left")):
        table.add_column(column, justify=justify)
    rates = {name for name, fig in data["a"]["figures"].items() if _is_rate(fig)}
    rates |= {name for name, fig in data["b"]["figures"].items() if _is_rate(fig)}
    for d in data["differences"]:
        rate = d["figure"] in rates
        show = (lambda x: f"{100 * x:.1f}%") if rate else (lambda x: f"{x:.2f}")
        diff = f"{100 * d['difference']:+.1f}%" if rate else f"{d['difference']:+.2f}"
        table.add_row(d["label"], show(d["a"]), show(d["b"]), diff,
                      format_interval({"ci95": d["ci95"]}, rate), "*" if d["significant"] else "",
                      style="bold" if d["significant"] else None)
    console.print(table)


def _group(name: str) -> str:
    for prefix in ("bidder_success", "final_bid", "seat_", "bidder_is", "plays_of", "bonus_", "rounds_per_game"):
        if name.startswith(prefix):
            return prefix if prefix != "rounds_per_game" else "game"
    if name in ("winning_total", "decided_in_last_round"):
        return "game"
    return "round"


def _info_of(run: dict) -> RunInfo:
    return RunInfo(run["units"], run["unit"], run["seed"], run["players"], run["workers"], run["backend"],
                   run["chunks"], run["seconds"], run["variants"], run.get("search_budget"))
