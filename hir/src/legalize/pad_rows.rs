//! `pad-rows`: the rows of a multi-dimensional private or `__local` array whose innermost
//! extent is not a power of two are padded to the next power of two, when a loop reads or
//! writes neighbouring elements of a row (`A[i][j][k - 1]`, `A[i][j][k + 1]`):
//!
//! ```text
//! int A[10][10][10];   →   int A[10][10][16];   // element (i, j, k) at i*160 + j*16 + k
//! ```
//!
//! Why: the dataflow IR sees an array as one flat memory, and the `partition` pass spreads
//! accesses over cyclic banks (element `e` in bank `e mod B`) by what it knows of the flat index
//! modulo powers of two. With rows of 10, `i*100 + j*10 + k` is known only modulo 2 whatever
//! `k` is, so two banks are all the accesses of a stencil can use; with rows of 16 the bank of
//! each access is `k mod B`, and neighbours in a row — the copies of a fully or partially
//! unrolled loop over `k` — fall in different banks. The row stride also becomes a shift.
//!
//! Legal when every mention of the array is an access of one of its elements through all of
//! its dimensions (no pointer to it or to a row escapes, so nothing walks from one row into the
//! next) and it has no initializer (which is laid out flat). Padding costs memory, so it is
//! applied only where the rows grow by at most 8/5 (10 → 16, 20 → 32, 6 → 8; not 9 → 16), to
//! arrays of at most [`MAX_PADDED_ELEMENTS`] elements after padding.
//!
//! The emulator runs the kernel without this pass, like every loop transformation; the padding
//! elements are never read or written.

use super::elements::{Access, Affine, eligible_bases, visit_block};
use crate::types::{AddrSpace, Pointee, Type};
use crate::walk::for_each_expr_mut;
use crate::{Block, Expr, ExprKind as K, Function, LocalId, Program, Stmt};
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

/// The `pad-rows` pass (see the module documentation).
pub(super) const PASS: super::FnPass = super::FnPass {
    name: "pad-rows",
    requires: &[crate::verify::Invariant::NoRecords, crate::verify::Invariant::NoVectors],
    ensures: &[],
    run: |prog, _, opts| Ok(if opts.scalar_replacement { pad_in_program(prog) } else { prog.clone() }),
};

/// The largest array, in elements after padding, whose rows are padded.
const MAX_PADDED_ELEMENTS: u64 = 1 << 14;

fn pad_in_program(prog: &Program) -> Program {
    let mut out = prog.clone();
    for f in &mut out.functions {
        if let Some(mut body) = f.body.take() {
            let padded = choose(f, &body);
            if !padded.is_empty() {
                for (id, ty) in &padded {
                    f.locals[id.0 as usize].ty = ty.clone();
                }
                for_each_expr_mut(&mut body, &mut |e| {
                    if let K::Deref(addr) = &mut e.kind
                        && !matches!(e.ty, Type::Array(..))
                    {
                        retype_address(addr, &padded);
                    }
                });
                note_loops(f, &mut body, &padded);
            }
            f.body = Some(body);
        }
    }
    out
}

/// The arrays to pad, with their padded types.
fn choose(f: &Function, body: &Block) -> BTreeMap<LocalId, Type> {
    let mut initialized = BTreeSet::new();
    crate::walk::for_each_stmt(body, &mut |s| {
        if let Stmt::Decl(id, Some(_), _) = s {
            initialized.insert(*id);
        }
    });
    let stencils = stencil_arrays(body);
    eligible_bases(f, body)
        .into_iter()
        .filter(|(id, space)| matches!(space, AddrSpace::Private | AddrSpace::Local) && !initialized.contains(id))
        .filter(|(id, _)| stencils.contains(id))
        .filter_map(|(id, _)| {
            let l = &f.locals[id.0 as usize];
            if l.partition.is_some() || l.is_param {
                return None;
            }
            Some((id, padded_type(&l.ty)?))
        })
        .collect()
}

/// `ty` with its innermost extent rounded up to a power of two, if that is worth it.
fn padded_type(ty: &Type) -> Option<Type> {
    let Type::Array(row, Some(outer)) = ty else { return None };
    let mut dims = vec![*outer];
    let mut t = row;
    while let Type::Array(inner, Some(n)) = &**t {
        dims.push(*n);
        t = inner;
    }
    if dims.len() < 2 || !matches!(&**t, Type::Scalar(_)) {
        return None;
    }
    let n = u64::from(*dims.last()?);
    let padded = n.next_power_of_two();
    let total: u64 = dims[..dims.len() - 1].iter().map(|d| u64::from(*d)).product::<u64>() * padded;
    if n < 3 || padded == n || padded * 5 > n * 8 || total > MAX_PADDED_ELEMENTS {
        return None;
    }
    let last = dims.len() - 1;
    dims[last] = u32::try_from(padded).ok()?;
    let mut out = (**t).clone();
    for d in dims.iter().rev() {
        out = Type::Array(Rc::new(out), Some(*d));
    }
    Some(out)
}

