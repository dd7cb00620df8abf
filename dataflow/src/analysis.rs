//! CFG analyses: dominators and natural loops, computed on a petgraph view of the CFG.

use crate::ir::{Block, Kernel};
use cranelift_entity::SecondaryMap;
use petgraph::algo::dominators;
use petgraph::graph::{DiGraph, NodeIndex};
use std::collections::{BTreeSet, HashMap};

/// The CFG of the reachable blocks as a petgraph graph.
pub struct Cfg {
    pub graph: DiGraph<Block, ()>,
    pub node: HashMap<Block, NodeIndex>,
    pub entry: NodeIndex,
}

impl Cfg {
    pub fn build(k: &Kernel) -> Cfg {
        let mut graph = DiGraph::new();
        let mut node = HashMap::new();
        let rpo = k.rpo();
        for &b in &rpo {
            node.insert(b, graph.add_node(b));
        }
        for &b in &rpo {
            for s in k.blocks[b].term.successors() {
                if let (Some(&from), Some(&to)) = (node.get(&b), node.get(&s))
                    && graph.find_edge(from, to).is_none()
                {
                    graph.add_edge(from, to, ());
                }
            }
        }
        let entry = node[&k.entry];
        Cfg { graph, node, entry }
    }
}

/// Immediate dominators of reachable blocks.
pub struct Dominators {
    idom: SecondaryMap<Block, Option<Block>>,
    reachable: SecondaryMap<Block, bool>,
}

impl Dominators {
    pub fn compute(k: &Kernel) -> Dominators {
        let cfg = Cfg::build(k);
        let d = dominators::simple_fast(&cfg.graph, cfg.entry);
        let mut idom = SecondaryMap::new();
        let mut reachable = SecondaryMap::new();
        for (b, n) in &cfg.node {
            reachable[*b] = true;
            idom[*b] = d.immediate_dominator(*n).map(|i| cfg.graph[i]);
        }
        Dominators { idom, reachable }
    }

    /// Does `a` dominate `b`? (Every block dominates itself; unreachable blocks dominate
    /// nothing and are dominated by nothing.)
    pub fn dominates(&self, a: Block, b: Block) -> bool {
        if !self.reachable[a] || !self.reachable[b] {
            return false;
        }
        let mut cur = Some(b);
        while let Some(c) = cur {
            if c == a {
                return true;
            }
            cur = self.idom[c];
        }
        false
    }

    pub fn idom(&self, b: Block) -> Option<Block> {
        self.idom[b]
    }
}

/// A natural loop: a header and the blocks of its body (including the header).
#[derive(Clone, Debug)]
pub struct NaturalLoop {
    pub header: Block,
    pub blocks: BTreeSet<Block>,
    /// Blocks with a back edge to the header.
    pub latches: Vec<Block>,
    /// Index of the innermost enclosing loop in the list, if any.
    pub parent: Option<usize>,
}

/// The natural loops that are the kernel's source loops (`Kernel::loops`), outer loops
/// before inner ones: the loops whose counters and tests the loop passes rewrite.
pub fn source_loops(k: &Kernel) -> Vec<NaturalLoop> {
    natural_loops(k).into_iter().filter(|l| k.loops.iter().any(|x| x.header == l.header)).collect()
}

/// All natural loops, outer loops before inner ones.
pub fn natural_loops(k: &Kernel) -> Vec<NaturalLoop> {
    let doms = Dominators::compute(k);
    let preds = k.predecessors();
    let mut by_header: HashMap<Block, NaturalLoop> = HashMap::new();
    for b in k.rpo() {
        for s in k.blocks[b].term.successors() {
            if doms.dominates(s, b) {
                let l = by_header.entry(s).or_insert_with(|| NaturalLoop {
                    header: s,
                    blocks: BTreeSet::from([s]),
                    latches: vec![],
                    parent: None,
                });
                l.latches.push(b);
                // Walk backwards from the latch to the header.
                let mut stack = vec![b];
                while let Some(x) = stack.pop() {
                    if l.blocks.insert(x) {
                        stack.extend(preds[x].iter().copied());
                    }
                }
            }
        }
    }
    let mut loops: Vec<NaturalLoop> = by_header.into_values().collect();
    loops.sort_by_key(|l| (std::cmp::Reverse(l.blocks.len()), l.header));
    for i in 0..loops.len() {
        let parent = (0..i)
            .rev()
            .find(|&j| loops[j].blocks.contains(&loops[i].header) && loops[j].blocks.len() > loops[i].blocks.len());
        loops[i].parent = parent;
    }
    loops
}
