//! The program as OpenCL C (the kernel file) and as plain C (gcc's reference).
//!
//! Both come from one printer: the dialect changes names (types, built-ins, work-item
//! functions) but never the shape of an expression, so the two compute the same by construction.
//! Every node prints in its defined form (see `ast`).

use crate::ast::*;
use std::collections::BTreeSet;
use std::fmt::Write as _;

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    OpenCl,
    C,
}

struct Printer {
    dialect: Dialect,
    /// How the program's channels are spelt (all of a program's channels share one style).
    channels: ChannelStyle,
    out: String,
    indent: usize,
}

fn c_type(i: Int) -> &'static str {
    match (i.bits, i.signed) {
        (8, true) => "signed char",
        (8, false) => "unsigned char",
        (16, true) => "short",
        (16, false) => "unsigned short",
        (32, true) => "int",
        (32, false) => "unsigned int",
        (64, true) => "long",
        _ => "unsigned long",
    }
}

impl Printer {
    fn ty(&self, t: Ty) -> String {
        match (self.dialect, t) {
            (Dialect::C, Ty::Int(i)) => c_type(i).to_string(),
            _ => t.name(),
        }
    }

    fn int(&self, i: Int) -> String {
        self.ty(Ty::Int(i))
    }

    fn line(&mut self, text: &str) {
        for _ in 0..self.indent {
            self.out.push_str("    ");
        }
        self.out.push_str(text);
        self.out.push('\n');
    }

    fn lit_int(&self, i: Int, bits: u64) -> String {
        let v = i.value(bits);
        if (-1000..=1000).contains(&v) {
            format!("(({}){v})", self.int(i))
        } else {
            format!("(({})0x{:x}UL)", self.int(i), bits & i.mask())
        }
    }

    fn work_item(&self, w: WorkItem) -> String {
        match (self.dialect, w) {
            (Dialect::C, WorkItem::GlobalId) => "((unsigned int)kiln_gid)".into(),
            (Dialect::C, WorkItem::GlobalSize) => "((unsigned int)kiln_gsize)".into(),
            (_, w) => {
                let f = match w {
                    WorkItem::GlobalId => "get_global_id",
                    WorkItem::GlobalSize => "get_global_size",
                    WorkItem::LocalId => "get_local_id",
                    WorkItem::LocalSize => "get_local_size",
                    WorkItem::GroupId => "get_group_id",
                };
                format!("((uint){f}(0))")
            }
        }
    }

    fn index(&self, index: &Expr, len: u32) -> String {
        format!("((({})({})) % {len}u)", self.int(Int::UINT), self.expr(index))
    }

