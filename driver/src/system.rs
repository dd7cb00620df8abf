//! Kernels connected by pipes: which FIFOs a file's program-scope pipes and channels make, which
//! kernels lie on a cycle of the system's graph (and so schedule their transfers in strict
//! order), and the system top level's name.

use crate::session::{Frontend, find_kernel, lower};

/// A program-scope `__global` variable that two kernels of a system use: kiln keeps one copy
/// per kernel, so they cannot share it (an error rather than two silent copies).
pub fn shared_program_globals(
    prog: &kiln_hir::Program,
    kernels: &[kiln_hir::FuncId],
) -> Option<kiln_diagnostics::Diagnostic> {
    use kiln_hir::{ExprKind, FuncId, GlobalId};
    use std::collections::BTreeSet;
    fn uses(prog: &kiln_hir::Program, f: FuncId, seen: &mut BTreeSet<u32>, out: &mut BTreeSet<u32>) {
        if !seen.insert(f.0) {
            return;
        }
        let Some(body) = &prog.func(f).body else { return };
        let mut calls = Vec::new();
        kiln_hir::walk::for_each_expr(body, &mut |e| match &e.kind {
            ExprKind::Global(g) if prog.global(*g).space == kiln_hir::types::AddrSpace::Global => {
                out.insert(g.0);
            }
            ExprKind::Call(c, _) => calls.push(*c),
            _ => {}
        });
        for c in calls {
            uses(prog, c, seen, out);
        }
    }
    let mut first_user: std::collections::BTreeMap<u32, FuncId> = std::collections::BTreeMap::new();
    for &k in kernels {
        let mut used = BTreeSet::new();
        uses(prog, k, &mut BTreeSet::new(), &mut used);
        for g in used {
            match first_user.get(&g) {
                Some(&other) if other != k => {
                    let gl = prog.global(GlobalId(g));
                    return Some(
                        kiln_diagnostics::Diagnostic::error(
                            kiln_diagnostics::codes::PROGRAM_SCOPE_VAR,
                            format!(
                                "program-scope `__global` variable `{}` is used by two kernels built together, `{}` and `{}`",
                                gl.name,
                                prog.func(other).name,
                                prog.func(k).name
                            ),
                        )
                        .at(gl.span)
                        .with_note("kiln keeps a copy of it in each kernel's on-chip memory, so the kernels would not share it")
                        .with_help("pass the data through a pipe or channel, or a buffer"),
                    );
                }
                Some(_) => {}
                None => {
                    first_user.insert(g, k);
                }
            }
        }
    }
    None
}

/// The depth of a FIFO whose source and run spec give none.
pub const DEFAULT_PIPE_DEPTH: u32 = 16;

/// The FIFOs that program-scope pipes and channels make between the kernels `names` (by index):
/// each pipe written by exactly one of them and read by exactly one other.
pub fn program_pipe_links(fe: &Frontend, names: &[String]) -> Vec<kiln_rtl_gen::system::SystemFifo> {
    use kiln_dataflow::ir::{PipeEnd, PipeSource};
    type End = (usize, String);
    // pipe name -> (write ends, read ends, packet bits, depth)
    let mut ends: std::collections::BTreeMap<String, (Vec<End>, Vec<End>, u32, u32)> =
        std::collections::BTreeMap::new();
    for (i, name) in names.iter().enumerate() {
        let Ok(id) = find_kernel(&fe.program, name, None) else { continue };
        let Ok(k) = lower(&fe.program, id, None, &[]) else { continue };
        for (_, d) in k.pipes.iter() {
            if let PipeSource::Program { name: pipe } = &d.source {
                let e = ends
                    .entry(pipe.to_string())
                    .or_insert_with(|| (vec![], vec![], d.packet_width(), d.depth.unwrap_or(DEFAULT_PIPE_DEPTH)));
                let end = (i, format!("pipe_{}", d.ident()));
                if d.end == PipeEnd::Write { e.0.push(end) } else { e.1.push(end) }
            }
        }
    }
    ends.into_iter()
        .filter_map(|(name, (w, r, width, depth))| match (w.as_slice(), r.as_slice()) {
            ([w], [r]) => {
                Some(kiln_rtl_gen::system::SystemFifo { name, width, depth, writer: w.clone(), reader: r.clone() })
            }
            _ => None,
        })
        .collect()
}

/// Per launch: whether it belongs to a part of the system whose kernels and FIFOs, taken as an
/// undirected graph, have a cycle (feedback or reconvergent paths). There, a pipelined loop that
/// let transfers on different pipes overlap across iterations could deadlock where the source
/// program does not; elsewhere (a forest) it cannot, so only these kernels are scheduled with
/// strict pipe order.
pub fn on_cycles(edges: &[(usize, usize)], launches: usize) -> Vec<bool> {
    let mut parent: Vec<usize> = (0..launches).collect();
    fn root(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    let mut cyclic_roots = Vec::new();
    for &(w, r) in edges {
        let (a, b) = (root(&mut parent, w), root(&mut parent, r));
        if a == b {
            cyclic_roots.push(a);
        } else {
            parent[a] = b;
        }
    }
    let cyclic: Vec<usize> = cyclic_roots.into_iter().map(|r| root(&mut parent, r)).collect();
    (0..launches).map(|i| cyclic.contains(&root(&mut parent, i))).collect()
}

/// The name of a system's top-level module: `kiln_system` unless a kernel has that name.
pub fn top_module_name(kernels: &[&str]) -> String {
    let mut name = "kiln_system".to_string();
    while kernels.contains(&name.as_str()) {
        name.push('_');
    }
    name
}
