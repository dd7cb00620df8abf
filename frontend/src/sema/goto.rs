//! Statement labels and `goto`, lowered to structured control flow.
//!
//! HIR has no jumps: every later stage (the dataflow graph, the scheduler's loop pipelines)
//! relies on loops and `if`s being structured. A forward `goto L` to a label in an enclosing
//! block becomes a flag: the `goto` sets `L`'s flag and leaves each loop or `switch` between it
//! and the label with `break`; the statements it skips are guarded by the flag being clear; the
//! label clears it again. Because the flag is an ordinary private variable, the emulator, the
//! simulator and the hardware all see the same structured program.
//!
//! A backward `goto L` (to a label earlier in the same or an enclosing block) is the same
//! forward jump to the end of the region from `L` to the item holding the last such `goto`,
//! with that region made a `do { ... } while (flag)` loop. A jump into a block is refused
//! (`E0515`), as is a backward region holding a `break` or `continue` of a loop around it.

use super::Sema;
use crate::ast::{self, BlockItem, StmtKind};
use crate::diag::{Diagnostic, codes};
use crate::hir::{self, Block, Expr, LocalId, Stmt, UnaryOp};
use crate::source::Span;
use crate::types::Type;
use std::collections::HashMap;
use std::rc::Rc;

/// The labels of one function that a `goto` targets, each with the flag that carries the jump.
#[derive(Default)]
pub(super) struct GotoPlan {
    targets: HashMap<Rc<str>, Target>,
}

struct Target {
    flag: LocalId,
    /// Some `goto` jumps back to the label: the region from it repeats as a loop.
    backward: bool,
    /// The loops and `switch`es (by span) the label is inside: a jump to it leaves every other
    /// breakable statement it is in.
    breakables: Vec<Span>,
}

/// Where a label or `goto` sits: the chain of blocks from the function body down, each with the
/// index of the item the statement is in.
type Path = Vec<(Span, usize)>;

struct FoundLabel {
    span: Span,
    /// `None` when the label is not on an item of a block (`if (c) L: s;`, a `case` body).
    at: Option<(Span, usize)>,
    path: Path,
    breakables: Vec<Span>,
}

struct FoundGoto {
    label: Rc<str>,
    span: Span,
    path: Path,
}

#[derive(Default)]
struct Scan {
    labels: Vec<(Rc<str>, FoundLabel)>,
    gotos: Vec<FoundGoto>,
}

impl Scan {
    fn items(&mut self, block: Span, items: &[BlockItem], path: &mut Path, brk: &mut Vec<Span>, in_switch: bool) {
        for (i, item) in items.iter().enumerate() {
            if let BlockItem::Stmt(s) = item {
                path.push((block, i));
                let at = if in_switch { None } else { Some((block, i)) };
                self.stmt(s, at, path, brk);
                path.pop();
            }
        }
    }

    /// `at` is the block item `s` is, for a label written directly on it.
    fn stmt(&mut self, s: &ast::Stmt, at: Option<(Span, usize)>, path: &mut Path, brk: &mut Vec<Span>) {
        match &s.kind {
            StmtKind::Compound(items) => self.items(s.span, items, path, brk, false),
            StmtKind::If(_, t, e) => {
                self.stmt(t, None, path, brk);
                if let Some(e) = e {
                    self.stmt(e, None, path, brk);
                }
            }
            StmtKind::While(_, body, _) | StmtKind::DoWhile(body, _, _) | StmtKind::For(_, _, _, body, _) => {
                brk.push(s.span);
                self.stmt(body, None, path, brk);
                brk.pop();
            }
            StmtKind::Switch(_, body) => {
                brk.push(s.span);
                match &body.kind {
                    StmtKind::Compound(items) => self.items(body.span, items, path, brk, true),
                    _ => self.stmt(body, None, path, brk),
                }
                brk.pop();
            }
            StmtKind::Case(_, inner) | StmtKind::Default(inner) => self.stmt(inner, None, path, brk),
            StmtKind::Labeled(name, inner) => {
                let found = FoundLabel { span: s.span, at, path: path.clone(), breakables: brk.clone() };
                self.labels.push((name.clone(), found));
                self.stmt(inner, at, path, brk);
            }
            StmtKind::Goto(label) => {
                self.gotos.push(FoundGoto { label: label.clone(), span: s.span, path: path.clone() })
            }
            StmtKind::Expr(_) | StmtKind::Break | StmtKind::Continue | StmtKind::Return(_) => {}
        }
    }
}

