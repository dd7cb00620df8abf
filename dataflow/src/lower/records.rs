//! `records`: structs and unions become their members before vectors are split, so the rest of
//! the lowering never sees a record type.
//!
//! A rewrite of the typed program ([`hir`]) into an equivalent one without record values:
//! - a variable of a record type, or an array of them (private, `__local`, kernel-scope or
//!   program-scope `__constant`), becomes one variable per member — a *leaf*, nested records
//!   flattened — and an array of records one array per member (a structure of arrays: every
//!   member is its own memory, so members are read and written in parallel);
//! - a union whose members are scalars of one size is one leaf of its first member's type, which
//!   the other members read and write through a bit reinterpretation (`as_<T>`);
//! - `r.m`, `a[i].m`, `r.in[j].m[k]` become the leaf variable indexed by the record indices;
//! - a whole-record assignment `a = b;` or initialization becomes one assignment per leaf
//!   element;
//! - a helper function's record parameter becomes one parameter per leaf, and a call passes the
//!   leaves of its argument.
//!
//! What it cannot express yet gets `E0508`: pointers to records, records in `__global` memory,
//! kernel parameters and return values of record type, record-valued `?:`, and unions of other
//! member shapes.

use super::walk;
use kiln_frontend::Span;
use kiln_frontend::ast::AddrSpace;
use kiln_frontend::diag::{Diagnostic, codes};
use kiln_frontend::hir::{self, Block, Expr, ExprKind as K, GlobalId, Init, Local, LocalId, Program, Stmt};
use kiln_frontend::types::{Pointee, RecordId, SIZE_T, Type};
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

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

fn record_name(prog: &Program, r: RecordId) -> String {
    let rec = &prog.records[r.0 as usize];
    let kw = if rec.is_union { "union" } else { "struct" };
    match &rec.name {
        Some(n) => format!("{kw} {n}"),
        None => format!("{kw} <anonymous>"),
    }
}

fn leaves_of(prog: &Program, r: RecordId, prefix: &[u32], dims: &[u32], out: &mut Vec<Leaf>) -> Result<(), String> {
    let rec = &prog.records[r.0 as usize];
    if rec.is_union {
        let size = |t: &Type| match t {
            Type::Scalar(s) => Some(s.size()),
            _ => None,
        };
        let first = rec.fields.first().map(|f| f.ty.clone()).unwrap_or(Type::Error);
        if size(&first).is_none() || rec.fields.iter().any(|f| size(&f.ty) != size(&first)) {
            return Err(format!(
                "`{}` is not yet supported by kiln: it mixes members other than scalars of one size",
                record_name(prog, r)
            ));
        }
        let mut path = prefix.to_vec();
        path.push(0);
        out.push(Leaf { path, ty: first, dims: dims.to_vec() });
        return Ok(());
    }
    for (i, f) in rec.fields.iter().enumerate() {
        let mut path = prefix.to_vec();
        path.push(i as u32);
        match strip_arrays(&f.ty) {
            (Type::Record(inner), more) => {
                let mut d = dims.to_vec();
                d.extend(more);
                leaves_of(prog, inner, &path, &d, out)?;
            }
            _ => out.push(Leaf { path, ty: f.ty.clone(), dims: dims.to_vec() }),
        }
    }
    Ok(())
}

/// The leaves of a record-like type, each with the type its variable gets.
fn variable_leaves(prog: &Program, ty: &Type) -> Result<Vec<(Leaf, Type)>, String> {
    let (elem, outer) = strip_arrays(ty);
    let Type::Record(r) = elem else { return Ok(vec![]) };
    let mut leaves = Vec::new();
    leaves_of(prog, r, &[], &[], &mut leaves)?;
    Ok(leaves
        .into_iter()
        .map(|l| {
            let mut dims = outer.clone();
            dims.extend(&l.dims);
            let ty = wrap_arrays(l.ty.clone(), &dims);
            (l, ty)
        })
        .collect())
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
}

