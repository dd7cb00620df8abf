//! The test-bench memory model behind every memory port (docs/timing.md, "Test-bench memory").
//!
//! The Rust simulator and the generated Verilator harness implement exactly this model, so that
//! both see the same `ready` and `resp_valid` pattern in every cycle:
//!
//! - `req_ready` in cycle `t` is high unless `stall(seed, port, 0, t)`;
//! - an accepted read returns its data (read at acceptance) no earlier than cycle
//!   `t_accept + latency`, in order, one response per cycle; the head response is presented in
//!   cycle `t` unless `stall(seed, port, 1, t)`, and the kernel always takes it;
//! - an accepted write updates memory at the end of its acceptance cycle.
//!
//! Without a stall seed nothing ever stalls. A port moves a *word* of `lanes` elements per
//! request (one element for a buffer of scalars, a whole vector for a buffer of vectors): the
//! address is the word's, a read returns its lanes and a write changes the lanes of its mask.

use smallvec::SmallVec;
use std::collections::VecDeque;

/// The lanes of one memory word: on the stack for words of up to four lanes, so that a
/// simulated cycle does not allocate.
pub type Word = SmallVec<[u64; 4]>;

/// Test-bench memory parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemConfig {
    /// Cycles from an accepted read to its response (at least 1).
    pub latency: u32,
    /// Seed of the random back-pressure pattern; `None` disables it.
    pub stall_seed: Option<u64>,
}

impl Default for MemConfig {
    fn default() -> Self {
        MemConfig { latency: 1, stall_seed: None }
    }
}

/// The splitmix64 finalizer.
pub fn mix64(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58476D1CE4E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D049BB133111EB);
    x ^ (x >> 31)
}

/// Whether `channel` (0 = request, 1 = response) of `port` stalls in `cycle`: with probability
/// 1/4, as a pure function of its arguments.
pub fn stall(seed: u64, port: u32, channel: u32, cycle: u64) -> bool {
    let x = seed
        ^ (port as u64).wrapping_mul(0x9E3779B97F4A7C15)
        ^ (channel as u64).wrapping_mul(0xD1B54A32D192ED03)
        ^ cycle.wrapping_mul(0xA24BAED4963EE407);
    mix64(x) & 3 == 0
}

/// One port's memory (its elements) and its queue of pending read responses.
#[derive(Clone, Debug)]
pub struct PortMemory {
    pub data: Vec<u64>,
    /// Elements per word.
    pub lanes: usize,
    pending: VecDeque<(u64, Word)>,
}

/// What a memory presents to the kernel in one cycle.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PortOutputs {
    pub req_ready: bool,
    pub resp_valid: bool,
    /// The lanes of the presented word (empty when none is).
    pub resp_rdata: Word,
}

/// A request the kernel presents: the word `addr`, and for a write its lanes and the mask of
/// those written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    pub addr: u64,
    pub write: Option<(Word, u32)>,
}

/// An access outside the buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutOfBounds {
    pub addr: u64,
    pub len: usize,
    pub write: bool,
}

impl PortMemory {
    pub fn new(data: Vec<u64>, lanes: usize) -> PortMemory {
        PortMemory { data, lanes: lanes.max(1), pending: VecDeque::new() }
    }

    /// The port's outputs in `cycle`.
    pub fn outputs(&self, cfg: &MemConfig, port: u32, cycle: u64) -> PortOutputs {
        let stalled = |ch| cfg.stall_seed.is_some_and(|s| stall(s, port, ch, cycle));
        let head = self.pending.front().filter(|(due, _)| *due <= cycle);
        let resp_valid = head.is_some() && !stalled(1);
        PortOutputs { req_ready: !stalled(0), resp_valid, resp_rdata: head.map(|(_, d)| d.clone()).unwrap_or_default() }
    }