    fn expr(&self, e: &Expr) -> String {
        match e {
            Expr::Lit(Ty::Int(i), bits) => self.lit_int(*i, *bits),
            Expr::Lit(t @ Ty::Vector(i, _), bits) => format!("(({})({}))", t.name(), self.lit_int(*i, *bits)),
            Expr::Lit(Ty::Float, bits) => {
                let f = f32::from_bits(*bits as u32);
                format!("({f:?}f)")
            }
            Expr::Var(n, _) => n.clone(),
            Expr::Load { array, len, index, .. } => format!("{array}[{}]", self.index(index, *len)),
            Expr::TableField { table, len, index, field, arrow: false, .. } => {
                format!("{table}[{}].{field}", self.index(index, *len))
            }
            Expr::TableField { table, len, index, field, arrow: true, .. } => {
                format!("({table} + {})->{field}", self.index(index, *len))
            }
            Expr::Field { var, field, .. } => format!("{var}.{field}"),
            Expr::WorkItem(w) => self.work_item(*w),
            Expr::Unary(op, a) => self.unary(*op, a),
            Expr::Binary(op, a, b) => self.binary(*op, a, b),
            Expr::Cast(t, a) => match (t, a.ty()) {
                (Ty::Vector(..), Ty::Vector(..)) => format!("convert_{}({})", t.name(), self.expr(a)),
                _ => format!("(({})({}))", self.ty(*t), self.expr(a)),
            },
            // `?:` promotes narrow operands to `int`; the cast gives the node its type back.
            Expr::Select(c, a, b) => match e.ty() {
                Ty::Int(i) => {
                    format!("(({})(({}) ? ({}) : ({})))", self.int(i), self.expr(c), self.expr(a), self.expr(b))
                }
                _ => format!("(({}) ? ({}) : ({}))", self.expr(c), self.expr(a), self.expr(b)),
            },
            Expr::Call(b, args) => self.call(*b, args),
            Expr::Helper { name, args, .. } => {
                let a: Vec<String> = args.iter().map(|a| self.expr(a)).collect();
                format!("{name}({})", a.join(", "))
            }
            Expr::Lane(v, lane) => format!("({}).s{:x}", self.expr(v), lane),
            Expr::Swizzle(v, lanes) => {
                let s: String = lanes.iter().map(|l| format!("{l:x}")).collect();
                format!("({}).s{s}", self.expr(v))
            }
            Expr::Build(t, parts) => {
                let p: Vec<String> = parts.iter().map(|a| self.expr(a)).collect();
                format!("(({})({}))", t.name(), p.join(", "))
            }
            Expr::ReadChannel(c, _) => match self.dialect {
                Dialect::OpenCl => format!("read_channel_intel({c})"),
                Dialect::C => format!("kiln_fifo_{c}[kiln_read_{c}++ % KILN_FIFO]"),
            },
        }
    }

    fn unary(&self, op: UnOp, a: &Expr) -> String {
        let t = a.ty();
        let x = self.expr(a);
        match (op, t) {
            (UnOp::LogNot, _) => format!("(!({x}))"),
            (UnOp::Neg, Ty::Float) => format!("(-({x}))"),
            (UnOp::Neg, Ty::Int(i)) => format!("(({})(-({})({x})))", self.int(i), self.int(i.wrap())),
            (UnOp::Neg, Ty::Vector(i, n)) => {
                let u = Ty::Vector(i.unsigned(), n).name();
                format!("as_{}(({u})0 - as_{u}({x}))", t.name())
            }
            (UnOp::BitNot, Ty::Int(i)) => format!("(({})~({x}))", self.int(i)),
            (UnOp::BitNot, _) => format!("(~({x}))"),
        }
    }

    fn binary(&self, op: BinOp, a: &Expr, b: &Expr) -> String {
        let t = a.ty();
        let (x, y) = (self.expr(a), self.expr(b));
        let sym = op.symbol();
        if op.is_compare() || op.is_logical() {
            return format!("(({x}) {sym} ({y}))");
        }
        match t {
            Ty::Float => format!("(({x}) {sym} ({y}))"),
            Ty::Int(i) => {
                let tn = self.int(i);
                match op {
                    BinOp::Add | BinOp::Sub | BinOp::Mul => {
                        let w = self.int(i.wrap());
                        format!("(({tn})(({w})({x}) {sym} ({w})({y})))")
                    }
                    BinOp::Div | BinOp::Rem => {
                        let f = if op == BinOp::Div { "div" } else { "rem" };
                        format!("kiln_{f}_{}({x}, {y})", i.name())
                    }
                    BinOp::Shl => {
                        let w = self.int(i.wrap());
                        format!("(({tn})(({w})({x}) << (({y}) & {})))", i.bits - 1)
                    }
                    BinOp::Shr => format!("(({tn})(({x}) >> (({y}) & {})))", i.bits - 1),
                    _ => format!("(({tn})(({x}) {sym} ({y})))"),
                }
            }
            Ty::Vector(i, n) => {
                let tn = t.name();
                let u = Ty::Vector(i.unsigned(), n).name();
                match op {
                    BinOp::Add | BinOp::Sub | BinOp::Mul => format!("as_{tn}(as_{u}({x}) {sym} as_{u}({y}))"),
                    BinOp::Shl => format!("as_{tn}(as_{u}({x}) << (as_{u}({y}) & ({u}){}))", i.bits - 1),
                    BinOp::Shr => format!("(({x}) >> (({y}) & ({tn}){}))", i.bits - 1),
                    _ => format!("(({x}) {sym} ({y}))"),
                }
            }
        }
    }

