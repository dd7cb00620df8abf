//! `egraph`: datapath optimization by equality saturation, one region at a time.
//!
//! A region is the pure integer operations of one block (a straight-line block or a loop body;
//! loads, stores, pipe transfers, float operations and values from other blocks are opaque
//! leaves, so memory order is never touched). The region becomes an e-graph ([`lang::Hw`] with
//! the [`analysis::Facts`] of each class), the [`rules`] saturate it within the budgets, and the
//! cheapest equivalent datapath under the target's [`cost`] model is extracted: least area, then
//! least depth — so reassociated chains come out as balanced trees, and a loop-carried value
//! enters its recurrence last. The region is replaced only when the result is smaller or
//! shallower and neither worse, so the phase never makes a kernel bigger or slower by the model.
//!
//! Determinism: e-graph growth is bounded by node and iteration limits, which make the same
//! choices on every run; the time limit is a safety net set far above what those limits allow
//! (a region that reaches it may be optimized differently from run to run, and is reported).

pub mod analysis;
pub mod cost;
pub mod lang;
pub mod rules;
mod saturate;

use crate::ir::*;
use analysis::{HwAnalysis, HwGraph};
use cost::CostModel;
use egg::{FlatTerm, Id, Language, RecExpr};
use lang::{Hw, Leaf};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::time::{Duration, Instant};

/// The smallest share of a region's estimated area, and the fewest logic cells, a rewrite must
/// save to be kept for area alone: below them the estimate is within the cost model's error
/// (an adder a bit narrower saves a cell that synthesis may spend elsewhere).
pub const MIN_AREA_SAVING: f64 = 0.02;
pub const MIN_AREA_SAVING_CELLS: f64 = 4.0;
/// The least a rewrite kept for depth alone must shorten a region's critical path by, in
/// nanoseconds (a carry chain a bit shorter is within the delay model's error).
pub const MIN_DEPTH_SAVING_NS: f64 = 0.5;

/// Budgets and settings of the phase.
#[derive(Clone, Debug)]
pub struct EgraphOptions {
    /// The device whose operator areas and delays the cost model prices.
    pub device: &'static kiln_device::Device,
    /// E-nodes per region before saturation stops.
    pub node_limit: usize,
    /// Rule-application rounds per region.
    pub iter_limit: usize,
    /// Wall-clock limit per region (a safety net; see the module documentation).
    pub time_limit: Duration,
    /// Record which rules the kept datapaths were derived with (`--explain-opt`).
    pub explain: bool,
}

impl EgraphOptions {
    fn cost_model(&self) -> CostModel {
        CostModel { device: self.device }
    }
}

impl EgraphOptions {
    /// The phase for `device`, with the budgets measured on the PolyBench and corpus kernels of
    /// `bench/egraph`: a fifth round or a node limit of 3,000 improve the estimated area by
    /// under 0.5% and cost a quarter more build time.
    pub fn for_device(device: &'static kiln_device::Device) -> EgraphOptions {
        EgraphOptions { device, node_limit: 2000, iter_limit: 4, time_limit: Duration::from_secs(5), explain: false }
    }
}

/// What the phase did to one region.
#[derive(Clone, Debug)]
pub struct RegionReport {
    pub block: Block,
    pub ops_before: usize,
    pub ops_after: usize,
    /// Estimated area (logic cells) and depth (nanoseconds) of the region's live datapath.
    pub area_before: f64,
    pub area_after: f64,
    pub depth_before: f64,
    pub depth_after: f64,
    /// Whether the extracted datapath replaced the original.
    pub kept: bool,
    /// Why saturation stopped.
    pub stop: String,
    /// With `explain`: the rules used to derive the kept datapath, and how often.
    pub rules: BTreeMap<String, usize>,
}

/// What the phase did to one kernel.
#[derive(Clone, Debug, Default)]
pub struct EgraphReport {
    pub regions: Vec<RegionReport>,
    /// Block parameters (registers) narrowed to the bits their ranges need.
    pub narrowed_params: usize,
    pub time: Duration,
}

