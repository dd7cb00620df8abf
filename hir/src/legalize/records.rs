//! `records`: structs and unions become their members before vectors are split, so the rest of
//! the lowering never sees a record type.
//!
//! A rewrite of the typed program ([`hir`]) into an equivalent one without record values:
//! - a variable of a record type, or an array of them (private, `__local`, kernel-scope or
//!   program-scope `__constant`), becomes one variable per member — a *leaf*, nested records
//!   flattened — and an array of records one array per member (a structure of arrays: every
//!   member is its own memory, so members are read and written in parallel);
//! - a union whose members are scalars of one size is one leaf of its first member's type, which
//!   the other members read and write through a bit reinterpretation (`as_<T>`); any other
//!   union is one leaf `uchar[size]`, its bytes, which members read and write at their
//!   offsets like members of a struct in a buffer ([`record_bytes::union_storage`]);
//! - `r.m`, `a[i].m`, `r.in[j].m[k]` become the leaf variable indexed by the record indices;
//! - a whole-record assignment `a = b;` or initialization becomes one assignment per leaf
//!   element;
//! - a helper function's record parameter becomes one parameter per leaf, and a call passes the
//!   leaves of its argument; a helper's pointer to record variables (private, `__local`,
//!   generic) becomes one pointer per leaf, and a call points them at its argument's leaves;
//! - a function returning a record gets a pointer parameter per element of its result (after
//!   its own), stores them at each `return`, and a call passes the addresses of temporaries
//!   that the caller then copies where the result goes.
//!
//! - a kernel's pointer to records in `__global` or `__constant` memory becomes a byte pointer:
//!   members are read and written through their bytes at OpenCL's offsets ([`record_bytes`]);
//!   a program-scope `__constant` record table that such a pointer points into
//!   (`&table[1]`, `table + k`, a call passing `table`) is kept as one byte array, its
//!   initializer laid out in OpenCL's layout, instead of being split into leaves.
//!
//! What it cannot express yet gets `E0508`: other pointers to records (variables pointing to
//! private or `__local` records, pointers to records with array leaves), kernel parameters of
//! record type, record-valued `?:` and calls other than as a copy's source, helper parameters
//! whose record has an array leaf.

use super::record_bytes::{self, Element, UnionStorage, convert, offset_plus, uint_of_size, union_storage};
use crate as hir;
use crate::types::AddrSpace;
use crate::types::{Pointee, RecordId, SIZE_T, Scalar, Type};
use crate::walk;
use crate::{Block, Expr, ExprKind as K, GlobalId, Init, Local, LocalId, Program, Stmt};
use kiln_diagnostics::Span;
use kiln_diagnostics::{Diagnostic, codes};
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

/// The `records` pass (see the module documentation).
pub(super) const PASS: super::FnPass = super::FnPass {
    name: "records",
    requires: &[crate::verify::Invariant::NoCollectives],
    ensures: &[crate::verify::Invariant::NoRecords],
    run: |prog, _, _| split_records(prog),
};

/// The most leaf elements one whole-record copy may expand into.
const MAX_COPY_ELEMENTS: usize = 4096;

/// Field indices from a record to one of its leaves (a union's storage is index 0).
type Path = Vec<u32>;

/// A leaf of a record type: where it is, its own type, and the extents of the arrays of
/// records on the way to it (outermost first).
#[derive(Clone, Debug)]
struct Leaf {
    path: Path,
    ty: Type,
    dims: Vec<u32>,
}

/// `Array(Array(R, 2), 3)` → `(R, [3, 2])`.
fn strip_arrays(ty: &Type) -> (Type, Vec<u32>) {
    let mut dims = Vec::new();
    let mut t = ty.clone();
    while let Type::Array(inner, Some(n)) = t {
        dims.push(n);
        t = (*inner).clone();
    }
    (t, dims)
}

fn wrap_arrays(ty: Type, dims: &[u32]) -> Type {
    dims.iter().rev().fold(ty, |t, n| Type::Array(Rc::new(t), Some(*n)))
}

/// Whether values of `ty` are records or arrays of them.
fn is_record_like(ty: &Type) -> bool {
    matches!(strip_arrays(ty).0, Type::Record(_))
}

fn leaves_of(prog: &Program, r: RecordId, prefix: &[u32], dims: &[u32], out: &mut Vec<Leaf>) {
    let rec = &prog.records[r.0 as usize];
    if rec.is_union {
        let mut path = prefix.to_vec();
        path.push(0);
        out.push(Leaf { path, ty: union_storage(rec).ty(), dims: dims.to_vec() });
        return;
    }
    for (i, f) in rec.fields.iter().enumerate() {
        let mut path = prefix.to_vec();
        path.push(i as u32);
        match strip_arrays(&f.ty) {
            (Type::Record(inner), more) => {
                let mut d = dims.to_vec();
                d.extend(more);
                leaves_of(prog, inner, &path, &d, out);
            }
            _ => out.push(Leaf { path, ty: f.ty.clone(), dims: dims.to_vec() }),
        }
    }
}

/// The leaves of a record-like type, each with the type its variable gets.
fn variable_leaves(prog: &Program, ty: &Type) -> Vec<(Leaf, Type)> {
    let (elem, outer) = strip_arrays(ty);
    let Type::Record(r) = elem else { return vec![] };
    let mut leaves = Vec::new();
    leaves_of(prog, r, &[], &[], &mut leaves);
    leaves
        .into_iter()
        .map(|l| {
            let mut dims = outer.clone();
            dims.extend(&l.dims);
            let ty = wrap_arrays(l.ty.clone(), &dims);
            (l, ty)
        })
        .collect()
}

fn leaf_name(base: &str, prog: &Program, ty: &Type, path: &[u32]) -> String {
    let mut name = base.to_string();
    let mut t = strip_arrays(ty).0;
    for &i in path {
        let Type::Record(r) = t else { break };
        let f = &prog.records[r.0 as usize].fields[i as usize];
        name.push('.');
        name.push_str(&f.name);
        t = strip_arrays(&f.ty).0;
    }
    name
}

