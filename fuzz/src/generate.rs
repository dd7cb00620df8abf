//! The random program generator: a seed gives one program, defined by construction.
//!
//! It builds typed trees top-down: every expression is asked for with the type it must have, so
//! the program type-checks as OpenCL C without conversions the language would insert; the
//! printer then makes each node defined for every operand value. Loops have bounded counts
//! (their product per work-item is capped), barriers appear only in uniform control flow, each
//! work-item writes only its own output slots and its own `__local` element, and channel writes
//! and reads pair one to one.

use crate::ast::*;
use crate::rng::Rng;

/// What the generated programs may contain.
#[derive(Clone, Debug)]
pub struct Config {
    pub vectors: bool,
    pub float: bool,
    pub records: bool,
    pub work_groups: bool,
    pub systems: bool,
    /// `goto` out of loops.
    pub gotos: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config { vectors: true, float: true, records: true, work_groups: true, systems: true, gotos: true }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Shape {
    /// One work-item (a single-work-item "task" kernel).
    Task,
    /// Several work-items, no work-groups.
    NdRange,
    /// Work-groups exchanging values through `__local` memory with barriers.
    WorkGroups,
    /// A producer and a consumer kernel joined by a channel.
    System,
}

#[derive(Clone, Debug)]
enum Binding {
    Var { name: String, ty: Ty, mutable: bool },
    Array { name: String, ty: Ty, len: u32 },
    Record { name: String, record: usize },
}

/// Slots of each output a work-item writes: the first `SINKS` hold the values the kernel
/// computed at its end, the rest take the stores of its body.
const SLOTS: u32 = 8;
const SINKS: u32 = 4;
/// Most loop iterations nested in one another per work-item.
const LOOP_BUDGET: u32 = 64;

struct Gen<'c> {
    rng: Rng,
    cfg: &'c Config,
    names: u32,
    scopes: Vec<Vec<Binding>>,
    records: Vec<Record>,
    tables: Vec<Table>,
    helpers: Vec<Helper>,
    inputs: Vec<(String, Int, u32)>,
    outputs: Vec<(String, Int)>,
    params: Vec<(String, Int)>,
    /// Generating a helper's body: no memory, no work-item functions.
    in_helper: bool,
    work_groups: bool,
    tile: Option<(String, Int, u32)>,
    /// Control flow is the same for every work-item of a group here.
    uniform: bool,
    loop_budget: u32,
    stmts_left: u32,
    /// Generating an index: its leaves load nothing, so indices do not nest.
    in_index: bool,
    /// The exit label of the innermost loop, if it has one (and no `switch` is in between).
    exit_label: Option<String>,
}