    fn call(&self, b: Builtin, args: &[Expr]) -> String {
        let a: Vec<String> = args.iter().map(|a| self.expr(a)).collect();
        let t = args[0].ty();
        match (self.dialect, b) {
            (_, Builtin::FloatBits) => format!("(isnan({0}) ? 2143289344 : as_int({0}))", a[0]),
            (_, Builtin::ConvertSat(i)) => format!("convert_{}_sat({})", i.name(), a[0]),
            (Dialect::OpenCl, Builtin::Clamp) => {
                format!("clamp({}, min({}, {}), max({1}, {2}))", a[0], a[1], a[2])
            }
            (Dialect::OpenCl, Builtin::Fmin | Builtin::Fmax) => format!("({}({}) + 0.0f)", b.name(), a.join(", ")),
            (Dialect::OpenCl, _) => format!("{}({})", b.name(), a.join(", ")),
            (Dialect::C, Builtin::Clamp) => {
                let n = t.name();
                format!("kiln_clamp_{n}({}, kiln_min_{n}({}, {}), kiln_max_{n}({1}, {2}))", a[0], a[1], a[2])
            }
            (Dialect::C, _) => format!("kiln_{}_{}({})", b.name(), t.name(), a.join(", ")),
        }
    }

    fn place(&self, p: &Place) -> String {
        match p {
            Place::Var(n) => n.clone(),
            Place::Elem { array, len, index } => format!("{array}[{}]", self.index(index, *len)),
            Place::Out { buffer, stride, base, range, index } => format!(
                "{buffer}[{} * {stride}u + {base}u + {}]",
                self.work_item(WorkItem::GlobalId),
                self.index(index, *range)
            ),
            Place::Field { var, field } => format!("{var}.{field}"),
            Place::Lane { var, lane } => format!("{var}.s{lane:x}"),
        }
    }

    fn block(&mut self, b: &[Stmt]) {
        self.indent += 1;
        for s in b {
            self.stmt(s);
        }
        self.indent -= 1;
    }

