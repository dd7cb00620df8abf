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
//! Without a stall seed nothing ever stalls.

use std::collections::VecDeque;

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

/// One port's memory and its queue of pending read responses.
#[derive(Clone, Debug)]
pub struct PortMemory {
    pub data: Vec<u64>,
    pending: VecDeque<(u64, u64)>,
}

/// What a memory presents to the kernel in one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PortOutputs {
    pub req_ready: bool,
    pub resp_valid: bool,
    pub resp_rdata: u64,
}

/// A request the kernel presents.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Request {
    pub addr: u64,
    pub write: Option<u64>,
}

/// An access outside the buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutOfBounds {
    pub addr: u64,
    pub len: usize,
    pub write: bool,
}

impl PortMemory {
    pub fn new(data: Vec<u64>) -> PortMemory {
        PortMemory { data, pending: VecDeque::new() }
    }

    /// The port's outputs in `cycle`.
    pub fn outputs(&self, cfg: &MemConfig, port: u32, cycle: u64) -> PortOutputs {
        let stalled = |ch| cfg.stall_seed.is_some_and(|s| stall(s, port, ch, cycle));
        let head = self.pending.front().filter(|(due, _)| *due <= cycle);
        PortOutputs {
            req_ready: !stalled(0),
            resp_valid: head.is_some() && !stalled(1),
            resp_rdata: head.map(|(_, d)| *d).unwrap_or(0),
        }
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
            let i = r.addr as usize;
            if i >= self.data.len() {
                return Err(OutOfBounds { addr: r.addr, len: self.data.len(), write: r.write.is_some() });
            }
            match r.write {
                Some(v) => self.data[i] = v,
                None => self.pending.push_back((cycle + cfg.latency.max(1) as u64, self.data[i])),
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
        let mut m = PortMemory::new(vec![10, 11, 12]);
        let o = m.outputs(&cfg, 0, 0);
        assert!(o.req_ready && !o.resp_valid);
        m.clock(&cfg, &o, Some(Request { addr: 1, write: None }), 0).unwrap();
        let o = m.outputs(&cfg, 0, 1);
        m.clock(&cfg, &o, Some(Request { addr: 2, write: None }), 1).unwrap();
        assert!(!m.outputs(&cfg, 0, 2).resp_valid);
        let o = m.outputs(&cfg, 0, 3);
        assert_eq!((o.resp_valid, o.resp_rdata), (true, 11));
        m.clock(&cfg, &o, None, 3).unwrap();
        assert_eq!(m.outputs(&cfg, 0, 4).resp_rdata, 12);
        assert!(m.clock(&cfg, &PortOutputs::default(), Some(Request { addr: 3, write: Some(1) }), 5).is_err());
    }
}
