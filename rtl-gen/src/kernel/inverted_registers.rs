//! Registers loaded inverted: a wire that is the inverse of a whole register, `w = ~r` (the
//! subtrahend of a split subtraction or ordered comparison, `a + ~b + 1`), reads a register of
//! its own, `r_inv`, loaded with the inverse of whatever `r` is loaded with.
//!
//! The iCE40's carry cell takes its operands uninverted, so `~r` in front of a carry chain was a
//! LUT and a routing hop between the register and the chain (2.7 ns of lookup's and trisolv's
//! critical paths at 60 MHz). Loaded inverted, the chain starts at a register, and the inversion
//! joins the logic in front of the register's input, a LUT already in most designs. Timing
//! stays the scheduler's: the cycle the operand is computed in gains at most that inversion,
//! which the delay model's LUT level per operator already covers. Only for targets whose carry
//! cell cannot invert an operand (`OperatorDelays::carry_invert_ns`): elsewhere `~r` is free
//! and the register would not be.

use crate::verilog::{Expr, Item, Module, Stmt, UnOp, un};
use std::collections::{BTreeMap, BTreeSet};

/// Narrower inverses cost the LUTs that read them nothing.
const MIN_WIDTH: u32 = 2;

/// Rewrites each wire of `chain_operands` that is `~r`, of at least [`MIN_WIDTH`] bits, where `r`
/// is a register of the wire's width assigned only as a whole, to read `r_inv`; `r` itself stays
/// when anything else reads it. (Other inverted registers are left alone: in front of a LUT the
/// inversion is free, and a register more is not.)
pub(super) fn register_inverted_operands(m: &mut Module, chain_operands: &BTreeSet<String>) {
    let registers: BTreeMap<String, u32> = m
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Reg { name, width } => Some((name.clone(), *width)),
            _ => None,
        })
        .collect();
    let names: BTreeSet<String> = declared_names(m);
    let mut partly_assigned = BTreeSet::new();
    for item in &m.items {
        if let Item::Always(stmts) | Item::Initial(stmts) = item {
            for s in stmts {
                collect_partial_targets(s, &mut partly_assigned);
            }
        }
    }
    let inverted: BTreeMap<String, String> = m
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Wire { name, width, value: Some(Expr::Un(UnOp::Not, inner)), .. }
                if *width >= MIN_WIDTH && chain_operands.contains(name) =>
            {
                match inner.as_ref() {
                    Expr::Ident(r)
                        if registers.get(r) == Some(width)
                            && !partly_assigned.contains(r)
                            && !names.contains(&format!("{r}_inv")) =>
                    {
                        Some((r.clone(), format!("{r}_inv")))
                    }
                    _ => None,
                }
            }
            _ => None,
        })
        .collect();
    if inverted.is_empty() {
        return;
    }
    let mut items = Vec::with_capacity(m.items.len() + inverted.len());
    for item in std::mem::take(&mut m.items) {
        match item {
            Item::Reg { name, width } => {
                let mirror = inverted.get(&name).cloned();
                items.push(Item::Reg { name, width });
                if let Some(inv) = mirror {
                    items.push(Item::Reg { name: inv, width });
                }
            }
            Item::Wire { name, width, value: Some(Expr::Un(UnOp::Not, inner)), comment } => {
                let value = match inner.as_ref() {
                    Expr::Ident(r)
                        if registers.get(r) == Some(&width)
                            && inverted.contains_key(r)
                            && chain_operands.contains(&name) =>
                    {
                        Expr::Ident(inverted[r].clone())
                    }
                    _ => Expr::Un(UnOp::Not, inner),
                };
                items.push(Item::Wire { name, width, value: Some(value), comment });
            }
            Item::Always(stmts) => items.push(Item::Always(mirror_sets(stmts, &inverted))),
            other => items.push(other),
        }
    }
    m.items = items;
    remove_unread_registers(m, inverted.keys().cloned().collect());
}

fn declared_names(m: &Module) -> BTreeSet<String> {
    let mut names: BTreeSet<String> = m.ports.iter().map(|p| p.name.clone()).collect();
    for i in &m.items {
        match i {
            Item::Wire { name, .. }
            | Item::Reg { name, .. }
            | Item::StateReg { name, .. }
            | Item::Memory { name, .. }
            | Item::Localparam { name, .. } => {
                names.insert(name.clone());
            }
            _ => {}
        }
    }
    names
}

/// Registers assigned a slice or a bit somewhere (never mirrored).
fn collect_partial_targets(s: &Stmt, out: &mut BTreeSet<String>) {
    match s {
        Stmt::Set(Expr::Ident(_), _) => {}
        Stmt::Set(Expr::Slice(n, ..) | Expr::Bit(n, _) | Expr::Index(n, _), _) => {
            out.insert(n.clone());
        }
        Stmt::Set(..) | Stmt::Comment(_) => {}
        Stmt::If(_, a, b) => a.iter().chain(b).for_each(|x| collect_partial_targets(x, out)),
        Stmt::Case(_, arms, d) => {
            arms.iter().flat_map(|(_, body)| body).chain(d).for_each(|x| collect_partial_targets(x, out))
        }
    }
}