/// Where a record-rooted access goes: the root variable, the member path, the array indices
/// met on the way (outermost first), and for a union member its type.
#[derive(Clone, Debug)]
struct Place {
    root: Root,
    path: Path,
    indices: Vec<Expr>,
    view: Option<Type>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Root {
    Local(LocalId),
    Global(GlobalId),
    /// A parameter pointing to record variables; a place below it starts with the pointer's
    /// index.
    Ptr(LocalId),
}

/// Rewrites every function of `prog` so that no expression has a record type.
fn split_records(prog: &Program) -> Result<Program, Vec<Diagnostic>> {
    let mut out = prog.clone();
    if prog.records.is_empty() {
        return Ok(out);
    }
    let mut diags = Vec::new();
    // Program-scope constants: one constant per leaf, its initializer taken from the record's.
    let mut globals: HashMap<GlobalId, Vec<(Path, GlobalId)>> = HashMap::new();
    let addressed = addressed_record_globals(prog);
    let mut byte_globals: HashMap<GlobalId, GlobalId> = HashMap::new();
    for (gi, g) in prog.globals.iter().enumerate() {
        if !is_record_like(&g.ty) {
            continue;
        }
        if g.init.as_ref().is_some_and(has_record_value) {
            let m = "initializing a struct member or element from another struct is not yet supported by kiln";
            diags.push(Diagnostic::error(codes::UNSUPPORTED_AGGREGATE, m).at(g.span));
            continue;
        }
        if addressed.contains(&GlobalId(gi as u32)) {
            // A pointer to records points into it: it stays in memory as its bytes, laid out
            // as OpenCL lays it out, and the pointer is a byte pointer into them.
            let Some(size) = record_bytes::size_of(prog, &g.ty) else {
                let m = "a pointer into this `__constant` table of structs";
                diags.push(
                    Diagnostic::error(codes::UNSUPPORTED_AGGREGATE, format!("{m} is not yet supported by kiln"))
                        .at(g.span),
                );
                continue;
            };
            let mut bytes = zero_bytes(size);
            if let Some(init) = &g.init {
                lay_out(prog, &g.ty, 0, init, &mut bytes);
            }
            out.globals.push(hir::Global {
                name: format!("{}.bytes", g.name).into(),
                ty: Type::Array(Rc::new(Type::Scalar(Scalar::U8)), Some(size)),
                space: g.space,
                init: Some(Init::List(bytes.into_iter().map(Init::Expr).collect())),
                pipe_depth: None,
                span: g.span,
            });
            byte_globals.insert(GlobalId(gi as u32), GlobalId(out.globals.len() as u32 - 1));
            continue;
        }
        let mut ids = Vec::new();
        for (leaf, ty) in variable_leaves(prog, &g.ty) {
            let init = g.init.as_ref().map(|i| extract(prog, i, &g.ty, &leaf.path));
            out.globals.push(hir::Global {
                name: leaf_name(&g.name, prog, &g.ty, &leaf.path).into(),
                ty,
                space: g.space,
                init,
                pipe_depth: None,
                span: g.span,
            });
            ids.push((leaf.path, GlobalId(out.globals.len() as u32 - 1)));
        }
        globals.insert(GlobalId(gi as u32), ids);
    }
    // Helper parameters of record type: one parameter per leaf.
    let mut split_params: HashMap<u32, Vec<Option<usize>>> = HashMap::new();
    let mut locals_of: Vec<HashMap<LocalId, Vec<(Path, LocalId)>>> = Vec::new();
    let mut buffers_of: Vec<HashMap<LocalId, Type>> = Vec::new();
    let mut buffer_params: HashMap<u32, Vec<bool>> = HashMap::new();
    let generic_buffer_params = generic_params_into_buffers(prog);
    // Functions returning records: the elements of their result, and per function the
    // pointer parameters its `return` stores them through.
    let mut returns: HashMap<u32, Vec<Element>> = HashMap::new();
    let mut returns_into: Vec<Vec<(Element, LocalId)>> = Vec::new();
    // Helper parameters pointing to record variables: their positions among the function's
    // parameters, and per function the leaf pointers of each.
    let mut pointer_params: HashMap<u32, HashSet<usize>> = HashMap::new();
    let mut pointers_of: Vec<HashMap<LocalId, Vec<(Path, LocalId)>>> = Vec::new();
    for (fi, f) in out.functions.iter_mut().enumerate() {
        let mut map = HashMap::new();
        let mut buffers = HashMap::new();
        let mut returned = Vec::new();
        if is_record_like(&f.ret) {
            let elements = record_bytes::elements(prog, &f.ret);
            if elements.len() > MAX_COPY_ELEMENTS {
                diags.push(
                    Diagnostic::error(
                        codes::UNSUPPORTED_AGGREGATE,
                        format!("function `{}` returns a struct too large to copy", f.name),
                    )
                    .at(f.span),
                );
            }
            // The caller passes a pointer to a temporary for each element of the result.
            for (k, el) in elements.into_iter().enumerate() {
                f.locals.push(Local {
                    name: format!("return.{k}").into(),
                    ty: Type::Pointer(Rc::new(Pointee {
                        ty: el.ty.clone(),
                        space: AddrSpace::Private,
                        quals: Default::default(),
                    })),
                    space: AddrSpace::Private,
                    quals: Default::default(),
                    is_param: true,
                    partition: None,
                    lane_of: None,
                    dependence_distance: None,
                    span: f.span,
                });
                returned.push((el, LocalId(f.locals.len() as u32 - 1)));
            }
            returns.insert(fi as u32, returned.iter().map(|(el, _)| el.clone()).collect());
            f.ret = Type::Void;
        }
        if matches!(&f.ret, Type::Pointer(to) if is_record_like(&to.ty)) {
            diags.push(
                Diagnostic::error(
                    codes::UNSUPPORTED_AGGREGATE,
                    format!("function `{}` returns a pointer to structs, which kiln does not build yet", f.name),
                )
                .at(f.span),
            );
        }
        // Pointers to records in buffers, parameters or variables, become byte pointers.
        let generic_buffers = generic_buffer_params.get(&(fi as u32));
        for (li, l) in f.locals.iter_mut().enumerate() {
            if let Type::Pointer(to) = &l.ty
                && is_record_like(&to.ty)
                && (matches!(to.space, AddrSpace::Global | AddrSpace::Constant)
                    || generic_buffers.is_some_and(|g| g.contains(&LocalId(li as u32))))
            {
                buffers.insert(LocalId(li as u32), to.ty.clone());
                l.ty = record_bytes::byte_pointer(to);
            }
        }
        let mut params = Vec::new();
        let mut counts = Vec::new();
        let mut pointers = HashMap::new();
        let mut pointer_positions = HashSet::new();
        for &p in &f.params.clone() {
            let local = f.local(p).clone();
            if buffers.contains_key(&p) {
                params.push(p);
                counts.push(None);
                continue;
            }
            if let Type::Pointer(to) = &local.ty
                && is_record_like(&to.ty)
                && !f.is_kernel
                && matches!(to.space, AddrSpace::Private | AddrSpace::Local | AddrSpace::Generic)
            {
                // A pointer to a record variable: a pointer to each of its leaves, which the
                // call points at the argument's leaves.
                let leaves = variable_leaves(prog, &to.ty);
                if leaves.iter().all(|(_, t)| !matches!(t, Type::Array(..))) {
                    let pointed: Vec<(Leaf, Type)> = leaves
                        .into_iter()
                        .map(|(leaf, t)| {
                            (leaf, Type::Pointer(Rc::new(Pointee { ty: t, space: to.space, quals: to.quals })))
                        })
                        .collect();
                    let ids = new_leaf_locals(&mut f.locals, prog, &local, pointed, true);
                    pointer_positions.insert(counts.len());
                    counts.push(Some(ids.len()));
                    params.extend(ids.iter().map(|(_, id)| *id));
                    pointers.insert(p, ids);
                    continue;
                }
            }
            if let Type::Pointer(to) = &local.ty
                && is_record_like(&to.ty)
            {
                let (what, help) = if f.is_kernel {
                    (
                        format!(
                            "kernel parameter `{}` points to structs in `{}` memory",
                            local.name,
                            to.space.keyword()
                        ),
                        "pass each member as its own buffer (a structure of arrays)",
                    )
                } else {
                    (
                        format!(
                            "parameter `{}` points to structs with an array member (or unions of mixed \
                             members) in `{}` memory",
                            local.name,
                            to.space.keyword()
                        ),
                        "pass the members it uses, or point into a buffer (`global`/`constant`)",
                    )
                };
                diags.push(
                    Diagnostic::error(codes::UNSUPPORTED_AGGREGATE, format!("{what}, which kiln does not build yet"))
                        .at(local.span)
                        .with_help(help),
                );
                f.body = None;
                params.push(p);
                counts.push(None);
                continue;
            }
            if !is_record_like(&local.ty) {
                params.push(p);
                counts.push(None);
                continue;
            }
            if f.is_kernel {
                diags.push(
                    Diagnostic::error(
                        codes::UNSUPPORTED_AGGREGATE,
                        format!(
                            "kernel parameter `{}` is a struct or union, which kiln does not build yet",
                            local.name
                        ),
                    )
                    .at(local.span)
                    .with_help("pass its members as separate parameters"),
                );
                f.body = None;
                continue;
            }
            let leaves = variable_leaves(prog, &local.ty);
            if leaves.iter().all(|(_, t)| !matches!(t, Type::Array(..))) {
                let ids = new_leaf_locals(&mut f.locals, prog, &local, leaves, true);
                counts.push(Some(ids.len()));
                params.extend(ids.iter().map(|(_, id)| *id));
                map.insert(p, ids);
            } else {
                diags.push(
                    Diagnostic::error(
                        codes::UNSUPPORTED_AGGREGATE,
                        format!(
                            "parameter `{}` is a struct with an array member or a union of mixed members, which kiln \
                             cannot pass by value yet",
                            local.name
                        ),
                    )
                    .at(local.span),
                );
            }
        }
        params.extend(returned.iter().map(|(_, id)| *id));
        returns_into.push(returned);
        f.params = params;
        buffer_params.insert(fi as u32, f.params.iter().map(|p| buffers.contains_key(p)).collect());
        split_params.insert(fi as u32, counts);
        pointer_params.insert(fi as u32, pointer_positions);
        pointers_of.push(pointers);
        locals_of.push(map);
        buffers_of.push(buffers);
    }
    let global_types: HashMap<GlobalId, Type> =
        out.globals.iter().enumerate().map(|(i, g)| (GlobalId(i as u32), g.ty.clone())).collect();
    for (fi, f) in out.functions.iter_mut().enumerate() {
        let Some(body) = f.body.take() else { continue };
        let mut rw = Rewriter {
            prog,
            globals: &globals,
            byte_globals: &byte_globals,
            global_types: &global_types,
            locals: std::mem::take(&mut locals_of[fi]),
            buffers: std::mem::take(&mut buffers_of[fi]),
            new_locals: std::mem::take(&mut f.locals),
            split_params: &split_params,
            buffer_params: &buffer_params,
            returns: &returns,
            returns_into: std::mem::take(&mut returns_into[fi]),
            pointer_params: &pointer_params,
            pointers: std::mem::take(&mut pointers_of[fi]),
            reported: HashSet::new(),
            diags: Vec::new(),
        };
        let body = rw.block(body);
        f.locals = rw.new_locals;
        f.body = Some(body);
        diags.extend(rw.diags);
    }
    if diags.is_empty() { Ok(out) } else { Err(diags) }
}

/// Program-scope record constants (or arrays of them) whose address a pointer to records
/// takes: `__constant pair *p = &table[1];`, `p = table + k`, a call passing `table`.
fn addressed_record_globals(prog: &Program) -> HashSet<GlobalId> {
    let is_record_ptr = |t: &Type| matches!(t, Type::Pointer(to) if is_record_like(&to.ty));
    let mut out = HashSet::new();
    for f in &prog.functions {
        let Some(body) = &f.body else { continue };
        walk::for_each_stmt(body, &mut |s| {
            if let Stmt::Decl(id, Some(Init::Expr(e)), _) = s
                && is_record_ptr(&f.local(*id).ty)
            {
                pointer_roots(e, &mut out);
            }
        });
        walk::for_each_expr(body, &mut |e| match &e.kind {
            K::Assign(l, r) if is_record_ptr(&l.ty) => pointer_roots(r, &mut out),
            K::Call(_, args) => args.iter().filter(|a| is_record_ptr(&a.ty)).for_each(|a| pointer_roots(a, &mut out)),
            K::PtrCmp(_, a, b) | K::PtrDiff(a, b) if is_record_ptr(&a.ty) => {
                pointer_roots(a, &mut out);
                pointer_roots(b, &mut out);
            }
            _ => {}
        });
    }
    out
}

/// The program-scope variables a pointer value points into.
fn pointer_roots(e: &Expr, out: &mut HashSet<GlobalId>) {
    match &e.kind {
        K::PtrCast(x) | K::PtrAdd(x, _) => pointer_roots(x, out),
        K::Cond(_, a, b) => {
            pointer_roots(a, out);
            pointer_roots(b, out);
        }
        K::AddrOf(x) | K::Decay(x) => out.extend(place_global(x)),
        _ => {}
    }
}

/// The program-scope variable an access expression (`g`, `g[i]`, `g[i].m`, ...) is part of.
fn place_global(e: &Expr) -> Option<GlobalId> {
    match &e.kind {
        K::Global(g) => Some(*g),
        K::Member(base, _) => place_global(base),
        K::Deref(p) => match &p.kind {
            K::PtrAdd(base, _) => match &base.kind {
                K::Decay(x) => place_global(x),
                _ => None,
            },
            K::Decay(x) => place_global(x),
            _ => None,
        },
        _ => None,
    }
}

/// The generic-address-space pointer-to-record parameters of helper functions that every call
/// passes a pointer into a `__global` or `__constant` buffer (directly, or through another such
/// parameter): those become byte pointers like the buffers themselves.
fn generic_params_into_buffers(prog: &Program) -> HashMap<u32, HashSet<LocalId>> {
    let is_generic_record_ptr =
        |t: &Type| matches!(t, Type::Pointer(to) if is_record_like(&to.ty) && to.space == AddrSpace::Generic);
    let is_buffer_ptr = |t: &Type| matches!(t, Type::Pointer(to) if is_record_like(&to.ty) && matches!(to.space, AddrSpace::Global | AddrSpace::Constant));
    // Start from every candidate, and drop those some call passes anything else, to a fixpoint.
    let mut set: HashMap<u32, HashSet<LocalId>> = prog
        .functions
        .iter()
        .enumerate()
        .map(|(i, f)| (i as u32, f.params.iter().copied().filter(|p| is_generic_record_ptr(&f.local(*p).ty)).collect()))
        .collect();
    loop {
        let mut changed = false;
        for (ci, caller) in prog.functions.iter().enumerate() {
            let Some(body) = &caller.body else { continue };
            let mut drops = Vec::new();
            walk::for_each_expr(body, &mut |e| {
                let K::Call(f, args) = &e.kind else { return };
                let Some(callee) = prog.functions.get(f.0 as usize) else { return };
                for (p, a) in callee.params.iter().zip(args) {
                    if !set.get(&f.0).is_some_and(|s| s.contains(p)) {
                        continue;
                    }
                    let from_buffer = root_local(a).is_some_and(|r| {
                        is_buffer_ptr(&caller.local(r).ty) || set.get(&(ci as u32)).is_some_and(|s| s.contains(&r))
                    });
                    if !from_buffer {
                        drops.push((f.0, *p));
                    }
                }
            });
            for (f, p) in drops {
                changed |= set.get_mut(&f).is_some_and(|s| s.remove(&p));
            }
        }
        if !changed {
            return set;
        }
    }
}

fn new_leaf_locals(
    locals: &mut Vec<Local>,
    prog: &Program,
    of: &Local,
    leaves: Vec<(Leaf, Type)>,
    is_param: bool,
) -> Vec<(Path, LocalId)> {
    leaves
        .into_iter()
        .map(|(leaf, ty)| {
            locals.push(Local {
                name: leaf_name(&of.name, prog, &of.ty, &leaf.path).into(),
                ty,
                space: of.space,
                quals: of.quals,
                is_param,
                partition: None,
                lane_of: None,
                dependence_distance: None,
                span: of.span,
            });
            (leaf.path, LocalId(locals.len() as u32 - 1))
        })
        .collect()
}

/// The initializer of the leaf at `path` of an object of record-like type `ty` initialized
/// with `init`.
fn extract(prog: &Program, init: &Init, ty: &Type, path: &[u32]) -> Init {
    match (ty, init) {
        (Type::Array(elem, _), Init::List(items)) => {
            Init::List(items.iter().map(|i| extract(prog, i, elem, path)).collect())
        }
        (Type::Record(r), _) if !path.is_empty() => {
            let rec = &prog.records[r.0 as usize];
            if let (true, UnionStorage::Bytes(n)) = (rec.is_union, union_storage(rec)) {
                return union_bytes_init(prog, rec, init, n);
            }
            let field = rec.fields.get(path[0] as usize).map(|f| f.ty.clone()).unwrap_or(Type::Error);
            match init {
                Init::List(items) => match items.get(path[0] as usize) {
                    Some(i) => extract(prog, i, &field, &path[1..]),
                    None => zero_of(&sub_type(prog, &field, &path[1..])),
                },
                Init::Union(m, inner) => {
                    let member = rec.fields.get(*m as usize).map(|f| f.ty.clone()).unwrap_or(Type::Error);
                    same_bits(inner, &member, &field)
                }
                Init::Expr(_) => zero_of(&sub_type(prog, &field, &path[1..])),
            }
        }
        _ => init.clone(),
    }
}

/// The bytes of a union stored as bytes, from its initializer: the initialized member laid out
/// little-endian at its offset, zeros elsewhere.
fn union_bytes_init(prog: &Program, rec: &hir::Record, init: &Init, size: u32) -> Init {
    let mut bytes = zero_bytes(size);
    let member = match init {
        Init::Union(m, inner) => rec.fields.get(*m as usize).map(|f| (f, &**inner)),
        Init::List(items) => rec.fields.first().zip(items.first()),
        Init::Expr(_) => None,
    };
    if let Some((f, inner)) = member {
        lay_out(prog, &f.ty, f.offset, inner, &mut bytes);
    }
    Init::List(bytes.into_iter().map(Init::Expr).collect())
}

/// `size` zero bytes, for [`lay_out`] to fill.
fn zero_bytes(size: u32) -> Vec<Expr> {
    (0..size).map(|_| Expr::int(0, Type::Scalar(Scalar::U8), Span::default())).collect()
}

/// Writes the bytes of `init`, a value of type `ty`, into `bytes` from `offset` on.
fn lay_out(prog: &Program, ty: &Type, offset: u32, init: &Init, bytes: &mut [Expr]) {
    match (ty, init) {
        (Type::Array(elem, Some(n)), Init::List(items)) => {
            let size = record_bytes::size_of(prog, elem).unwrap_or(0);
            for (j, item) in items.iter().take(*n as usize).enumerate() {
                lay_out(prog, elem, offset + j as u32 * size, item, bytes);
            }
        }
        (Type::Vector(s, _), Init::List(items)) => {
            for (j, item) in items.iter().enumerate() {
                lay_out(prog, &Type::Scalar(*s), offset + j as u32 * s.size(), item, bytes);
            }
        }
        (Type::Vector(s, n), Init::Expr(e)) => {
            for j in 0..*n {
                let lane = Expr { kind: K::Swizzle(Box::new(e.clone()), vec![j]), ty: Type::Scalar(*s), span: e.span };
                lay_out(prog, &Type::Scalar(*s), offset + u32::from(j) * s.size(), &Init::Expr(lane), bytes);
            }
        }
        (Type::Record(r), _) => {
            let rec = &prog.records[r.0 as usize];
            let members: Vec<(&hir::Field, &Init)> = match init {
                Init::Union(m, inner) => rec.fields.get(*m as usize).map(|f| (f, &**inner)).into_iter().collect(),
                Init::List(items) if rec.is_union => rec.fields.first().zip(items.first()).into_iter().collect(),
                Init::List(items) => rec.fields.iter().zip(items).collect(),
                Init::Expr(_) => vec![],
            };
            for (f, item) in members {
                lay_out(prog, &f.ty, offset + f.offset, item, bytes);
            }
        }
        (Type::Scalar(_), Init::List(items)) => {
            if let Some(first) = items.first() {
                lay_out(prog, ty, offset, first, bytes);
            }
        }
        // A literal's bytes are literals (a `__constant` table is built from literal values).
        (Type::Scalar(s), Init::Expr(e)) if *s != Scalar::F16 && e.ty == *ty && e.as_bits().is_some() => {
            let bits = e.as_bits().unwrap_or(0);
            for k in 0..s.size() {
                let Some(slot) = bytes.get_mut((offset + k) as usize) else { return };
                *slot = Expr::int((bits >> (8 * k)) & 0xff, Type::Scalar(Scalar::U8), e.span);
            }
        }
        (Type::Scalar(s), Init::Expr(e)) => {
            let Some(u) = uint_of_size(s.size()) else { return };
            let u = Type::Scalar(u);
            let bits = if s.is_float() { bitcast(e.clone(), &u) } else { convert(e.clone(), &u) };
            for k in 0..s.size() {
                let Some(slot) = bytes.get_mut((offset + k) as usize) else { return };
                let shifted = if k == 0 {
                    bits.clone()
                } else {
                    let by = Expr::int(u64::from(8 * k), crate::types::INT, e.span);
                    Expr {
                        kind: K::Binary(hir::BinaryOp::Shr, Box::new(bits.clone()), Box::new(by)),
                        ty: u.clone(),
                        span: e.span,
                    }
                };
                *slot = convert(shifted, &Type::Scalar(Scalar::U8));
            }
        }
        _ => {}
    }
}

fn init_has_side_effects(init: &Init) -> bool {
    match init {
        Init::Expr(e) => e.has_side_effects(),
        Init::List(items) => items.iter().any(init_has_side_effects),
        Init::Union(_, i) => init_has_side_effects(i),
    }
}

/// Whether values of `ty` contain a union stored as its bytes.
fn contains_byte_union(prog: &Program, ty: &Type) -> bool {
    let Type::Record(r) = strip_arrays(ty).0 else { return false };
    let rec = &prog.records[r.0 as usize];
    if rec.is_union {
        return matches!(union_storage(rec), UnionStorage::Bytes(_));
    }
    rec.fields.iter().any(|f| contains_byte_union(prog, &f.ty))
}

/// Whether a record is initialized, somewhere inside `init`, from a record value (another
/// variable) rather than from a brace list: [`extract`] cannot split such a value.
fn has_record_value(init: &Init) -> bool {
    match init {
        Init::Expr(e) => is_record_like(&e.ty),
        Init::List(items) => items.iter().any(has_record_value),
        Init::Union(_, i) => has_record_value(i),
    }
}

/// The type of the leaf at `path` below `ty` (arrays of records kept around it).
fn sub_type(prog: &Program, ty: &Type, path: &[u32]) -> Type {
    let (elem, dims) = strip_arrays(ty);
    match (elem, path.first()) {
        (Type::Record(r), Some(&i)) => {
            let rec = &prog.records[r.0 as usize];
            if let (true, UnionStorage::Bytes(_)) = (rec.is_union, union_storage(rec)) {
                return wrap_arrays(union_storage(rec).ty(), &dims);
            }
            let f = &rec.fields[i as usize];
            wrap_arrays(sub_type(prog, &f.ty, &path[1..]), &dims)
        }
        _ => ty.clone(),
    }
}

/// A constant union member's initializer as the bits of the union's storage type.
fn same_bits(init: &Init, from: &Type, to: &Type) -> Init {
    match init {
        Init::Expr(e) if from != to => match (e.as_bits(), to) {
            (Some(bits), Type::Scalar(s)) if s.is_float() => Init::Expr(Expr {
                kind: K::Float(f64::from(f32::from_bits(bits as u32))),
                ty: to.clone(),
                span: e.span,
            }),
            (Some(bits), _) => Init::Expr(Expr::int(bits, to.clone(), e.span)),
            (None, _) => Init::Expr(Expr { kind: K::Bitcast(Box::new(e.clone())), ty: to.clone(), span: e.span }),
        },
        _ => init.clone(),
    }
}

fn zero_of(ty: &Type) -> Init {
    match ty {
        Type::Array(elem, Some(n)) => Init::List((0..*n).map(|_| zero_of(elem)).collect()),
        Type::Vector(s, n) => {
            Init::List((0..*n).map(|_| Init::Expr(Expr::int(0, Type::Scalar(*s), Span::default()))).collect())
        }
        _ => Init::Expr(Expr::int(0, ty.clone(), Span::default())),
    }
}

struct Rewriter<'a> {
    prog: &'a Program,
    /// The result elements of each function that returns a record.
    returns: &'a HashMap<u32, Vec<Element>>,
    /// When this function returns a record: each element's pointer parameter.
    returns_into: Vec<(Element, LocalId)>,
    /// Which parameters of each function point to record variables (split into leaf pointers).
    pointer_params: &'a HashMap<u32, HashSet<usize>>,
    /// This function's parameters pointing to record variables: a pointer per leaf.
    pointers: HashMap<LocalId, Vec<(Path, LocalId)>>,
    globals: &'a HashMap<GlobalId, Vec<(Path, GlobalId)>>,
    /// Program-scope record constants kept as their bytes (a pointer points into them), with
    /// the byte array each became.
    byte_globals: &'a HashMap<GlobalId, GlobalId>,
    global_types: &'a HashMap<GlobalId, Type>,
    locals: HashMap<LocalId, Vec<(Path, LocalId)>>,
    /// Kernel parameters pointing to records in `__global`/`__constant` memory (now byte
    /// pointers), with the record-like type they point to.
    buffers: HashMap<LocalId, Type>,
    new_locals: Vec<Local>,
    split_params: &'a HashMap<u32, Vec<Option<usize>>>,
    /// Per function: which parameters point to records in buffers.
    buffer_params: &'a HashMap<u32, Vec<bool>>,
    /// Record variables already reported as unsupported: their uses add no errors.
    reported: HashSet<LocalId>,
    diags: Vec<Diagnostic>,
}

