//! The SAT back end: one small trait over the solver crate, with a budget that counts
//! conflicts (never wall time: the finder is pure) and an interrupt flag the caller sets.

use rustsat::types::Lit;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// What one solver call found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Answer {
    Sat,
    Unsat,
    /// The budget ran out or the caller raised the interrupt flag.
    Unknown,
}

/// The resources a whole finder call may spend, shared by all its solver calls.
#[derive(Clone, Debug, Default)]
pub(crate) struct Budget {
    /// Conflicts still allowed; `None` for no limit.
    pub conflicts_left: Option<u64>,
    pub interrupt: Option<Arc<AtomicBool>>,
    /// Conflicts spent so far (for statistics).
    pub spent: u64,
}

impl Budget {
    pub fn interrupted(&self) -> bool {
        self.interrupt
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
    }

    pub fn exhausted(&self) -> bool {
        self.conflicts_left == Some(0) || self.interrupted()
    }

    fn charge(&mut self, conflicts: u64) {
        self.spent += conflicts;
        if let Some(left) = &mut self.conflicts_left {
            *left = left.saturating_sub(conflicts);
        }
    }
}

/// An incremental SAT solver with assumptions.
pub(crate) trait Backend {
    fn add_clause(&mut self, clause: &[Lit]);
    fn solve(&mut self, assumptions: &[Lit], budget: &mut Budget) -> Answer;
    /// The value of a literal in the last model (only after [`Answer::Sat`]).
    fn value(&self, lit: Lit) -> bool;
}

pub(crate) use cadical_backend::Cadical;

mod cadical_backend {
    use super::*;

    /// Counts learnt clauses (one per conflict) and stops at the budget or the flag.
    struct Watch {
        learnt: u64,
        limit: Option<u64>,
        interrupt: Option<Arc<AtomicBool>>,
    }

    impl cadical::Callbacks for Watch {
        fn terminate(&mut self) -> bool {
            self.limit.is_some_and(|l| self.learnt >= l)
                || self
                    .interrupt
                    .as_ref()
                    .is_some_and(|f| f.load(Ordering::Relaxed))
        }
        fn max_length(&self) -> i32 {
            i32::MAX
        }
        fn learn(&mut self, _clause: &[i32]) {
            self.learnt += 1;
        }
    }

    /// CaDiCaL through the `cadical` crate.
    pub(crate) struct Cadical {
        solver: cadical::Solver<Watch>,
    }

    impl Cadical {
        pub fn new() -> Cadical {
            let mut solver = cadical::Solver::new();
            solver.set_callbacks(Some(Watch {
                learnt: 0,
                limit: None,
                interrupt: None,
            }));
            Cadical { solver }
        }
    }

    impl Backend for Cadical {
        fn add_clause(&mut self, clause: &[Lit]) {
            self.solver.add_clause(clause.iter().map(|l| l.to_ipasir()));
        }

        fn solve(&mut self, assumptions: &[Lit], budget: &mut Budget) -> Answer {
            if budget.exhausted() {
                return Answer::Unknown;
            }
            if let Some(w) = self.solver.get_callbacks() {
                w.learnt = 0;
                w.limit = budget.conflicts_left;
                w.interrupt = budget.interrupt.clone();
            }
            let result = self
                .solver
                .solve_with(assumptions.iter().map(|l| l.to_ipasir()));
            let used = self.solver.get_callbacks().map_or(0, |w| w.learnt);
            budget.charge(used);
            match result {
                Some(true) => Answer::Sat,
                Some(false) => Answer::Unsat,
                None => Answer::Unknown,
            }
        }

        fn value(&self, lit: Lit) -> bool {
            self.solver.value(lit.to_ipasir()) == Some(true)
        }
    }
}

pub(crate) use batsat_backend::Batsat;

mod batsat_backend {
    use super::*;
    use batsat::{Callbacks, SolverInterface, lbool};

    #[derive(Default)]
    struct Watch {
        learnt: u64,
        limit: Option<u64>,
        interrupt: Option<Arc<AtomicBool>>,
    }

    impl Callbacks for Watch {
        fn on_new_clause(&mut self, _c: &[batsat::Lit], kind: batsat::clause::Kind) {
            if kind == batsat::clause::Kind::Learnt {
                self.learnt += 1;
            }
        }
        fn stop(&self) -> bool {
            self.limit.is_some_and(|l| self.learnt >= l)
                || self
                    .interrupt
                    .as_ref()
                    .is_some_and(|f| f.load(Ordering::Relaxed))
        }
    }

    /// BatSat (pure Rust, MiniSat lineage).
    pub(crate) struct Batsat {
        solver: batsat::Solver<Watch>,
        scratch: Vec<batsat::Lit>,
    }

    impl Batsat {
        pub fn new() -> Batsat {
            Batsat {
                solver: batsat::Solver::new(Default::default(), Watch::default()),
                scratch: Vec::new(),
            }
        }

        fn lit(&mut self, l: Lit) -> batsat::Lit {
            let v = self.solver.var_of_int(l.vidx32());
            batsat::Lit::new(v, l.is_pos())
        }
    }

    impl Backend for Batsat {
        fn add_clause(&mut self, clause: &[Lit]) {
            let mut c = std::mem::take(&mut self.scratch);
            c.clear();
            for &l in clause {
                let l = self.lit(l);
                c.push(l);
            }
            self.solver.add_clause_reuse(&mut c);
            self.scratch = c;
        }

        fn solve(&mut self, assumptions: &[Lit], budget: &mut Budget) -> Answer {
            if budget.exhausted() {
                return Answer::Unknown;
            }
            let assumptions: Vec<batsat::Lit> = assumptions.iter().map(|&l| self.lit(l)).collect();
            let w = self.solver.cb_mut();
            w.learnt = 0;
            w.limit = budget.conflicts_left;
            w.interrupt = budget.interrupt.clone();
            let result = self.solver.solve_limited(&assumptions);
            let used = self.solver.cb().learnt;
            budget.charge(used);
            if result == lbool::TRUE {
                Answer::Sat
            } else if result == lbool::FALSE {
                Answer::Unsat
            } else {
                Answer::Unknown
            }
        }

        fn value(&self, lit: Lit) -> bool {
            let value = self
                .solver
                .get_model()
                .get(lit.vidx())
                .copied()
                .unwrap_or(lbool::UNDEF);
            if lit.is_pos() {
                value == lbool::TRUE
            } else {
                value == lbool::FALSE
            }
        }
    }
}
