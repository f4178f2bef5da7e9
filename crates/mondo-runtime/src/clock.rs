//! Time for the runtime: where it comes from ([`TimeSource`]: the machine's monotonic
//! clock, or [`ManualTime`] driven by hand in tests) and the [`GameClock`] every match
//! runs on.
//!
//! The game clock advances only while a process runs the matches: a new process
//! resumes it from the store (the last reading saved, or the latest event), so the
//! time the process was down is never counted against a player. Events carry game-clock
//! times; deadlines are game-clock times.
//!
//! Nor does it advance while the umpire itself cannot work: a commit that takes longer
//! than [`HOLD_GRACE_MS`] (another program holding the database's write lock, a disk
//! that stalls) stops the game clock for the rest of its time ([`GameClock::hold`]), so
//! a stalled store eats nobody's turn, as an outage does not.

use mondo_store::Millis;
use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::watch;

pub type Sleep = Pin<Box<dyn Future<Output = ()> + Send>>;

/// Where the runtime's time comes from.
pub trait TimeSource: Send + Sync + 'static {
    /// Milliseconds since an arbitrary start; never goes back.
    fn now(&self) -> Millis;
    /// Resolves once `now() >= at`.
    fn sleep_until(&self, at: Millis) -> Sleep;
}

/// The machine's monotonic clock (tokio's, so paused-time tests work too).
pub struct SystemTime {
    start: tokio::time::Instant,
}

impl SystemTime {
    pub fn new() -> Arc<SystemTime> {
        Arc::new(SystemTime {
            start: tokio::time::Instant::now(),
        })
    }
}

impl TimeSource for SystemTime {
    fn now(&self) -> Millis {
        self.start.elapsed().as_millis() as Millis
    }

    fn sleep_until(&self, at: Millis) -> Sleep {
        Box::pin(tokio::time::sleep_until(
            self.start + Duration::from_millis(at),
        ))
    }
}

/// A clock that moves only when told: timers are tested without waiting, and without
/// tokio's auto-advancing paused time (which jumps ahead whenever the runtime waits
/// for the database thread).
pub struct ManualTime {
    now: watch::Sender<Millis>,
    /// The moments sleepers were put to sleep until, still to come (some of them may
    /// have stopped waiting since): [`ManualTime::next_wake`].
    wakes: Mutex<std::collections::BTreeSet<Millis>>,
}

impl ManualTime {
    pub fn new(start: Millis) -> Arc<ManualTime> {
        Arc::new(ManualTime {
            now: watch::Sender::new(start),
            wakes: Mutex::default(),
        })
    }

    /// Moves time forward by `ms`, waking every sleeper whose moment has come.
    pub fn advance(&self, ms: Millis) {
        self.now.send_modify(|now| *now = now.saturating_add(ms));
    }

    /// The earliest moment still to come that something sleeps until (or slept until:
    /// a sleep given up is not told): a test that moves time there, rather than by
    /// steps, never has two things come due in one step in an order left to chance.
    pub fn next_wake(&self) -> Option<Millis> {
        let now = *self.now.borrow();
        let mut wakes = self.wakes.lock().unwrap_or_else(|e| e.into_inner());
        wakes.retain(|at| *at > now);
        wakes.first().copied()
    }

    /// Moves time forward to `at` (never back).
    pub fn advance_to(&self, at: Millis) {
        self.now.send_if_modified(|now| {
            let later = at > *now;
            if later {
                *now = at;
            }
            later
        });
    }

    /// A clock that follows the whole number of milliseconds written in `file`, read
    /// every 10 ms (a file that is absent or does not read leaves it where it is): how
    /// the end-to-end tests drive `mondo serve`'s time from outside ([`TEST_CLOCK`]).
    ///
    /// Each time it reads a new time it writes that time to `file` with the extension
    /// `seen`, so a test moves time on only once the process has seen its last move:
    /// without it, two quick moves could be read as one, late, and whatever the process
    /// did between them would be stamped with a time already past (a challenge made
    /// then would expire at once).
    pub fn driven_by(file: std::path::PathBuf) -> Arc<ManualTime> {
        // Where the file stands now: a process started again mid-test does not see
        // its time jump from 0 to there (a round's deadline would pass at once).
        let start = std::fs::read_to_string(&file)
            .ok()
            .and_then(|t| t.trim().parse::<Millis>().ok())
            .unwrap_or(0);
        let time = ManualTime::new(start);
        let weak = Arc::downgrade(&time);
        let (seen, next) = (
            file.with_extension("seen"),
            file.with_extension("seen.next"),
        );
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(Duration::from_millis(10));
            let mut told = None;
            loop {
                tick.tick().await;
                let Some(time) = weak.upgrade() else { return };
                if let Ok(text) = tokio::fs::read_to_string(&file).await
                    && let Ok(ms) = text.trim().parse::<Millis>()
                {
                    time.advance_to(ms);
                    if told != Some(ms)
                        && tokio::fs::write(&next, ms.to_string()).await.is_ok()
                        && tokio::fs::rename(&next, &seen).await.is_ok()
                    {
                        told = Some(ms);
                    }
                }
            }
        });
        time
    }
}