impl Rewriter<'_> {
    fn unsupported(&mut self, what: &str, span: Span) {
        self.diags.push(
            Diagnostic::error(codes::UNSUPPORTED_AGGREGATE, format!("{what} is not yet supported by kiln")).at(span),
        );
    }

    fn block(&mut self, b: Block) -> Block {
        let mut out = Vec::new();
        for s in b {
            self.stmt(s, &mut out);
        }
        out
    }

    fn stmt(&mut self, s: Stmt, out: &mut Block) {
        match s {
            Stmt::Decl(id, init, span) if is_record_like(&self.new_locals[id.0 as usize].ty) => {
                self.record_decl(id, init, span, out)
            }
            Stmt::Decl(id, _, span) if matches!(&self.new_locals[id.0 as usize].ty, Type::Pointer(p) if is_record_like(&p.ty)) =>
            {
                let at = self.new_locals[id.0 as usize].span;
                self.unsupported("a pointer to a struct or union", at);
                self.reported.insert(id);
                out.push(Stmt::Decl(id, None, span));
            }
            Stmt::Decl(id, Some(Init::Expr(e)), span) if self.buffers.contains_key(&id) => match self.bptr(&e) {
                Some(b) => out.push(Stmt::Decl(id, Some(Init::Expr(b)), span)),
                None => self.unsupported("this pointer to structs", e.span),
            },
            Stmt::Decl(id, init, span) => {
                let init = init.map(|i| self.init(i));
                out.push(Stmt::Decl(id, init, span));
            }
            Stmt::Expr(mut e) if matches!(&e.kind, K::IncDec { target, .. } if self.is_buffer_var(target)) => {
                // The value of a statement is unused, so `p++` is `++p`.
                if let K::IncDec { prefix, .. } = &mut e.kind {
                    *prefix = true;
                }
                self.expr(&mut e);
                out.push(Stmt::Expr(e));
            }
            Stmt::Return(Some(e), span) if !self.returns_into.is_empty() => {
                let mut stores = Vec::new();
                let results: Vec<(Element, LocalId)> = self.returns_into.clone();
                let Some(values) = self.element_values(
                    &e,
                    &results.iter().map(|(el, _)| el.clone()).collect::<Vec<_>>(),
                    &mut stores,
                    span,
                ) else {
                    return self.unsupported("returning this struct value", e.span);
                };
                for ((el, ptr), value) in results.iter().zip(values) {
                    let p = Expr { kind: K::Local(*ptr), ty: self.new_locals[ptr.0 as usize].ty.clone(), span };
                    let target = Expr { kind: K::Deref(Box::new(p)), ty: el.ty.clone(), span };
                    stores.push(Stmt::Expr(Expr {
                        kind: K::Assign(Box::new(target), Box::new(value)),
                        ty: el.ty.clone(),
                        span,
                    }));
                }
                stores.push(Stmt::Return(None, span));
                out.push(Stmt::Block(stores));
            }
            Stmt::Expr(e) if matches!(&e.kind, K::Call(f, _) if self.returns.contains_key(&f.0)) => {
                let mut stmts = Vec::new();
                if self.call_into_temporaries(&e, &mut stmts).is_some() {
                    out.push(Stmt::Block(stmts));
                }
            }
            Stmt::Expr(e) if matches!(e.kind, K::Assign(..)) && is_record_like(&e.ty) => {
                let K::Assign(l, r) = e.kind else { return };
                let copies = self.copy(&l, &r, e.span);
                out.push(Stmt::Block(copies));
            }
            Stmt::Expr(e) if self.buffer_write_target(&e).is_some() => {
                let b = self.buffer_write(e);
                out.push(Stmt::Block(b));
            }
            // A struct or union value computed and discarded (`s;`) does nothing.
            Stmt::Expr(e) if is_record_like(&e.ty) && !e.has_side_effects() => {}
            Stmt::Expr(mut e) => {
                self.expr(&mut e);
                out.push(Stmt::Expr(e));
            }
            Stmt::If(mut c, t, e, span) => {
                self.expr(&mut c);
                let (t, e) = (self.block(t), self.block(e));
                out.push(Stmt::If(c, t, e, span));
            }
            Stmt::Loop(mut l) => {
                l.init = self.block(std::mem::take(&mut l.init));
                if let Some(c) = &mut l.cond {
                    self.expr(c);
                }
                if let Some(s) = &mut l.step {
                    if let K::IncDec { target, prefix, .. } = &mut s.kind
                        && self.is_buffer_var(target)
                    {
                        *prefix = true;
                    }
                    self.expr(s);
                }
                l.body = self.block(std::mem::take(&mut l.body));
                out.push(Stmt::Loop(l));
            }
            Stmt::Switch(mut v, arms, span) => {
                self.expr(&mut v);
                let arms =
                    arms.into_iter().map(|a| hir::SwitchArm { labels: a.labels, body: self.block(a.body) }).collect();
                out.push(Stmt::Switch(v, arms, span));
            }
            Stmt::Return(Some(mut e), span) => {
                self.expr(&mut e);
                out.push(Stmt::Return(Some(e), span));
            }
            Stmt::Block(b) => {
                let b = self.block(b);
                out.push(Stmt::Block(b));
            }
            other => out.push(other),
        }
    }

    fn init(&mut self, init: Init) -> Init {
        match init {
            Init::Expr(mut e) => {
                self.expr(&mut e);
                Init::Expr(e)
            }
            Init::List(items) => Init::List(items.into_iter().map(|i| self.init(i)).collect()),
            Init::Union(m, inner) => Init::Union(m, Box::new(self.init(*inner))),
        }
    }

    /// A record variable's declaration: one declaration per leaf, with its part of the
    /// initializer, or copies when the initializer is another record.
    fn record_decl(&mut self, id: LocalId, init: Option<Init>, span: Span, out: &mut Block) {
        let local = self.new_locals[id.0 as usize].clone();
        let leaves = variable_leaves(self.prog, &local.ty);
        let ids = new_leaf_locals(&mut self.new_locals, self.prog, &local, leaves, false);
        self.locals.insert(id, ids.clone());
        match init {
            Some(Init::Expr(e)) => {
                for (_, leaf) in &ids {
                    out.push(Stmt::Decl(*leaf, None, span));
                }
                let target = Expr { kind: K::Local(id), ty: local.ty.clone(), span };
                let copies = self.copy(&target, &e, span);
                out.push(Stmt::Block(copies));
            }
            Some(init) if has_record_value(&init) => {
                self.unsupported("initializing a struct member or element from another struct", span)
            }
            // A union stored as bytes gets each byte from its initializer, which reads it once
            // per byte: a value with side effects is computed once, into a temporary, first.
            Some(init) if init_has_side_effects(&init) && contains_byte_union(self.prog, &local.ty) => {
                let init = self.hoist_side_effects(init, out, span);
                self.record_decl_parts(&local, ids, Some(init), span, out);
            }
            init => self.record_decl_parts(&local, ids, init, span, out),
        }
    }

    /// `init` with each of its values that has side effects computed into a temporary, in order.
    fn hoist_side_effects(&mut self, init: Init, out: &mut Block, span: Span) -> Init {
        match init {
            Init::Expr(mut e) if e.has_side_effects() => {
                self.expr(&mut e);
                Init::Expr(self.temporary("init", e, out, span))
            }
            Init::Expr(e) => Init::Expr(e),
            Init::List(items) => Init::List(items.into_iter().map(|i| self.hoist_side_effects(i, out, span)).collect()),
            Init::Union(m, inner) => Init::Union(m, Box::new(self.hoist_side_effects(*inner, out, span))),
        }
    }

    /// One declaration per leaf of a record variable, each with its part of `init`.
    fn record_decl_parts(
        &mut self,
        local: &Local,
        ids: Vec<(Path, LocalId)>,
        init: Option<Init>,
        span: Span,
        out: &mut Block,
    ) {
        for (path, leaf) in ids {
            let part = init.as_ref().map(|i| extract(self.prog, i, &local.ty, &path)).map(|i| self.init(i));
            out.push(Stmt::Decl(leaf, part, span));
        }
    }

    fn leaves_at(&self, root: Root) -> Vec<(Path, Root)> {
        match root {
            Root::Local(id) => self
                .locals
                .get(&id)
                .map(|v| v.iter().map(|(p, l)| (p.clone(), Root::Local(*l))).collect())
                .unwrap_or_default(),
            Root::Global(id) => self
                .globals
                .get(&id)
                .map(|v| v.iter().map(|(p, g)| (p.clone(), Root::Global(*g))).collect())
                .unwrap_or_default(),
            Root::Ptr(id) => self
                .pointers
                .get(&id)
                .map(|v| v.iter().map(|(p, l)| (p.clone(), Root::Ptr(*l))).collect())
                .unwrap_or_default(),
        }
    }

    /// The place a record-rooted access expression denotes, or `None` when it is not one.
    fn place(&mut self, e: &Expr) -> Option<Place> {
        match &e.kind {
            K::Local(id) if self.locals.contains_key(id) => {
                Some(Place { root: Root::Local(*id), path: vec![], indices: vec![], view: None })
            }
            K::Global(id) if self.globals.contains_key(id) => {
                Some(Place { root: Root::Global(*id), path: vec![], indices: vec![], view: None })
            }
            K::Member(base, i) => {
                let mut p = self.place(base)?;
                let Type::Record(r) = base.ty else { return None };
                let rec = &self.prog.records[r.0 as usize];
                if rec.is_union {
                    if let UnionStorage::Bytes(_) = union_storage(rec) {
                        // Its members are reached through its bytes (`bplace`).
                        return None;
                    }
                    p.path.push(0);
                    p.view = Some(e.ty.clone());
                } else {
                    p.path.push(*i);
                }
                Some(p)
            }
            K::Deref(inner) if self.pointer_root(inner).is_some() => {
                let (id, index) = self.pointer_root(inner)?;
                let mut index = index.unwrap_or_else(|| Expr::int(0, SIZE_T, e.span));
                self.expr(&mut index);
                Some(Place { root: Root::Ptr(id), path: vec![], indices: vec![index], view: None })
            }
            K::Deref(inner) => {
                let (array, index) = match &inner.kind {
                    K::PtrAdd(d, idx) => (d, Some(idx)),
                    K::Decay(_) => (inner, None),
                    _ => return None,
                };
                let K::Decay(x) = &array.kind else { return None };
                let mut p = self.place(x)?;
                let mut index = match index {
                    Some(i) => (**i).clone(),
                    None => Expr::int(0, SIZE_T, e.span),
                };
                self.expr(&mut index);
                p.indices.push(index);
                Some(p)
            }
            _ => None,
        }
    }

    /// The types of the leaf pointers that parameter `pos` of function `f` is split into.
    fn pointer_param_types(&self, f: u32, pos: usize) -> Vec<Type> {
        let Some(func) = self.prog.functions.get(f as usize) else { return vec![] };
        let Some(p) = func.params.get(pos) else { return vec![] };
        let Type::Pointer(to) = &func.local(*p).ty else { return vec![] };
        variable_leaves(self.prog, &to.ty)
            .into_iter()
            .map(|(_, t)| Type::Pointer(Rc::new(Pointee { ty: t, space: to.space, quals: to.quals })))
            .collect()
    }

    /// `p` or `p + i` for a parameter `p` pointing to record variables: the parameter and `i`.
    fn pointer_root(&self, e: &Expr) -> Option<(LocalId, Option<Expr>)> {
        match &e.kind {
            K::Local(id) if self.pointers.contains_key(id) => Some((*id, None)),
            K::PtrAdd(base, i) => match &base.kind {
                K::Local(id) if self.pointers.contains_key(id) => Some((*id, Some((**i).clone()))),
                _ => None,
            },
            K::PtrCast(x) => self.pointer_root(x),
            _ => None,
        }
    }

    /// The pointers to the leaves of the record variables a pointer argument `a` points to
    /// (`&s`, `&a[i]`, `a`, another such parameter, `+ k` of them), for a parameter split into
    /// leaf pointers of type `param_types`.
    fn leaf_pointers(&mut self, a: &Expr, param_types: &[Type]) -> Option<Vec<Expr>> {
        let span = a.span;
        let mut inner = a;
        while let K::PtrCast(x) = &inner.kind {
            inner = x;
        }
        let (base, offset) = match &inner.kind {
            K::PtrAdd(b, k) => (&**b, Some((**k).clone())),
            _ => (inner, None),
        };
        let mut pointers: Vec<Expr> = match &base.kind {
            K::Local(id) if self.pointers.contains_key(id) => self.pointers[id]
                .iter()
                .map(|(_, l)| Expr { kind: K::Local(*l), ty: self.new_locals[l.0 as usize].ty.clone(), span })
                .collect(),
            K::AddrOf(x) | K::Decay(x) => {
                let mut place = self.place(x)?;
                if matches!(base.kind, K::Decay(_)) {
                    place.indices.push(Expr::int(0, SIZE_T, span));
                }
                let mut out = Vec::new();
                for (path, _) in self.leaves_at(place.root) {
                    if !path.starts_with(&place.path) {
                        continue;
                    }
                    let q = Place { path, ..place.clone() };
                    let leaf = self.leaf_expr(&q, span)?;
                    let ty = Type::Pointer(Rc::new(Pointee {
                        ty: leaf.ty.clone(),
                        space: self.space_of(place.root),
                        quals: Default::default(),
                    }));
                    out.push(Expr { kind: K::AddrOf(Box::new(leaf)), ty, span });
                }
                out
            }
            _ => return None,
        };
        if pointers.len() != param_types.len() {
            return None;
        }
        for (p, to) in pointers.iter_mut().zip(param_types) {
            if let Some(k) = &offset {
                let mut k = k.clone();
                self.expr(&mut k);
                *p = Expr { kind: K::PtrAdd(Box::new(p.clone()), Box::new(k)), ty: p.ty.clone(), span };
            }
            if p.ty != *to {
                *p = Expr { kind: K::PtrCast(Box::new(p.clone())), ty: to.clone(), span };
            }
        }
        Some(pointers)
    }

    /// The leaf variable `p` reaches, indexed; `None` when `p` stops at a record.
    fn leaf_expr(&mut self, p: &Place, span: Span) -> Option<Expr> {
        let (_, leaf) = self.leaves_at(p.root).into_iter().find(|(path, _)| *path == p.path)?;
        if let Root::Ptr(id) = leaf {
            // `*(leaf + i)`, then the indices of the arrays of records below.
            let ptr = Expr { kind: K::Local(id), ty: self.new_locals[id.0 as usize].ty.clone(), span };
            let Type::Pointer(to) = ptr.ty.clone() else { return None };
            let (first, rest) = p.indices.split_first()?;
            let at = Expr { kind: K::PtrAdd(Box::new(ptr.clone()), Box::new(first.clone())), ty: ptr.ty.clone(), span };
            let mut e = Expr { kind: K::Deref(Box::new(at)), ty: to.ty.clone(), span };
            for idx in rest {
                e = index(e, idx.clone(), to.space, span);
            }
            return Some(e);
        }
        let (mut e, space) = match leaf {
            Root::Local(id) => {
                let l = &self.new_locals[id.0 as usize];
                (Expr { kind: K::Local(id), ty: l.ty.clone(), span }, l.space)
            }
            Root::Ptr(_) => return None,
            Root::Global(g) => {
                let ty = self.global_types.get(&g).cloned().unwrap_or(Type::Error);
                (Expr { kind: K::Global(g), ty, span }, AddrSpace::Constant)
            }
        };
        for idx in &p.indices {
            e = index(e, idx.clone(), space, span);
        }
        Some(e)
    }

    fn space_of(&self, root: Root) -> AddrSpace {
        match root {
            Root::Local(id) => self.new_locals[id.0 as usize].space,
            Root::Global(_) => AddrSpace::Constant,
            Root::Ptr(id) => match self.pointers.get(&id).and_then(|v| v.first()) {
                Some((_, l)) => match &self.new_locals[l.0 as usize].ty {
                    Type::Pointer(to) => to.space,
                    _ => AddrSpace::Private,
                },
                None => AddrSpace::Private,
            },
        }
    }

    /// A transfer of struct packets moves their scalar and vector elements, in the order of
    /// [`record_bytes::elements`] (the order of the packet's lanes, `lower/pipes.rs`): a read
    /// into the elements of a record variable, a write of the elements of a record variable or
    /// of a record in a buffer.
    fn record_transfer(&mut self, e: &mut Expr) {
        let span = e.span;
        match &mut e.kind {
            K::PipeRead { dests, .. } => {
                let mut parts = Vec::new();
                for d in std::mem::take(dests) {
                    if !is_record_like(&d.ty) {
                        parts.push(d);
                        continue;
                    }
                    let Some(Side::Private(p)) = self.side(&d) else {
                        return self.unsupported(
                            "reading a struct packet straight into a buffer (read it into a variable)",
                            d.span,
                        );
                    };
                    for el in record_bytes::elements(self.prog, &d.ty) {
                        match self.private_element(&p, &el, span) {
                            Some(x) => parts.push(x),
                            None => return self.unsupported("reading a struct packet into this variable", d.span),
                        }
                    }
                }
                *dests = parts;
            }
            K::PipeWrite { values, .. } => {
                let mut parts = Vec::new();
                for v in std::mem::take(values) {
                    if !is_record_like(&v.ty) {
                        parts.push(v);
                        continue;
                    }
                    let Some(side) = self.side(&v) else {
                        return self.unsupported("sending this struct value (send a variable)", v.span);
                    };
                    for el in record_bytes::elements(self.prog, &v.ty) {
                        match self.element_read(&side, &el, span) {
                            Some(x) => parts.push(x),
                            None => return self.unsupported("sending a struct with this member type", v.span),
                        }
                    }
                }
                *values = parts;
            }
            _ => return,
        }
        if is_record_like(&e.ty) {
            e.ty = Type::Void;
        }
        for c in e.children_mut() {
            self.expr(c);
        }
    }

    /// Rewrites record accesses inside `e`.
    fn expr(&mut self, e: &mut Expr) {
        let packets = match &e.kind {
            K::PipeRead { dests, .. } => dests.iter().any(|d| is_record_like(&d.ty)),
            K::PipeWrite { values, .. } => values.iter().any(|v| is_record_like(&v.ty)),
            _ => false,
        };
        if packets {
            return self.record_transfer(e);
        }
        if let K::Assign(l, r) = &mut e.kind
            && let Some(p) = self.place(l)
            && p.view.is_some()
        {
            // A union member written through another member's type: store its bits.
            let Some(leaf) = self.leaf_expr(&p, l.span) else { return self.unsupported("this use of a union", e.span) };
            self.expr(r);
            let value = std::mem::replace(&mut **r, Expr::int(0, Type::Error, e.span));
            let value = bitcast(value, &leaf.ty);
            let view = e.ty.clone();
            let stored =
                Expr { kind: K::Assign(Box::new(leaf.clone()), Box::new(value)), ty: leaf.ty.clone(), span: e.span };
            *e = bitcast(stored, &view);
            return;
        }
        if let K::Assign(l, _) | K::CompoundAssign { lhs: l, .. } | K::IncDec { target: l, .. } = &e.kind
            && self.bplace(l).is_some()
        {
            return self.unsupported("a write to a struct member in a buffer inside a larger expression", e.span);
        }
        if !is_record_like(&e.ty)
            && matches!(e.kind, K::Member(..) | K::Deref(_))
            && let Some(b) = self.bplace(e)
        {
            match record_bytes::read(&b.bytes, &b.offset, &e.ty, e.span) {
                Some(x) => *e = x,
                None => self.unsupported("reading a member of this type from a buffer of structs", e.span),
            }
            return;
        }
        if let K::Local(id) = e.kind
            && self.buffers.contains_key(&id)
        {
            return self.unsupported("this use of a pointer to structs (only `p[i].member` and `p->member`)", e.span);
        }
        if !is_record_like(&e.ty)
            && matches!(e.kind, K::Member(..) | K::Deref(_))
            && let Some(p) = self.place(e)
        {
            match self.leaf_expr(&p, e.span) {
                Some(leaf) => {
                    let view = p.view.clone().unwrap_or_else(|| leaf.ty.clone());
                    *e = bitcast(leaf, &view);
                }
                None => self.unsupported("this struct access", e.span),
            }
            return;
        }
        if let Some(x) = self.buffer_pointer_op(e) {
            *e = x;
            return;
        }
        // `(s, x)`: a struct or union value computed and discarded does nothing (as for a
        // statement `s;`).
        if let K::Comma(items) = &mut e.kind
            && let Some((_, discarded)) = items.split_last()
            && discarded.iter().any(|x| is_record_like(&x.ty))
        {
            if discarded.iter().any(|x| is_record_like(&x.ty) && x.has_side_effects()) {
                return self.unsupported("a struct-valued operand of `,` with side effects", e.span);
            }
            let last = items.len() - 1;
            let mut k = 0;
            items.retain(|x| {
                k += 1;
                k - 1 == last || !is_record_like(&x.ty)
            });
        }
        if let K::Call(f, _) = &e.kind
            && self.returns.contains_key(&f.0)
            && is_record_like(&e.ty)
        {
            return self.unsupported("using a returned struct here (assign it to a variable first)", e.span);
        }
        if let K::Call(f, args) = &mut e.kind
            && (self.split_params.get(&f.0).is_some_and(|c| c.iter().any(Option::is_some))
                || self.pointer_params.get(&f.0).is_some_and(|p| !p.is_empty())
                || self.buffer_params.get(&f.0).is_some_and(|b| b.iter().any(|x| *x)))
        {
            let callee = f.0;
            let counts = self.split_params.get(&callee).cloned().unwrap_or_default();
            let bufs = self.buffer_params.get(&callee).cloned().unwrap_or_default();
            let mut new_args = Vec::new();
            let mut param = 0;
            for (pos, (a, c)) in std::mem::take(args).into_iter().zip(counts).enumerate() {
                let is_buffer = c.is_none() && bufs.get(param).copied().unwrap_or(false);
                param += c.unwrap_or(1);
                if self.pointer_params.get(&callee).is_some_and(|s| s.contains(&pos)) {
                    let types = self.pointer_param_types(callee, pos);
                    match self.leaf_pointers(&a, &types) {
                        Some(ptrs) => new_args.extend(ptrs),
                        None => self.unsupported("passing this pointer to a struct (pass `&variable`)", a.span),
                    }
                    continue;
                }
                if is_buffer {
                    match self.bptr(&a) {
                        Some(b) => new_args.push(b),
                        None => self.unsupported("passing this pointer to structs", a.span),
                    }
                    continue;
                }
                if c.is_none() {
                    let mut a = a;
                    self.expr(&mut a);
                    new_args.push(a);
                    continue;
                }
                match self.place(&a) {
                    Some(p) => {
                        for (path, _) in self.leaves_at(p.root) {
                            if path.starts_with(&p.path) {
                                let q = Place { path, ..p.clone() };
                                if let Some(x) = self.leaf_expr(&q, a.span) {
                                    new_args.push(x);
                                }
                            }
                        }
                    }
                    None => self.unsupported("passing this struct value", a.span),
                }
            }
            *args = new_args;
            return;
        }
        match &e.kind {
            K::AddrOf(x) if is_record_like(&x.ty) => return self.unsupported("a pointer to a struct or union", e.span),
            K::Cond(..) | K::Comma(_) | K::Assign(..) if is_record_like(&e.ty) => {
                return self.unsupported("this struct-valued expression", e.span);
            }
            _ if root_local(e).is_some_and(|id| self.reported.contains(&id)) => return,
            K::Deref(_) | K::Local(_) | K::Global(_) if is_record_like(&e.ty) && self.place(e).is_none() => {
                return self.unsupported("a struct or union in this memory (through a pointer)", e.span);
            }
            _ => {}
        }
        if let Type::Pointer(p) = &e.ty
            && is_record_like(&p.ty)
        {
            return self.unsupported("a pointer to a struct or union", e.span);
        }
        for c in e.children_mut() {
            self.expr(c);
        }
    }

    /// `dst = src;` for records: one assignment per scalar or vector element, each side a
    /// record variable or a record in a buffer.
    fn copy(&mut self, dst: &Expr, src: &Expr, span: Span) -> Block {
        // `s = read_channel_intel(c)`: the packet is read into the elements of `s`.
        if let K::PipeRead { dests, .. } = &src.kind
            && dests.is_empty()
        {
            let mut read = src.clone();
            if let K::PipeRead { dests, .. } = &mut read.kind {
                dests.push(dst.clone());
            }
            self.expr(&mut read);
            return vec![Stmt::Expr(read)];
        }
        if matches!(&src.kind, K::Call(f, _) if self.returns.contains_key(&f.0)) {
            let mut out = Vec::new();
            let Some(d) = self.side(dst) else {
                self.unsupported("copying a returned struct here", span);
                return vec![];
            };
            let d = self.evaluate_once(d, &mut out, span);
            let Some(values) = self.call_into_temporaries(src, &mut out) else { return vec![] };
            let elements = record_bytes::elements(self.prog, &dst.ty);
            for (el, value) in elements.iter().zip(values) {
                if !self.store_element(&d, el, value, span, &mut out) {
                    return vec![];
                }
            }
            return out;
        }
        let (Some(d), Some(s)) = (self.side(dst), self.side(src)) else {
            let reported = |e: &Expr| root_local(e).is_some_and(|id| self.reported.contains(&id));
            // A record returned by a call is reported once, at the function.
            if !matches!(src.kind, K::Call(..)) && !reported(dst) && !reported(src) {
                self.unsupported("copying this struct value", span);
            }
            return vec![];
        };
        let elements = record_bytes::elements(self.prog, &dst.ty);
        if elements.len() > MAX_COPY_ELEMENTS {
            self.unsupported("copying a struct this large", span);
            return vec![];
        }
        let mut out = Vec::new();
        let s = self.evaluate_once(s, &mut out, span);
        let d = self.evaluate_once(d, &mut out, span);
        for el in &elements {
            let Some(value) = self.element_read(&s, el, span) else {
                self.unsupported("copying this struct value", span);
                return vec![];
            };
            if !self.store_element(&d, el, value, span, &mut out) {
                return vec![];
            }
        }
        out
    }

    /// Stores `value` into element `el` of the record at `d`; `false` (reported) when it
    /// cannot.
    fn store_element(&mut self, d: &Side, el: &Element, value: Expr, span: Span, out: &mut Block) -> bool {
        match d {
            Side::Private(p) => {
                let Some(target) = self.private_element(p, el, span) else {
                    self.unsupported("copying this struct value", span);
                    return false;
                };
                let ty = target.ty.clone();
                out.push(Stmt::Expr(Expr { kind: K::Assign(Box::new(target), Box::new(value)), ty, span }));
            }
            Side::Choice(..) => {
                self.unsupported("assigning to a conditional struct expression", span);
                return false;
            }
            Side::Bytes(b) => {
                let at = offset_plus(&b.offset, el.offset, span);
                match record_bytes::write(&b.bytes, &at, &value, &el.ty, span) {
                    Some(stores) => out.extend(stores.into_iter().map(Stmt::Expr)),
                    None => {
                        self.unsupported("copying a struct with this member type into a buffer", span);
                        return false;
                    }
                }
            }
        }
        true
    }

    /// The values of the elements `elements` of the record value `e` (a variable, a buffer
    /// element, a `?:` of them or a call), with what computes them in `out`.
    fn element_values(&mut self, e: &Expr, elements: &[Element], out: &mut Block, span: Span) -> Option<Vec<Expr>> {
        if matches!(&e.kind, K::Call(f, _) if self.returns.contains_key(&f.0)) {
            return self.call_into_temporaries(e, out);
        }
        let side = self.side(e)?;
        let side = self.evaluate_once(side, out, span);
        elements.iter().map(|el| self.element_read(&side, el, span)).collect()
    }

    /// A call of a function returning a record: a temporary per element of the result, whose
    /// address the call gets after its own arguments; the temporaries as values.
    fn call_into_temporaries(&mut self, call: &Expr, out: &mut Block) -> Option<Vec<Expr>> {
        let span = call.span;
        let K::Call(f, _) = &call.kind else { return None };
        let elements = self.returns.get(&f.0)?.clone();
        let mut call = call.clone();
        // No longer a record value: its arguments are rewritten like any call's.
        call.ty = Type::Void;
        self.expr(&mut call);
        let mut temps = Vec::new();
        let mut pointers = Vec::new();
        for (k, el) in elements.iter().enumerate() {
            self.new_locals.push(Local {
                name: format!("result.{k}").into(),
                ty: el.ty.clone(),
                space: AddrSpace::Private,
                quals: Default::default(),
                is_param: false,
                partition: None,
                lane_of: None,
                dependence_distance: None,
                span,
            });
            let t = LocalId(self.new_locals.len() as u32 - 1);
            out.push(Stmt::Decl(t, None, span));
            let temp = Expr { kind: K::Local(t), ty: el.ty.clone(), span };
            let ptr = Type::Pointer(Rc::new(Pointee {
                ty: el.ty.clone(),
                space: AddrSpace::Private,
                quals: Default::default(),
            }));
            pointers.push(Expr { kind: K::AddrOf(Box::new(temp.clone())), ty: ptr, span });
            temps.push(temp);
        }
        if let K::Call(_, args) = &mut call.kind {
            args.extend(pointers);
        }
        out.push(Stmt::Expr(call));
        Some(temps)
    }

    /// A temporary declared in `out` holding `value`.
    fn temporary(&mut self, name: &str, value: Expr, out: &mut Block, span: Span) -> Expr {
        if matches!(value.kind, K::Int(_)) {
            return value;
        }
        self.new_locals.push(Local {
            name: name.into(),
            ty: value.ty.clone(),
            space: AddrSpace::Private,
            quals: Default::default(),
            is_param: false,
            partition: None,
            lane_of: None,
            dependence_distance: None,
            span,
        });
        let t = LocalId(self.new_locals.len() as u32 - 1);
        let ty = value.ty.clone();
        out.push(Stmt::Decl(t, Some(Init::Expr(value)), span));
        Expr { kind: K::Local(t), ty, span }
    }

    /// `b` with its byte offset in a temporary declared in `out` (the pointer's own index joins
    /// the offset).
    fn offset_once(&mut self, mut b: BytePlace, out: &mut Block, span: Span) -> BytePlace {
        while let K::PtrAdd(base, at) = &b.bytes.kind {
            b.offset = add(convert((**at).clone(), &SIZE_T), b.offset);
            b.bytes = (**base).clone();
        }
        b.offset = self.temporary("struct.offset", b.offset, out, span);
        b
    }

    /// `side` with its indices, byte offset and the conditions of its `?:` computed once, into
    /// temporaries declared in `out`: a copy writes its destination element by element, and
    /// the source's place may depend on it (`cur = nodes[cur.next];`, `best = c.x > best.x ?
    /// c : best;`), so the places are decided before the first element is written.
    fn evaluate_once(&mut self, side: Side, out: &mut Block, span: Span) -> Side {
        match side {
            Side::Private(mut p) => {
                for idx in &mut p.indices {
                    let value = std::mem::replace(idx, Expr::int(0, SIZE_T, span));
                    *idx = self.temporary("struct.index", value, out, span);
                }
                Side::Private(p)
            }
            Side::Bytes(b) => Side::Bytes(self.offset_once(b, out, span)),
            Side::Choice(c, a, b) => {
                let decided = self.temporary("struct.choice", c, out, span);
                let (a, b) = (self.evaluate_once(*a, out, span), self.evaluate_once(*b, out, span));
                Side::Choice(decided, Box::new(a), Box::new(b))
            }
        }
    }

    fn side(&mut self, e: &Expr) -> Option<Side> {
        if let Some(p) = self.place(e) {
            return Some(Side::Private(p));
        }
        // `c ? a : b` of records: each element chosen from either side; the condition is
        // evaluated once per element, so it must have no side effects.
        if let K::Cond(c, a, b) = &e.kind
            && !c.has_side_effects()
        {
            let (a, b) = (self.side(a)?, self.side(b)?);
            let mut c = (**c).clone();
            self.expr(&mut c);
            return Some(Side::Choice(c, Box::new(a), Box::new(b)));
        }
        self.bplace(e).map(Side::Bytes)
    }

    fn element_read(&mut self, side: &Side, el: &Element, span: Span) -> Option<Expr> {
        match side {
            Side::Private(p) => self.private_element(p, el, span),
            Side::Bytes(b) => record_bytes::read(&b.bytes, &offset_plus(&b.offset, el.offset, span), &el.ty, span),
            Side::Choice(c, a, b) => {
                let (a, b) = (self.element_read(a, el, span)?, self.element_read(b, el, span)?);
                let ty = a.ty.clone();
                Some(Expr { kind: K::Cond(Box::new(c.clone()), Box::new(a), Box::new(b)), ty, span })
            }
        }
    }

    /// The l-value of element `el` of the record variable at `p`.
    fn private_element(&mut self, p: &Place, el: &Element, span: Span) -> Option<Expr> {
        let mut q = p.clone();
        q.path.extend_from_slice(&el.path);
        q.indices.extend(el.record_indices.iter().map(|k| Expr::int(u64::from(*k), SIZE_T, span)));
        q.view = None;
        let space = self.space_of(q.root);
        let mut x = self.leaf_expr(&q, span)?;
        for k in &el.member_indices {
            x = index(x, Expr::int(u64::from(*k), SIZE_T, span), space, span);
        }
        Some(x)
    }

    /// Where a record-buffer access expression points: the byte pointer, the byte offset and
    /// the type found there; `None` when `e` is not one.
    fn bplace(&mut self, e: &Expr) -> Option<BytePlace> {
        match &e.kind {
            K::Global(g) if self.byte_globals.contains_key(g) => {
                let bytes_id = self.byte_globals[g];
                let ty = self.global_types.get(&bytes_id).cloned().unwrap_or(Type::Error);
                let storage = Expr { kind: K::Global(bytes_id), ty, span: e.span };
                byte_array_start(storage, AddrSpace::Constant, e.ty.clone())
            }
            K::Deref(inner) if matches!(&inner.ty, Type::Pointer(to) if is_record_like(&to.ty) || self.is_buffer_ptr(inner)) =>
            {
                let bytes = self.bptr(inner)?;
                Some(BytePlace { bytes, offset: Expr::int(0, SIZE_T, e.span), ty: e.ty.clone() })
            }
            K::Deref(inner) => {
                // An element of an array member: `p->a[i]`.
                let K::PtrAdd(base, idx) = &inner.kind else { return None };
                let K::Decay(x) = &base.kind else { return None };
                let b = self.bplace(x)?;
                let size = record_bytes::size_of(self.prog, &e.ty)?;
                if idx.has_side_effects() {
                    return None;
                }
                let mut idx = (**idx).clone();
                self.expr(&mut idx);
                Some(BytePlace { offset: add(b.offset, scale(idx, size, e.span)), ty: e.ty.clone(), ..b })
            }
            // One lane of a vector member: `p->v.y`.
            K::Swizzle(base, lanes) if lanes.len() == 1 => {
                let b = self.bplace(base)?;
                let Type::Vector(s, _) = base.ty else { return None };
                let off = u32::from(lanes[0]) * s.size();
                Some(BytePlace { offset: offset_plus(&b.offset, off, e.span), ty: e.ty.clone(), ..b })
            }
            K::Member(base, i) => {
                let Type::Record(r) = base.ty else { return None };
                if let Some(b) = self.union_bytes(base) {
                    let off = self.prog.records[r.0 as usize].fields.get(*i as usize)?.offset;
                    return Some(BytePlace { offset: offset_plus(&b.offset, off, e.span), ty: e.ty.clone(), ..b });
                }
                let b = self.bplace(base)?;
                let off = self.prog.records[r.0 as usize].fields.get(*i as usize)?.offset;
                Some(BytePlace { offset: offset_plus(&b.offset, off, e.span), ty: e.ty.clone(), ..b })
            }
            _ => None,
        }
    }

    /// A union variable (or array element, or member) stored as its bytes, as a byte place
    /// at its start; `None` for anything else.
    fn union_bytes(&mut self, e: &Expr) -> Option<BytePlace> {
        let Type::Record(r) = e.ty else { return None };
        let rec = &self.prog.records[r.0 as usize];
        if !rec.is_union {
            return None;
        }
        let UnionStorage::Bytes(_) = union_storage(rec) else { return None };
        let mut p = self.place(e)?;
        p.path.push(0);
        let storage = self.leaf_expr(&p, e.span)?;
        byte_array_start(storage, self.space_of(p.root), e.ty.clone())
    }

    fn is_buffer_ptr(&self, e: &Expr) -> bool {
        root_local(e).is_some_and(|id| self.buffers.contains_key(&id))
    }

    fn is_buffer_var(&self, e: &Expr) -> bool {
        matches!(e.kind, K::Local(id) if self.buffers.contains_key(&id))
    }

    /// A pointer to records in a buffer, as a byte pointer to the same place; `None` when `e`
    /// is not one kiln can express.
    fn bptr(&mut self, e: &Expr) -> Option<Expr> {
        let span = e.span;
        match &e.kind {
            K::Local(id) if self.buffers.contains_key(id) => {
                Some(Expr { kind: K::Local(*id), ty: self.new_locals[id.0 as usize].ty.clone(), span })
            }
            K::PtrAdd(x, i) => {
                let Type::Pointer(to) = &x.ty else { return None };
                let size = record_bytes::size_of(self.prog, &to.ty)?;
                if i.has_side_effects() {
                    return None;
                }
                let b = self.bptr(x)?;
                let mut i = (**i).clone();
                self.expr(&mut i);
                let ty = b.ty.clone();
                Some(Expr { kind: K::PtrAdd(Box::new(b), Box::new(scale(i, size, span))), ty, span })
            }
            K::AddrOf(x) | K::Decay(x) => {
                let b = self.bplace(x)?;
                let ty = b.bytes.ty.clone();
                Some(Expr { kind: K::PtrAdd(Box::new(b.bytes), Box::new(b.offset)), ty, span })
            }
            K::Cond(c, a, b) if !c.has_side_effects() => {
                let (a, b) = (self.bptr(a)?, self.bptr(b)?);
                let mut c = (**c).clone();
                self.expr(&mut c);
                let ty = a.ty.clone();
                Some(Expr { kind: K::Cond(Box::new(c), Box::new(a), Box::new(b)), ty, span })
            }
            // A conversion to the generic address space keeps the place.
            K::PtrCast(x) if matches!((&x.ty, &e.ty), (Type::Pointer(a), Type::Pointer(b)) if a.ty == b.ty) => {
                self.bptr(x)
            }
            _ => None,
        }
    }

    /// Assignment, arithmetic and comparison of pointers to records in buffers, on their byte
    /// pointers.
    fn buffer_pointer_op(&mut self, e: &Expr) -> Option<Expr> {
        let span = e.span;
        let record_size = |me: &Self, p: &Expr| match &p.ty {
            Type::Pointer(to) if is_record_like(&to.ty) => record_bytes::size_of(me.prog, &to.ty),
            _ => None,
        };
        match &e.kind {
            K::Assign(l, r) if self.is_buffer_var(l) => {
                let (l, r) = (self.bptr(l)?, self.bptr(r)?);
                let ty = l.ty.clone();
                Some(Expr { kind: K::Assign(Box::new(l), Box::new(r)), ty, span })
            }
            K::PtrCompoundAssign { sub, lhs, rhs } if self.is_buffer_var(lhs) => {
                let size = record_size(self, lhs)?;
                let l = self.bptr(lhs)?;
                let mut r = (**rhs).clone();
                self.expr(&mut r);
                let ty = l.ty.clone();
                Some(Expr {
                    kind: K::PtrCompoundAssign { sub: *sub, lhs: Box::new(l), rhs: Box::new(scale(r, size, span)) },
                    ty,
                    span,
                })
            }
            K::IncDec { target, increment, prefix: true } if self.is_buffer_var(target) => {
                let size = record_size(self, target)?;
                let l = self.bptr(target)?;
                let ty = l.ty.clone();
                let rhs = Expr::int(u64::from(size), SIZE_T, span);
                Some(Expr {
                    kind: K::PtrCompoundAssign { sub: !*increment, lhs: Box::new(l), rhs: Box::new(rhs) },
                    ty,
                    span,
                })
            }
            K::PtrCmp(op, a, b) if self.is_buffer_ptr(a) || self.is_buffer_ptr(b) => {
                let (a, b) = (self.bptr(a)?, self.bptr(b)?);
                Some(Expr { kind: K::PtrCmp(*op, Box::new(a), Box::new(b)), ty: e.ty.clone(), span })
            }
            K::PtrDiff(a, b) if self.is_buffer_ptr(a) || self.is_buffer_ptr(b) => {
                let size = record_size(self, a)?;
                let (a, b) = (self.bptr(a)?, self.bptr(b)?);
                let bytes = Expr { kind: K::PtrDiff(Box::new(a), Box::new(b)), ty: e.ty.clone(), span };
                let size = Expr::int(u64::from(size), e.ty.clone(), span);
                Some(Expr {
                    kind: K::Binary(hir::BinaryOp::Div, Box::new(bytes), Box::new(size)),
                    ty: e.ty.clone(),
                    span,
                })
            }
            _ => None,
        }
    }

    /// The buffer member a statement-level write (`=`, `op=`, `++`, `--`) goes to.
    fn buffer_write_target(&mut self, e: &Expr) -> Option<BytePlace> {
        match &e.kind {
            K::Assign(l, _) | K::CompoundAssign { lhs: l, .. } | K::IncDec { target: l, .. }
                if !is_record_like(&l.ty) =>
            {
                self.bplace(l)
            }
            _ => None,
        }
    }

    /// A write to a member in a buffer: the new value into a temporary, then its bytes.
    fn buffer_write(&mut self, e: Expr) -> Block {
        let span = e.span;
        let Some(b) = self.buffer_write_target(&e) else { return vec![] };
        // The member is written byte by byte, and its place may depend on it
        // (`p[p[0].next].next = 0;`): the place is decided first.
        let mut out = Vec::new();
        let b = self.offset_once(b, &mut out, span);
        let ty = b.ty.clone();
        let current = || record_bytes::read(&b.bytes, &b.offset, &ty, span);
        let value = match e.kind {
            K::Assign(_, r) => {
                let mut r = *r;
                self.expr(&mut r);
                Some(r)
            }
            K::CompoundAssign { op, rhs, op_ty, .. } => {
                let mut rhs = *rhs;
                self.expr(&mut rhs);
                current().map(|old| {
                    let old = convert(old, &op_ty);
                    let x = Expr { kind: K::Binary(op, Box::new(old), Box::new(rhs)), ty: op_ty.clone(), span };
                    convert(x, &ty)
                })
            }
            K::IncDec { increment, .. } => current().map(|old| {
                let promoted = match ty {
                    Type::Scalar(s) if s.size() < 4 => crate::types::INT,
                    _ => ty.clone(),
                };
                let op = if increment { hir::BinaryOp::Add } else { hir::BinaryOp::Sub };
                let one = Expr::int(1, promoted.clone(), span);
                let x =
                    Expr { kind: K::Binary(op, Box::new(convert(old, &promoted)), Box::new(one)), ty: promoted, span };
                convert(x, &ty)
            }),
            _ => None,
        };
        let Some(value) = value else {
            self.unsupported("writing a member of this type in a buffer of structs", span);
            return vec![];
        };
        self.new_locals.push(Local {
            name: "member.value".into(),
            ty: ty.clone(),
            space: AddrSpace::Private,
            quals: Default::default(),
            is_param: false,
            partition: None,
            lane_of: None,
            dependence_distance: None,
            span,
        });
        let t = LocalId(self.new_locals.len() as u32 - 1);
        let temp = Expr { kind: K::Local(t), ty: ty.clone(), span };
        let Some(stores) = record_bytes::write(&b.bytes, &b.offset, &temp, &ty, span) else {
            self.unsupported("writing a member of this type in a buffer of structs", span);
            return vec![];
        };
        out.push(Stmt::Decl(t, Some(Init::Expr(value)), span));
        out.extend(stores.into_iter().map(Stmt::Expr));
        out
    }
}