impl EgraphReport {
    pub fn changed(&self) -> bool {
        self.narrowed_params > 0 || self.regions.iter().any(|r| r.kept)
    }
}

/// Runs the phase on every block of a kernel.
pub fn optimize_kernel(k: &mut Kernel, opts: &EgraphOptions) -> EgraphReport {
    let ranges = crate::ranges::ValueRanges::compute(k);
    optimize_kernel_with(k, opts, ranges)
}

/// [`optimize_kernel`] with the kernel's value ranges computed already.
pub fn optimize_kernel_with(k: &mut Kernel, opts: &EgraphOptions, ranges: crate::ranges::ValueRanges) -> EgraphReport {
    // egg times its rebuilds with `quanta`, whose clock calibrates itself on first use for
    // milliseconds, a large part of a whole build; the phase reads no egg timings, so egg gets
    // a clock that needs no calibration.
    quanta::with_clock(&quanta::Clock::mock().0, || optimize_regions(k, opts, ranges))
}

fn optimize_regions(k: &mut Kernel, opts: &EgraphOptions, mut ranges: crate::ranges::ValueRanges) -> EgraphReport {
    let start = Instant::now();
    let mut report = EgraphReport::default();
    let carried = loop_carried_params(k);
    let rules = rules::rules();
    // Rewriting a block changes who uses its own values only (blocks later in reverse
    // post-order read nothing it defines anew), so this stays right for the blocks to come.
    let used_elsewhere = used_in_other_blocks(k);
    for b in k.rpo() {
        let Some(region) = find_region(k, b, &carried, &used_elsewhere) else { continue };
        if let Some(r) = optimize_block(k, b, region, &mut ranges, &rules, opts) {
            report.regions.push(r);
        }
    }
    report.time = start.elapsed();
    report
}

/// Loop-header parameters whose value changes from one iteration to the next (a latch passes
/// something other than the parameter itself): the recurrences.
fn loop_carried_params(k: &Kernel) -> Vec<Value> {
    let mut carried = Vec::new();
    for l in crate::analysis::natural_loops(k) {
        let params = &k.blocks[l.header].params;
        for latch in &l.latches {
            for t in k.blocks[*latch].term.targets() {
                if t.block != l.header {
                    continue;
                }
                for (p, a) in params.iter().zip(&t.args) {
                    if p != a && !carried.contains(p) {
                        carried.push(*p);
                    }
                }
            }
        }
    }
    carried
}

/// Values read by an op of another block than their definition's, or by a terminator.
fn used_in_other_blocks(k: &Kernel) -> HashSet<Value> {
    let defined_in = |v: Value| match k.values[v].def {
        ValueDef::Op(op) => k.ops[op].block,
        ValueDef::Param(b, _) => b,
    };
    let mut out = HashSet::new();
    for (b, data) in k.blocks.iter() {
        for &op in &data.ops {
            out.extend(k.ops[op].args.iter().copied().filter(|a| defined_in(*a) != b));
        }
        out.extend(data.term.uses());
    }
    out
}

/// A block's region: its modelled ops and the leaves they read.
struct Region {
    /// Block ops, by position.
    ops: Vec<Op>,
    in_region: Vec<bool>,
    /// Leaf values, by leaf index, with the position of the op defining them in the block
    /// (-1: defined before the block starts) and their arrival time for the depth measure.
    leaves: Vec<Value>,
    leaf_position: Vec<i64>,
    leaf_arrival: Vec<f64>,
    /// Region results used outside the region, in block order.
    roots: Vec<Value>,
}