/// Tests only: with this variable naming a file, `mondo serve` runs its matches (and
/// its challenges' expiries) on a [`ManualTime`] that the file drives
/// ([`ManualTime::driven_by`]) instead of the machine's clock, so an end-to-end test
/// moves time on without waiting (docs/developers.md).
pub const TEST_CLOCK: &str = "MONDO_TEST_CLOCK";

/// The time source of `mondo serve`: the machine's, or the test's ([`TEST_CLOCK`]).
pub fn serve_time() -> Arc<dyn TimeSource> {
    match std::env::var_os(TEST_CLOCK) {
        Some(file) => ManualTime::driven_by(file.into()),
        None => SystemTime::new(),
    }
}

impl TimeSource for ManualTime {
    fn now(&self) -> Millis {
        *self.now.borrow()
    }

    fn sleep_until(&self, at: Millis) -> Sleep {
        self.wakes
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(at);
        let mut rx = self.now.subscribe();
        Box::pin(async move {
            while *rx.borrow_and_update() < at {
                if rx.changed().await.is_err() {
                    // The clock is gone: time stands still forever.
                    std::future::pending::<()>().await;
                }
            }
        })
    }
}

/// A loop's pace on the source's time: each tick is due one step after the last one
/// was due, not one step after the loop's work between them ended. Time that passes
/// while the work runs (a slow statement, a test's fake clock moved on the moment the
/// work said it was done) is not lost: reckoned from the end of the work instead, a
/// fake clock's step taken in that moment pushed the next tick past the next step, and
/// the loop waited for a step that was waiting for it. A loop that fell behind by more
/// than a step ticks at once, once, and keeps its pace from there.
pub struct Ticker {
    source: Arc<dyn TimeSource>,
    every: Millis,
    due: Millis,
}

impl Ticker {
    /// Resolves at the next tick. Cancel-safe: dropped before it resolves, the tick is
    /// still due.
    pub async fn tick(&mut self) {
        self.source.sleep_until(self.due).await;
        let now = self.source.now();
        let next = self.due.saturating_add(self.every);
        // Behind by a step or more: this tick was the one late tick.
        self.due = if next > now {
            next
        } else {
            now.saturating_add(self.every)
        };
    }
}

/// How long a commit may take before the game clock stops for it: the umpire's
/// ordinary pace is counted, a stall beyond it is not.
pub const HOLD_GRACE_MS: Millis = 1_000;

/// The game clock: a time source shifted to resume where the store left off, and
/// stopped while the umpire's own work is stalled.
#[derive(Clone)]
pub struct GameClock {
    source: Arc<dyn TimeSource>,
    /// Game time minus source time.
    offset: i128,
    stalls: Arc<Stalls>,
}

/// The work under way that could stop the clock, and the time it already did.
struct Stalls {
    state: Mutex<StallState>,
    /// Bumped when a hold begins or ends, so sleepers work out their moment again.
    changed: watch::Sender<u64>,
}

#[derive(Default)]
struct StallState {
    /// Holds under way, by the source time they began (with how many began then).
    holds: BTreeMap<Millis, usize>,
    /// Source time given back so far.
    lost: Millis,
    /// Source time up to which stalls are already given back.
    floor: Millis,
}

impl StallState {
    /// The source time the clock stands at while the holds last.
    fn frozen_at(&self) -> Option<Millis> {
        let (&first, _) = self.holds.first_key_value()?;
        Some(first.saturating_add(HOLD_GRACE_MS).max(self.floor))
    }
}

/// Work that stops the game clock if it stalls (see [`GameClock::hold`]); dropping it
/// ends the hold.
pub struct Hold {
    clock: GameClock,
    began: Millis,
}