/// One side of a record copy.
enum Side {
    Private(Place),
    Bytes(BytePlace),
    /// `c ? a : b` (a source only).
    Choice(Expr, Box<Side>, Box<Side>),
}

/// A place in a buffer of records: the byte pointer, the byte offset, the type there.
#[derive(Clone, Debug)]
struct BytePlace {
    bytes: Expr,
    offset: Expr,
    ty: Type,
}

/// The start of a byte array in `space` holding a value of type `ty`, as a byte place.
fn byte_array_start(storage: Expr, space: AddrSpace, ty: Type) -> Option<BytePlace> {
    let span = storage.span;
    let Type::Array(elem, _) = &storage.ty else { return None };
    let ptr = Type::Pointer(Rc::new(Pointee { ty: (**elem).clone(), space, quals: Default::default() }));
    let bytes = Expr { kind: K::Decay(Box::new(storage)), ty: ptr, span };
    Some(BytePlace { bytes, offset: Expr::int(0, SIZE_T, span), ty })
}

fn add(a: Expr, b: Expr) -> Expr {
    let span = a.span;
    Expr { kind: K::Binary(hir::BinaryOp::Add, Box::new(a), Box::new(b)), ty: SIZE_T, span }
}

/// `idx * size` in `size_t`.
fn scale(idx: Expr, size: u32, span: Span) -> Expr {
    let idx = convert(idx, &SIZE_T);
    Expr {
        kind: K::Binary(hir::BinaryOp::Mul, Box::new(idx), Box::new(Expr::int(u64::from(size), SIZE_T, span))),
        ty: SIZE_T,
        span,
    }
}