fn find_region(k: &Kernel, b: Block, carried: &[Value], used_elsewhere: &HashSet<Value>) -> Option<Region> {
    let ops = k.blocks[b].ops.clone();
    let in_region: Vec<bool> =
        ops.iter().map(|&op| Hw::models(&k.ops[op].kind) && k.ops[op].result.is_some()).collect();
    let count = in_region.iter().filter(|x| **x).count();
    if count < 2 {
        return None;
    }
    let region_op: HashMap<Op, usize> =
        ops.iter().enumerate().filter(|(i, _)| in_region[*i]).map(|(i, &op)| (op, i)).collect();
    let position: HashMap<Op, usize> = ops.iter().enumerate().map(|(i, &op)| (op, i)).collect();
    let is_region_value = |v: Value| k.def_op(v).is_some_and(|op| region_op.contains_key(&op));

    let mut leaves = Vec::new();
    let mut leaf_index: HashMap<Value, usize> = HashMap::new();
    let mut leaf_position = Vec::new();
    let mut leaf_arrival = Vec::new();
    for (i, &op) in ops.iter().enumerate() {
        if !in_region[i] {
            continue;
        }
        for &a in &k.ops[op].args {
            if is_region_value(a) || leaf_index.contains_key(&a) {
                continue;
            }
            leaf_index.insert(a, leaves.len());
            leaves.push(a);
            let (pos, arrival) = match k.values[a].def {
                ValueDef::Op(d) if k.ops[d].block == b => {
                    (position.get(&d).map_or(-1, |p| *p as i64), cost::IN_BLOCK_ARRIVAL)
                }
                ValueDef::Param(..) if carried.contains(&a) => (-1, cost::RECURRENCE_ARRIVAL),
                _ => (-1, 0.0),
            };
            leaf_position.push(pos);
            leaf_arrival.push(arrival);
        }
    }

    // Values read outside the region: by other blocks or terminators, by the block's other ops.
    let mut used_outside: HashSet<Value> = HashSet::new();
    for (i, &op) in ops.iter().enumerate() {
        if !in_region[i] {
            used_outside.extend(k.ops[op].args.iter().copied());
        }
    }
    let roots: Vec<Value> = ops
        .iter()
        .enumerate()
        .filter(|(i, _)| in_region[*i])
        .filter_map(|(_, &op)| k.ops[op].result)
        .filter(|v| used_outside.contains(v) || used_elsewhere.contains(v))
        .collect();
    if roots.is_empty() {
        return None;
    }
    Some(Region { ops, in_region, leaves, leaf_position, leaf_arrival, roots })
}

/// The cheapest node of each e-class, among those whose inputs are available where the class
/// is first needed.
struct Extraction {
    /// By canonical class id.
    best: Vec<Option<Hw>>,
    /// The nodes each class may compute with (those available where it is needed), by class.
    candidates: Vec<(usize, Vec<Hw>)>,
}

impl Extraction {
    fn choice(&self, g: &HwGraph, id: Id) -> Option<Hw> {
        self.best.get(usize::from(g.find(id))).cloned().flatten()
    }
}

/// Per canonical class id (a dense index), something the extraction computes.
type PerClass<T> = Vec<Option<T>>;

/// The earliest position in the block at which each class can be computed: its cheapest
/// node's inputs (leaves defined earlier in the block, or before it) are all there.
fn availability(g: &HwGraph, slots: usize, leaf_position: &[i64]) -> PerClass<i64> {
    let mut avail: PerClass<i64> = vec![None; slots];
    let classes = classes_in_id_order(g);
    loop {
        let mut changed = false;
        for class in &classes {
            for node in &class.nodes {
                let a = node_availability(g, node, &avail, leaf_position);
                let slot = &mut avail[usize::from(class.id)];
                if let Some(a) = a
                    && slot.is_none_or(|old| a < old)
                {
                    *slot = Some(a);
                    changed = true;
                }
            }
        }
        if !changed {
            return avail;
        }
    }
}

/// The classes by increasing id. A class is mostly made after its children, so the fixed
/// points over classes below settle in a few sweeps in this order (in the e-graph's hash
/// order a deep datapath, such as a soft-float expansion, takes a sweep per level).
fn classes_in_id_order(g: &HwGraph) -> Vec<&egg::EClass<Hw, <HwAnalysis as egg::Analysis<Hw>>::Data>> {
    let mut classes: Vec<_> = g.classes().collect();
    classes.sort_by_key(|c| c.id);
    classes
}

