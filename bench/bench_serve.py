"""How fast one `chimera serve` answers people while it runs many tables.

    python bench/bench_serve.py                        # 50 tables, 40 s, computer players at their 0.8 s pace
    python bench/bench_serve.py --tables 80 --seconds 60 --players random --delay 0.3

Starts `chimera serve` on 127.0.0.1 (a free port, a temporary data folder), opens --tables
tables, and at each one a scripted person (a websocket client in this process) takes seat 0
and starts the game; the computer players (--players, default the project's default player)
take the other seats.  The person thinks --think seconds, then plays a random legal move; the
time from sending it to receiving the state that shows it taken is the answer time.  A table
whose game ends is replaced by a new one.  After --seconds the run stops by itself (every
connection goes to 127.0.0.1 only) and prints the answer times (median, 95th and 99th
percentile, target: 95th under 100 ms), the decisions per second the server carried, its CPU
time and CPU per decision; then it opens --watchers more connections (spectators at one table)
and prints the server's memory per connection (its resident size before and after, divided).
Exit status 0 (a benchmark reports; it does not judge), 2 on bad options.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
TARGET_P95 = 0.100


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a running process (Linux /proc)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def resident_bytes(pid: int) -> int:
    """The resident memory of a running process (Linux /proc), in bytes."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


async def watchers(base: str, ws_base: str, count: int, pid: int) -> tuple[int, int]:
    """Open ``count`` spectator connections at one new table, each answered with its state:
    the server's resident memory before and after (the connections still open)."""
    from websockets.asyncio.client import connect
    created = await asyncio.to_thread(open_table, base)
    await asyncio.sleep(0.5)
    before = resident_bytes(pid)
    sockets = []
    try:
        for _ in range(count):
            ws = await connect(f"{ws_base}/ws/{created['table']}", max_size=2 ** 22)
            sockets.append(ws)
            await ws.send(json.dumps({"type": "hello"}))
            while json.loads(await ws.recv())["type"] != "state":
                pass
        await asyncio.sleep(0.5)
        return before, resident_bytes(pid)
    finally:
        for ws in sockets:
            await ws.close()


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


class Stats:
    def __init__(self):
        self.answers: list[float] = []
        self.games = 0
        self.decisions = 0
        self.refused = 0


def open_table(base: str) -> dict:
    request = urllib.request.Request(base + "/api/tables", method="POST")
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


async def person(base: str, ws_base: str, stop_at: float, think: float, stats: Stats, rng: random.Random) -> None:
    """One scripted person: takes seat 0 of a new table, plays until time is up, table after table."""
    from websockets.asyncio.client import connect
    while time.monotonic() < stop_at:
        created = await asyncio.to_thread(open_table, base)
        async with connect(f"{ws_base}/ws/{created['table']}", max_size=2 ** 22) as ws:
            await ws.send(json.dumps({"type": "hello", "creator": created["creator"]}))
            await ws.send(json.dumps({"type": "sit", "seat": 0, "name": "bench"}))
            started = False
            sent: tuple[int, float] | None = None
            last_turn = 0
            while time.monotonic() < stop_at:
                try:
                    message = json.loads(await asyncio.wait_for(ws.recv(), max(0.01, stop_at - time.monotonic())))
                except asyncio.TimeoutError:
                    return
                if message["type"] == "error":
                    stats.refused += 1
                    sent = None
                    continue
                if message["type"] == "seated" and not started:
                    await ws.send(json.dumps({"type": "start"}))
                    started = True
                if message["type"] != "state" or message["seat"] != 0:
                    continue
                stats.decisions += max(0, message["turn"] - last_turn)
                last_turn = message["turn"]
                if sent is not None and message["turn"] > sent[0]:
                    stats.answers.append(time.perf_counter() - sent[1])
                    sent = None
                if message["status"] == "over":
                    stats.games += 1
                    break
                if message["to_act"] == 0 and message["legal"] and not message.get("forced") and sent is None:
                    await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                    move = rng.choice(message["legal"])["id"]
                    sent = (message["turn"], time.perf_counter())
                    await ws.send(json.dumps({"type": "act", "turn": message["turn"], "move": move}))