    /// Ends `cycle`: takes the presented response (the kernel always accepts it) and performs
    /// an accepted request.
    pub fn clock(
        &mut self,
        cfg: &MemConfig,
        out: &PortOutputs,
        accepted: Option<Request>,
        cycle: u64,
    ) -> Result<(), OutOfBounds> {
        if out.resp_valid {
            self.pending.pop_front();
        }
        if let Some(r) = accepted {
            let n = self.lanes;
            let first = r.addr as usize * n;
            // A read needs the word's first lane in the buffer (a widened scalar buffer may end
            // in part of a word, whose missing lanes read as zero); a write needs the lanes it
            // writes.
            let touched = match &r.write {
                Some((_, mask)) => (0..n).filter(|j| mask >> j & 1 == 1).map(|j| first + j).max(),
                None => Some(first),
            };
            if touched.is_some_and(|t| t >= self.data.len()) || r.addr as usize >= usize::MAX / n {
                return Err(OutOfBounds { addr: first as u64, len: self.data.len(), write: r.write.is_some() });
            }
            match r.write {
                Some((lanes, mask)) => {
                    for (j, v) in lanes.into_iter().enumerate().take(n) {
                        if mask >> j & 1 == 1 {
                            self.data[first + j] = v;
                        }
                    }
                }
                None => {
                    let word = (first..first + n).map(|i| self.data.get(i).copied().unwrap_or(0)).collect();
                    self.pending.push_back((cycle + cfg.latency.max(1) as u64, word));
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stall_rate_is_about_a_quarter() {
        let n = (0..10_000).filter(|c| stall(7, 1, 0, *c)).count();
        assert!((2_200..2_800).contains(&n), "{n}");
    }

    #[test]
    fn latency_and_order() {
        let cfg = MemConfig { latency: 3, stall_seed: None };
        let mut m = PortMemory::new(vec![10, 11, 12], 1);
        let o = m.outputs(&cfg, 0, 0);
        assert!(o.req_ready && !o.resp_valid);
        m.clock(&cfg, &o, Some(Request { addr: 1, write: None }), 0).unwrap();
        let o = m.outputs(&cfg, 0, 1);
        m.clock(&cfg, &o, Some(Request { addr: 2, write: None }), 1).unwrap();
        assert!(!m.outputs(&cfg, 0, 2).resp_valid);
        let o = m.outputs(&cfg, 0, 3);
        assert_eq!((o.resp_valid, o.resp_rdata.to_vec()), (true, vec![11]));
        m.clock(&cfg, &o, None, 3).unwrap();
        assert_eq!(m.outputs(&cfg, 0, 4).resp_rdata.to_vec(), vec![12]);
        let w = Request { addr: 3, write: Some((Word::from_slice(&[1]), 1)) };
        assert!(m.clock(&cfg, &PortOutputs::default(), Some(w), 5).is_err());
    }

    #[test]
    fn words_read_and_write_their_lanes() {
        let cfg = MemConfig::default();
        let mut m = PortMemory::new((0..8).collect(), 4);
        m.clock(&cfg, &PortOutputs::default(), Some(Request { addr: 1, write: None }), 0).unwrap();
        assert_eq!(m.outputs(&cfg, 0, 1).resp_rdata.to_vec(), vec![4, 5, 6, 7]);
        let w = Request { addr: 0, write: Some((Word::from_slice(&[9, 9, 9, 9]), 0b0110)) };
        m.clock(&cfg, &PortOutputs::default(), Some(w), 1).unwrap();
        assert_eq!(m.data[..4], [0, 9, 9, 3]);
        assert!(m.clock(&cfg, &PortOutputs::default(), Some(Request { addr: 2, write: None }), 2).is_err());
    }

    #[test]
    fn the_last_word_of_a_buffer_may_be_partial() {
        let cfg = MemConfig::default();
        let mut m = PortMemory::new((0..6).collect(), 4);
        m.clock(&cfg, &PortOutputs::default(), Some(Request { addr: 1, write: None }), 0).unwrap();
        assert_eq!(m.outputs(&cfg, 0, 1).resp_rdata.to_vec(), vec![4, 5, 0, 0], "missing lanes read as zero");
        let inside = Request { addr: 1, write: Some((Word::from_slice(&[7, 8, 9, 9]), 0b0011)) };
        m.clock(&cfg, &PortOutputs::default(), Some(inside), 1).unwrap();
        assert_eq!(m.data, [0, 1, 2, 3, 7, 8]);
        let outside = Request { addr: 1, write: Some((Word::from_slice(&[7, 8, 9, 9]), 0b0100)) };
        assert!(m.clock(&cfg, &PortOutputs::default(), Some(outside), 2).is_err());
    }
}
