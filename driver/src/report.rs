//! The build report, `report.json`: typed and versioned. Its schema is `docs/report.md`; a
//! change that renames or removes a field raises [`SCHEMA_VERSION`].

use kiln_scheduler::report::KernelReport;
use serde::Serialize;
use std::fmt::Write;

/// The version of the report's schema.
pub const SCHEMA_VERSION: u32 = 1;

/// What `kiln build` built from one file.
#[derive(Serialize, Debug)]
pub struct BuildReport {
    pub schema_version: u32,
    pub kiln_version: &'static str,
    /// The kernel file as given.
    pub source: String,
    /// The device model (`--target`).
    pub target: String,
    pub clock_mhz: f64,
    pub kernels: Vec<KernelBuildReport>,
    /// The top level of kernels connected by pipes; `null` when no kernel uses a pipe.
    pub system: Option<SystemReport>,
}

/// One kernel: its schedule's report, and what the build search decided.
#[derive(Serialize, Debug)]
pub struct KernelBuildReport {
    #[serde(flatten)]
    pub schedule: KernelReport,
    /// The variants the build tried and which it kept (`kiln_driver::build`).
    pub decisions: Vec<Decision>,
}

/// One choice of the build search.
#[derive(Serialize, Debug, Clone, PartialEq)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Decision {
    /// The e-graph phase's rewritten datapath against the kernel without it.
    Egraph {
        kept: bool,
        /// Why it was kept or discarded: what the scheduler found worse, and what outweighed it.
        reason: String,
        regions_rewritten: usize,
        regions: usize,
        /// The datapath's estimated area in logic cells, before and after the rewrites.
        estimated_area_before: f64,
        estimated_area_after: f64,
        /// Per rewritten region, with `--explain-opt`.
        #[serde(skip_serializing_if = "Vec::is_empty")]
        explained: Vec<EgraphRegion>,
    },
    /// A nest coalesced into one loop instead of having its inner loop unrolled.
    Coalesce {
        /// The nest's index in the kernel's coalescible nests.
        nest: usize,
        kept: bool,
        /// The schedule's estimated cycles (states and `trip × II + depth` per loop) before the
        /// trial, and with the nest coalesced (`null` when that variant did not build).
        estimated_cycles: u64,
        with: Option<u64>,
    },
    /// Under relaxed math, the loops' float sums split into interleaved partial sums.
    PartialSums {
        /// How many partial sums (the recurrence's latency in cycles).
        sums: u32,
        kept: bool,
        /// Estimated cycles without and with the split (`null` where a trip count is only known
        /// at run time; the split is then kept where it lowers a loop's II).
        estimated_cycles: Option<u64>,
        with: Option<u64>,
    },
}

/// One datapath region the e-graph phase rewrote.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct EgraphRegion {
    pub block: String,
    pub ops_before: usize,
    pub ops_after: usize,
    pub area_before: f64,
    pub area_after: f64,
    pub depth_before_ns: f64,
    pub depth_after_ns: f64,
    /// Why saturation stopped.
    pub stop: String,
    /// The rules the kept datapath was derived with, and how often each applied.
    pub rules: Vec<(String, usize)>,
}

/// The system top level.
#[derive(Serialize, Debug)]
pub struct SystemReport {
    pub top: String,
    pub fifos: Vec<FifoReport>,
    /// Pipe parameters the host connects: they stay ports of the top level.
    pub unconnected_pipe_ends: Vec<String>,
}

/// One FIFO between two kernels.
#[derive(Serialize, Debug)]
pub struct FifoReport {
    pub pipe: String,
    pub width: u32,
    pub depth: u32,
    /// `block RAM` or `registers`.
    pub storage: &'static str,
    pub writer: String,
    pub reader: String,
}

impl Decision {
    /// The decision as the lines `kiln build` prints.
    pub fn summary(&self) -> String {
        let mut t = String::new();
        match self {
            Decision::Egraph { kept: false, reason, .. } => {
                let _ = writeln!(t, "e-graph: rewrites discarded: {reason}");
            }
            Decision::Egraph {
                kept: true,
                reason,
                regions_rewritten,
                regions,
                estimated_area_before: before,
                estimated_area_after: after,
                explained,
            } => {
                let change = if *before > 0.0 { 100.0 * (after - before) / before } else { 0.0 };
                let _ = writeln!(
                    t,
                    "e-graph: rewrote {regions_rewritten} of {regions} datapath regions: estimated area {before:.0} -> {after:.0} logic cells ({change:+.1}%); kept: {reason}"
                );
                for x in explained {
                    let rules: Vec<String> = x.rules.iter().map(|(name, n)| format!("{name} x{n}")).collect();
                    let _ = writeln!(
                        t,
                        "e-graph: block {}: {} -> {} ops, area {:.0} -> {:.0}, depth {:.1} -> {:.1} ns ({}); rules: {}",
                        x.block,
                        x.ops_before,
                        x.ops_after,
                        x.area_before,
                        x.area_after,
                        x.depth_before_ns,
                        x.depth_after_ns,
                        x.stop,
                        if rules.is_empty() { "constant folding".to_string() } else { rules.join(", ") }
                    );
                }
            }
            Decision::PartialSums { sums, kept, estimated_cycles, with } => {
                let cycles = |c: &Option<u64>| c.map(|c| format!("{c} cycles")).unwrap_or_else(|| "unknown".into());
                let verdict = if *kept { "kept" } else { "not kept" };
                let _ = writeln!(
                    t,
                    "relaxed math: float sums split into {sums} partial sums: {verdict} (estimated {} before, {} split)",
                    cycles(estimated_cycles),
                    cycles(with)
                );
            }
            Decision::Coalesce { nest, kept, estimated_cycles, with } => {
                let with = with.map(|c| format!("{c} cycles")).unwrap_or_else(|| "no build".into());
                let verdict = if *kept { "kept" } else { "not kept" };
                let _ = writeln!(
                    t,
                    "coalescing nest {nest}: {verdict} ({estimated_cycles} estimated cycles, coalesced {with})"
                );
            }
        }
        t
    }
}