    fn stmt(&mut self, s: &Stmt) {
        match s {
            // A read from a pipe lands in a variable; it only ever initializes a declaration
            // (the generator makes it so, and the reducer never moves an impure expression).
            Stmt::Decl { name, ty, init: Expr::ReadChannel(c, _) }
                if self.dialect == Dialect::OpenCl && self.channels != ChannelStyle::Intel =>
            {
                let t = self.ty(*ty);
                match self.channels {
                    ChannelStyle::XilinxPipe => self.line(&format!("{t} {name}; read_pipe_block({c}, &{name});")),
                    _ => self.line(&format!("{t} {name}; while (read_pipe({c}, &{name}) != 0) {{ }}")),
                }
            }
            Stmt::Decl { name, ty, init } => {
                let l = format!("{} {name} = {};", self.ty(*ty), self.expr(init));
                self.line(&l);
            }
            Stmt::Array { name, ty, len, init } => {
                let items: Vec<String> = init.iter().map(|e| self.expr(e)).collect();
                let items = if items.is_empty() { "0".to_string() } else { items.join(", ") };
                let l = format!("{} {name}[{len}] = {{{items}}};", self.ty(*ty));
                self.line(&l);
            }
            Stmt::Record { name, record, init } => {
                let items: Vec<String> = init.iter().map(|e| self.expr(e)).collect();
                let items = if items.is_empty() { "0".to_string() } else { items.join(", ") };
                let l = format!("{record} {name} = {{{items}}};");
                self.line(&l);
            }
            Stmt::Assign { place, value } => {
                let l = format!("{} = {};", self.place(place), self.expr(value));
                self.line(&l);
            }
            Stmt::If { cond, then, els } => {
                let l = format!("if ({}) {{", self.expr(cond));
                self.line(&l);
                self.block(then);
                if els.is_empty() {
                    self.line("}");
                } else {
                    self.line("} else {");
                    self.block(els);
                    self.line("}");
                }
            }
            Stmt::For { var, var_ty, bound, also, hint, body, exit } => {
                if self.dialect == Dialect::OpenCl {
                    match hint {
                        LoopHint::None => {}
                        LoopHint::UnrollFull => self.line("#pragma unroll"),
                        LoopHint::Unroll(n) => self.line(&format!("#pragma unroll {n}")),
                        LoopHint::UnrollHint(n) => self.line(&format!("__attribute__((opencl_unroll_hint({n})))")),
                    }
                }
                let tn = self.int(*var_ty);
                let limit = match bound {
                    Bound::Const(n) => format!("{n}"),
                    Bound::Param { name, mask } => format!("(({tn})((({})({name})) & {mask}u))", self.int(Int::UINT)),
                };
                let extra = match also {
                    Some(e) => format!(" && ({})", self.expr(e)),
                    None => String::new(),
                };
                let l = format!("for ({tn} {var} = 0; {var} < {limit}{extra}; {var}++) {{");
                self.line(&l);
                self.block(body);
                self.line("}");
                if let Some(label) = exit {
                    self.line(&format!("{label}: ;"));
                }
            }
            Stmt::Switch { scrutinee, cases, default } => {
                let l = format!("switch ({}) {{", self.index(scrutinee, cases.len() as u32 + 1));
                self.line(&l);
                for (value, body, breaks) in cases {
                    self.line(&format!("case {value}: {{"));
                    self.block(body);
                    self.line(if *breaks { "} break;" } else { "}" });
                }
                self.line("default: {");
                self.block(default);
                self.line("}");
                self.line("}");
            }
            Stmt::Exchange { tile, size, value, var, offset } => {
                let lid = self.work_item(WorkItem::LocalId);
                let l = format!("{tile}[{lid} % {size}u] = {};", self.expr(value));
                self.line(&l);
                self.line("barrier(CLK_LOCAL_MEM_FENCE);");
                self.line(&format!("{var} = {tile}[({lid} + {offset}u) % {size}u];"));
                self.line("barrier(CLK_LOCAL_MEM_FENCE);");
            }
            Stmt::Grid { name, elem, rows, cols, fill, var, var_ty, taps } => {
                let (t, v, ul) = (self.int(*elem), self.int(*var_ty), self.int(Int::ULONG));
                let (r, c) = (format!("{name}_r"), format!("{name}_c"));
                self.line("{");
                self.line(&format!("{t} {name}[{rows}][{cols}];"));
                self.line(&format!("for (int {r} = 0; {r} < {rows}; {r}++)"));
                self.line(&format!("    for (int {c} = 0; {c} < {cols}; {c}++)"));
                let l =
                    format!("        {name}[{r}][{c}] = ({t})(({ul})({}) + ({ul})({r} * 7 + {c}));", self.expr(fill));
                self.line(&l);
                let at = |d: i32, x: &str| match d {
                    0 => x.to_string(),
                    d if d > 0 => format!("{x} + {d}"),
                    d => format!("{x} - {}", -d),
                };
                let reads: Vec<String> =
                    taps.iter().map(|(dr, dc)| format!("({ul}){name}[{}][{}]", at(*dr, &r), at(*dc, &c))).collect();
                self.line(&format!("for (int {r} = 1; {r} < {}; {r}++)", rows - 1));
                self.line(&format!("    for (int {c} = 1; {c} < {}; {c}++)", cols - 1));
                self.line(&format!("        {var} = ({v})(({ul}){var} * 3UL + ({}));", reads.join(" ^ ")));
                self.line("}");
            }
            Stmt::GotoIf { cond, label } => {
                let l = format!("if ({}) goto {label};", self.expr(cond));
                self.line(&l);
            }
            Stmt::Atomic { op, place, ty, value, result } => {
                let mut args = vec![format!("&{}", self.place(place))];
                args.extend(value.iter().map(|v| self.expr(v)));
                let call = match self.dialect {
                    Dialect::OpenCl => format!("atomic_{}({})", op.name(), args.join(", ")),
                    Dialect::C => format!("kiln_atomic_{}_{}({})", op.name(), ty.name(), args.join(", ")),
                };
                let l = match result {
                    Some((var, t)) => format!("{var} = (({}){call});", self.ty(*t)),
                    None => format!("{call};"),
                };
                self.line(&l);
            }
            Stmt::WriteChannel { channel, value } => {
                let x = self.expr(value);
                let l = match (self.dialect, self.channels) {
                    (Dialect::OpenCl, ChannelStyle::Intel) => format!("write_channel_intel({channel}, {x});"),
                    (Dialect::OpenCl, ChannelStyle::Pipe) => format!(
                        "{{ {} kiln_packet = {x}; while (write_pipe({channel}, &kiln_packet) != 0) {{ }} }}",
                        self.ty(value.ty())
                    ),
                    (Dialect::OpenCl, ChannelStyle::XilinxPipe) => {
                        format!(
                            "{{ {} kiln_packet = {x}; write_pipe_block({channel}, &kiln_packet); }}",
                            self.ty(value.ty())
                        )
                    }
                    (Dialect::C, _) => format!("kiln_fifo_{channel}[kiln_write_{channel}++ % KILN_FIFO] = {x};"),
                };
                self.line(&l);
            }
        }
    }