fn node_availability(g: &HwGraph, node: &Hw, avail: &PerClass<i64>, leaf_position: &[i64]) -> Option<i64> {
    match node {
        Hw::Leaf(l) => leaf_position.get(l.0 as usize).copied(),
        Hw::Const(_) | Hw::Width(_) => Some(-1),
        _ => node.children().iter().try_fold(-1i64, |acc, c| avail[usize::from(g.find(*c))].map(|a| acc.max(a))),
    }
}

fn extract(g: &HwGraph, target: CostModel, leaf_position: &[i64], leaf_arrival: &[f64]) -> Extraction {
    let slots = g.classes().map(|c| usize::from(c.id) + 1).max().unwrap_or(0);
    let avail = availability(g, slots, leaf_position);
    // Each node's own area and delay, and whether it is available where its class is needed,
    // computed once: the fixed point below visits every node many times.
    struct Candidate<'a> {
        node: &'a Hw,
        area: f64,
        delay: f64,
    }
    let mut candidates: Vec<(usize, Vec<Candidate>)> = Vec::new();
    for class in classes_in_id_order(g) {
        let Some(limit) = avail[usize::from(class.id)] else { continue };
        let nodes = class
            .nodes
            .iter()
            .filter(|n| node_availability(g, n, &avail, leaf_position).is_some_and(|a| a <= limit))
            .map(|node| Candidate {
                node,
                area: target.area(node, g),
                delay: match node {
                    Hw::Leaf(l) => leaf_arrival.get(l.0 as usize).copied().unwrap_or(0.0),
                    _ => target.delay(node, g),
                },
            })
            .collect();
        candidates.push((usize::from(class.id), nodes));
    }
    // (node, tree area, depth, node count): least area, then least depth, then fewest nodes.
    let mut best: PerClass<(&Hw, f64, f64, u32)> = vec![None; slots];
    loop {
        let mut changed = false;
        for (slot, nodes) in &candidates {
            for c in nodes {
                let mut area = c.area;
                let mut depth: f64 = 0.0;
                let mut count = 1u32;
                let mut complete = true;
                for child in c.node.children() {
                    match best[usize::from(g.find(*child))] {
                        Some((_, a, d, n)) => {
                            area += a;
                            depth = depth.max(d);
                            count = count.saturating_add(n);
                        }
                        None => complete = false,
                    }
                }
                if !complete {
                    continue;
                }
                depth += c.delay;
                // Ties go to the lesser node, so the choice does not depend on the order in
                // which the sweeps meet the nodes.
                let better = match best[*slot] {
                    None => true,
                    Some((node, a, d, n)) => match (area, depth, count).partial_cmp(&(a, d, n)) {
                        Some(std::cmp::Ordering::Less) => true,
                        Some(std::cmp::Ordering::Equal) => c.node < node,
                        _ => false,
                    },
                };
                if better {
                    best[*slot] = Some((c.node, area, depth, count));
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    Extraction {
        best: best.into_iter().map(|b| b.map(|(n, ..)| n.clone())).collect(),
        candidates: candidates
            .into_iter()
            .map(|(slot, nodes)| (slot, nodes.into_iter().map(|c| c.node.clone()).collect()))
            .collect(),
    }
}

/// The extraction above prices each class as a tree, so it cannot see that a node another
/// root computes anyway is free to reuse (the low byte of a sum that is computed in full for a
/// comparison is that sum's wiring, not a second, narrower adder). This pass revisits the
/// classes of the chosen datapath: a node whose operands the datapath computes already replaces
/// the choice when the whole datapath gets smaller (or as small and shallower).
fn share_computed_operands(
    g: &HwGraph,
    target: CostModel,
    roots: &[Id],
    leaf_arrival: &[f64],
    extraction: &mut Extraction,
) {
    let cost = |best: &[Option<Hw>]| {
        let choose = |id: Id| best.get(usize::from(g.find(id))).cloned().flatten();
        dag_walk(g, target, roots, leaf_arrival, &choose)
    };
    let Some(mut current) = cost(&extraction.best) else { return };
    for _round in 0..3 {
        let mut improved = false;
        for (slot, nodes) in &extraction.candidates {
            if !current.computes(*slot) {
                continue;
            }
            for node in nodes {
                if extraction.best[*slot].as_ref() == Some(node)
                    || !node.children().iter().all(|c| current.computes(usize::from(g.find(*c))))
                {
                    continue;
                }
                let old = extraction.best[*slot].replace(node.clone());
                match cost(&extraction.best) {
                    Some(new) if (new.area, new.depth) < (current.area, current.depth) => {
                        current = new;
                        improved = true;
                    }
                    _ => extraction.best[*slot] = old,
                }
            }
        }
        if !improved {
            break;
        }
    }
}

/// The DAG cost (area summed once per node, the deepest path) of the datapath that computes
/// `roots` when each class computes with `choose(class)`.
fn dag_cost(
    g: &HwGraph,
    target: CostModel,
    roots: &[Id],
    leaf_arrival: &[f64],
    choose: &dyn Fn(Id) -> Option<Hw>,
) -> Option<(f64, f64, usize)> {
    dag_walk(g, target, roots, leaf_arrival, choose).map(|d| (d.area, d.depth, d.ops))
}

/// A datapath's cost, and the classes it computes (by canonical id).
struct DagCost {
    area: f64,
    depth: f64,
    ops: usize,
    /// By canonical class index.
    visited: Vec<bool>,
}

impl DagCost {
    fn computes(&self, class: usize) -> bool {
        self.visited.get(class).copied().unwrap_or(false)
    }
}

/// `None` when a choice is missing or the choices form a cycle.
fn dag_walk(
    g: &HwGraph,
    target: CostModel,
    roots: &[Id],
    leaf_arrival: &[f64],
    choose: &dyn Fn(Id) -> Option<Hw>,
) -> Option<DagCost> {
    let mut walk =
        DagWalk { g, target, leaf_arrival, choose, depth: Vec::new(), in_progress: Vec::new(), area: 0.0, ops: 0 };
    let mut deepest: f64 = 0.0;
    for &r in roots {
        deepest = deepest.max(walk.visit(g.find(r))?);
    }
    let visited = walk.depth.iter().map(Option::is_some).collect();
    Some(DagCost { area: walk.area, depth: deepest, ops: walk.ops, visited })
}

struct DagWalk<'a> {
    g: &'a HwGraph,
    target: CostModel,
    leaf_arrival: &'a [f64],
    choose: &'a dyn Fn(Id) -> Option<Hw>,
    /// By canonical class index (dense tables: the walk runs once per candidate choice).
    depth: Vec<Option<f64>>,
    /// Classes whose operands are being visited (one seen again is a cycle).
    in_progress: Vec<bool>,
    area: f64,
    ops: usize,
}

impl DagWalk<'_> {
    fn visit(&mut self, id: Id) -> Option<f64> {
        let i = usize::from(id);
        if let Some(Some(d)) = self.depth.get(i) {
            return Some(*d);
        }
        if self.depth.len() <= i {
            self.depth.resize(i + 1, None);
            self.in_progress.resize(i + 1, false);
        }
        if std::mem::replace(&mut self.in_progress[i], true) {
            return None;
        }
        let node = (self.choose)(id)?;
        let mut d: f64 = 0.0;
        for c in node.children() {
            d = d.max(self.visit(self.g.find(*c))?);
        }
        d += match &node {
            Hw::Leaf(l) => self.leaf_arrival.get(l.0 as usize).copied().unwrap_or(0.0),
            n => self.target.delay(n, self.g),
        };
        self.area += self.target.area(&node, self.g);
        if !matches!(node, Hw::Leaf(_) | Hw::Width(_)) {
            self.ops += 1;
        }
        self.in_progress[i] = false;
        self.depth[i] = Some(d);
        Some(d)
    }
}

fn optimize_block(
    k: &mut Kernel,
    b: Block,
    region: Region,
    ranges: &mut crate::ranges::ValueRanges,
    rules: &[rules::HwRewrite],
    opts: &EgraphOptions,
) -> Option<RegionReport> {
    let analysis = HwAnalysis { leaf_facts: region.leaves.iter().map(|v| ranges.facts_in(k, b, *v)).collect() };
    let mut g = HwGraph::new(analysis);
    if opts.explain {
        g = g.with_explanations_enabled();
    }
    // The region as e-nodes, in block order.
    let mut class_of: HashMap<Value, Id> = HashMap::new();
    for (i, v) in region.leaves.iter().enumerate() {
        class_of.insert(*v, g.add(Hw::Leaf(Leaf(i as u32))));
    }
    let mut original: Vec<(Id, Hw)> = Vec::new();
    for (i, &op) in region.ops.iter().enumerate() {
        if !region.in_region[i] {
            continue;
        }
        let o = &k.ops[op];
        let r = o.result?;
        let args: Option<Vec<Id>> = o.args.iter().map(|a| class_of.get(a).copied()).collect();
        let width_class = matches!(o.kind, OpKind::Cast(_)).then(|| g.add(Hw::Width(lang::Width(k.width(r)))));
        let node = Hw::from_op(&o.kind, &args?, k.width(r), width_class)?;
        let id = g.add(node.clone());
        original.push((id, node));
        class_of.insert(r, id);
    }
    let root_classes: Vec<Id> = region.roots.iter().map(|r| class_of[r]).collect();
    g.rebuild();
    // The original datapath's cost, measured on the e-graph before any rewriting.
    let leaf_nodes: HashMap<Id, Hw> =
        (0..region.leaves.len()).map(|i| (g.find(class_of[&region.leaves[i]]), Hw::Leaf(Leaf(i as u32)))).collect();
    // In block order, so that the first op of a class (several can fold into one) stands for it
    // on every run.
    let mut first_node: HashMap<Id, Hw> = HashMap::new();
    for (id, n) in &original {
        first_node.entry(g.find(*id)).or_insert_with(|| n.clone());
    }
    let choose_original = |id: Id| {
        leaf_nodes.get(&id).cloned().or_else(|| first_node.get(&id).cloned()).or_else(|| {
            // Width literals, and classes merged by constant folding while building.
            g[id].nodes.first().cloned()
        })
    };
    let (area_before, depth_before, ops_before) =
        dag_cost(&g, opts.cost_model(), &root_classes, &region.leaf_arrival, &choose_original)?;

    let mut g = g;
    let budget =
        saturate::Budget { node_limit: opts.node_limit, iter_limit: opts.iter_limit, time_limit: opts.time_limit };
    let stop = saturate::saturate(&mut g, rules, &budget).to_string();
    let g = &g;
    let mut extraction = extract(g, opts.cost_model(), &region.leaf_position, &region.leaf_arrival);
    share_computed_operands(g, opts.cost_model(), &root_classes, &region.leaf_arrival, &mut extraction);
    let choose_best = |id: Id| extraction.choice(g, id);
    let after = dag_cost(g, opts.cost_model(), &root_classes, &region.leaf_arrival, &choose_best);
    let mut report = RegionReport {
        block: b,
        ops_before,
        ops_after: ops_before,
        area_before,
        area_after: area_before,
        depth_before,
        depth_after: depth_before,
        kept: false,
        stop,
        rules: BTreeMap::new(),
    };
    let Some((area_after, depth_after, ops_after)) = after else { return Some(report) };
    const EPS: f64 = 1e-9;
    // A saving the model cannot tell from its own error (operators are measured alone; in a
    // design Yosys merges and maps them differently) is not worth a different datapath.
    let smaller = area_after < area_before - (MIN_AREA_SAVING * area_before).max(MIN_AREA_SAVING_CELLS)
        && depth_after <= depth_before + EPS;
    let shallower = depth_after < depth_before - MIN_DEPTH_SAVING_NS && area_after <= area_before + EPS;
    // Fewer operations at no cost in area or depth: casts folded into the arithmetic around
    // them (`trunc(zext(i) + 1)` is `i + 1` in the narrower width), which later passes match.
    let simpler = ops_after < ops_before && area_after <= area_before + EPS && depth_after <= depth_before + EPS;
    if !(smaller || shallower || simpler) {
        return Some(report);
    }
    report.kept = true;
    report.area_after = area_after;
    report.depth_after = depth_after;
    report.ops_after = ops_after;
    if opts.explain {
        report.rules = explain(g, &root_classes, &original, &leaf_nodes, &choose_best);
    }
    match rebuild_block(k, b, &region, g, &root_classes, &choose_best) {
        // The new values compute what the old ones did, so they have their facts.
        Some(replaced) => ranges.alias(&replaced),
        // Extraction chose a class it cannot emit: the block is as it was (the ops made so
        // far are in no block, and compaction drops them).
        None => report.kept = false,
    }
    Some(report)
}

/// Rules used to derive the extracted datapath of every root from the original one.
fn explain(
    g: &HwGraph,
    root_classes: &[Id],
    original: &[(Id, Hw)],
    leaf_nodes: &HashMap<Id, Hw>,
    choose_best: &dyn Fn(Id) -> Option<Hw>,
) -> BTreeMap<String, usize> {
    let mut used = BTreeMap::new();
    let mut graph = g.clone();
    let mut original_by_class: HashMap<Id, Hw> = HashMap::new();
    for (id, n) in original {
        original_by_class.entry(*id).or_insert_with(|| n.clone());
    }
    for &root in root_classes {
        let from = to_rec_expr(
            g,
            root,
            &|id| {
                original_by_class
                    .get(&id)
                    .cloned()
                    .or_else(|| leaf_nodes.get(&g.find(id)).cloned())
                    .or_else(|| g[id].nodes.first().cloned())
            },
            false,
        );
        let to = to_rec_expr(g, root, choose_best, true);
        let (Some(from), Some(to)) = (from, to) else { continue };
        if from == to || from.as_ref().len() > 400 {
            continue;
        }
        let mut explanation = graph.explain_equivalence(&from, &to);
        for term in explanation.make_flat_explanation().iter() {
            count_rules(term, &mut used);
        }
    }
    used
}

fn count_rules(term: &FlatTerm<Hw>, used: &mut BTreeMap<String, usize>) {
    for rule in [term.forward_rule, term.backward_rule].into_iter().flatten() {
        *used.entry(rule.to_string()).or_insert(0) += 1;
    }
    for c in &term.children {
        count_rules(c, used);
    }
}

/// The expression computing class `id` with `choose(class)` per class (canonical classes when
/// `canonical`, else the ids the nodes were built with).
fn to_rec_expr(g: &HwGraph, id: Id, choose: &dyn Fn(Id) -> Option<Hw>, canonical: bool) -> Option<RecExpr<Hw>> {
    #[allow(clippy::too_many_arguments)]
    fn go(
        g: &HwGraph,
        id: Id,
        choose: &dyn Fn(Id) -> Option<Hw>,
        canonical: bool,
        expr: &mut RecExpr<Hw>,
        memo: &mut HashMap<Id, Id>,
        building: &mut HashSet<Id>,
        fuel: &mut usize,
    ) -> Option<Id> {
        let key = if canonical { g.find(id) } else { id };
        if let Some(i) = memo.get(&key) {
            return Some(*i);
        }
        // A class whose chosen node reaches it again has no finite expression: fail at once,
        // not after recursing as deep as the fuel (which overflowed a test thread's stack).
        if !building.insert(key) {
            return None;
        }
        *fuel = fuel.checked_sub(1)?;
        let node = choose(key)?;
        let mut children = Vec::new();
        for c in node.children() {
            children.push(go(g, *c, choose, canonical, expr, memo, building, fuel)?);
        }
        building.remove(&key);
        let mut it = children.into_iter();
        let node = node.map_children(|_| it.next().unwrap_or(Id::from(0usize)));
        let i = expr.add(node);
        memo.insert(key, i);
        Some(i)
    }
    let mut expr = RecExpr::default();
    let mut fuel = 10_000;
    go(g, id, choose, canonical, &mut expr, &mut HashMap::new(), &mut HashSet::new(), &mut fuel)?;
    Some(expr)
}

/// Replaces the region's ops in block `b` by the extracted datapath: each root is computed
/// just before its first user in the block (or at the end of the block when only the
/// terminator or other blocks read it). Returns the roots that got new values, with them.
fn rebuild_block(
    k: &mut Kernel,
    b: Block,
    region: &Region,
    g: &HwGraph,
    root_classes: &[Id],
    choose: &dyn Fn(Id) -> Option<Hw>,
) -> Option<Vec<(Value, Value)>> {
    let root_class: HashMap<Value, Id> =
        region.roots.iter().copied().zip(root_classes.iter().map(|c| g.find(*c))).collect();
    let span_of: HashMap<Value, kiln_diagnostics::Span> =
        region.roots.iter().filter_map(|r| k.def_op(*r).map(|op| (*r, k.ops[op].span))).collect();
    let mut emitter = Emitter { k, block: b, g, choose, leaves: &region.leaves, memo: HashMap::new(), out: Vec::new() };
    let mut replaced: Vec<(Value, Value)> = Vec::new();
    let mut done: HashMap<Value, Value> = HashMap::new();
    let mut complete = true;
    let emit_root =
        |e: &mut Emitter, r: Value, done: &mut HashMap<Value, Value>, replaced: &mut Vec<(Value, Value)>| {
            if done.contains_key(&r) {
                return true;
            }
            let span = span_of.get(&r).copied().unwrap_or(e.k.span);
            if let Some(v) = e.emit(root_class[&r], span) {
                if v != r {
                    if e.k.values[v].name.is_none() {
                        e.k.values[v].name = e.k.values[r].name.clone();
                    }
                    replaced.push((r, v));
                }
                done.insert(r, v);
                return true;
            }
            false
        };
    for (i, &op) in region.ops.iter().enumerate() {
        if region.in_region[i] {
            continue;
        }
        for a in emitter.k.ops[op].args.clone() {
            if root_class.contains_key(&a) {
                complete &= emit_root(&mut emitter, a, &mut done, &mut replaced);
            }
        }
        emitter.out.push(op);
    }
    for &r in &region.roots {
        complete &= emit_root(&mut emitter, r, &mut done, &mut replaced);
    }
    if !complete {
        return None;
    }
    let out = std::mem::take(&mut emitter.out);
    k.blocks[b].ops = out;
    k.replace_all_uses(&replaced.iter().copied().collect());
    Some(replaced)
}

struct Emitter<'a> {
    k: &'a mut Kernel,
    block: Block,
    g: &'a HwGraph,
    choose: &'a dyn Fn(Id) -> Option<Hw>,
    leaves: &'a [Value],
    memo: HashMap<Id, Value>,
    out: Vec<Op>,
}

impl Emitter<'_> {
    fn emit(&mut self, class: Id, span: kiln_diagnostics::Span) -> Option<Value> {
        let class = self.g.find(class);
        if let Some(v) = self.memo.get(&class) {
            return Some(*v);
        }
        let node = (self.choose)(class)?;
        let v = match &node {
            Hw::Leaf(l) => *self.leaves.get(l.0 as usize)?,
            Hw::Width(_) => return None,
            _ => {
                let (kind, operands) = node.op_kind()?;
                let mut args = Vec::with_capacity(operands);
                for c in &node.children()[..operands] {
                    args.push(self.emit(*c, span)?);
                }
                let width = self.g[class].data.width;
                let op = self.k.ops.push(OpData { kind, args, result: None, block: self.block, span });
                let v = self.k.values.push(ValueData { width, def: ValueDef::Op(op), name: None });
                self.k.ops[op].result = Some(v);
                self.out.push(op);
                v
            }
        };
        self.memo.insert(class, v);
        Some(v)
    }
}

#[cfg(test)]
mod tests;
