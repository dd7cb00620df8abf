//! The run that goes with a program: kiln's run spec (one kernel or a system) and the input of
//! the OpenCL host that runs it on PoCL.

use crate::ast::{Buffer, ChannelStyle, Int, Program};
use std::fmt::Write as _;

/// The language version every engine compiles with (`opencl_unroll_hint` needs 2.0).
pub const CL_STD: &str = "-cl-std=CL2.0";

/// Cycles after which the simulators give up: far above what any generated program needs.
pub const MAX_CYCLES: u64 = 20_000_000;

fn toml_int(ty: Int, bits: u64) -> String {
    let v = ty.value(bits);
    if v > i64::MAX as i128 { format!("\"0x{:x}\"", bits) } else { v.to_string() }
}

fn buffer_value(b: &Buffer) -> String {
    if b.output {
        format!("{{ len = {} }}", b.data.len())
    } else {
        let items: Vec<String> = b.data.iter().map(|v| toml_int(b.ty, *v)).collect();
        format!("{{ data = [{}] }}", items.join(", "))
    }
}

/// The run spec (TOML).
pub fn run_spec(p: &Program) -> String {
    let mut s = String::new();
    if p.is_system() {
        for k in &p.kernels {
            let _ = writeln!(s, "[[launch]]\nkernel = \"{}\"", k.name);
            let mut args: Vec<String> = k.buffers.iter().map(|b| format!("{b} = \"@{b}\"")).collect();
            for name in &k.scalars {
                if let Some(sc) = p.scalar(name) {
                    args.push(format!("{name} = {}", toml_int(sc.ty, sc.value)));
                }
            }
            for (c, _) in p.pipe_params(k) {
                args.push(format!("{0} = \"@{0}\"", c.name));
            }
            let _ = writeln!(s, "args = {{ {} }}\n", args.join(", "));
        }
        let _ = writeln!(s, "[buffers]");
        for b in &p.buffers {
            let v = buffer_value(b);
            let _ = writeln!(s, "{} = {{ type = \"{}\", {} }}", b.name, b.ty.name(), &v[2..v.len() - 2]);
        }
        let pipes: Vec<_> = p.channels.iter().filter(|c| c.style == ChannelStyle::Pipe).collect();
        if !pipes.is_empty() {
            let _ = writeln!(s, "\n[pipes]");
            for c in pipes {
                let _ = writeln!(s, "{} = {{ type = \"{}\", depth = {} }}", c.name, c.ty.name(), c.depth);
            }
        }
        return s;
    }
    let k = &p.kernels[0];
    let _ = writeln!(s, "kernel = \"{}\"", k.name);
    let _ = writeln!(s, "global_size = [{}]", p.global_size);
    if let Some(l) = p.local_size {
        let _ = writeln!(s, "local_size = [{l}]");
    }
    let _ = writeln!(s, "max_cycles = {MAX_CYCLES}");
    let _ = writeln!(s, "\n[args]");
    for b in &k.buffers {
        if let Some(buf) = p.buffer(b) {
            let _ = writeln!(s, "{b} = {}", buffer_value(buf));
        }
    }
    for name in &k.scalars {
        if let Some(sc) = p.scalar(name) {
            let _ = writeln!(s, "{name} = {}", toml_int(sc.ty, sc.value));
        }
    }
    if let (Some((name, _, len)), true) = (&k.tile, k.tile_is_param) {
        let _ = writeln!(s, "{name} = {{ local = {len} }}");
    }
    s
}

/// The input of the OpenCL host (`pocl_host.c`) for a single-kernel program whose source is
/// at `source`.
pub fn host_input(p: &Program, source: &str) -> String {
    let k = &p.kernels[0];
    let mut s = String::new();
    let _ = writeln!(s, "source {source}");
    let _ = writeln!(s, "options {CL_STD}");
    let _ = writeln!(s, "kernel {}", k.name);
    let _ = writeln!(s, "global {} 1 1", p.global_size);
    let l = p.local_size.unwrap_or(0);
    let _ = writeln!(s, "local {l} {} {}", (l > 0) as u32, (l > 0) as u32);
    for b in &k.buffers {
        let Some(buf) = p.buffer(b) else { continue };
        // The host reads signed 64-bit numbers and keeps their low bytes.
        let vals: Vec<String> = buf.data.iter().map(|v| (buf.ty.value(*v) as i64).to_string()).collect();
        let _ =
            writeln!(s, "buffer {b} {} {} {} {}", buf.ty.bits / 8, buf.ty.signed as u8, buf.data.len(), vals.join(" "));
    }
    for name in &k.scalars {
        if let Some(sc) = p.scalar(name) {
            let v = sc.ty.value(sc.value);
            let _ = writeln!(s, "scalar {name} {} {}", sc.ty.bits / 8, v as i64);
        }
    }
    if let (Some((name, t, len)), true) = (&k.tile, k.tile_is_param) {
        let _ = writeln!(s, "localmem {name} {}", len * u32::from(t.bits) / 8);
    }
    s
}