impl Drop for Hold {
    fn drop(&mut self) {
        let end = self.clock.source.now();
        let mut st = self.clock.lock();
        if let Some(frozen) = st.frozen_at() {
            if end > frozen {
                st.lost = st.lost.saturating_add(end - frozen);
                st.floor = end;
            }
        }
        if let Some(n) = st.holds.get_mut(&self.began) {
            *n -= 1;
            if *n == 0 {
                st.holds.remove(&self.began);
            }
        }
        drop(st);
        self.clock
            .stalls
            .changed
            .send_modify(|n| *n = n.wrapping_add(1));
    }
}

impl GameClock {
    /// A game clock that reads `resume_at` now.
    pub fn new(source: Arc<dyn TimeSource>, resume_at: Millis) -> GameClock {
        let offset = resume_at as i128 - source.now() as i128;
        GameClock {
            source,
            offset,
            stalls: Arc::new(Stalls {
                state: Mutex::new(StallState::default()),
                changed: watch::Sender::new(0),
            }),
        }
    }

    pub fn now(&self) -> Millis {
        let source = self.source.now();
        let st = self.lock();
        let source = st.frozen_at().map_or(source, |f| source.min(f));
        self.to_game(source.saturating_sub(st.lost))
    }

    /// Work of the umpire's own (a commit) begins: if it takes longer than
    /// [`HOLD_GRACE_MS`], the game clock stands still for the rest of it, for every
    /// match (they share the store that stalls).
    pub fn hold(&self) -> Hold {
        let began = self.source.now();
        *self.lock().holds.entry(began).or_insert(0) += 1;
        self.stalls.changed.send_modify(|n| *n = n.wrapping_add(1));
        Hold {
            clock: self.clone(),
            began,
        }
    }

    /// Resolves once a hold is under way (work of the umpire's own has begun and not
    /// ended): what a test that stalls the store waits for before moving time on.
    pub async fn held(&self) {
        let mut changed = self.stalls.changed.subscribe();
        loop {
            changed.borrow_and_update();
            if !self.lock().holds.is_empty() {
                return;
            }
            if changed.changed().await.is_err() {
                std::future::pending::<()>().await;
            }
        }
    }

    /// Source time given back to the matches so far (stalls of the umpire's work).
    pub fn given_back(&self) -> Millis {
        let st = self.lock();
        let ongoing = st
            .frozen_at()
            .map_or(0, |f| self.source.now().saturating_sub(f));
        st.lost.saturating_add(ongoing)
    }

    /// Resolves once the game clock reads `at` or later (a stall in between puts the
    /// moment off by as long).
    pub fn sleep_until(&self, at: Millis) -> Sleep {
        let clock = self.clone();
        let mut changed = self.stalls.changed.subscribe();
        Box::pin(async move {
            loop {
                changed.borrow_and_update();
                if clock.now() >= at {
                    return;
                }
                let source_at = {
                    let st = clock.lock();
                    let target = (at as i128 - clock.offset + st.lost as i128).max(0);
                    let target = target.min(Millis::MAX as i128) as Millis;
                    // Stopped: only the end of the stall can bring the moment.
                    match st.frozen_at() {
                        Some(f) if target > f => None,
                        _ => Some(target),
                    }
                };
                match source_at {
                    Some(t) => {
                        tokio::select! {
                            () = clock.source.sleep_until(t) => {}
                            r = changed.changed() => if r.is_err() { std::future::pending::<()>().await },
                        }
                    }
                    None => {
                        if changed.changed().await.is_err() {
                            std::future::pending::<()>().await;
                        }
                    }
                }
            }
        })
    }

    /// Resolves `ms` of source time from now (for limits on umpire work, which are
    /// real time even while the game clocks stand still).
    pub fn sleep_for(&self, ms: Millis) -> Sleep {
        self.source
            .sleep_until(self.source.now().saturating_add(ms))
    }

    /// Ticks every `ms` of source time (a loop's pace: heartbeats, lease renewals,
    /// looks for matches to take over); see [`Ticker`].
    pub fn ticker(&self, ms: Millis) -> Ticker {
        let every = ms.max(1);
        Ticker {
            source: self.source.clone(),
            every,
            due: self.source.now().saturating_add(every),
        }
    }