/// The labels `goto`s in `s` jump to, minus those defined inside `s`: the jumps that leave it.
pub(super) fn escaping(s: &ast::Stmt) -> Vec<Rc<str>> {
    let mut gotos = Vec::new();
    let mut labels = Vec::new();
    collect(s, &mut gotos, &mut labels);
    gotos.retain(|g| !labels.contains(g));
    gotos.sort();
    gotos.dedup();
    gotos
}

fn collect(s: &ast::Stmt, gotos: &mut Vec<Rc<str>>, labels: &mut Vec<Rc<str>>) {
    match &s.kind {
        StmtKind::Compound(items) => {
            for item in items {
                if let BlockItem::Stmt(s) = item {
                    collect(s, gotos, labels);
                }
            }
        }
        StmtKind::If(_, t, e) => {
            collect(t, gotos, labels);
            if let Some(e) = e {
                collect(e, gotos, labels);
            }
        }
        StmtKind::While(_, b, _)
        | StmtKind::DoWhile(b, _, _)
        | StmtKind::For(_, _, _, b, _)
        | StmtKind::Switch(_, b)
        | StmtKind::Case(_, b)
        | StmtKind::Default(b) => collect(b, gotos, labels),
        StmtKind::Labeled(name, inner) => {
            labels.push(name.clone());
            collect(inner, gotos, labels);
        }
        StmtKind::Goto(l) => gotos.push(l.clone()),
        StmtKind::Expr(_) | StmtKind::Break | StmtKind::Continue | StmtKind::Return(_) => {}
    }
}

/// The labels a statement item is written with (`a: b: for ...` has two).
fn labels_on(s: &ast::Stmt) -> Vec<Rc<str>> {
    let mut out = Vec::new();
    let mut s = s;
    while let StmtKind::Labeled(name, inner) = &s.kind {
        out.push(name.clone());
        s = inner;
    }
    out
}