    fn records(&mut self, p: &Program) {
        for r in &p.records {
            let kw = if r.is_union { "union" } else { "struct" };
            self.line(&format!("{kw} {} {{", r.name));
            for (f, t) in &r.fields {
                let l = format!("    {} {f};", self.int(*t));
                self.line(&l);
            }
            self.line("};");
        }
    }

    /// The program-scope tables: `__constant` in OpenCL, `static const` in C.
    fn tables(&mut self, p: &Program) {
        for t in &p.tables {
            let (ty, rows): (String, Vec<String>) = match t.elem {
                TableElem::Int(i) => {
                    (self.int(i), t.rows.iter().map(|r| self.expr(&Expr::Lit(Ty::Int(i), r[0]))).collect())
                }
                TableElem::Record(r) => {
                    let rec = &p.records[r];
                    let kw = if rec.is_union { "union" } else { "struct" };
                    let rows = t
                        .rows
                        .iter()
                        .map(|row| {
                            let v: Vec<String> = row
                                .iter()
                                .zip(&rec.fields)
                                .map(|(v, (_, ft))| self.expr(&Expr::Lit(Ty::Int(*ft), *v)))
                                .collect();
                            format!("{{{}}}", v.join(", "))
                        })
                        .collect();
                    (format!("{kw} {}", rec.name), rows)
                }
            };
            let qual = match self.dialect {
                Dialect::OpenCl => "__constant",
                Dialect::C => "static const",
            };
            self.line(&format!("{qual} {ty} {}[{}] = {{{}}};", t.name, t.rows.len(), rows.join(", ")));
        }
    }

    fn division_helpers(&mut self, p: &Program) {
        let mut used = BTreeSet::new();
        crate::walk::program_exprs(p, &mut |e| {
            if let Expr::Binary(op @ (BinOp::Div | BinOp::Rem), a, _) = e
                && let Ty::Int(i) = a.ty()
            {
                used.insert((*op == BinOp::Div, i.bits, i.signed));
            }
        });
        for (div, bits, signed) in used {
            let i = Int { bits, signed };
            let (t, n) = (self.int(i), i.name());
            let (f, sym) = if div { ("div", "/") } else { ("rem", "%") };
            let guard = if signed { "b == 0 || b == -1" } else { "b == 0" };
            self.line(&format!("static {t} kiln_{f}_{n}({t} a, {t} b) {{ return ({guard}) ? a : ({t})(a {sym} b); }}"));
        }
    }

