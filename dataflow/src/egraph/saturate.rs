//! Equality saturation of one region's e-graph within the phase's budgets.
//!
//! egg's `Runner` does the same with more bookkeeping; this loop is ours because the phase runs
//! on every block of every kernel and must stay a small share of a build that takes tens of
//! milliseconds (the `Runner` reads a calibrated clock, whose one-time calibration alone costs
//! a few milliseconds per process). It keeps the `Runner`'s rule scheduling: a rule that
//! matches more than its limit is set aside for a few rounds and its limit doubled, so
//! commutativity and associativity cannot crowd out the rest.

use super::analysis::HwGraph;
use super::rules::HwRewrite;
use std::time::{Duration, Instant};

/// Matches a rule may find in one round before it is set aside.
const MATCH_LIMIT: usize = 1_000;
/// Rounds a rule sits out the first time; doubled each time after.
const BAN_LENGTH: usize = 5;

/// The budgets of one saturation.
pub struct Budget {
    pub node_limit: usize,
    pub iter_limit: usize,
    pub time_limit: Duration,
}

/// Why saturation stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    Saturated,
    IterationLimit(usize),
    NodeLimit(usize),
    TimeLimit(Duration),
}

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stop::Saturated => write!(f, "saturated"),
            Stop::IterationLimit(n) => write!(f, "iteration limit ({n})"),
            Stop::NodeLimit(n) => write!(f, "node limit ({n})"),
            Stop::TimeLimit(t) => write!(f, "time limit ({:.1} s)", t.as_secs_f64()),
        }
    }
}

struct RuleState {
    banned_until: usize,
    times_banned: u32,
}

/// Applies `rules` to `g` round by round until nothing changes or a budget runs out; the
/// e-graph is rebuilt (its invariants restored) when this returns.
pub fn saturate(g: &mut HwGraph, rules: &[HwRewrite], budget: &Budget) -> Stop {
    let start = Instant::now();
    let mut state: Vec<RuleState> = rules.iter().map(|_| RuleState { banned_until: 0, times_banned: 0 }).collect();
    for round in 0..budget.iter_limit {
        let mut matches = Vec::with_capacity(rules.len());
        for (rule, s) in rules.iter().zip(&mut state) {
            if round < s.banned_until {
                matches.push(Vec::new());
                continue;
            }
            let limit = MATCH_LIMIT << s.times_banned;
            let found = rule.search_with_limit(g, limit + 1);
            let total: usize = found.iter().map(|m| m.substs.len()).sum();
            if total > limit {
                s.banned_until = round + (BAN_LENGTH << s.times_banned);
                s.times_banned += 1;
                matches.push(Vec::new());
            } else {
                matches.push(found);
            }
        }
        let mut changed = false;
        for (rule, found) in rules.iter().zip(&matches) {
            changed |= !rule.apply(g, found).is_empty();
            if g.total_number_of_nodes() > budget.node_limit {
                g.rebuild();
                return Stop::NodeLimit(budget.node_limit);
            }
        }
        g.rebuild();
        if !changed {
            // Only saturated if no rule sat this round out: otherwise give them their turn.
            let waiting = state.iter_mut().filter(|s| s.banned_until > round + 1).map(|s| s.banned_until = 0).count();
            if waiting == 0 {
                return Stop::Saturated;
            }
        }
        if start.elapsed() > budget.time_limit {
            return Stop::TimeLimit(budget.time_limit);
        }
    }
    Stop::IterationLimit(budget.iter_limit)
}