impl Gen<'_> {
    fn fresh(&mut self, prefix: &str) -> String {
        self.names += 1;
        format!("{prefix}{}", self.names)
    }

    fn bind(&mut self, b: Binding) {
        if let Some(s) = self.scopes.last_mut() {
            s.push(b);
        }
    }

    fn bindings(&self) -> impl Iterator<Item = &Binding> {
        self.scopes.iter().flatten()
    }

    fn vars_of(&self, ty: Ty, mutable_only: bool) -> Vec<String> {
        self.bindings()
            .filter_map(|b| match b {
                Binding::Var { name, ty: t, mutable } if *t == ty && (*mutable || !mutable_only) => Some(name.clone()),
                _ => None,
            })
            .collect()
    }

    /// (variable, field, type) of every record field in scope.
    fn record_fields(&self) -> Vec<(String, String, Int)> {
        self.bindings()
            .filter_map(|b| match b {
                Binding::Record { name, record } => Some((name.clone(), *record)),
                _ => None,
            })
            .flat_map(|(n, r)| self.records[r].fields.iter().map(move |(f, t)| (n.clone(), f.clone(), *t)))
            .collect()
    }

    fn int_ty(&mut self) -> Int {
        *self.rng.pick(&Int::ALL)
    }

    fn lanes(&mut self) -> u8 {
        *self.rng.pick(&[2, 2, 4, 4, 3, 8])
    }

    fn any_ty(&mut self) -> Ty {
        let r = self.rng.below(100);
        if self.cfg.vectors && r < 20 {
            let i = self.int_ty();
            let n = self.lanes();
            Ty::Vector(i, n)
        } else if self.cfg.float && r < 30 {
            Ty::Float
        } else {
            Ty::Int(self.int_ty())
        }
    }

    fn lit_bits(&mut self, i: Int) -> u64 {
        let min = if i.signed { 1u64 << (i.bits - 1) } else { 0 };
        let max = i.mask() >> i.signed as u32;
        let v = match self.rng.below(10) {
            0 => 0,
            1 => 1,
            2 => u64::MAX,
            3 => min,
            4 => max,
            5 => self.rng.below(i.bits as u64 + 1),
            6 | 7 => self.rng.below(200),
            _ => self.rng.bits(),
        };
        v & i.mask()
    }

    fn float_lit(&mut self) -> u64 {
        let f: f32 = match self.rng.below(8) {
            0 => 0.0,
            1 => -0.0,
            2 => 1.0,
            3 => 0.5,
            4 => -3.25,
            5 => 1.0e-40,
            6 => 3.0e38,
            _ => (self.rng.below(20001) as f32 - 10000.0) / 64.0,
        };
        f.to_bits() as u64
    }

    fn cast(to: Ty, e: Expr) -> Expr {
        if e.ty() == to { e } else { Expr::Cast(to, Box::new(e)) }
    }

    fn index_expr(&mut self, depth: u32) -> Expr {
        let t = Ty::Int(self.int_ty());
        let was = std::mem::replace(&mut self.in_index, true);
        let e = self.expr(t, depth.min(1));
        self.in_index = was;
        e
    }

    fn leaf_int(&mut self, i: Int) -> Expr {
        let t = Ty::Int(i);
        for _ in 0..4 {
            match self.rng.below(10) {
                9 if !self.in_index && !self.tables.is_empty() => {
                    let k = self.rng.below(self.tables.len() as u64) as usize;
                    let (table, elem, len) =
                        (self.tables[k].name.clone(), self.tables[k].elem, self.tables[k].rows.len() as u32);
                    let index = Box::new(self.index_expr(1));
                    let e = match elem {
                        TableElem::Int(j) => Expr::Load { array: table, len, index, ty: Ty::Int(j) },
                        TableElem::Record(r) => {
                            let (field, ft) = self.rng.pick(&self.records[r].fields).clone();
                            let arrow = self.rng.chance(50);
                            Expr::TableField { table, len, index, field, ty: Ty::Int(ft), arrow }
                        }
                    };
                    return Self::cast(t, e);
                }
                0 => return Expr::Lit(t, self.lit_bits(i)),
                1 => {
                    let vars = self.vars_of(t, false);
                    if !vars.is_empty() {
                        return Expr::Var(self.rng.pick(&vars).clone(), t);
                    }
                }
                2 => {
                    let vars: Vec<(String, Int)> = self
                        .bindings()
                        .filter_map(|b| match b {
                            Binding::Var { name, ty: Ty::Int(j), .. } => Some((name.clone(), *j)),
                            _ => None,
                        })
                        .collect();
                    if !vars.is_empty() {
                        let (n, j) = self.rng.pick(&vars).clone();
                        return Self::cast(t, Expr::Var(n, Ty::Int(j)));
                    }
                }
                3 | 4 if !self.in_helper && !self.in_index && !self.inputs.is_empty() => {
                    let (array, elem, len) = self.rng.pick(&self.inputs).clone();
                    let index = Box::new(self.index_expr(1));
                    return Self::cast(t, Expr::Load { array, len, index, ty: Ty::Int(elem) });
                }
                5 if !self.in_helper && !self.params.is_empty() => {
                    let (n, j) = self.rng.pick(&self.params).clone();
                    return Self::cast(t, Expr::Var(n, Ty::Int(j)));
                }
                6 if !self.in_helper => {
                    let mut kinds = vec![WorkItem::GlobalId, WorkItem::GlobalSize];
                    if self.work_groups {
                        kinds.extend([WorkItem::LocalId, WorkItem::LocalSize, WorkItem::GroupId]);
                    }
                    let w = *self.rng.pick(&kinds);
                    return Self::cast(t, Expr::WorkItem(w));
                }
                7 if !self.in_index => {
                    let arrays: Vec<(String, Ty, u32)> = self
                        .bindings()
                        .filter_map(|b| match b {
                            Binding::Array { name, ty: ty @ Ty::Int(_), len } => Some((name.clone(), *ty, *len)),
                            _ => None,
                        })
                        .collect();
                    if !arrays.is_empty() {
                        let (array, ty, len) = self.rng.pick(&arrays).clone();
                        let index = Box::new(self.index_expr(1));
                        return Self::cast(t, Expr::Load { array, len, index, ty });
                    }
                }
                8 => {
                    let fields = self.record_fields();
                    if !fields.is_empty() {
                        let (var, field, j) = self.rng.pick(&fields).clone();
                        return Self::cast(t, Expr::Field { var, field, ty: Ty::Int(j) });
                    }
                }
                _ => {}
            }
        }
        Expr::Lit(t, self.lit_bits(i))
    }

    fn leaf(&mut self, ty: Ty) -> Expr {
        match ty {
            Ty::Int(i) => self.leaf_int(i),
            Ty::Vector(i, n) => {
                let vars = self.vars_of(ty, false);
                match self.rng.below(4) {
                    0 if !vars.is_empty() => Expr::Var(self.rng.pick(&vars).clone(), ty),
                    1 => Expr::Lit(ty, self.lit_bits(i)),
                    2 => Expr::Cast(ty, Box::new(self.leaf_int(i))),
                    _ => {
                        let parts = (0..n).map(|_| self.leaf_int(i)).collect();
                        Expr::Build(ty, parts)
                    }
                }
            }
            Ty::Float => {
                let vars = self.vars_of(ty, false);
                match self.rng.below(3) {
                    0 if !vars.is_empty() => Expr::Var(self.rng.pick(&vars).clone(), ty),
                    1 => Expr::Lit(ty, self.float_lit()),
                    _ => {
                        let i = self.int_ty();
                        Expr::Cast(Ty::Float, Box::new(self.leaf_int(i)))
                    }
                }
            }
        }
    }

    fn expr(&mut self, ty: Ty, depth: u32) -> Expr {
        if depth == 0 || self.rng.chance(35) {
            return self.leaf(ty);
        }
        match ty {
            Ty::Int(i) => self.int_expr(i, depth - 1),
            Ty::Vector(i, n) => self.vector_expr(i, n, depth - 1),
            Ty::Float => self.float_expr(depth - 1),
        }
    }

    fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
        Expr::Binary(op, Box::new(a), Box::new(b))
    }

    fn int_expr(&mut self, i: Int, d: u32) -> Expr {
        use BinOp::*;
        let t = Ty::Int(i);
        match self.rng.below(17) {
            0..=3 => {
                let op = *self.rng.pick(&[Add, Sub, Mul, And, Or, Xor, Add, Mul]);
                Self::bin(op, self.expr(t, d), self.expr(t, d))
            }
            4 => {
                let op = *self.rng.pick(&[Div, Rem]);
                Self::bin(op, self.expr(t, d), self.expr(t, d))
            }
            5 => {
                let op = *self.rng.pick(&[Shl, Shr]);
                Self::bin(op, self.expr(t, d), self.expr(t, d))
            }
            6 => {
                let op = *self.rng.pick(&[Lt, Le, Gt, Ge, Eq, Ne]);
                let u = if self.cfg.float && self.rng.chance(15) { Ty::Float } else { Ty::Int(self.int_ty()) };
                Self::cast(t, Self::bin(op, self.expr(u, d), self.expr(u, d)))
            }
            7 => {
                let op = *self.rng.pick(&[LogAnd, LogOr]);
                let (u, v) = (Ty::Int(self.int_ty()), Ty::Int(self.int_ty()));
                Self::cast(t, Self::bin(op, self.expr(u, d), self.expr(v, d)))
            }
            8 => {
                let op = *self.rng.pick(&[UnOp::Neg, UnOp::BitNot, UnOp::LogNot]);
                Self::cast(t, Expr::Unary(op, Box::new(self.expr(t, d))))
            }
            9 => {
                let u = Ty::Int(self.int_ty());
                Self::cast(t, self.expr(u, d))
            }
            10 => {
                let c = Ty::Int(self.int_ty());
                Expr::Select(Box::new(self.expr(c, d)), Box::new(self.expr(t, d)), Box::new(self.expr(t, d)))
            }
            11 | 12 => self.int_builtin(i, d),
            13 if !self.helpers.is_empty() && !self.in_helper => {
                let h = self.rng.pick(&self.helpers).clone();
                let args = h.params.iter().map(|(_, pt)| self.expr(*pt, d)).collect();
                Self::cast(t, Expr::Helper { name: h.name, ret: h.ret, args })
            }
            14 if self.cfg.vectors => {
                let n = self.lanes();
                let v = self.expr(Ty::Vector(i, n), d);
                let lane = self.rng.below(n as u64) as u8;
                Expr::Lane(Box::new(v), lane)
            }
            15 if self.cfg.vectors => {
                let n = self.lanes();
                let bits = *self.rng.pick(&[8u8, 16, 32, 64]);
                let u = Ty::Vector(Int { bits, signed: self.rng.chance(50) }, n);
                let cmp = *self.rng.pick(&[Lt, Gt, Eq, Ne, Le, Ge]);
                let b = *self.rng.pick(&[Builtin::Any, Builtin::All]);
                Self::cast(t, Expr::Call(b, vec![Self::bin(cmp, self.expr(u, d), self.expr(u, d))]))
            }
            16 if self.cfg.float => {
                let f = self.expr(Ty::Float, d);
                if self.rng.chance(50) {
                    Expr::Call(Builtin::ConvertSat(i), vec![f])
                } else {
                    Self::cast(t, Expr::Call(Builtin::FloatBits, vec![f]))
                }
            }
            _ => self.leaf(t),
        }
    }

    fn int_builtin(&mut self, i: Int, d: u32) -> Expr {
        use Builtin::*;
        let t = Ty::Int(i);
        let b =
            *self.rng.pick(&[Min, Max, Clamp, Abs, AbsDiff, AddSat, SubSat, Hadd, Rhadd, MulHi, Rotate, Popcount, Clz]);
        match b {
            Abs | AbsDiff => {
                let arg = Ty::Int(Int { signed: self.rng.chance(60), ..i });
                let n = if b == Abs { 1 } else { 2 };
                let args = (0..n).map(|_| self.expr(arg, d)).collect();
                Self::cast(t, Expr::Call(b, args))
            }
            Popcount | Clz => Expr::Call(b, vec![self.expr(t, d)]),
            Clamp => Expr::Call(b, (0..3).map(|_| self.expr(t, d)).collect()),
            _ => Expr::Call(b, vec![self.expr(t, d), self.expr(t, d)]),
        }
    }

    fn vector_expr(&mut self, i: Int, n: u8, d: u32) -> Expr {
        use BinOp::*;
        let t = Ty::Vector(i, n);
        match self.rng.below(11) {
            0..=2 => {
                let op = *self.rng.pick(&[Add, Sub, Mul, And, Or, Xor, Shl, Shr]);
                Self::bin(op, self.expr(t, d), self.expr(t, d))
            }
            3 if i.signed => {
                let u = Ty::Vector(Int { bits: i.bits, signed: self.rng.chance(50) }, n);
                let op = *self.rng.pick(&[Lt, Le, Gt, Ge, Eq, Ne]);
                Self::bin(op, self.expr(u, d), self.expr(u, d))
            }
            4 => {
                let c = if self.rng.chance(50) {
                    Ty::Int(self.int_ty())
                } else {
                    Ty::Vector(Int { bits: i.bits, signed: true }, n)
                };
                Expr::Select(Box::new(self.expr(c, d)), Box::new(self.expr(t, d)), Box::new(self.expr(t, d)))
            }
            5 => {
                use Builtin::*;
                let b = *self.rng.pick(&[Min, Max, Clamp, AddSat, SubSat, Hadd, Rhadd, MulHi, Rotate, Popcount, Clz]);
                let n_args = match b {
                    Popcount | Clz => 1,
                    Clamp => 3,
                    _ => 2,
                };
                Expr::Call(b, (0..n_args).map(|_| self.expr(t, d)).collect())
            }
            6 => {
                let u = Ty::Vector(self.int_ty(), n);
                Self::cast(t, self.expr(u, d))
            }
            7 => {
                let m = *self.rng.pick(&[2u8, 4, 8]);
                let v = self.expr(Ty::Vector(i, m), d);
                if n == 3 {
                    return Self::cast(t, self.leaf_int(i));
                }
                let lanes = (0..n).map(|_| self.rng.below(m as u64) as u8).collect();
                Expr::Swizzle(Box::new(v), lanes)
            }
            8 => {
                let op = *self.rng.pick(&[UnOp::Neg, UnOp::BitNot]);
                Expr::Unary(op, Box::new(self.expr(t, d)))
            }
            9 => Expr::Build(t, (0..n).map(|_| self.expr(Ty::Int(i), d)).collect()),
            _ => self.leaf(t),
        }
    }

    fn float_expr(&mut self, d: u32) -> Expr {
        use BinOp::*;
        let t = Ty::Float;
        match self.rng.below(8) {
            0..=2 => {
                let op = *self.rng.pick(&[Add, Sub, Mul, Div]);
                Self::bin(op, self.expr(t, d), self.expr(t, d))
            }
            3 => Expr::Unary(UnOp::Neg, Box::new(self.expr(t, d))),
            4 => {
                let c = Ty::Int(self.int_ty());
                Expr::Select(Box::new(self.expr(c, d)), Box::new(self.expr(t, d)), Box::new(self.expr(t, d)))
            }
            5 => {
                use Builtin::*;
                let b = *self.rng.pick(&[Sqrt, Fabs, Floor, Ceil, Trunc, Round, Rint, Copysign, Fma, Fmin, Fmax]);
                let arity = match b {
                    Fma => 3,
                    Copysign | Fmin | Fmax => 2,
                    _ => 1,
                };
                Expr::Call(b, (0..arity).map(|_| self.expr(t, d)).collect())
            }
            6 => {
                let i = Ty::Int(self.int_ty());
                Expr::Cast(t, Box::new(self.expr(i, d)))
            }
            _ => self.leaf(t),
        }
    }

    // ---- statements ----

    fn block(&mut self, depth: u32) -> Vec<Stmt> {
        self.scopes.push(Vec::new());
        let n = self.rng.range(1, 4);
        let mut out = Vec::new();
        for _ in 0..n {
            if self.stmts_left == 0 {
                break;
            }
            self.stmts_left -= 1;
            out.push(self.stmt(depth));
        }
        self.scopes.pop();
        out
    }

    fn decl(&mut self) -> Stmt {
        let ty = self.any_ty();
        let init = self.expr(ty, 3);
        let name = self.fresh("v");
        self.bind(Binding::Var { name: name.clone(), ty, mutable: true });
        Stmt::Decl { name, ty, init }
    }

    fn stmt(&mut self, depth: u32) -> Stmt {
        for _ in 0..8 {
            match self.rng.below(25) {
                0..=5 => return self.decl(),
                6..=8 => {
                    let vars: Vec<(String, Ty)> = self
                        .bindings()
                        .filter_map(|b| match b {
                            Binding::Var { name, ty, mutable: true } => Some((name.clone(), *ty)),
                            _ => None,
                        })
                        .collect();
                    if !vars.is_empty() {
                        let (name, ty) = self.rng.pick(&vars).clone();
                        let value = self.expr(ty, 3);
                        return Stmt::Assign { place: Place::Var(name), value };
                    }
                }
                9 if !self.in_helper && self.outputs.iter().any(|(_, t)| t.bits == 32) && self.rng.chance(40) => {
                    let slots: Vec<(String, Int)> =
                        self.outputs.iter().filter(|(_, t)| t.bits == 32).cloned().collect();
                    let (buffer, ty) = self.rng.pick(&slots).clone();
                    let op = *self.rng.pick(&AtomicOp::ALL);
                    let index = self.index_expr(1);
                    let value = op.has_operand().then(|| {
                        let u = Ty::Int(self.int_ty());
                        Self::cast(Ty::Int(ty), self.expr(u, 2))
                    });
                    let vars: Vec<(String, Ty)> = self
                        .bindings()
                        .filter_map(|b| match b {
                            Binding::Var { name, ty: ty @ Ty::Int(_), mutable: true } => Some((name.clone(), *ty)),
                            _ => None,
                        })
                        .collect();
                    let result = (!vars.is_empty() && self.rng.chance(60)).then(|| self.rng.pick(&vars).clone());
                    let place = Place::Out { buffer, stride: SLOTS, base: SINKS, range: SLOTS - SINKS, index };
                    return Stmt::Atomic { op, place, ty, value, result };
                }
                9 | 10 if !self.in_helper && !self.outputs.is_empty() => {
                    let (buffer, oty) = self.rng.pick(&self.outputs).clone();
                    let index = self.index_expr(1);
                    let u = Ty::Int(self.int_ty());
                    let value = Self::cast(Ty::Int(oty), self.expr(u, 3));
                    let place = Place::Out { buffer, stride: SLOTS, base: SINKS, range: SLOTS - SINKS, index };
                    return Stmt::Assign { place, value };
                }
                11 => {
                    let ty = if self.cfg.vectors && self.rng.chance(20) {
                        let i = self.int_ty();
                        let n = self.lanes();
                        Ty::Vector(i, n)
                    } else {
                        Ty::Int(self.int_ty())
                    };
                    let len = self.rng.range(2, 8);
                    let count = self.rng.range(0, len);
                    let init = (0..count).map(|_| self.expr(ty, 2)).collect();
                    let name = self.fresh("a");
                    self.bind(Binding::Array { name: name.clone(), ty, len });
                    return Stmt::Array { name, ty, len, init };
                }
                12 if depth == 0 && !self.in_helper && self.rng.chance(30) => {
                    let vars: Vec<(String, Int)> = self
                        .bindings()
                        .filter_map(|b| match b {
                            Binding::Var { name, ty: Ty::Int(i), mutable: true } => Some((name.clone(), *i)),
                            _ => None,
                        })
                        .collect();
                    if !vars.is_empty() {
                        let (var, var_ty) = self.rng.pick(&vars).clone();
                        let elem = self.int_ty();
                        let fill_ty = Ty::Int(self.int_ty());
                        let fill = self.expr(fill_ty, 2);
                        let rows = self.rng.range(3, 6);
                        let cols = self.rng.range(3, 24);
                        // Two neighbours in a row (what `pad-rows` looks for) and one or two more.
                        let row = self.rng.range(0, 2) as i32 - 1;
                        let mut taps = vec![(row, -1), (row, 1)];
                        for _ in 0..self.rng.range(1, 2) {
                            taps.push((self.rng.range(0, 2) as i32 - 1, self.rng.range(0, 2) as i32 - 1));
                        }
                        let name = self.fresh("g");
                        return Stmt::Grid { name, elem, rows, cols, fill, var, var_ty, taps };
                    }
                }
                12 | 13 => {
                    let arrays: Vec<(String, Ty, u32)> = self
                        .bindings()
                        .filter_map(|b| match b {
                            Binding::Array { name, ty, len } => Some((name.clone(), *ty, *len)),
                            _ => None,
                        })
                        .collect();
                    if !arrays.is_empty() {
                        let (array, ty, len) = self.rng.pick(&arrays).clone();
                        let index = self.index_expr(2);
                        let value = self.expr(ty, 3);
                        return Stmt::Assign { place: Place::Elem { array, len, index }, value };
                    }
                }
                14 if !self.records.is_empty() => {
                    let r = self.rng.below(self.records.len() as u64) as usize;
                    let rec = self.records[r].clone();
                    let n = if rec.is_union { 1 } else { self.rng.range(0, rec.fields.len() as u32) as usize };
                    let init = rec.fields.iter().take(n).map(|(_, t)| self.expr(Ty::Int(*t), 2)).collect();
                    let name = self.fresh("r");
                    self.bind(Binding::Record { name: name.clone(), record: r });
                    let kw = if rec.is_union { "union" } else { "struct" };
                    return Stmt::Record { name, record: format!("{kw} {}", rec.name), init };
                }
                15 => {
                    let fields = self.record_fields();
                    if !fields.is_empty() {
                        let (var, field, t) = self.rng.pick(&fields).clone();
                        let value = self.expr(Ty::Int(t), 3);
                        return Stmt::Assign { place: Place::Field { var, field }, value };
                    }
                }
                16 => {
                    let vars: Vec<(String, Int, u8)> = self
                        .bindings()
                        .filter_map(|b| match b {
                            Binding::Var { name, ty: Ty::Vector(i, n), mutable: true } => Some((name.clone(), *i, *n)),
                            _ => None,
                        })
                        .collect();
                    if !vars.is_empty() {
                        let (var, i, n) = self.rng.pick(&vars).clone();
                        let lane = self.rng.below(n as u64) as u8;
                        let value = self.expr(Ty::Int(i), 3);
                        return Stmt::Assign { place: Place::Lane { var, lane }, value };
                    }
                }
                17 if depth < 3 => {
                    let c = Ty::Int(self.int_ty());
                    let cond = self.expr(c, 3);
                    let was = std::mem::replace(&mut self.uniform, false);
                    let then = self.block(depth + 1);
                    let els = if self.rng.chance(40) { self.block(depth + 1) } else { Vec::new() };
                    self.uniform = was;
                    return Stmt::If { cond, then, els };
                }
                18 | 19 if depth < 3 && self.loop_budget >= 2 => return self.for_loop(depth),
                20 if depth < 3 => {
                    let c = Ty::Int(self.int_ty());
                    let scrutinee = self.expr(c, 2);
                    let was = std::mem::replace(&mut self.uniform, false);
                    let label = self.exit_label.take();
                    let n = self.rng.range(1, 3);
                    let cases = (0..n).map(|v| (v, self.block(depth + 1), self.rng.chance(75))).collect();
                    let default = if self.rng.chance(60) { self.block(depth + 1) } else { Vec::new() };
                    self.exit_label = label;
                    self.uniform = was;
                    return Stmt::Switch { scrutinee, cases, default };
                }
                22..=24 if self.exit_label.is_some() => {
                    let Some(label) = self.exit_label.clone() else { continue };
                    let c = Ty::Int(self.int_ty());
                    let cond = self.expr(c, 2);
                    return Stmt::GotoIf { cond, label };
                }
                21 if self.uniform && self.tile.is_some() => {
                    let Some((tile, elem, size)) = self.tile.clone() else { continue };
                    let vars = self.vars_of(Ty::Int(elem), true);
                    if vars.is_empty() {
                        continue;
                    }
                    let var = self.rng.pick(&vars).clone();
                    let value = self.expr(Ty::Int(elem), 3);
                    let offset = self.rng.range(1, size.max(2) - 1);
                    return Stmt::Exchange { tile, size, value, var, offset };
                }
                _ => {}
            }
        }
        self.decl()
    }

    fn for_loop(&mut self, depth: u32) -> Stmt {
        let var = self.fresh("i");
        let var_ty = if self.rng.chance(50) { Int::INT } else { Int::UINT };
        let max = self.loop_budget.min(8);
        let (bound, count) = if !self.in_helper && !self.params.is_empty() && self.rng.chance(35) {
            let (name, _) = self.rng.pick(&self.params).clone();
            let mask = if max >= 7 { 7 } else { 3.min(max) };
            (Bound::Param { name, mask }, mask)
        } else {
            let n = self.rng.range(1, max);
            (Bound::Const(n), n)
        };
        let hint = match (self.rng.below(8), &bound) {
            (0, Bound::Const(_)) => LoopHint::UnrollFull,
            (1, _) => LoopHint::Unroll(2),
            (2, _) => LoopHint::UnrollHint(*self.rng.pick(&[1, 2, 4])),
            _ => LoopHint::None,
        };
        let was_uniform = self.uniform;
        let also = if self.rng.chance(15) {
            self.uniform = false;
            let c = Ty::Int(self.int_ty());
            Some(self.expr(c, 2))
        } else {
            None
        };
        let budget = self.loop_budget;
        self.loop_budget = (budget / count.max(1)).max(1);
        // A loop some work-items may leave early by `goto` is not uniform anywhere in its body.
        let exit = (self.cfg.gotos && self.rng.chance(35)).then(|| self.fresh("L"));
        if exit.is_some() {
            self.uniform = false;
        }
        let outer_label = std::mem::replace(&mut self.exit_label, exit.clone());
        self.scopes.push(vec![Binding::Var { name: var.clone(), ty: Ty::Int(var_ty), mutable: false }]);
        let body = self.block(depth + 1);
        self.scopes.pop();
        self.exit_label = outer_label;
        self.loop_budget = budget;
        self.uniform = was_uniform;
        Stmt::For { var, var_ty, bound, also, hint, body, exit }
    }

    /// What a kernel computed, stored in its sink slots so the run observes it.
    fn sinks(&mut self, body: &mut Vec<Stmt>) {
        let mut observed: Vec<Expr> = Vec::new();
        for b in self.scopes.last().cloned().unwrap_or_default() {
            match b {
                Binding::Var { name, ty, .. } => match ty {
                    Ty::Int(_) => observed.push(Expr::Var(name, ty)),
                    Ty::Vector(_, n) => {
                        for lane in [0, n - 1] {
                            observed.push(Expr::Lane(Box::new(Expr::Var(name.clone(), ty)), lane));
                        }
                    }
                    Ty::Float => observed.push(Expr::Call(Builtin::FloatBits, vec![Expr::Var(name, ty)])),
                },
                Binding::Array { name, ty, len } => {
                    for k in 0..len.min(3) {
                        let e =
                            Expr::Load { array: name.clone(), len, index: Box::new(Expr::Lit(Ty::UINT, k as u64)), ty };
                        observed.push(match ty {
                            Ty::Vector(..) => Expr::Lane(Box::new(e), 0),
                            _ => e,
                        });
                    }
                }
                Binding::Record { name, record } => {
                    for (f, t) in self.records[record].fields.clone() {
                        observed.push(Expr::Field { var: name.clone(), field: f, ty: Ty::Int(t) });
                    }
                }
            }
        }
        if self.outputs.is_empty() {
            return;
        }
        let mut slots: Vec<Option<Expr>> = vec![None; self.outputs.len() * SINKS as usize];
        for (k, e) in observed.into_iter().enumerate() {
            let s = k % slots.len();
            let oty = Ty::Int(self.outputs[s % self.outputs.len()].1);
            let e = Self::cast(oty, e);
            slots[s] = Some(match slots[s].take() {
                None => e,
                Some(prev) => Self::bin(BinOp::Add, Self::bin(BinOp::Mul, prev, Expr::Lit(oty, 31)), e),
            });
        }
        for (s, e) in slots.into_iter().enumerate() {
            let Some(value) = e else { continue };
            let (buffer, _) = self.outputs[s % self.outputs.len()].clone();
            let base = (s / self.outputs.len()) as u32;
            let place = Place::Out { buffer, stride: SLOTS, base, range: 1, index: Expr::Lit(Ty::UINT, 0) };
            body.push(Stmt::Assign { place, value });
        }
    }

    fn helper(&mut self) -> Helper {
        self.in_helper = true;
        let name = self.fresh("h");
        let n = self.rng.range(1, 3);
        let params: Vec<(String, Ty)> = (0..n).map(|k| (format!("x{k}"), Ty::Int(self.int_ty()))).collect();
        self.scopes.push(params.iter().map(|(p, t)| Binding::Var { name: p.clone(), ty: *t, mutable: true }).collect());
        let ret = Ty::Int(self.int_ty());
        let mut body = Vec::new();
        for _ in 0..self.rng.range(0, 3) {
            let ty = Ty::Int(self.int_ty());
            let init = self.expr(ty, 3);
            let v = self.fresh("t");
            self.bind(Binding::Var { name: v.clone(), ty, mutable: true });
            body.push(Stmt::Decl { name: v, ty, init });
        }
        let result = self.expr(ret, 3);
        self.scopes.pop();
        self.in_helper = false;
        Helper { name, ret, params, body, result }
    }

    /// A `__constant` table of integers or of one of the program's records.
    fn table(&mut self, k: usize) -> Table {
        let len = *self.rng.pick(&[2u32, 3, 4, 5, 8, 16]);
        let elem = if !self.records.is_empty() && self.rng.chance(50) {
            TableElem::Record(self.rng.below(self.records.len() as u64) as usize)
        } else {
            TableElem::Int(self.int_ty())
        };
        let types: Vec<Int> = match elem {
            TableElem::Int(i) => vec![i],
            TableElem::Record(r) => {
                let rec = &self.records[r];
                rec.fields.iter().take(if rec.is_union { 1 } else { rec.fields.len() }).map(|(_, t)| *t).collect()
            }
        };
        let rows = (0..len).map(|_| types.iter().map(|t| data(&mut self.rng, *t, 1)[0]).collect()).collect();
        Table { name: format!("T{k}"), elem, rows }
    }

    fn record(&mut self, k: usize) -> Record {
        let is_union = self.rng.chance(30);
        let fields = if is_union && self.rng.chance(50) {
            let bits = *self.rng.pick(&[8u8, 16, 32, 64]);
            vec![("s".to_string(), Int { bits, signed: true }), ("u".to_string(), Int { bits, signed: false })]
        } else if is_union {
            // Members of different sizes (kiln keeps such a union as its bytes); the first,
            // which an initializer sets, is the widest, so every byte has a value.
            let wide = if self.rng.chance(50) { 32 } else { 64 };
            let signed: Vec<bool> = (0..3).map(|_| self.rng.chance(50)).collect();
            vec![
                ("w".to_string(), Int { bits: wide, signed: signed[0] }),
                ("h".to_string(), Int { bits: 16, signed: signed[1] }),
                ("b".to_string(), Int { bits: 8, signed: signed[2] }),
            ]
        } else {
            (0..self.rng.range(2, 3)).map(|f| (format!("f{f}"), self.int_ty())).collect()
        };
        Record { name: format!("R{k}"), is_union, fields }
    }
}