/// Arrays some loop accesses at two elements of one row: the same indices but the last, and
/// last indices that differ by a constant.
fn stencil_arrays(body: &Block) -> BTreeSet<LocalId> {
    let mut out = BTreeSet::new();
    crate::walk::for_each_stmt(body, &mut |s| {
        if let Stmt::Loop(l) = s {
            out.extend(neighbours_in(&l.body));
        }
    });
    out
}

fn neighbours_in(body: &Block) -> BTreeSet<LocalId> {
    // (base, the other indices, the last index's variable part) → the last index's constants.
    let mut rows: BTreeMap<(LocalId, String, String), BTreeSet<i64>> = BTreeMap::new();
    visit_block(
        body,
        &mut |a: &Access| {
            let Some((last, rest)) = a.indices.split_last() else { return };
            let (Some(last), Some(rest)) =
                (Affine::of(last), rest.iter().map(Affine::of).collect::<Option<Vec<Affine>>>())
            else {
                return;
            };
            rows.entry((a.base, format!("{rest:?}"), format!("{:?}", last.terms))).or_default().insert(last.constant);
        },
        &mut |_| {},
    );
    rows.into_iter().filter(|(_, c)| c.len() >= 2).map(|((b, ..), _)| b).collect()
}

/// Gives the address `addr` of an element access of a padded array the padded types along its
/// chain of sub-array accesses; the type it points to, or `None` if it is not such an address.
fn retype_address(addr: &mut Expr, padded: &BTreeMap<LocalId, Type>) -> Option<Type> {
    let K::PtrAdd(root, _) = &mut addr.kind else { return None };
    let K::Decay(array) = &mut root.kind else { return None };
    let array_ty = match &mut array.kind {
        K::Local(b) => padded.get(b)?.clone(),
        K::Deref(inner) if matches!(array.ty, Type::Array(..)) => retype_address(inner, padded)?,
        _ => return None,
    };
    array.ty = array_ty.clone();
    let Type::Array(element, _) = array_ty else { return None };
    let Type::Pointer(old) = &root.ty else { return None };
    let pointer = Type::Pointer(Rc::new(Pointee { ty: (*element).clone(), space: old.space, quals: old.quals }));
    root.ty = pointer.clone();
    addr.ty = pointer;
    Some((*element).clone())
}

/// Tells the loop report which loops' accesses the padding serves: the innermost loops that
/// access neighbouring elements of a padded row.
fn note_loops(f: &Function, body: &mut Block, padded: &BTreeMap<LocalId, Type>) {
    fn walk(f: &Function, b: &mut Block, padded: &BTreeMap<LocalId, Type>) -> BTreeSet<LocalId> {
        let mut noted = BTreeSet::new();
        for s in b.iter_mut() {
            match s {
                Stmt::Loop(l) => {
                    let inside = walk(f, &mut l.body, padded);
                    for id in neighbours_in(&l.body) {
                        if !padded.contains_key(&id) || inside.contains(&id) {
                            continue;
                        }
                        let array = &f.locals[id.0 as usize];
                        let note = format!(
                            "rows of `{}` padded to {} elements so that neighbouring elements fall in different banks",
                            array.name,
                            array.ty.innermost_extent().unwrap_or(0)
                        );
                        if !l.transformations.contains(&note) {
                            l.transformations.push(note);
                        }
                        noted.insert(id);
                    }
                    noted.extend(inside);
                }
                Stmt::If(_, t, e, _) => {
                    noted.extend(walk(f, t, padded));
                    noted.extend(walk(f, e, padded));
                }
                Stmt::Block(inner) => noted.extend(walk(f, inner, padded)),
                Stmt::Switch(_, arms, _) => {
                    for a in arms.iter_mut() {
                        noted.extend(walk(f, &mut a.body, padded));
                    }
                }
                _ => {}
            }
        }
        noted
    }
    walk(f, body, padded);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::INT;

    fn array(dims: &[u32]) -> Type {
        dims.iter().rev().fold(INT, |t, d| Type::Array(Rc::new(t), Some(*d)))
    }

    #[test]
    fn rows_grow_to_a_power_of_two_only_when_the_growth_is_small() {
        assert_eq!(padded_type(&array(&[10, 10, 10])), Some(array(&[10, 10, 16])));
        assert_eq!(padded_type(&array(&[30, 20])), Some(array(&[30, 32])));
        assert_eq!(padded_type(&array(&[4, 9])), None, "9 → 16 grows by more than 8/5");
        assert_eq!(padded_type(&array(&[4, 16])), None, "already a power of two");
        assert_eq!(padded_type(&array(&[100])), None, "one dimension: no rows");
        assert_eq!(padded_type(&array(&[1000, 20])), None, "too large once padded");
    }
}