/// The variable an access path starts from (`p` in `p[i].m`, `*p`, `s.m`).
fn root_local(e: &Expr) -> Option<LocalId> {
    match &e.kind {
        K::Local(id) => Some(*id),
        K::Deref(x) | K::Member(x, _) | K::Decay(x) | K::PtrAdd(x, _) | K::AddrOf(x) | K::PtrCast(x) => root_local(x),
        _ => None,
    }
}

/// `a[i]` on an array-typed l-value `a` in `space`.
fn index(a: Expr, i: Expr, space: AddrSpace, span: Span) -> Expr {
    let Type::Array(elem, _) = a.ty.clone() else { return a };
    let ptr = Type::Pointer(Rc::new(Pointee { ty: (*elem).clone(), space, quals: Default::default() }));
    let decayed = Expr { kind: K::Decay(Box::new(a)), ty: ptr.clone(), span };
    let at = Expr { kind: K::PtrAdd(Box::new(decayed), Box::new(i)), ty: ptr, span };
    Expr { kind: K::Deref(Box::new(at)), ty: (*elem).clone(), span }
}

fn bitcast(e: Expr, to: &Type) -> Expr {
    if e.ty == *to {
        return e;
    }
    let span = e.span;
    Expr { kind: K::Bitcast(Box::new(e)), ty: to.clone(), span }
}