impl Sema<'_> {
    /// Checks the labels and `goto`s of a function body and makes a flag for each label a
    /// `goto` jumps to; their declarations go first in `out`.
    pub(super) fn plan_gotos(&mut self, body: &ast::Stmt, out: &mut Block) -> Option<GotoPlan> {
        let StmtKind::Compound(items) = &body.kind else { return None };
        let mut scan = Scan::default();
        scan.items(body.span, items, &mut Vec::new(), &mut Vec::new(), false);
        if scan.gotos.is_empty() && scan.labels.is_empty() {
            return None;
        }
        let mut labels: HashMap<Rc<str>, FoundLabel> = HashMap::new();
        for (name, found) in scan.labels {
            if let Some(first) = labels.get(&name) {
                self.err(
                    Diagnostic::error(codes::REDEFINITION, format!("label `{name}` is defined twice"))
                        .at(found.span)
                        .with_label(first.span, "first defined here"),
                );
                continue;
            }
            labels.insert(name, found);
        }
        let mut plan = GotoPlan::default();
        for g in &scan.gotos {
            let Some(label) = labels.get(&g.label) else {
                self.err(
                    Diagnostic::error(codes::UNDECLARED, format!("use of undeclared label `{}`", g.label)).at(g.span),
                );
                continue;
            };
            let backward = match jump(g, label) {
                Ok(backward) => backward,
                Err(why) => {
                    self.err(
                        Diagnostic::error(codes::UNSUPPORTED_GOTO, format!("kiln cannot build this `goto`: it {why}"))
                            .at(g.span)
                            .with_label(label.span, "the label")
                            .with_help(
                                "kiln builds a `goto` to a label in the same or an enclosing block; move the \
                             label out of the block, or write the jump as a loop",
                            ),
                    );
                    continue;
                }
            };
            if let Some(t) = plan.targets.get_mut(&g.label) {
                if backward && !t.backward {
                    t.backward = true;
                    t.breakables.push(label.span);
                }
                continue;
            }
            let flag = self.new_local(hir::Local {
                name: format!("goto.{}", g.label).into(),
                ty: Type::Scalar(crate::types::Scalar::I32),
                space: ast::AddrSpace::Private,
                quals: Default::default(),
                is_param: false,
                partition: None,
                lane_of: None,
                dependence_distance: None,
                span: label.span,
            });
            out.push(Stmt::Decl(flag, Some(hir::Init::Expr(int(0, label.span))), label.span));
            let mut breakables = label.breakables.clone();
            if backward {
                // The region that repeats is a loop of its own, which the jump stays inside.
                breakables.push(label.span);
            }
            plan.targets.insert(g.label.clone(), Target { flag, backward, breakables });
        }
        Some(plan)
    }

    fn goto_target(&self, label: &str) -> Option<(LocalId, &[Span])> {
        let t = self.fcx.as_ref()?.gotos.as_ref()?.targets.get(label)?;
        Some((t.flag, &t.breakables))
    }

    /// Is `label` outside the innermost loop or `switch` being lowered (so a jump to it must
    /// leave that statement with `break`)?
    fn leaves_innermost_breakable(&self, label: &str) -> bool {
        let Some(f) = self.fcx.as_ref() else { return false };
        let Some(inner) = f.breakable_spans.last() else { return false };
        self.goto_target(label).is_some_and(|(_, b)| !b.contains(inner))
    }

    /// `goto L;`: set `L`'s flag and leave the innermost breakable statement if `L` is outside it.
    pub(super) fn goto_stmt(&mut self, label: &str, span: Span) -> Option<Stmt> {
        let (flag, _) = self.goto_target(label)?;
        let mut b = vec![set_flag(flag, 1, span)];
        if self.leaves_innermost_breakable(label) {
            b.push(Stmt::Break(span));
        }
        Some(Stmt::Block(b))
    }

    /// After a loop or `switch` `s` just lowered: for each jump leaving it whose label is also
    /// outside the enclosing breakable statement, `if (flag) break;`.
    pub(super) fn propagate_jumps(&mut self, s: &ast::Stmt, lowered: Stmt) -> Stmt {
        if self.fcx.as_ref().is_none_or(|f| f.gotos.is_none()) {
            return lowered;
        }
        let mut out = vec![lowered];
        for label in escaping(s) {
            if self.leaves_innermost_breakable(&label)
                && let Some((flag, _)) = self.goto_target(&label)
            {
                out.push(Stmt::If(flag_value(flag, s.span), vec![Stmt::Break(s.span)], vec![], s.span));
            }
        }
        if out.len() == 1 { out.pop().unwrap_or(Stmt::Block(vec![])) } else { Stmt::Block(out) }
    }

    /// `L: s` for a label a `goto` targets: the flag is cleared where the label is reached.
    pub(super) fn label_reset(&self, label: &str, span: Span) -> Option<Stmt> {
        let (flag, _) = self.goto_target(label)?;
        Some(set_flag(flag, 0, span))
    }

    /// The items of a block of a function with jumps: the items a jump skips are guarded by its
    /// flag until the item with its label (or the block's end, when the label is outside).
    pub(super) fn block_items_with_jumps(&mut self, items: &[BlockItem]) -> Block {
        self.jump_items(items, false)
    }

    /// `inside_region`: `items` is a backward region's body, whose first item starts it (rather
    /// than starting another).
    fn jump_items(&mut self, items: &[BlockItem], inside_region: bool) -> Block {
        let mut out = Vec::new();
        let mut pending: Vec<Rc<str>> = Vec::new();
        let mut i = 0;
        while i < items.len() {
            if !pending.is_empty() {
                let end = (i..items.len())
                    .find(|&k| match &items[k] {
                        BlockItem::Stmt(s) => labels_on(s).iter().any(|l| pending.contains(l)),
                        _ => false,
                    })
                    .unwrap_or(items.len());
                if end > i {
                    let skipped = &items[i..end];
                    for item in skipped {
                        if let BlockItem::Stmt(s) = item {
                            pending.extend(escaping(s));
                        }
                    }
                    let guarded = self.block_items_with_jumps(skipped);
                    let span = guarded_span(skipped);
                    let clear = pending
                        .iter()
                        .filter_map(|l| self.goto_target(l).map(|(f, _)| f))
                        .map(|f| not(flag_value(f, span)))
                        .reduce(hir::build::log_and);
                    match clear {
                        Some(c) => out.push(Stmt::If(c, guarded, vec![], span)),
                        None => out.extend(guarded),
                    }
                    i = end;
                    continue;
                }
                if let BlockItem::Stmt(s) = &items[i] {
                    let reached = labels_on(s);
                    pending.retain(|l| !reached.contains(l));
                }
            }
            let starts_region = !(inside_region && i == 0);
            let region_len = if starts_region { self.backward_region(&items[i..]) } else { None };
            let end = i + region_len.unwrap_or(1);
            let region = &items[i..end];
            if region_len.is_some() {
                out.extend(self.repeating_region(region));
            } else {
                out.extend(self.block_items_plain(region));
            }
            for s in region.iter().filter_map(item_stmt) {
                pending.extend(escaping(s).into_iter().filter(|l| self.goto_target(l).is_some()));
            }
            let repeated = self.region_labels(region);
            pending.retain(|l| !repeated.contains(l));
            pending.sort();
            pending.dedup();
            i = end;
        }
        out
    }

    /// The labels of a backward region's first item that jump back to it.
    fn region_labels(&self, region: &[BlockItem]) -> Vec<Rc<str>> {
        let Some(first) = region.first().and_then(item_stmt) else { return vec![] };
        labels_on(first).into_iter().filter(|l| self.repeats_label(l)).collect()
    }

    fn repeats_label(&self, l: &str) -> bool {
        self.fcx.as_ref().and_then(|f| f.gotos.as_ref()).and_then(|p| p.targets.get(l)).is_some_and(|t| t.backward)
    }

    /// When `items[0]` carries a label that a later `goto` jumps back to: the number of items
    /// up to and including the last one holding such a `goto`.
    fn backward_region(&self, items: &[BlockItem]) -> Option<usize> {
        let first = item_stmt(items.first()?)?;
        let labels: Vec<Rc<str>> = labels_on(first).into_iter().filter(|l| self.repeats_label(l)).collect();
        if labels.is_empty() {
            return None;
        }
        let last = items.iter().rposition(|it| item_stmt(it).is_some_and(|s| labels.iter().any(|l| jumps_to(s, l))))?;
        Some(last + 1)
    }

    /// A backward region as `do { ... } while (flag);`, the `goto`s back to its label setting
    /// the flag and leaving what they are in for the region's end.
    fn repeating_region(&mut self, region: &[BlockItem]) -> Option<Stmt> {
        let first = region.first().and_then(item_stmt)?;
        let span = guarded_span(region);
        if let Some(at) = region.iter().filter_map(item_stmt).find_map(|s| loose_break(s, false, false)) {
            self.err(
                Diagnostic::error(
                    codes::UNSUPPORTED_GOTO,
                    "kiln cannot build a `break` or `continue` between a label and a `goto` back to it",
                )
                .at(at)
                .with_label(first.span, "the label")
                .with_help("write the repeated part as a loop of its own"),
            );
            return None;
        }
        let labels = self.region_labels(region);
        let flags: Vec<LocalId> = labels.iter().filter_map(|l| self.goto_target(l).map(|(f, _)| f)).collect();
        if let Some(f) = self.fcx.as_mut() {
            f.breakable_spans.push(first.span);
        }
        let body = self.jump_items(region, true);
        if let Some(f) = self.fcx.as_mut() {
            f.breakable_spans.pop();
        }
        let again = flags.iter().map(|&f| flag_value(f, span)).reduce(|a, b| {
            let span = a.span;
            hir::build::node(
                hir::ExprKind::LogOr(Box::new(a), Box::new(b)),
                Type::Scalar(crate::types::Scalar::I32),
                span,
            )
        })?;
        Some(Stmt::Loop(Box::new(hir::Loop {
            kind: hir::LoopKind::DoWhile,
            init: vec![],
            cond: Some(again),
            step: None,
            body,
            pragmas: hir::LoopPragmas { label: labels.first().cloned(), ..Default::default() },
            transformations: Vec::new(),
            span: first.span,
        })))
    }
}

