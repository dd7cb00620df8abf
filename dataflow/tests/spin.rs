#![allow(clippy::unwrap_used)]
//! Loops that only retry a non-blocking pipe transfer become the blocking transfer; loops that
//! do anything else keep their non-blocking transfers.

use kiln_dataflow::ir::{Kernel, OpKind};
use kiln_diagnostics as diag;
use kiln_frontend::{ClStd, Options, check_source};

fn lower(src: &str, name: &str, std: ClStd) -> Kernel {
    let opts = Options { std, ..Options::default() };
    let out = check_source("t.cl", src, &opts);
    let prog = out.program.unwrap_or_else(|| panic!("{}", diag::render(&out.sources, &out.diags)));
    let id = prog.kernel_by_name(name).expect("kernel");
    kiln_dataflow::lower::lower_kernel(&prog, id).unwrap_or_else(|d| panic!("{}", diag::render(&out.sources, &d)))
}

/// (blocking, non-blocking) transfers of a kernel.
fn transfers(k: &Kernel) -> (usize, usize) {
    let mut n = (0, 0);
    for (_, o) in k.ops.iter() {
        match o.kind {
            OpKind::PipeRead { blocking, .. } | OpKind::PipeWrite { blocking, .. } => {
                if blocking {
                    n.0 += 1
                } else {
                    n.1 += 1
                }
            }
            _ => {}
        }
    }
    n
}

fn std_kernel(body: &str) -> String {
    format!(
        "kernel void k(read_only pipe int p, write_only pipe int q, global int *out) {{
            int x = 0; int y = 5; int r = 0; int tries = 0; {body} out[0] = x + r + tries; }}"
    )
}

#[test]
fn opencl_2_0_polling_loops_become_blocking_transfers() {
    for body in [
        "while (read_pipe(p, &x) != 0) { }",
        "while (read_pipe(p, &x)) ;",
        "while (read_pipe(p, &x) < 0) { }",
        "for (; read_pipe(p, &x) != 0; ) { }",
        "do { } while (read_pipe(p, &x) != 0);",
        "while (write_pipe(q, &y) != 0) { }",
        "r = -1; while (r != 0) { r = read_pipe(p, &x); }",
        "do { r = write_pipe(q, &y); } while (r < 0);",
    ] {
        let k = lower(&std_kernel(body), "k", ClStd::Cl2_0);
        assert_eq!(transfers(&k), (1, 0), "{body}\n{k}");
    }
}

#[test]
fn intel_polling_loops_become_blocking_transfers() {
    let src = |body: &str| {
        format!(
            "#pragma OPENCL EXTENSION cl_intel_channels : enable
            channel int c; channel int d;
            kernel void a(global int *out) {{ int v = 0; bool ok = false; {body} out[0] = v; }}
            kernel void b() {{ write_channel_intel(c, 1); (void)read_channel_intel(d); }}"
        )
    };
    for body in [
        "do { v = read_channel_nb_intel(c, &ok); } while (!ok);",
        "while (!ok) { v = read_channel_nb_intel(c, &ok); }",
        "while (!write_channel_nb_intel(d, v)) { }",
        "while (!ok) { ok = write_channel_nb_intel(d, 3); }",
    ] {
        let k = lower(&src(body), "a", ClStd::Cl3_0);
        assert_eq!(transfers(&k), (1, 0), "{body}\n{k}");
    }
}

#[test]
fn loops_that_do_more_than_retry_keep_their_non_blocking_transfers() {
    for body in [
        // counts its attempts
        "while (read_pipe(p, &x) != 0) { tries++; }",
        // stops on failure, not on success
        "while (read_pipe(p, &x) == 0) { }",
        // gives up
        "while (read_pipe(p, &x) != 0 && tries < 10) { }",
        // the condition reads the packet
        "do { r = read_pipe(p, &x); } while (x != 3);",
        // two transfers
        "while (read_pipe(p, &x) != 0 || write_pipe(q, &y) != 0) { }",
        // a side effect in an operand
        "while (write_pipe(q, &out[tries++]) != 0) { }",
    ] {
        let k = lower(&std_kernel(body), "k", ClStd::Cl2_0);
        assert_eq!(transfers(&k).0, 0, "{body}\n{k}");
        assert!(transfers(&k).1 >= 1, "{body}\n{k}");
    }
}