async def run_people(args, base: str, ws_base: str, stats: Stats) -> None:
    stop_at = time.monotonic() + args.seconds
    rng = random.Random(args.seed)
    tasks = [asyncio.create_task(person(base, ws_base, stop_at, args.think, stats, random.Random(rng.random())))
             for _ in range(args.tables)]
    await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), args.seconds + 60)
    for task in tasks:
        if task.done() and task.exception() is not None:
            print(f"  a scripted person stopped: {task.exception()!r}", file=sys.stderr)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default=os.path.join(ROOT, "variants", "chimera.yaml"))
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=40.0)
    parser.add_argument("--delay", type=float, default=0.8, help="the computer players' pace (chimera serve --delay)")
    parser.add_argument("--think", type=float, default=0.3, help="the scripted people's thinking time, seconds")
    parser.add_argument("--players", default=None, help="the computer players (default: the project's default)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--watchers", type=int, default=200,
                        help="connections opened at the end to measure the memory of one (0: none)")
    args = parser.parse_args()
    if args.tables < 1 or args.seconds <= 0 or args.seconds > 3600:
        parser.error("--tables must be at least 1 and --seconds between 0 and 3600")
    try:
        import websockets.asyncio.client  # noqa: F401
    except ImportError:
        print("bench_serve needs the web extra and websockets >= 13: pip install -e '.[web]'", file=sys.stderr)
        return 2
    port = free_port()
    base, ws_base = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as data:
        command = [sys.executable, "-m", "chimera_dsl", "serve", args.variant, "--host", "127.0.0.1",
                   "--port", str(port), "--data", data, "--delay", str(args.delay),
                   "--max-waiting", "100"]           # every scripted person opens tables from 127.0.0.1
        if args.players:
            command += ["--players", args.players]
        server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=ROOT)
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    urllib.request.urlopen(base + "/api/tables", timeout=1).close()
                    break
                except OSError:
                    if server.poll() is not None or time.monotonic() > deadline:
                        print(f"the server did not start: {server.stderr.read()}", file=sys.stderr)
                        return 1
                    time.sleep(0.1)
            stats = Stats()
            cpu0, wall0, own0 = cpu_seconds(server.pid), time.perf_counter(), time.process_time()
            asyncio.run(run_people(args, base, ws_base, stats))
            cpu, wall = cpu_seconds(server.pid) - cpu0, time.perf_counter() - wall0
            own = time.process_time() - own0
            memory = asyncio.run(watchers(base, ws_base, args.watchers, server.pid)) if args.watchers > 0 else None
        finally:
            server.send_signal(signal.SIGINT)
            try:
                server.wait(15)
            except subprocess.TimeoutExpired:
                server.kill()
    players = args.players or "the default player"
    print(f"serve: {args.tables} tables of {os.path.relpath(args.variant, ROOT)}, one scripted person and "
          f"computer players ({players}, {args.delay:g} s pace) each, {wall:.0f} s, {os.cpu_count()} core(s), "
          f"load average {os.getloadavg()[0]:.2f} at the end")
    if not stats.answers:
        print("  no answer was measured")
        return 0
    p95 = percentile(stats.answers, 0.95)
    print(f"  answers to a person's move: {len(stats.answers)}; median {percentile(stats.answers, 0.5) * 1000:.1f} ms, "
          f"95th percentile {p95 * 1000:.1f} ms, 99th {percentile(stats.answers, 0.99) * 1000:.1f} ms, "
          f"max {max(stats.answers) * 1000:.1f} ms")
    print(f"  target: 95th percentile under {TARGET_P95 * 1000:.0f} ms: {'met' if p95 < TARGET_P95 else 'missed'}")
    print(f"  decisions carried: {stats.decisions} ({stats.decisions / wall:.0f}/s), games finished: {stats.games}, "
          f"moves refused: {stats.refused}")
    print(f"  CPU in {wall:.0f} s: server {cpu:.1f} s ({100 * cpu / wall:.0f}% of one core), "
          f"the scripted people {own:.1f} s ({100 * own / wall:.0f}%)")
    if stats.decisions:
        print(f"  server CPU per decision (a computer seat choosing it, applying it, its record line, every seat's new state sent): "
              f"{1000 * cpu / stats.decisions:.2f} ms")
    if memory is not None:
        before, after = memory
        print(f"  memory per connection: {(after - before) / args.watchers / 1024:.1f} KiB "
              f"(server resident {before / 2 ** 20:.0f} MiB, {after / 2 ** 20:.0f} MiB with {args.watchers} more)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