/// Whether a `goto` jumps backward (`Ok(true)`) or forward to a label in an enclosing block,
/// or why it does neither.
fn jump(g: &FoundGoto, label: &FoundLabel) -> Result<bool, &'static str> {
    let Some((block, index)) = label.at else { return Err("jumps into a statement") };
    // `label.path` ends with the label's own item; the goto must be in an item of the same
    // block, reached through the same enclosing items.
    let depth = label.path.len() - 1;
    if g.path.len() <= depth || g.path[..depth] != label.path[..depth] || g.path[depth].0 != block {
        return Err("jumps into a block");
    }
    Ok(g.path[depth].1 >= index)
}

/// A `break` or `continue` in `s` that leaves `s` itself (not a loop or `switch` inside it).
fn loose_break(s: &ast::Stmt, in_loop: bool, in_switch: bool) -> Option<Span> {
    match &s.kind {
        StmtKind::Break if !in_loop && !in_switch => Some(s.span),
        StmtKind::Continue if !in_loop => Some(s.span),
        StmtKind::Compound(items) => items.iter().find_map(|i| match i {
            BlockItem::Stmt(s) => loose_break(s, in_loop, in_switch),
            _ => None,
        }),
        StmtKind::If(_, t, e) => {
            loose_break(t, in_loop, in_switch).or_else(|| e.as_ref().and_then(|e| loose_break(e, in_loop, in_switch)))
        }
        StmtKind::While(_, b, _) | StmtKind::DoWhile(b, _, _) | StmtKind::For(_, _, _, b, _) => {
            loose_break(b, true, in_switch)
        }
        StmtKind::Switch(_, b) => loose_break(b, in_loop, true),
        StmtKind::Case(_, b) | StmtKind::Default(b) | StmtKind::Labeled(_, b) => loose_break(b, in_loop, in_switch),
        _ => None,
    }
}

