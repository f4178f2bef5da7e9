#!/usr/bin/env python3
"""SIGKILL fault injection (docs/operators.md, "When things go wrong"): scripted Zendo Duels through `mondo play --json`,
each process killed with SIGKILL at a random moment, then resumed with `--resume`.

Run by hand, not in CI (it takes minutes):

    cargo build && scripts/fault/sigkill_duels.py target/debug/mondo --kills 300

What it checks and reports:
- acknowledged events lost: every `status` line the process printed before it was
  killed says how many events the match had (`version`); an answer is printed only
  once its events are committed, so after the resume the match must have at least
  as many (and every structure acknowledged on the table). Must be 0.
- clock error after resume: the turn clock the resumed match shows against the one
  last printed, run down by the wall time until the kill. The game clock stands still
  while no process runs and is saved every second (the heartbeat), so the resumed
  clock may show up to about a second more (time given back); less than expected,
  beyond the resumed process's own start-up (during which its clock may run), would
  be time lost. The largest difference either way is reported.
- the largest peak memory (VmHWM) of a killed process.
Exit status 1 if anything acknowledged was lost.
"""

import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

GUESSES = ["some piece points up", "every piece is small", "there are exactly two pieces"]


class Run:
    """One `mondo play` process: its lines as they come, with the time each came."""

    def __init__(self, args):
        self.proc = subprocess.Popen(
            args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
        )
        self.lines = []  # (time, parsed JSON)
        self.cond = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for raw in self.proc.stdout:
            try:
                value = json.loads(raw)
            except ValueError:
                continue
            with self.cond:
                self.lines.append((time.monotonic(), value))
                self.cond.notify_all()
        with self.cond:
            self.cond.notify_all()

    def send(self, line):
        try:
            self.proc.stdin.write((line + "\n").encode())
            self.proc.stdin.flush()
            return True
        except (BrokenPipeError, OSError):
            return False

    def wait_for(self, event, since, timeout=30.0):
        """The first line with this event at index >= since, or None."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                for i in range(since, len(self.lines)):
                    if self.lines[i][1].get("event") == event:
                        return i
                left = deadline - time.monotonic()
                if left <= 0 or self.proc.poll() is not None:
                    return None
                self.cond.wait(left)

    def peak_kib(self):
        try:
            with open(f"/proc/{self.proc.pid}/status") as f:
                for line in f:
                    if line.startswith("VmHWM:"):
                        return int(line.split()[1])
        except OSError:
            pass
        return 0


def random_koan(rng):
    """One to four pyramids in a row: mostly new structures, so mostly accepted."""
    cells = [f"{rng.randint(1, 3)}{rng.choice('^>v<')}" for _ in range(rng.randint(1, 4))]
    return " ".join(cells)


def next_command(status, rng):
    """A plausible next line for the duel in this status, sometimes a wrong one."""
    phase, player = status.get("phase"), status.get("player")
    players = ["alice", "bob"]
    if phase == "choosing_starter":
        return f"{status['advantage']}: start {rng.choice(players)}"
    who = player if player in players else rng.choice(players)
    roll = rng.random()
    if roll < 0.6:
        return f"{who}: koan {random_koan(rng)}"
    if roll < 0.7:
        return f"{who}: guess {rng.choice(GUESSES)}"
    if roll < 0.8:
        return f"{who}: confirm"
    if roll < 0.9:
        return f"{who}: end turn"
    return f"{rng.choice(players)}: answer {rng.choice(['obeys', 'not', 'pass'])}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("mondo", help="the mondo binary")
    ap.add_argument("--kills", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--per-duel", type=int, default=30, help="processes per duel, at most")
    ap.add_argument("--max-delay", type=float, default=1.0, help="seconds before a kill, at most")
    opts = ap.parse_args()
    rng = random.Random(opts.seed)
    work = tempfile.mkdtemp(prefix="mondo-fault-")
    lost, clock_errors, peak, duels, acked_total = 0, [], 0, 0, 0
    db, acked, table, last = None, 0, 0, None
    kills, per_duel = 0, 0
    while kills < opts.kills:
        if db is None:
            duels += 1
            db = os.path.join(work, f"duel{duels}.db")
            acked, table, last = 0, 0, None
            args = [opts.mondo, "play", "duel", "--json", "--players", "alice,bob",
                    "--seed", str(rng.randrange(1 << 30)), "--turn-secs", "600", "--db", db]
        else:
            args = [opts.mondo, "play", "--json", "--resume", "--db", db]
        spawned = time.monotonic()
        run = Run(args)
        # One kill in five during start-up (or a resume), the others at a random moment
        # of play after the first answer.
        kill_at = time.monotonic() + rng.uniform(0.0, opts.max_delay)
        first_status = None
        seen = 0
        over = False
        run.send("status")
        if rng.random() >= 0.2 and run.wait_for("status", 0) is not None:
            kill_at = time.monotonic() + rng.uniform(0.0, opts.max_delay)
        while time.monotonic() < kill_at and run.proc.poll() is None:
            i = run.wait_for("status", seen, timeout=max(0.0, kill_at - time.monotonic()))
            if i is None:
                break
            seen = i + 1
            at, status = run.lines[i]
            if first_status is None:
                first_status = (at, status)
            if status.get("phase") == "over":
                over = True
                break
            run.send(next_command(status, rng))
            run.send("status")
        peak = max(peak, run.peak_kib())
        killed_at = time.monotonic()
        if run.proc.poll() is None:
            run.proc.send_signal(signal.SIGKILL)
            kills += 1
        run.proc.wait()
        time.sleep(0.05)  # the reader has every printed line
        with run.cond:
            lines = list(run.lines)
        # What this process was asked to check on its first status (after a resume).
        if first_status is not None and "--resume" in args:
            _, s = first_status
            if s.get("version", 0) < acked or s.get("table", 0) < table:
                lost += max(1, acked - s.get("version", 0))
                print(f"LOST: {db}: acknowledged {acked} events, {table} structures; "
                      f"resumed with {s.get('version')} and {s.get('table')}", file=sys.stderr)
            if last is not None:
                (t_a, a), t_k = last
                same = all(a.get(k) == s.get(k) for k in ("turn", "phase", "player", "paused"))
                if same and a.get("turn_clock_running") and s.get("version") == a.get("version"):
                    expected = a["turn_left_ms"] - (t_k - t_a) * 1000
                    if expected > 0:
                        # Positive: time given back. Negative: time lost beyond this
                        # process's start-up, during which its game clock may have run.
                        error = s["turn_left_ms"] - expected
                        if error < 0:
                            error = min(0.0, error + (first_status[0] - spawned) * 1000)
                        clock_errors.append(error)
        statuses = [(t, v) for t, v in lines if v.get("event") == "status"]
        if statuses:
            t_a, a = statuses[-1]
            if a.get("version", 0) >= acked:
                acked_total += a["version"] - acked
                acked, table = a["version"], a.get("table", 0)
            last = ((t_a, a), killed_at)
        per_duel += 1
        if over or per_duel >= opts.per_duel or any(v.get("event") == "left" for _, v in lines):
            db, per_duel = None, 0
    worst = max(clock_errors, key=abs) if clock_errors else 0
    print(f"kills: {kills} in {duels} duels ({acked_total} acknowledged events)")
    print(f"acknowledged events lost: {lost}")
    print(f"clock error after resume: largest {worst:+.0f} ms over {len(clock_errors)} resumes "
          f"(positive: the player got time back)")
    print(f"peak memory of a killed process: {peak / 1024:.1f} MiB")
    if lost:
        print(f"the databases are kept in {work}", file=sys.stderr)
    else:
        shutil.rmtree(work, ignore_errors=True)
    sys.exit(1 if lost else 0)


if __name__ == "__main__":
    main()