    fn helpers(&mut self, p: &Program) {
        for h in &p.helpers {
            let params: Vec<String> = h.params.iter().map(|(n, t)| format!("{} {n}", self.ty(*t))).collect();
            let l = format!("static {} {}({}) {{", self.ty(h.ret), h.name, params.join(", "));
            self.line(&l);
            self.block(&h.body);
            let l = format!("    return {};", self.expr(&h.result));
            self.line(&l);
            self.line("}");
        }
    }

    fn kernel(&mut self, p: &Program, k: &Kernel) {
        let mut params = Vec::new();
        for b in &k.buffers {
            let Some(buf) = p.buffer(b) else { continue };
            let t = self.int(buf.ty);
            params.push(match (self.dialect, buf.output) {
                (Dialect::OpenCl, false) => format!("__global const {t} *restrict {b}"),
                (Dialect::OpenCl, true) => format!("__global {t} *restrict {b}"),
                (Dialect::C, false) => format!("const {t} *{b}"),
                (Dialect::C, true) => format!("{t} *{b}"),
            });
        }
        for s in &k.scalars {
            let Some(sc) = p.scalar(s) else { continue };
            params.push(format!("{} {s}", self.int(sc.ty)));
        }
        if let (Some((name, t, _)), true) = (&k.tile, k.tile_is_param) {
            params.push(format!("__local {} *{name}", t.name()));
        }
        if self.dialect == Dialect::OpenCl {
            for (c, access) in p.pipe_params(k) {
                params.push(format!("{access} pipe {} {}", c.ty.name(), c.name));
            }
        }
        match self.dialect {
            Dialect::OpenCl => {
                let attr = match (p.reqd_size, p.local_size) {
                    (true, Some(l)) => format!("__attribute__((reqd_work_group_size({l}, 1, 1))) "),
                    _ => String::new(),
                };
                self.line(&format!("__kernel {attr}void {}({})", k.name, params.join(", ")));
            }
            Dialect::C => self.line(&format!("static void {}({})", k.name, params.join(", "))),
        }
        self.line("{");
        if let (Some((name, t, len)), false) = (&k.tile, k.tile_is_param) {
            self.line(&format!("    __local {} {name}[{len}];", t.name()));
        }
        self.block(&k.body);
        self.line("}");
    }
}

/// The kernel file.
pub fn opencl(p: &Program) -> String {
    let channels = p.channels.first().map_or(ChannelStyle::Intel, |c| c.style);
    let mut pr = Printer { dialect: Dialect::OpenCl, channels, out: String::new(), indent: 0 };
    pr.line(&format!("// kiln fuzz: seed {}", p.seed));
    if p.channels.iter().any(|c| c.style == ChannelStyle::Intel) {
        pr.line("#pragma OPENCL EXTENSION cl_intel_channels : enable");
    }
    if p.uses_float() {
        // Contraction would let an implementation fuse `a * b + c`; the engines must agree.
        pr.line("#pragma OPENCL FP_CONTRACT OFF");
    }
    for c in &p.channels {
        match c.style {
            ChannelStyle::Intel => {
                pr.line(&format!("channel {} {} __attribute__((depth({})));", c.ty.name(), c.name, c.depth))
            }
            ChannelStyle::XilinxPipe => {
                pr.line(&format!("pipe {} {} __attribute__((xcl_reqd_pipe_depth({})));", c.ty.name(), c.name, c.depth))
            }
            // Kernel parameters, sized by the run spec.
            ChannelStyle::Pipe => {}
        }
    }
    pr.records(p);
    pr.tables(p);
    pr.division_helpers(p);
    pr.helpers(p);
    for k in &p.kernels {
        pr.kernel(p, k);
    }
    pr.out
}