/// Each `r <= v` of a mirrored `r` followed by `r_inv <= ~v` (Verilog sizes `v` to the
/// register's width before inverting, as the plain assignment does).
fn mirror_sets(stmts: Vec<Stmt>, inverted: &BTreeMap<String, String>) -> Vec<Stmt> {
    let mut out = Vec::with_capacity(stmts.len());
    for s in stmts {
        match s {
            Stmt::Set(Expr::Ident(r), v) if inverted.contains_key(&r) => {
                let mirror = Stmt::Set(Expr::Ident(inverted[&r].clone()), un(UnOp::Not, v.clone()));
                out.push(Stmt::Set(Expr::Ident(r), v));
                out.push(mirror);
            }
            Stmt::If(c, a, b) => out.push(Stmt::If(c, mirror_sets(a, inverted), mirror_sets(b, inverted))),
            Stmt::Case(e, arms, d) => out.push(Stmt::Case(
                e,
                arms.into_iter().map(|(labels, body)| (labels, mirror_sets(body, inverted))).collect(),
                mirror_sets(d, inverted),
            )),
            other => out.push(other),
        }
    }
    out
}

/// Drops the registers of `candidates` that nothing reads any more (their inverse replaced
/// every read), with their assignments: an unread register is a lint warning.
fn remove_unread_registers(m: &mut Module, candidates: BTreeSet<String>) {
    let read = m.read_signals();
    let dead: BTreeSet<String> = candidates.into_iter().filter(|r| !read.contains(r)).collect();
    if dead.is_empty() {
        return;
    }
    m.items.retain(|i| !matches!(i, Item::Reg { name, .. } if dead.contains(name)));
    for item in &mut m.items {
        if let Item::Always(stmts) = item {
            *stmts = drop_sets(std::mem::take(stmts), &dead);
        }
    }
}

fn drop_sets(stmts: Vec<Stmt>, dead: &BTreeSet<String>) -> Vec<Stmt> {
    stmts
        .into_iter()
        .filter_map(|s| match s {
            Stmt::Set(Expr::Ident(r), _) if dead.contains(&r) => None,
            Stmt::If(c, a, b) => Some(Stmt::If(c, drop_sets(a, dead), drop_sets(b, dead))),
            Stmt::Case(e, arms, d) => Some(Stmt::Case(
                e,
                arms.into_iter().map(|(labels, body)| (labels, drop_sets(body, dead))).collect(),
                drop_sets(d, dead),
            )),
            other => Some(other),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verilog::{Dir, Port, id, lit, set};

    fn module(extra_reader: bool) -> Module {
        let mut m = Module { name: "m".into(), ..Default::default() };
        for (dir, name, width) in [(Dir::Input, "clk", 1), (Dir::Input, "x", 8), (Dir::Output, "y", 8)] {
            m.ports.push(Port { dir, name: name.into(), width, is_reg: false, comment: None });
        }
        m.add(Item::Reg { name: "r".into(), width: 8 });
        m.add(Item::Wire { name: "b0".into(), width: 8, value: Some(un(UnOp::Not, id("r"))), comment: None });
        m.add(Item::Always(vec![Stmt::If(id("x"), vec![set("r", Expr::Slice("x".into(), 3, 0))], vec![])]));
        let y = if extra_reader {
            crate::verilog::bin(crate::verilog::BinOp::Add, id("b0"), id("r"))
        } else {
            crate::verilog::bin(crate::verilog::BinOp::Add, id("b0"), lit(8, 1))
        };
        m.add(Item::Assign("y".into(), y));
        m
    }

    #[test]
    fn an_inverted_register_is_loaded_inverted() {
        let mut m = module(true);
        register_inverted_operands(&mut m, &["b0".to_string()].into());
        let text = m.print();
        assert!(text.contains("assign b0 = r_inv;"), "{text}");
        assert!(text.contains("r <= x[3:0];") && text.contains("r_inv <= ~x[3:0];"), "{text}");
    }

    #[test]
    fn a_register_read_only_inverted_is_replaced() {
        let mut m = module(false);
        register_inverted_operands(&mut m, &["b0".to_string()].into());
        let text = m.print();
        assert!(text.contains("r_inv <= ~x[3:0];"), "{text}");
        assert!(!text.contains("reg [7:0] r;") && !text.contains("r <= "), "{text}");
    }

    #[test]
    fn a_register_assigned_in_parts_or_of_another_width_stays() {
        let mut m = module(true);
        m.add(Item::Always(vec![Stmt::Set(Expr::Bit("r".into(), 0), lit(1, 1))]));
        register_inverted_operands(&mut m, &["b0".to_string()].into());
        assert!(m.print().contains("b0 = ~r;"));
        let mut m = module(true);
        if let Some(Item::Wire { width, .. }) = m.items.get_mut(1) {
            *width = 9;
        }
        register_inverted_operands(&mut m, &["b0".to_string()].into());
        assert!(m.print().contains("b0 = ~r;"));
    }
}
