#!/usr/bin/env python3
"""Store faults against every game: a full disk, a stalled store, I/O errors.

Each game (practice, duel, triple, classic, assembly, bluffs) is played through
`mondo play --json` with short clocks while its database's disk is made to fail by a
preloaded shim (faultfs.c, built here with cc; no root needed):

- full:  the disk is full while a clock runs out and while a command is given; then
         there is room again. The match must say why it waits, keep its state, and go
         on (the time-out recorded) once there is room.
- stall: another program holds the database's write lock (a Python sqlite3 BEGIN
         IMMEDIATE) for a few seconds while a command is given and a clock runs. The
         command must be answered once the lock is let go, and the stall must not be
         counted against the clock.
- eio:   fsync fails (a commit written but not synced), then every write fails. Every
         answer must be either the event (recorded) or "may not have been recorded";
         never "nothing was recorded" for something the log holds.

Run by hand (it takes a few minutes), not in CI:

    cargo build && scripts/fault/store_faults.py target/debug/mondo --rounds 3

Per game it prints: faults tried, matches that went on after the fault, events lost
(acknowledged commands, i.e. pauses, resumes and verdicts announced to the players,
missing from the log afterwards), events unsaid (in the log, but the players were told
of an error instead, or nothing), and the largest part of a stall counted against a
clock. Exit status 1 if an event was lost or unsaid, or a match did not go on.
"""

import argparse
import json
import os
import queue
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PATTERN = "some piece points up"

# Each game: its arguments (short clocks), whether it has a host and a clock.
GAMES = {
    "practice": (["--pattern", PATTERN], False),
    "duel": (["duel", "--players", "alice,bob", "--advantage", "alice", "--turn-secs", "2",
              "--pattern", PATTERN], True),
    "triple": (["triple", "--players", "alice,bob", "--turn-secs", "2",
                "--pattern", PATTERN, "--pattern", "some piece points right",
                "--pattern", "some piece points left"], True),
    "classic": (["classic", "--players", "alice,bob,carol", "--turn-secs", "2",
                 "--pattern", PATTERN], True),
    "assembly": (["assembly", "--players", "alice,bob", "--reveal-secs", "5",
                  "--round-secs", "3", "--wait-secs", "0.5"], True),
    "bluffs": (["bluffs", "--players", "alice,bob", "--bluff-secs", "2",
                "--reserve-secs", "0", "--claim-secs", "2"], True),
}

# Lines that say something the store committed (an acknowledged event).
TOLD = {"paused": "paused", "resumed": "resumed", "verdict": "observed"}


def build_shim(workdir):
    shim = os.path.join(workdir, "faultfs.so")
    subprocess.run(["cc", "-shared", "-fPIC", "-O2", "-o", shim,
                    os.path.join(HERE, "faultfs.c"), "-ldl"], check=True)
    return shim


class Run:
    """One `mondo play --json` on the faulty disk: its lines as they come."""

    def __init__(self, mondo, db, args, env):
        self.proc = subprocess.Popen([mondo, "play", "--json", "--db", db] + args,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, env=env)
        self.lines = queue.Queue()
        self.seen = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for raw in self.proc.stdout:
            try:
                self.lines.put(json.loads(raw))
            except ValueError:
                pass
        self.lines.put(None)

    def send(self, line):
        try:
            self.proc.stdin.write((line + "\n").encode())
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            pass

    def next(self, timeout):
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            return None
        if line is not None:
            self.seen.append(line)
        return line

    def until(self, pred, timeout):
        """The first line for which pred holds, within timeout seconds (or None)."""
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                return None
            line = self.next(left)
            if line is None:
                if self.proc.poll() is not None and self.lines.empty():
                    return None
                continue
            if pred(line):
                return line

    def event(self, name, timeout=20):
        return self.until(lambda l: l.get("event") == name, timeout)

    def quit(self):
        self.send("quit")
        self.until(lambda l: l.get("event") == "left", 20)
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def told(lines):
    """How many of each committed thing the players were told."""
    counts = {}
    for l in lines:
        kind = TOLD.get(l.get("event"))
        if kind:
            counts[kind] = counts.get(kind, 0) + 1
    return counts


def stored(db, match):
    """How many of each event the log holds (read from the database itself)."""
    counts = {}
    with sqlite3.connect("file:%s?mode=ro" % db, uri=True) as c:
        for (body,) in c.execute("SELECT body FROM events WHERE match_id = ?", (match,)):
            kind = json.loads(body).get("event")
            if kind in TOLD.values():
                counts[kind] = counts.get(kind, 0) + 1
    return counts


def status(run):
    run.send("status")
    return run.event("status", 10) or {}


def left_ms(s):
    for key in ("turn_left_ms", "left_ms", "clock_ms"):
        if isinstance(s.get(key), int):
            return s[key]
    return None


KOANS = ["koan 2^", "koan 3v", "koan 1> 2>", "koan 2v 3^", "koan 3> 1<", "koan 1^ 1^",
         "koan 2> 2>", "koan 3^ 1v"]


class Match:
    """The match of one round, and the commands that commit an event."""

    def __init__(self, run, game):
        self.run, self.game, self.koans = run, game, iter(KOANS)

    def next_command(self):
        if self.game == "practice":
            return next(self.koans)
        return "host: resume" if status(self.run).get("paused") else "host: pause"

    def act(self, line=None):
        """Sends a command (the next one unless given); its answer, or None."""
        self.run.send(line or self.next_command())
        want = ("paused", "resumed", "verdict", "error")
        return self.run.until(lambda l: l.get("event") in want, 30)