fn data(rng: &mut Rng, ty: Int, len: u32) -> Vec<u64> {
    (0..len)
        .map(|_| {
            let v = match rng.below(4) {
                0 => rng.below(16),
                1 => rng.below(16).wrapping_neg(),
                _ => rng.bits(),
            };
            v & ty.mask()
        })
        .collect()
}

/// The program of one seed.
pub fn generate(seed: u64, allowed: &Config) -> Program {
    let mut rng = Rng::new(seed);
    // Each program takes some of the allowed features, so that some are plain C (gcc runs
    // them) and a failure's cause is among fewer features.
    let cfg = &Config {
        vectors: allowed.vectors && rng.chance(50),
        float: allowed.float && rng.chance(40),
        records: allowed.records && rng.chance(50),
        work_groups: allowed.work_groups,
        systems: allowed.systems,
        gotos: allowed.gotos && rng.chance(40),
    };
    let mut shapes = vec![Shape::Task, Shape::Task, Shape::NdRange];
    if cfg.work_groups {
        shapes.push(Shape::WorkGroups);
    }
    if cfg.systems {
        shapes.push(Shape::System);
    }
    let shape = *rng.pick(&shapes);
    let mut g = Gen {
        rng,
        cfg,
        names: 0,
        scopes: Vec::new(),
        records: Vec::new(),
        tables: Vec::new(),
        helpers: Vec::new(),
        inputs: Vec::new(),
        outputs: Vec::new(),
        params: Vec::new(),
        in_helper: false,
        work_groups: false,
        tile: None,
        uniform: true,
        loop_budget: LOOP_BUDGET,
        stmts_left: 0,
        in_index: false,
        exit_label: None,
    };
    if cfg.records {
        for k in 0..g.rng.range(0, 2) {
            let r = g.record(k as usize);
            g.records.push(r);
        }
    }
    if g.rng.chance(35) {
        for k in 0..g.rng.range(1, 2) {
            let t = g.table(k as usize);
            g.tables.push(t);
        }
    }
    for _ in 0..g.rng.range(0, 2) {
        let h = g.helper();
        g.helpers.push(h);
    }
    let (global_size, local_size) = match shape {
        Shape::Task | Shape::System => (1, None),
        Shape::NdRange => (*g.rng.pick(&[2u32, 4, 8]), None),
        Shape::WorkGroups => {
            let l = *g.rng.pick(&[2u32, 4, 8]);
            (l * g.rng.range(1, 2), Some(l))
        }
    };
    let reqd_size = local_size.is_some() && g.rng.chance(50);
    let mut buffers = Vec::new();
    let mut scalars = Vec::new();
    let mut channels = Vec::new();
    let mut kernels = Vec::new();
    let kernel_names: &[&str] = if shape == Shape::System { &["producer", "consumer"] } else { &["fuzz"] };
    let channel = (shape == Shape::System).then(|| {
        let ty = g.int_ty();
        let depth = g.rng.range(1, 8);
        let count = g.rng.range(1, 8);
        let style = *g.rng.pick(&[ChannelStyle::Intel, ChannelStyle::Pipe, ChannelStyle::XilinxPipe]);
        (Channel { name: "c0".into(), ty, depth, style }, count)
    });
    for (ki, kname) in kernel_names.iter().enumerate() {
        g.inputs.clear();
        g.outputs.clear();
        g.params.clear();
        g.work_groups = local_size.is_some();
        g.uniform = true;
        g.loop_budget = LOOP_BUDGET;
        g.stmts_left = g.rng.range(6, 18);
        let mut kb = Vec::new();
        let mut ks = Vec::new();
        let n_in = if kname == &"consumer" { g.rng.range(0, 1) } else { g.rng.range(1, 3) };
        for _ in 0..n_in {
            let ty = g.int_ty();
            let len = *g.rng.pick(&[4u32, 8, 16, 32]);
            let name = format!("in{}", buffers.len());
            let d = data(&mut g.rng, ty, len);
            buffers.push(Buffer { name: name.clone(), ty, data: d, output: false });
            g.inputs.push((name.clone(), ty, len));
            kb.push(name);
        }
        for _ in 0..g.rng.range(1, 2) {
            let ty = g.int_ty();
            let name = format!("out{}", buffers.len());
            buffers.push(Buffer {
                name: name.clone(),
                ty,
                data: vec![0; (global_size * SLOTS) as usize],
                output: true,
            });
            g.outputs.push((name.clone(), ty));
            kb.push(name);
        }
        for _ in 0..g.rng.range(0, 3) {
            let ty = g.int_ty();
            let name = format!("p{}", scalars.len());
            let value = data(&mut g.rng, ty, 1)[0];
            scalars.push(Scalar { name: name.clone(), ty, value });
            g.params.push((name.clone(), ty));
            ks.push(name);
        }
        g.tile = local_size.map(|l| ("tile".to_string(), g.int_ty(), l));
        g.scopes = vec![Vec::new()];
        let mut body = Vec::new();
        // A variable of the tile's type, so that an exchange has somewhere to land.
        if let Some((_, t, _)) = g.tile.clone() {
            let init = g.expr(Ty::Int(t), 2);
            let name = g.fresh("v");
            g.bind(Binding::Var { name: name.clone(), ty: Ty::Int(t), mutable: true });
            body.push(Stmt::Decl { name, ty: Ty::Int(t), init });
        }
        let count = g.rng.range(2, 6);
        for _ in 0..count {
            g.stmts_left = g.stmts_left.saturating_sub(1);
            let s = g.stmt(0);
            body.push(s);
        }
        if let Some((c, trips)) = &channel {
            body.extend(channel_loop(&mut g, c, *trips, ki == 0));
        }
        g.stmts_left = g.rng.range(0, 4);
        for _ in 0..g.stmts_left {
            let s = g.stmt(0);
            body.push(s);
        }
        g.sinks(&mut body);
        let tile = if body_has_exchange(&body) { g.tile.clone() } else { None };
        let tile_is_param = tile.is_some() && g.rng.chance(50);
        kernels.push(Kernel { name: kname.to_string(), buffers: kb, scalars: ks, tile, tile_is_param, body });
    }
    if let Some((c, _)) = channel {
        channels.push(c);
    }
    Program {
        seed,
        records: g.records,
        tables: g.tables,
        helpers: g.helpers,
        channels,
        kernels,
        buffers,
        scalars,
        global_size,
        local_size,
        reqd_size,
        slots: SLOTS,
    }
}

