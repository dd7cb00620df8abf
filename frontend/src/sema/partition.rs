//! `xcl_array_partition(kind, [factor,] dim)` on array variables: checked here, recorded on the
//! HIR local for the dataflow lowering, which splits the array into banks.

use super::Sema;
use crate::ast::{self, AddrSpace};
use crate::diag::{Diagnostic, codes};
use crate::hir::{ArrayPartition, PartitionKind};
use crate::types::Type;

/// The most banks (memories or registers) one array is split into: every access with a bank
/// known only at run time touches all of them.
const MAX_BANKS: u32 = 256;

/// The extents of an array type, outermost first.
fn dims(ty: &Type) -> Vec<u32> {
    let mut out = Vec::new();
    let mut t = ty;
    while let Type::Array(inner, n) = t {
        out.push(n.unwrap_or(0));
        t = inner;
    }
    out
}

impl Sema<'_> {
    pub(super) fn array_partition(
        &mut self,
        specs: &ast::DeclSpecs,
        declarator: &ast::Declarator,
        ty: &Type,
        space: AddrSpace,
    ) -> Option<ArrayPartition> {
        let mut found = None;
        for a in specs.attrs.iter().chain(&declarator.attrs) {
            if &*a.name != "xcl_array_partition" {
                continue;
            }
            let shape = dims(ty);
            if shape.is_empty() || !matches!(space, AddrSpace::Private | AddrSpace::Local) {
                self.err(
                    Diagnostic::error(
                        codes::ATTRIBUTE_PLACEMENT,
                        "`xcl_array_partition` applies only to `__private` and `__local` array variables",
                    )
                    .at(a.span),
                );
                continue;
            }
            let kind = match a.args.first() {
                Some(ast::AttrArg::Expr(ast::Expr { kind: ast::ExprKind::Ident(n), .. })) => match &**n {
                    "cyclic" => Some(PartitionKind::Cyclic),
                    "block" => Some(PartitionKind::Block),
                    "complete" => Some(PartitionKind::Complete),
                    _ => None,
                },
                _ => None,
            };
            let Some(kind) = kind else {
                self.err(
                    Diagnostic::error(
                        codes::BAD_ATTRIBUTE,
                        "`xcl_array_partition` needs `cyclic`, `block` or `complete` as its first argument",
                    )
                    .at(a.span)
                    .with_note("e.g. `xcl_array_partition(cyclic, 4, 1)` or `xcl_array_partition(complete, 1)`"),
                );
                continue;
            };
            let want = if kind == PartitionKind::Complete { 2 } else { 3 };
            let numbers: Vec<Option<u32>> = a.args[1..]
                .iter()
                .map(|arg| match arg {
                    ast::AttrArg::Expr(e) => self.const_u32(e),
                    ast::AttrArg::Type(_) => None,
                })
                .collect();
            if a.args.len() != want || numbers.iter().any(Option::is_none) {
                let form = if kind == PartitionKind::Complete {
                    "`xcl_array_partition(complete, dim)`"
                } else {
                    "`xcl_array_partition(cyclic|block, factor, dim)` with integer constants"
                };
                self.err(Diagnostic::error(codes::BAD_ATTRIBUTE, format!("expected {form}")).at(a.span));
                continue;
            }
            let numbers: Vec<u32> = numbers.into_iter().flatten().collect();
            let dim = *numbers.last().unwrap_or(&0);
            let rank = shape.len() as u32;
            if dim > rank || (dim == 0 && kind != PartitionKind::Complete) {
                let allowed = if kind == PartitionKind::Complete { "0 (every dimension)" } else { "1" };
                self.err(
                    Diagnostic::error(
                        codes::BAD_ATTRIBUTE,
                        format!("dimension {dim} does not exist: the array has {rank} dimension(s), numbered from 1"),
                    )
                    .at(a.span)
                    .with_note(format!("use a dimension from {allowed} to {rank}")),
                );
                continue;
            }
            let factor = match kind {
                PartitionKind::Complete if dim == 0 => shape.iter().product(),
                PartitionKind::Complete => shape[dim as usize - 1],
                _ => numbers[0],
            };
            if factor == 0 {
                self.err(Diagnostic::error(codes::BAD_ATTRIBUTE, "the partition factor must be positive").at(a.span));
                continue;
            }
            let (kind, factor, dim) = if factor > MAX_BANKS {
                // The banks change how fast the array is, not what it holds: build as many as
                // kiln can, a divisor of the count asked for so the layout stays cyclic.
                let (dim, asked) = if dim == 0 { (1, shape[0]) } else { (dim, factor) };
                let fewer = (1..=MAX_BANKS.min(asked)).rev().find(|d| asked % d == 0).unwrap_or(1);
                self.err(
                    Diagnostic::warning(
                        codes::PARTITION_REDUCED,
                        format!(
                            "this partition asks for {factor} banks; kiln builds at most {MAX_BANKS}, so it splits the array cyclically into {fewer}"
                        ),
                    )
                    .at(a.span)
                    .with_help("partition with a smaller factor, or along a shorter dimension, to choose the banks yourself"),
                );
                (PartitionKind::Cyclic, fewer, dim)
            } else {
                (kind, factor, dim)
            };
            found = Some(ArrayPartition { kind, factor, dim, span: a.span });
        }
        found
    }
}