/// The built-ins of the C program, for each (built-in, type) the program calls.
/// The atomic functions of the C program, each a plain read-modify-write (C runs one
/// work-item at a time), for each (function, type) the program calls.
fn c_atomics(p: &Program, pr: &mut Printer) {
    fn walk(b: &[Stmt], used: &mut BTreeSet<(AtomicOp, bool)>) {
        for s in b {
            if let Stmt::Atomic { op, ty, .. } = s {
                used.insert((*op, ty.signed));
            }
            for inner in s.blocks() {
                walk(inner, used);
            }
        }
    }
    let mut used = BTreeSet::new();
    for k in &p.kernels {
        walk(&k.body, &mut used);
    }
    for (op, signed) in used {
        let (t, n) = if signed { ("int", "int") } else { ("unsigned int", "uint") };
        let new = match op {
            AtomicOp::Add => "(unsigned int)old + (unsigned int)v",
            AtomicOp::Sub => "(unsigned int)old - (unsigned int)v",
            AtomicOp::Xchg => "v",
            AtomicOp::Inc => "(unsigned int)old + 1u",
            AtomicOp::Dec => "(unsigned int)old - 1u",
            AtomicOp::Min => "v < old ? v : old",
            AtomicOp::Max => "v > old ? v : old",
            AtomicOp::And => "old & v",
            AtomicOp::Or => "old | v",
            AtomicOp::Xor => "old ^ v",
        };
        let operand = if op.has_operand() { format!(", {t} v") } else { String::new() };
        pr.line(&format!(
            "static {t} kiln_atomic_{}_{n}({t} *p{operand}) {{ {t} old = *p; *p = ({t})({new}); return old; }}",
            op.name()
        ));
    }
}

fn c_builtins(p: &Program, pr: &mut Printer) {
    let mut used = BTreeSet::new();
    crate::walk::program_exprs(p, &mut |e| {
        if let Expr::Call(b, args) = e
            && let Some(i) = args[0].ty().scalar()
        {
            used.insert((b.name(), i.bits, i.signed));
            if *b == Builtin::Clamp {
                used.insert(("min", i.bits, i.signed));
                used.insert(("max", i.bits, i.signed));
            }
        }
    });
    for (name, bits, signed) in used {
        let i = Int { bits, signed };
        let (t, u, n) = (c_type(i), c_type(i.unsigned()), i.name());
        let wide = if signed { "__int128" } else { "unsigned __int128" };
        let (lo, hi) = (i.value(if signed { 1 << (bits - 1) } else { 0 }), i.value(i.mask() >> signed as u32));
        let big = |v: i128| {
            if v >= 0 { format!("((__int128)0x{v:x}ULL)") } else { format!("(-(__int128)0x{:x}ULL)", -v) }
        };
        let body = match name {
            "min" => format!("{t} kiln_min_{n}({t} a, {t} b) {{ return a < b ? a : b; }}"),
            "max" => format!("{t} kiln_max_{n}({t} a, {t} b) {{ return a > b ? a : b; }}"),
            "clamp" => {
                format!("{t} kiln_clamp_{n}({t} x, {t} lo, {t} hi) {{ return x < lo ? lo : (x > hi ? hi : x); }}")
            }
            "abs" => format!("{u} kiln_abs_{n}({t} a) {{ return a < 0 ? ({u})(0 - ({u})a) : ({u})a; }}"),
            "abs_diff" => format!(
                "{u} kiln_abs_diff_{n}({t} a, {t} b) {{ return a > b ? ({u})(({u})a - ({u})b) : ({u})(({u})b - ({u})a); }}"
            ),
            "add_sat" | "sub_sat" => {
                let op = if name == "add_sat" { "+" } else { "-" };
                format!(
                    "{t} kiln_{name}_{n}({t} a, {t} b) {{ __int128 r = (__int128)a {op} (__int128)b; return ({t})(r < {lo} ? {lo} : r > {hi} ? {hi} : r); }}",
                    lo = big(lo),
                    hi = big(hi)
                )
            }
            "hadd" => format!("{t} kiln_hadd_{n}({t} a, {t} b) {{ return ({t})(((__int128)a + (__int128)b) >> 1); }}"),
            "rhadd" => {
                format!("{t} kiln_rhadd_{n}({t} a, {t} b) {{ return ({t})(((__int128)a + (__int128)b + 1) >> 1); }}")
            }
            "mul_hi" => {
                format!("{t} kiln_mul_hi_{n}({t} a, {t} b) {{ return ({t})((({wide})a * ({wide})b) >> {bits}); }}")
            }
            "rotate" => format!(
                "{t} kiln_rotate_{n}({t} a, {t} b) {{ unsigned s = (unsigned)(({u})b % {bits}u); {u} x = ({u})a; return s == 0 ? a : ({t})({u})(({u})(x << s) | ({u})(x >> ({bits}u - s))); }}"
            ),
            "popcount" => format!(
                "{t} kiln_popcount_{n}({t} a) {{ return ({t})__builtin_popcountll((unsigned long long)({u})a); }}"
            ),
            "clz" => format!(
                "{t} kiln_clz_{n}({t} a) {{ return ({u})a == 0 ? ({t}){bits} : ({t})(__builtin_clzll((unsigned long long)({u})a) - {}); }}",
                64 - bits as u32
            ),
            _ => continue,
        };
        pr.line(&format!("static {body}"));
    }
}