fn body_has_exchange(b: &[Stmt]) -> bool {
    b.iter().any(|s| matches!(s, Stmt::Exchange { .. }) || s.blocks().iter().any(|b| body_has_exchange(b)))
}

/// The producer's loop writing `trips` values, or the consumer's reading them into an
/// accumulator the sinks observe.
fn channel_loop(g: &mut Gen, c: &Channel, trips: u32, producer: bool) -> Vec<Stmt> {
    let var = g.fresh("i");
    let t = Ty::Int(c.ty);
    g.loop_budget = (LOOP_BUDGET / trips).max(1);
    let mut body;
    if producer {
        g.scopes.push(vec![Binding::Var { name: var.clone(), ty: Ty::INT, mutable: false }]);
        body = g.block(1);
        let value = g.expr(t, 3);
        body.push(Stmt::WriteChannel { channel: c.name.clone(), value });
        g.scopes.pop();
    } else {
        let acc = g.fresh("acc");
        let ulong = Ty::Int(Int { bits: 64, signed: false });
        // The accumulator is declared in the kernel's scope so the sinks see it.
        g.bind(Binding::Var { name: acc.clone(), ty: ulong, mutable: false });
        g.scopes.push(vec![Binding::Var { name: var.clone(), ty: Ty::INT, mutable: false }]);
        let x = g.fresh("x");
        body = vec![Stmt::Decl { name: x.clone(), ty: t, init: Expr::ReadChannel(c.name.clone(), t) }];
        g.bind(Binding::Var { name: x.clone(), ty: t, mutable: true });
        body.extend(g.block(1));
        let mixed = g.expr(t, 2);
        let step = Gen::bin(
            BinOp::Add,
            Gen::bin(BinOp::Mul, Expr::Var(acc.clone(), ulong), Expr::Lit(ulong, 1_000_003)),
            Gen::cast(ulong, Gen::bin(BinOp::Xor, Expr::Var(x, t), mixed)),
        );
        body.push(Stmt::Assign { place: Place::Var(acc.clone()), value: step });
        g.scopes.pop();
        let lp = counted_loop(var, trips, body);
        g.loop_budget = LOOP_BUDGET;
        return vec![Stmt::Decl { name: acc, ty: ulong, init: Expr::Lit(ulong, 0) }, lp];
    }
    g.loop_budget = LOOP_BUDGET;
    vec![counted_loop(var, trips, body)]
}

/// `for (int var = 0; var < trips; var++) { body }`, plain.
fn counted_loop(var: String, trips: u32, body: Vec<Stmt>) -> Stmt {
    Stmt::For { var, var_ty: Int::INT, bound: Bound::Const(trips), also: None, hint: LoopHint::None, body, exit: None }
}
