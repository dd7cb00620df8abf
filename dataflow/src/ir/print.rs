//! The textual form of the IR, used in dumps (`kiln build --dump-ir`) and tests.

use super::*;
use std::fmt;

fn target(f: &mut fmt::Formatter<'_>, t: &Target) -> fmt::Result {
    write!(f, "{}", t.block)?;
    if !t.args.is_empty() {
        let args: Vec<String> = t.args.iter().map(|a| a.to_string()).collect();
        write!(f, "({})", args.join(", "))?;
    }
    Ok(())
}

impl fmt::Display for Kernel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "kernel {} {{", self.name)?;
        for (m, d) in self.mems.iter() {
            let kind = match &d.kind {
                MemKind::Global { param } => format!("global port (param {param})"),
                MemKind::ConstantArg { param } => format!("constant port (param {param})"),
                MemKind::Rom => "rom".to_string(),
                MemKind::Private => "private".to_string(),
                MemKind::Local => "local".to_string(),
            };
            let len = d.len.map(|l| format!("[{l}]")).unwrap_or_default();
            writeln!(f, "  {m} \"{}\": {kind} i{}{len}", d.name, d.elem_width)?;
        }
        for l in &self.loops {
            writeln!(f, "  loop at {} {:?}", l.header, l.pragmas)?;
        }
        for b in self.rpo() {
            let data = &self.blocks[b];
            write!(f, "{b}")?;
            if !data.params.is_empty() {
                let ps: Vec<String> = data.params.iter().map(|p| format!("{p}: i{}", self.width(*p))).collect();
                write!(f, "({})", ps.join(", "))?;
            }
            writeln!(f, ":")?;
            for &op in &data.ops {
                let o = &self.ops[op];
                write!(f, "  ")?;
                if let Some(r) = o.result {
                    write!(f, "{r} = ")?;
                }
                write!(f, "{}", o.kind.mnemonic())?;
                match &o.kind {
                    OpKind::Const(c) => write!(f, " {c}")?,
                    OpKind::Load(m) | OpKind::Store(m) => write!(f, " {m}")?,
                    OpKind::PipeRead { pipe, .. } | OpKind::PipeWrite { pipe, .. } | OpKind::PipeQuery { pipe, .. } => {
                        write!(f, " {pipe}")?
                    }
                    OpKind::PipeLane { pipe, lane } => write!(f, " {pipe}.{lane}")?,
                    _ => {}
                }
                for (i, a) in o.args.iter().enumerate() {
                    write!(
                        f,
                        "{}{a}",
                        if i == 0 && o.kind.mem().is_none() && o.kind.pipe().is_none() { " " } else { ", " }
                    )?;
                }
                if let Some(r) = o.result {
                    write!(f, " : i{}", self.width(r))?;
                }
                writeln!(f)?;
            }
            write!(f, "  ")?;
            match &data.term {
                Terminator::Jump(t) => {
                    write!(f, "jump ")?;
                    target(f, t)?;
                }
                Terminator::Branch { cond, then_to, else_to } => {
                    write!(f, "br {cond}, ")?;
                    target(f, then_to)?;
                    write!(f, ", ")?;
                    target(f, else_to)?;
                }
                Terminator::Switch { value, cases, default } => {
                    write!(f, "switch {value} [")?;
                    for (v, t) in cases {
                        write!(f, "{v}: ")?;
                        target(f, t)?;
                        write!(f, ", ")?;
                    }
                    write!(f, "default: ")?;
                    target(f, default)?;
                    write!(f, "]")?;
                }
                Terminator::Return => write!(f, "return")?,
                Terminator::Unterminated => write!(f, "<unterminated>")?,
            }
            writeln!(f)?;
        }
        writeln!(f, "}}")
    }
}