fn item_stmt(item: &BlockItem) -> Option<&ast::Stmt> {
    match item {
        BlockItem::Stmt(s) => Some(s),
        _ => None,
    }
}

/// Does `s` hold a `goto label`?
fn jumps_to(s: &ast::Stmt, label: &str) -> bool {
    let mut gotos = Vec::new();
    collect(s, &mut gotos, &mut Vec::new());
    gotos.iter().any(|g| &**g == label)
}

fn guarded_span(items: &[BlockItem]) -> Span {
    let spans: Vec<Span> = items
        .iter()
        .map(|i| match i {
            BlockItem::Stmt(s) => s.span,
            BlockItem::Decl(d) => d.span,
            BlockItem::Pragma(p) => p.span,
        })
        .collect();
    match (spans.first(), spans.last()) {
        (Some(a), Some(b)) => a.to(*b),
        _ => Span::default(),
    }
}

fn int(v: u64, span: Span) -> Expr {
    Expr::int(v, Type::Scalar(crate::types::Scalar::I32), span)
}

fn flag_value(flag: LocalId, span: Span) -> Expr {
    hir::build::local(flag, Type::Scalar(crate::types::Scalar::I32), span)
}

fn not(e: Expr) -> Expr {
    let span = e.span;
    hir::build::node(hir::ExprKind::Unary(UnaryOp::LogNot, Box::new(e)), Type::Scalar(crate::types::Scalar::I32), span)
}

fn set_flag(flag: LocalId, v: u64, span: Span) -> Stmt {
    hir::build::assign_stmt(flag_value(flag, span), int(v, span))
}