    fn to_game(&self, source: Millis) -> Millis {
        (source as i128 + self.offset).clamp(0, Millis::MAX as i128) as Millis
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, StallState> {
        self.stalls.state.lock().unwrap_or_else(|p| p.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn manual_time_wakes_sleepers_only_when_their_moment_comes() {
        let time = ManualTime::new(1_000);
        let clock = GameClock::new(time.clone(), 50_000);
        assert_eq!(clock.now(), 50_000);
        let mut sleep = clock.sleep_until(80_000);
        // Not yet: polling once must not complete it.
        assert!(futures_poll_once(&mut sleep).await.is_none());
        time.advance(29_999);
        assert!(futures_poll_once(&mut sleep).await.is_none());
        time.advance(1);
        assert_eq!(clock.now(), 80_000);
        sleep.await;
    }

    /// A step of the source's time taken while the loop works (after its last tick,
    /// before it waits again) still brings the next tick; one that fell behind by
    /// several steps ticks once at once, then keeps its pace.
    #[tokio::test]
    async fn a_ticker_keeps_its_pace_whenever_it_waits() {
        let time = ManualTime::new(0);
        let clock = GameClock::new(time.clone(), 0);
        let mut ticker = clock.ticker(1_000);
        let mut tick = Box::pin(ticker.tick());
        assert!(futures_poll_once(&mut tick).await.is_none());
        time.advance(1_000);
        tick.await;
        // The loop's work: time moves on before it waits for the next tick.
        time.advance(1_000);
        let mut tick = Box::pin(ticker.tick());
        assert!(
            futures_poll_once(&mut tick).await.is_some(),
            "the step taken during the work was lost"
        );
        drop(tick);
        time.advance(5_500);
        ticker.tick().await;
        let mut tick = Box::pin(ticker.tick());
        assert!(
            futures_poll_once(&mut tick).await.is_none(),
            "one tick to catch up"
        );
        time.advance(999);
        assert!(futures_poll_once(&mut tick).await.is_none());
        time.advance(1);
        tick.await;
    }

    #[test]
    fn the_game_clock_resumes_where_it_was_left() {
        // A process ran the game clock to 90 s; a new one, whose own source reads
        // 5 000 s, resumes it at 90 s: the downtime is not counted.
        let time = ManualTime::new(5_000_000);
        let clock = GameClock::new(time.clone(), 90_000);
        assert_eq!(clock.now(), 90_000);
        time.advance(2_500);
        assert_eq!(clock.now(), 92_500);
    }

    /// A commit that stalls stops the clock after the grace, for as long as it lasts;
    /// the clock never goes back, and a sleeper's moment is put off by the stall.
    #[tokio::test]
    async fn a_stalled_hold_gives_its_time_back() {
        let time = ManualTime::new(0);
        let clock = GameClock::new(time.clone(), 10_000);
        let mut sleep = clock.sleep_until(20_000);
        let quick = clock.hold();
        time.advance(300);
        drop(quick);
        assert_eq!(clock.now(), 10_300, "a quick commit is counted");
        assert_eq!(clock.given_back(), 0);
        let stalled = clock.hold();
        time.advance(6_000);
        assert_eq!(
            clock.now(),
            10_300 + HOLD_GRACE_MS,
            "stopped after the grace"
        );
        // A second hold meanwhile does not move it either.
        let other = clock.hold();
        time.advance(4_000);
        drop(stalled);
        assert_eq!(
            clock.now(),
            10_300 + HOLD_GRACE_MS,
            "still held by the other"
        );
        time.advance(500);
        drop(other);
        assert_eq!(clock.given_back(), 6_000 + 4_000 + 500 - HOLD_GRACE_MS);
        let after = clock.now();
        assert_eq!(after, 10_300 + HOLD_GRACE_MS);
        time.advance(1);
        assert_eq!(clock.now(), after + 1, "runs again");
        // 20 000 comes 20 000 - after - 1 later, not earlier.
        time.advance(20_000 - after - 2);
        assert!(futures_poll_once(&mut sleep).await.is_none());
        time.advance(1);
        sleep.await;
        assert_eq!(clock.now(), 20_000);
    }

    /// A sleeper whose moment falls inside a stall waits for its end (no busy loop:
    /// it is not woken by the source until the hold is let go).
    #[tokio::test]
    async fn a_sleeper_waits_out_a_stall() {
        let time = ManualTime::new(0);
        let clock = GameClock::new(time.clone(), 0);
        let mut sleep = clock.sleep_until(5_000);
        let hold = clock.hold();
        time.advance(60_000);
        assert_eq!(clock.now(), HOLD_GRACE_MS);
        assert!(futures_poll_once(&mut sleep).await.is_none());
        drop(hold);
        assert!(futures_poll_once(&mut sleep).await.is_none());
        time.advance(5_000 - HOLD_GRACE_MS);
        sleep.await;
    }

    async fn futures_poll_once<F: Future<Output = ()> + Unpin>(sleep: &mut F) -> Option<()> {
        tokio::select! {
            biased;
            () = sleep => Some(()),
            () = tokio::task::yield_now() => None,
        }
    }
}