/// The program as C with a `main` that runs every work-item (a system's kernels one after
/// the other, channels as queues) and prints each buffer as `=NAME V0 V1 ...`.
pub fn c(p: &Program) -> String {
    let mut pr = Printer { dialect: Dialect::C, channels: ChannelStyle::Intel, out: String::new(), indent: 0 };
    pr.line(&format!("/* kiln fuzz: seed {} as C */", p.seed));
    pr.line("#include <stdio.h>");
    pr.line("static unsigned long kiln_gid, kiln_gsize;");
    pr.line("#define KILN_FIFO 65536");
    for c in &p.channels {
        let t = c_type(c.ty);
        pr.line(&format!(
            "static {t} kiln_fifo_{0}[KILN_FIFO]; static unsigned long kiln_read_{0}, kiln_write_{0};",
            c.name
        ));
    }
    pr.records(p);
    pr.tables(p);
    c_builtins(p, &mut pr);
    c_atomics(p, &mut pr);
    pr.division_helpers(p);
    pr.helpers(p);
    for k in &p.kernels {
        pr.kernel(p, k);
    }
    pr.line("int main(void) {");
    for b in &p.buffers {
        let t = c_type(b.ty);
        let vals: Vec<String> = b.data.iter().map(|v| format!("({t})0x{:x}ULL", v & b.ty.mask())).collect();
        let init = if vals.is_empty() { "0".into() } else { vals.join(", ") };
        pr.line(&format!("    static {t} {}[{}] = {{{init}}};", b.name, b.data.len().max(1)));
    }
    pr.line(&format!("    kiln_gsize = {};", p.global_size));
    for k in &p.kernels {
        let mut args: Vec<String> = k.buffers.clone();
        for s in &k.scalars {
            if let Some(sc) = p.scalar(s) {
                args.push(format!("({})0x{:x}ULL", c_type(sc.ty), sc.value & sc.ty.mask()));
            }
        }
        pr.line(&format!("    for (kiln_gid = 0; kiln_gid < kiln_gsize; kiln_gid++) {}({});", k.name, args.join(", ")));
    }
    for b in &p.buffers {
        let fmt = if b.ty.signed { "%lld" } else { "%llu" };
        let cast = if b.ty.signed { "long long" } else { "unsigned long long" };
        let mut l = String::new();
        let _ = write!(
            l,
            "    printf(\"={0}\"); for (unsigned long i = 0; i < {1}; i++) printf(\" {fmt}\", ({cast}){0}[i]); printf(\"\\n\");",
            b.name,
            b.data.len()
        );
        pr.line(&l);
    }
    pr.line("    return 0;");
    pr.line("}");
    pr.out
}