def play_round(mondo, shim, game, fault, workdir, seed):
    """One match under one fault: (went on, lost, unsaid, stall ms counted, notes)."""
    args, clocked = GAMES[game]
    data = os.path.realpath(os.path.join(workdir, "%s-%s-%d" % (game, fault, seed)))
    os.makedirs(data)
    db = os.path.join(data, "m.db")
    ctl = os.path.join(workdir, "ctl-%s-%s-%d" % (game, fault, seed))

    def mode(m):
        with open(ctl, "w") as f:
            f.write(m)

    mode("ok")
    env = dict(os.environ, LD_PRELOAD=shim, FAULTFS_DIR=data, FAULTFS_CTL=ctl)
    run = Run(mondo, db, args + ["--seed", str(seed)], env)
    started = run.event("started", 60)
    if not started:
        return False, 0, 0, 0, ["did not start"]
    m = Match(run, game)
    if game == "duel":
        # Alice, who has the advantage, starts: a turn's time-out then passes the turn
        # (the choice's own time-out would end the duel).
        run.send("alice: start alice")
        run.event("turn", 20)
    notes, went_on, counted = [], True, 0
    if fault == "full":
        mode("full")
        line = m.act()
        if not line or line["event"] != "error" or "full" not in line.get("message", ""):
            notes.append("the full disk was not said: %s" % line)
        if clocked and not run.event("store_trouble", 20):
            notes.append("nothing said while a clock ran out on a full disk")
        mode("ok")
        if clocked:
            # The waiting time-out goes through once there is room.
            quiet = ("status", "store_trouble", "error")
            if not run.until(lambda l: l.get("event") not in quiet, 40):
                went_on = False
                notes.append("the match did not go on once the disk had room")
    elif fault == "stall":
        # The clock's reading, then a pause; the resume comes while another program
        # holds the write lock for 3 s. What the clock lost between the two readings
        # beyond the few ms of commands is what the stall cost it.
        before = left_ms(status(run)) if clocked else None
        if clocked:
            m.act("host: pause")
        holder = sqlite3.connect(db, timeout=30, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        run.send("host: resume" if clocked else next(m.koans))
        time.sleep(3.0)
        holder.execute("COMMIT")
        holder.close()
        line = run.until(lambda l: l.get("event") in ("resumed", "verdict", "error"), 30)
        if not line or line["event"] == "error":
            went_on = False
            notes.append("the command under the stall failed: %s" % line)
        elif before is not None:
            after = left_ms(status(run))
            if after is not None:
                counted = max(0, before - after)
                if counted > 2000:
                    notes.append("the stall was counted: %d ms" % counted)
    elif fault == "eio":
        mode("fsync-eio")
        line = m.act()
        if line and "nothing was recorded" in line.get("message", ""):
            notes.append("an fsync error was said as 'nothing was recorded'")
        mode("write-eio")
        line = m.act()
        if line and line["event"] == "error":
            msg = line.get("message", "")
            if "nothing was recorded" in msg and "reopened" not in msg:
                notes.append("a write error was guessed: " + msg[:80])
        mode("ok")
    # Afterwards the match takes commands again (the rules may refuse one, e.g. the
    # match ended on a time-out: that is the match going on, not the store failing).
    ended = any(l.get("event") in ("over", "won", "ended") for l in run.seen)
    for _ in range(0 if ended else 2):
        line = m.act()
        msg = (line or {}).get("message", "")
        if line is None or "database" in msg or "disk" in msg:
            went_on = False
            notes.append("no command went through after the fault: %s" % line)
            break
    run.quit()
    said = told(run.seen)
    kept = stored(db, started["match"])
    lost = sum(max(0, c - kept.get(k, 0)) for k, c in said.items())
    unsaid = sum(max(0, c - said.get(k, 0)) for k, c in kept.items())
    if lost or unsaid:
        notes.append("told %s, stored %s" % (said, kept))
    return went_on, lost, unsaid, counted, notes


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("mondo", help="the mondo binary")
    p.add_argument("--rounds", type=int, default=2, help="matches per game and fault")
    p.add_argument("--games", default=",".join(GAMES), help="comma-separated")
    a = p.parse_args()
    workdir = tempfile.mkdtemp(prefix="mondo-store-faults-")
    shim = build_shim(workdir)
    failed = False
    row = "%-9s %6s %8s %5s %7s %9s"
    print(row % ("game", "faults", "went on", "lost", "unsaid", "counted"))
    totals = [0, 0, 0, 0]
    for game in a.games.split(","):
        tried = went = lost = unsaid = counted = 0
        for fault in ("full", "stall", "eio"):
            for r in range(a.rounds):
                ok, l, u, c, notes = play_round(a.mondo, shim, game, fault, workdir, 100 + r)
                tried += 1
                went += ok
                lost += l
                unsaid += u
                counted = max(counted, c)
                for note in notes:
                    print("  %s/%s/%d: %s" % (game, fault, r, note), file=sys.stderr)
        print(row % (game, tried, went, lost, unsaid, "%d ms" % counted), flush=True)
        for i, v in enumerate((tried, went, lost, unsaid)):
            totals[i] += v
        failed |= lost > 0 or unsaid > 0 or went < tried
    print(row % ("all", *totals, ""))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