/// Rewrites every function of `prog` so that no expression has a record type.
pub(crate) fn split_records(prog: &Program) -> Result<Program, Vec<Diagnostic>> {
    let mut out = prog.clone();
    if prog.records.is_empty() {
        return Ok(out);
    }
    let mut diags = Vec::new();
    // Program-scope constants: one constant per leaf, its initializer taken from the record's.
    let mut globals: HashMap<GlobalId, Vec<(Path, GlobalId)>> = HashMap::new();
    for (gi, g) in prog.globals.iter().enumerate() {
        if !is_record_like(&g.ty) {
            continue;
        }
        if g.init.as_ref().is_some_and(has_record_value) {
            let m = "initializing a struct member or element from another struct is not yet supported by kiln";
            diags.push(Diagnostic::error(codes::UNSUPPORTED_AGGREGATE, m).at(g.span));
            continue;
        }
        match variable_leaves(prog, &g.ty) {
            Ok(leaves) => {
                let mut ids = Vec::new();
                for (leaf, ty) in leaves {
                    let init = g.init.as_ref().map(|i| extract(prog, i, &g.ty, &leaf.path));
                    out.globals.push(hir::Global {
                        name: leaf_name(&g.name, prog, &g.ty, &leaf.path).into(),
                        ty,
                        space: g.space,
                        init,
                        span: g.span,
                    });
                    ids.push((leaf.path, GlobalId(out.globals.len() as u32 - 1)));
                }
                globals.insert(GlobalId(gi as u32), ids);
            }
            Err(m) => diags.push(Diagnostic::error(codes::UNSUPPORTED_AGGREGATE, m).at(g.span)),
        }
    }
    // Helper parameters of record type: one parameter per leaf.
    let mut split_params: HashMap<u32, Vec<Option<usize>>> = HashMap::new();
    let mut locals_of: Vec<HashMap<LocalId, Vec<(Path, LocalId)>>> = Vec::new();
    for (fi, f) in out.functions.iter_mut().enumerate() {
        let mut map = HashMap::new();
        if is_record_like(&f.ret) {
            diags.push(
                Diagnostic::error(
                    codes::UNSUPPORTED_AGGREGATE,
                    format!("function `{}` returns a struct or union, which kiln does not build yet", f.name),
                )
                .at(f.span)
                .with_help("return the members through pointer parameters"),
            );
        }
        let mut params = Vec::new();
        let mut counts = Vec::new();
        for &p in &f.params.clone() {
            let local = f.local(p).clone();
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
                        format!("parameter `{}` is a pointer to a struct or union", local.name),
                        "pass the members, or the struct by value",
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
            match variable_leaves(prog, &local.ty) {
                Ok(leaves) if leaves.iter().all(|(_, t)| !matches!(t, Type::Array(..))) => {
                    let ids = new_leaf_locals(&mut f.locals, prog, &local, leaves, true);
                    counts.push(Some(ids.len()));
                    params.extend(ids.iter().map(|(_, id)| *id));
                    map.insert(p, ids);
                }
                Ok(_) => diags.push(
                    Diagnostic::error(
                        codes::UNSUPPORTED_AGGREGATE,
                        format!(
                            "parameter `{}` is a struct with an array member, which kiln cannot pass by value yet",
                            local.name
                        ),
                    )
                    .at(local.span),
                ),
                Err(m) => diags.push(Diagnostic::error(codes::UNSUPPORTED_AGGREGATE, m).at(local.span)),
            }
        }
        f.params = params;
        split_params.insert(fi as u32, counts);
        locals_of.push(map);
    }
    let global_types: HashMap<GlobalId, Type> =
        out.globals.iter().enumerate().map(|(i, g)| (GlobalId(i as u32), g.ty.clone())).collect();
    for (fi, f) in out.functions.iter_mut().enumerate() {
        let Some(body) = f.body.take() else { continue };
        let mut rw = Rewriter {
            prog,
            globals: &globals,
            global_types: &global_types,
            locals: std::mem::take(&mut locals_of[fi]),
            new_locals: std::mem::take(&mut f.locals),
            split_params: &split_params,
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
            let f = &prog.records[r.0 as usize].fields[i as usize];
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
    globals: &'a HashMap<GlobalId, Vec<(Path, GlobalId)>>,
    global_types: &'a HashMap<GlobalId, Type>,
    locals: HashMap<LocalId, Vec<(Path, LocalId)>>,
    new_locals: Vec<Local>,
    split_params: &'a HashMap<u32, Vec<Option<usize>>>,
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
            Stmt::Decl(id, init, span) => {
                let init = init.map(|i| self.init(i));
                out.push(Stmt::Decl(id, init, span));
            }
            Stmt::Expr(e) if matches!(e.kind, K::Assign(..)) && is_record_like(&e.ty) => {
                let K::Assign(l, r) = e.kind else { return };
                let copies = self.copy(&l, &r, e.span);
                out.push(Stmt::Block(copies));
            }
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
        let leaves = match variable_leaves(self.prog, &local.ty) {
            Ok(l) => l,
            Err(m) => {
                self.diags.push(Diagnostic::error(codes::UNSUPPORTED_AGGREGATE, m).at(local.span));
                self.reported.insert(id);
                return;
            }
        };
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
            init => {
                for (path, leaf) in ids {
                    let part = init.as_ref().map(|i| extract(self.prog, i, &local.ty, &path)).map(|i| self.init(i));
                    out.push(Stmt::Decl(leaf, part, span));
                }
            }
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
                if self.prog.records[r.0 as usize].is_union {
                    p.path.push(0);
                    p.view = Some(e.ty.clone());
                } else {
                    p.path.push(*i);
                }
                Some(p)
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

    /// The leaf variable `p` reaches, indexed; `None` when `p` stops at a record.
    fn leaf_expr(&mut self, p: &Place, span: Span) -> Option<Expr> {
        let (_, leaf) = self.leaves_at(p.root).into_iter().find(|(path, _)| *path == p.path)?;
        let (mut e, space) = match leaf {
            Root::Local(id) => {
                let l = &self.new_locals[id.0 as usize];
                (Expr { kind: K::Local(id), ty: l.ty.clone(), span }, l.space)
            }
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
        }
    }

    /// Rewrites record accesses inside `e`.
    fn expr(&mut self, e: &mut Expr) {
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
        if let K::Call(f, args) = &mut e.kind
            && let Some(counts) = self.split_params.get(&f.0)
            && counts.iter().any(Option::is_some)
        {
            let mut new_args = Vec::new();
            for (a, c) in std::mem::take(args).into_iter().zip(counts.clone()) {
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
        for c in walk::children_mut(e) {
            self.expr(c);
        }
    }

    /// `dst = src;` for records: one assignment per leaf element.
    fn copy(&mut self, dst: &Expr, src: &Expr, span: Span) -> Block {
        let (Some(d), Some(s)) = (self.place(dst), self.place(src)) else {
            let reported = |e: &Expr| match e.kind {
                K::Local(id) => self.reported.contains(&id),
                _ => false,
            };
            // A record returned by a call is reported once, at the function.
            if !matches!(src.kind, K::Call(..)) && !reported(dst) && !reported(src) {
                self.unsupported("copying this struct value", span);
            }
            return vec![];
        };
        let mut out = Vec::new();
        let leaves: Vec<Path> =
            self.leaves_at(d.root).into_iter().map(|(p, _)| p).filter(|p| p.starts_with(&d.path)).collect();
        for path in leaves {
            let suffix = &path[d.path.len()..];
            let dp = Place { path: path.clone(), ..d.clone() };
            let mut sp = s.clone();
            sp.path.extend_from_slice(suffix);
            let (Some(l), Some(r)) = (self.leaf_expr(&dp, span), self.leaf_expr(&sp, span)) else {
                self.unsupported("copying this struct value", span);
                return vec![];
            };
            let (ls, rs) = (self.space_of(d.root), self.space_of(s.root));
            let mut elems = vec![(l, r)];
            while let Type::Array(_, Some(n)) = elems[0].0.ty.clone() {
                if elems.len() * n as usize > MAX_COPY_ELEMENTS {
                    self.unsupported("copying a struct this large", span);
                    return vec![];
                }
                elems = elems
                    .into_iter()
                    .flat_map(|(l, r)| {
                        (0..n).map(move |k| {
                            let i = Expr::int(u64::from(k), SIZE_T, span);
                            (index(l.clone(), i.clone(), ls, span), index(r.clone(), i, rs, span))
                        })
                    })
                    .collect();
            }
            for (l, r) in elems {
                let ty = l.ty.clone();
                out.push(Stmt::Expr(Expr { kind: K::Assign(Box::new(l), Box::new(r)), ty, span }));
            }
        }
        out
    }
}

/// The variable an access path starts from (`p` in `p[i].m`, `*p`, `s.m`).
fn root_local(e: &Expr) -> Option<LocalId> {
    match &e.kind {
        K::Local(id) => Some(*id),
        K::Deref(x) | K::Member(x, _) | K::Decay(x) | K::PtrAdd(x, _) => root_local(x),
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
