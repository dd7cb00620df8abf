//! A typed Verilog-2005 syntax tree and its printer.
//!
//! Generated hardware is built as this tree, never as strings, and printed in one place so the
//! output is uniform and deterministic: items print in the order they were added, and the
//! generator adds them in an order derived only from the (canonically numbered) IR.
//!
//! The printer also knows which bits of each signal are read. A signal that is declared but not
//! completely read gets a scoped `verilator lint_off UNUSEDSIGNAL` around its declaration, so
//! `verilator --lint-only -Wall` stays clean without hiding anything else.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    Input,
    Output,
}

#[derive(Clone, Debug)]
pub struct Port {
    pub dir: Dir,
    pub name: String,
    pub width: u32,
    /// Output ports driven from an `always` block.
    pub is_reg: bool,
    pub comment: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    And,
    Or,
    Xor,
    Shl,
    Shr,
    AShr,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    LogAnd,
    LogOr,
}

impl BinOp {
    fn text(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::And => "&",
            BinOp::Or => "|",
            BinOp::Xor => "^",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::AShr => ">>>",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::LogAnd => "&&",
            BinOp::LogOr => "||",
        }
    }

    /// Verilog precedence: higher binds tighter.
    fn prec(self) -> u8 {
        match self {
            BinOp::Mul => 10,
            BinOp::Add | BinOp::Sub => 9,
            BinOp::Shl | BinOp::Shr | BinOp::AShr => 8,
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => 7,
            BinOp::Eq | BinOp::Ne => 6,
            BinOp::And => 5,
            BinOp::Xor => 4,
            BinOp::Or => 3,
            BinOp::LogAnd => 2,
            BinOp::LogOr => 1,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    Not,
    Neg,
    LogNot,
    /// Reduction OR.
    OrReduce,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expr {
    Ident(String),
    /// A sized literal: `width'hvalue`.
    Lit(u32, u64),
    Bin(BinOp, Box<Expr>, Box<Expr>),
    Un(UnOp, Box<Expr>),
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `name[hi:lo]`.
    Slice(String, u32, u32),
    /// `name[bit]`.
    Bit(String, u32),
    /// `name[index]` for memories.
    Index(String, Box<Expr>),
    Concat(Vec<Expr>),
    /// `{n{e}}`.
    Repeat(u32, Box<Expr>),
    Signed(Box<Expr>),
    /// A string literal: a vendor primitive's parameter value (`"CLK0"`).
    Str(String),
}

pub fn id(s: impl Into<String>) -> Expr {
    Expr::Ident(s.into())
}

pub fn lit(width: u32, v: u64) -> Expr {
    let m = if width >= 64 { u64::MAX } else { (1u64 << width) - 1 };
    Expr::Lit(width, v & m)
}

pub fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
    Expr::Bin(op, Box::new(a), Box::new(b))
}

pub fn un(op: UnOp, a: Expr) -> Expr {
    Expr::Un(op, Box::new(a))
}

pub fn cond(c: Expr, a: Expr, b: Expr) -> Expr {
    Expr::Cond(Box::new(c), Box::new(a), Box::new(b))
}

/// OR of several 1-bit terms (`1'b0` when empty).
pub fn any(terms: Vec<Expr>) -> Expr {
    terms.into_iter().reduce(|a, b| bin(BinOp::Or, a, b)).unwrap_or(lit(1, 0))
}

/// AND of several 1-bit terms (`1'b1` when empty).
pub fn all(terms: Vec<Expr>) -> Expr {
    terms.into_iter().reduce(|a, b| bin(BinOp::And, a, b)).unwrap_or(lit(1, 1))
}

#[derive(Clone, Debug)]
pub enum Stmt {
    /// Non-blocking assignment `lhs <= rhs;`.
    Set(Expr, Expr),
    If(Expr, Vec<Stmt>, Vec<Stmt>),
    Case(Expr, Vec<(Vec<Expr>, Vec<Stmt>)>, Vec<Stmt>),
    Comment(String),
}

pub fn set(lhs: impl Into<String>, rhs: Expr) -> Stmt {
    Stmt::Set(id(lhs), rhs)
}

#[derive(Clone, Debug)]
pub enum Item {
    Comment(String),
    Blank,
    Localparam {
        name: String,
        width: u32,
        value: u64,
    },
    Wire {
        name: String,
        width: u32,
        value: Option<Expr>,
        comment: Option<String>,
    },
    Reg {
        name: String,
        width: u32,
    },
    /// The register of a state machine: synthesis encodes its states one-hot, so that the next
    /// state of each is an AND of its predecessors' conditions (shallow logic) rather than a
    /// decode of all of them.
    StateReg {
        name: String,
        width: u32,
    },
    Memory {
        name: String,
        width: u32,
        depth: u32,
        /// The `ram_style` synthesis attribute (`"logic"`: registers and LUTs, never RAM).
        style: Option<&'static str>,
        /// Whether no cycle both reads and writes one address of it (the scheduler keeps a
        /// store out of the cycles of the loads it may overwrite): the `no_rw_check` attribute,
        /// so that synthesis does not emulate the old-data read of a block RAM that cannot do
        /// it (the iCE40's: a delayed write, an address comparison and a multiplexer on the
        /// read data).
        no_rw_check: bool,
    },
    Assign(String, Expr),
    /// `always @(posedge clk)`.
    Always(Vec<Stmt>),
    /// `initial` (memory contents).
    Initial(Vec<Stmt>),
    /// An instance of another module: parameters and port connections in the order given.
    Instance(Instance),
    /// Items that exist only where the macro is defined, and their alternative: a vendor
    /// primitive for synthesis (`SYNTHESIS`, which every synthesis tool defines) beside the
    /// model that simulators and linters see. Each branch declares its own signals.
    Ifdef {
        name: &'static str,
        then: Vec<Item>,
        otherwise: Vec<Item>,
    },
}

/// A module instance. Connections say their direction so that the lint waivers know which
/// signals the instance reads.
#[derive(Clone, Debug)]
pub struct Instance {
    pub module: String,
    pub name: String,
    pub params: Vec<(String, Expr)>,
    pub conns: Vec<(String, Dir, Expr)>,
}

#[derive(Clone, Debug, Default)]
pub struct Module {
    pub name: String,
    pub header: Vec<String>,
    /// Parameters: name, width and default value.
    pub params: Vec<(String, u32, u64)>,
    pub ports: Vec<Port>,
    pub items: Vec<Item>,
    /// Registers declared `(* keep *)`: synthesis leaves them in the fabric (see
    /// [`Module::keep_register`]).
    pub kept: std::collections::BTreeSet<String>,
    /// Modules printed after this one, in the same file: the wrappers of the primitives it
    /// instantiates. Their names start with this module's, so that the files of a system's
    /// kernels never define one module twice.
    pub companions: Vec<Module>,
}

fn range(width: u32) -> String {
    if width <= 1 { String::new() } else { format!("[{}:0] ", width - 1) }
}

impl Expr {
    fn prec(&self) -> u8 {
        match self {
            Expr::Bin(op, ..) => op.prec(),
            Expr::Cond(..) => 0,
            _ => 20,
        }
    }

    fn print(&self, out: &mut String) {
        match self {
            Expr::Ident(n) => out.push_str(n),
            Expr::Lit(w, v) => {
                if *w == 1 {
                    let _ = write!(out, "1'b{v}");
                } else if *v < 10 {
                    let _ = write!(out, "{w}'d{v}");
                } else {
                    let _ = write!(out, "{w}'h{v:x}");
                }
            }
            Expr::Bin(op, a, b) => {
                let p = op.prec();
                let paren_a = a.prec() < p;
                // Operators of equal precedence are left-associative; parenthesize the right.
                let paren_b = b.prec() <= p;
                wrap(out, a, paren_a);
                let _ = write!(out, " {} ", op.text());
                wrap(out, b, paren_b);
            }
            Expr::Un(op, a) => {
                out.push_str(match op {
                    UnOp::Not => "~",
                    UnOp::Neg => "-",
                    UnOp::LogNot => "!",
                    UnOp::OrReduce => "|",
                });
                wrap(out, a, a.prec() < 20);
            }
            Expr::Cond(c, a, b) => {
                wrap(out, c, c.prec() <= 1);
                out.push_str(" ? ");
                wrap(out, a, a.prec() == 0);
                out.push_str(" : ");
                b.print(out);
            }
            Expr::Slice(n, hi, lo) => {
                let _ = write!(out, "{n}[{hi}:{lo}]");
            }
            Expr::Bit(n, i) => {
                let _ = write!(out, "{n}[{i}]");
            }
            Expr::Index(n, i) => {
                let _ = write!(out, "{n}[");
                i.print(out);
                out.push(']');
            }
            Expr::Concat(items) => {
                out.push('{');
                for (i, e) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    e.print(out);
                }
                out.push('}');
            }
            Expr::Repeat(n, e) => {
                let _ = write!(out, "{{{n}{{");
                e.print(out);
                out.push_str("}}");
            }
            Expr::Str(text) => {
                let _ = write!(out, "\"{text}\"");
            }
            Expr::Signed(e) => {
                out.push_str("$signed(");
                e.print(out);
                out.push(')');
            }
        }
    }

    /// Records which bits of which signals this expression reads.
    fn reads(&self, used: &mut BTreeMap<String, BTreeSet<u32>>, widths: &BTreeMap<String, u32>) {
        match self {
            Expr::Ident(n) => {
                let w = widths.get(n).copied().unwrap_or(1);
                used.entry(n.clone()).or_default().extend(0..w);
            }
            Expr::Slice(n, hi, lo) => {
                used.entry(n.clone()).or_default().extend(*lo..=*hi);
            }
            Expr::Bit(n, i) => {
                used.entry(n.clone()).or_default().insert(*i);
            }
            Expr::Index(n, i) => {
                let w = widths.get(n).copied().unwrap_or(1);
                used.entry(n.clone()).or_default().extend(0..w);
                i.reads(used, widths);
            }
            Expr::Lit(..) | Expr::Str(_) => {}
            Expr::Bin(_, a, b) => {
                a.reads(used, widths);
                b.reads(used, widths);
            }
            Expr::Un(_, a) | Expr::Repeat(_, a) | Expr::Signed(a) => a.reads(used, widths),
            Expr::Cond(c, a, b) => {
                c.reads(used, widths);
                a.reads(used, widths);
                b.reads(used, widths);
            }
            Expr::Concat(items) => {
                for e in items {
                    e.reads(used, widths);
                }
            }
        }
    }
}

fn wrap(out: &mut String, e: &Expr, paren: bool) {
    if paren {
        out.push('(');
        e.print(out);
        out.push(')');
    } else {
        e.print(out);
    }
}

fn stmt_reads(s: &Stmt, used: &mut BTreeMap<String, BTreeSet<u32>>, widths: &BTreeMap<String, u32>) {
    match s {
        Stmt::Set(lhs, rhs) => {
            if let Expr::Index(_, i) = lhs {
                i.reads(used, widths);
            }
            rhs.reads(used, widths);
        }
        Stmt::If(c, a, b) => {
            c.reads(used, widths);
            for x in a.iter().chain(b) {
                stmt_reads(x, used, widths);
            }
        }
        Stmt::Case(e, arms, d) => {
            e.reads(used, widths);
            for (labels, body) in arms {
                for l in labels {
                    l.reads(used, widths);
                }
                for x in body {
                    stmt_reads(x, used, widths);
                }
            }
            for x in d {
                stmt_reads(x, used, widths);
            }
        }
        Stmt::Comment(_) => {}
    }
}

fn print_stmts(out: &mut String, stmts: &[Stmt], indent: usize) {
    let pad = "    ".repeat(indent);
    for s in stmts {
        match s {
            Stmt::Set(l, r) => {
                out.push_str(&pad);
                l.print(out);
                out.push_str(" <= ");
                r.print(out);
                out.push_str(";\n");
            }
            Stmt::Comment(c) => {
                let _ = writeln!(out, "{pad}// {c}");
            }
            Stmt::If(c, a, b) => {
                out.push_str(&pad);
                out.push_str("if (");
                c.print(out);
                out.push_str(") begin\n");
                print_stmts(out, a, indent + 1);
                if b.is_empty() {
                    let _ = writeln!(out, "{pad}end");
                } else if let [Stmt::If(..)] = b.as_slice() {
                    let _ = write!(out, "{pad}end else ");
                    let mut nested = String::new();
                    print_stmts(&mut nested, b, indent);
                    out.push_str(nested.trim_start());
                } else {
                    let _ = writeln!(out, "{pad}end else begin");
                    print_stmts(out, b, indent + 1);
                    let _ = writeln!(out, "{pad}end");
                }
            }
            Stmt::Case(e, arms, default) => {
                out.push_str(&pad);
                out.push_str("case (");
                e.print(out);
                out.push_str(")\n");
                for (labels, body) in arms {
                    out.push_str(&pad);
                    out.push_str("    ");
                    for (i, l) in labels.iter().enumerate() {
                        if i > 0 {
                            out.push_str(", ");
                        }
                        l.print(out);
                    }
                    out.push_str(": begin\n");
                    print_stmts(out, body, indent + 2);
                    let _ = writeln!(out, "{pad}    end");
                }
                let _ = writeln!(out, "{pad}    default: begin");
                print_stmts(out, default, indent + 2);
                let _ = writeln!(out, "{pad}    end");
                let _ = writeln!(out, "{pad}endcase");
            }
        }
    }
}

impl Module {
    pub fn add(&mut self, item: Item) {
        self.items.push(item);
    }

    /// Declares register `name` (when it is one) `(* keep *)`. Yosys then neither merges it
    /// with an equal register nor moves it into a DSP block's input register, where the route
    /// from the logic in front of it into the DSP block became part of that logic's path.
    pub fn keep_register(&mut self, name: &str) {
        self.kept.insert(name.to_string());
    }

    fn widths(&self) -> BTreeMap<String, u32> {
        let mut w = BTreeMap::new();
        for p in &self.ports {
            w.insert(p.name.clone(), p.width);
        }
        declared_widths(&self.items, &mut w);
        w
    }

    /// Bits of every signal read anywhere in the module.
    fn used_bits(&self) -> BTreeMap<String, BTreeSet<u32>> {
        let widths = self.widths();
        let mut used = BTreeMap::new();
        items_read(&self.items, &mut used, &widths);
        used
    }

    /// Names of the signals read anywhere in the module.
    pub fn read_signals(&self) -> BTreeSet<String> {
        self.used_bits().into_keys().collect()
    }

    fn fully_used(used: &BTreeMap<String, BTreeSet<u32>>, name: &str, width: u32) -> bool {
        used.get(name).is_some_and(|b| (0..width).all(|i| b.contains(&i)))
    }

    /// Declarations, then logic, of `items`: every signal is declared before any logic uses it
    /// (Verilog-2005 has no forward references; an undeclared name would become an implicit
    /// net). An `Item::Ifdef` prints each branch the same way, inside it.
    fn print_items(&self, items: &[Item], used: &BTreeMap<String, BTreeSet<u32>>, out: &mut String) {
        let waive = |out: &mut String, on: bool| {
            if on {
                out.push_str("    /* verilator lint_off UNUSEDSIGNAL */\n");
            }
        };
        let unwaive = |out: &mut String, on: bool| {
            if on {
                out.push_str("    /* verilator lint_on UNUSEDSIGNAL */\n");
            }
        };
        for item in items {
            match item {
                Item::Localparam { name, width, value } => {
                    let _ = write!(out, "    localparam {}{name} = ", range(*width));
                    lit(*width, *value).print(out);
                    out.push_str(";\n");
                }
                Item::Wire { name, width, .. } => {
                    let unused = !Self::fully_used(used, name, *width);
                    waive(out, unused);
                    let _ = writeln!(out, "    wire {}{name};", range(*width));
                    unwaive(out, unused);
                }
                Item::Reg { name, width } => {
                    let unused = !Self::fully_used(used, name, *width);
                    waive(out, unused);
                    if self.kept.contains(name) {
                        let _ = writeln!(out, "    (* keep *)");
                    }
                    let _ = writeln!(out, "    reg {}{name};", range(*width));
                    unwaive(out, unused);
                }
                Item::StateReg { name, width } => {
                    let unused = !Self::fully_used(used, name, *width);
                    waive(out, unused);
                    let _ = writeln!(out, "    (* fsm_encoding = \"one-hot\" *)");
                    let _ = writeln!(out, "    reg {}{name};", range(*width));
                    unwaive(out, unused);
                }
                Item::Memory { name, width, depth, style, no_rw_check } => {
                    let mut attributes: Vec<String> = style.iter().map(|s| format!("ram_style = \"{s}\"")).collect();
                    if *no_rw_check {
                        attributes.push("no_rw_check".into());
                    }
                    if !attributes.is_empty() {
                        let _ = writeln!(out, "    (* {} *)", attributes.join(", "));
                    }
                    let _ = writeln!(out, "    reg {}{name} [0:{}];", range(*width), depth - 1);
                }
                _ => {}
            }
        }
        for item in items {
            match item {
                Item::Comment(c) => {
                    let _ = writeln!(out, "    // {c}");
                }
                Item::Blank => out.push('\n'),
                Item::Wire { name, value: Some(v), comment, .. } => {
                    let _ = write!(out, "    assign {name} = ");
                    v.print(out);
                    out.push(';');
                    if let Some(c) = comment {
                        let _ = write!(out, "  // {c}");
                    }
                    out.push('\n');
                }
                Item::Assign(name, e) => {
                    let _ = write!(out, "    assign {name} = ");
                    e.print(out);
                    out.push_str(";\n");
                }
                Item::Always(stmts) => {
                    out.push_str("    always @(posedge clk) begin\n");
                    print_stmts(out, stmts, 2);
                    out.push_str("    end\n");
                }
                Item::Initial(stmts) => {
                    out.push_str("    initial begin\n");
                    let mut body = String::new();
                    print_stmts(&mut body, stmts, 2);
                    // Memory initialization uses blocking assignments.
                    out.push_str(&body.replace(" <= ", " = "));
                    out.push_str("    end\n");
                }
                Item::Instance(inst) => {
                    let _ = write!(out, "    {}", inst.module);
                    if !inst.params.is_empty() {
                        out.push_str(" #(\n");
                        for (i, (name, value)) in inst.params.iter().enumerate() {
                            let _ = write!(out, "        .{name}(");
                            value.print(out);
                            out.push_str(if i + 1 < inst.params.len() { "),\n" } else { ")\n" });
                        }
                        out.push_str("    )");
                    }
                    let _ = writeln!(out, " {} (", inst.name);
                    for (i, (port, _, e)) in inst.conns.iter().enumerate() {
                        let _ = write!(out, "        .{port}(");
                        e.print(out);
                        out.push_str(if i + 1 < inst.conns.len() { "),\n" } else { ")\n" });
                    }
                    out.push_str("    );\n");
                }
                Item::Ifdef { name, then, otherwise } => {
                    let _ = writeln!(out, "`ifdef {name}");
                    self.print_items(then, used, out);
                    out.push_str("`else\n");
                    self.print_items(otherwise, used, out);
                    out.push_str("`endif\n");
                }
                _ => {}
            }
        }
    }

    /// Prints the module, then its companions.
    pub fn print(&self) -> String {
        let used = self.used_bits();
        let mut out = String::new();
        for h in &self.header {
            let _ = writeln!(out, "// {h}");
        }
        let _ = writeln!(out, "// MODULE START: {}", self.name);
        if self.params.is_empty() {
            let _ = writeln!(out, "module {} (", self.name);
        } else {
            let _ = writeln!(out, "module {} #(", self.name);
            for (i, (name, width, value)) in self.params.iter().enumerate() {
                let comma = if i + 1 < self.params.len() { "," } else { "" };
                let _ = writeln!(out, "    parameter {}{name} = {width}'d{value}{comma}", range(*width));
            }
            out.push_str(") (\n");
        }
        for (i, p) in self.ports.iter().enumerate() {
            let dir = match p.dir {
                Dir::Input => "input  wire",
                Dir::Output if p.is_reg => "output reg ",
                Dir::Output => "output wire",
            };
            let unused = p.dir == Dir::Input && !Self::fully_used(&used, &p.name, p.width);
            if unused {
                out.push_str("    /* verilator lint_off UNUSEDSIGNAL */\n");
            }
            let comma = if i + 1 < self.ports.len() { "," } else { "" };
            let comment = p.comment.as_ref().map(|c| format!("  // {c}")).unwrap_or_default();
            let _ = writeln!(out, "    {dir} {}{}{comma}{comment}", range(p.width), p.name);
            if unused {
                out.push_str("    /* verilator lint_on UNUSEDSIGNAL */\n");
            }
        }
        out.push_str(");\n");
        self.print_items(&self.items, &used, &mut out);
        out.push_str("endmodule\n");
        let _ = writeln!(out, "// MODULE END: {}", self.name);
        for companion in &self.companions {
            // A companion shares the file (and so is not named after it).
            out.push_str("\n/* verilator lint_off DECLFILENAME */\n");
            out.push_str(&companion.print());
            out.push_str("/* verilator lint_on DECLFILENAME */\n");
        }
        out
    }
}

/// The widths of the signals `items` declare, those of `Item::Ifdef` branches included.
fn declared_widths(items: &[Item], w: &mut BTreeMap<String, u32>) {
    for i in items {
        match i {
            Item::Wire { name, width, .. }
            | Item::Reg { name, width }
            | Item::StateReg { name, width }
            | Item::Memory { name, width, .. } => {
                w.insert(name.clone(), *width);
            }
            Item::Ifdef { then, otherwise, .. } => {
                declared_widths(then, w);
                declared_widths(otherwise, w);
            }
            _ => {}
        }
    }
}

/// The bits of signals that `items` read.
fn items_read(items: &[Item], used: &mut BTreeMap<String, BTreeSet<u32>>, widths: &BTreeMap<String, u32>) {
    for i in items {
        match i {
            Item::Wire { value: Some(e), .. } | Item::Assign(_, e) => e.reads(used, widths),
            Item::Always(stmts) => {
                used.entry("clk".to_string()).or_default().insert(0);
                for s in stmts {
                    stmt_reads(s, used, widths);
                }
            }
            Item::Initial(stmts) => {
                for s in stmts {
                    stmt_reads(s, used, widths);
                }
            }
            Item::Instance(inst) => {
                for (_, dir, e) in &inst.conns {
                    if *dir == Dir::Input {
                        e.reads(used, widths);
                    }
                }
            }
            Item::Ifdef { then, otherwise, .. } => {
                items_read(then, used, widths);
                items_read(otherwise, used, widths);
            }
            _ => {}
        }
    }
}

/// Number of bits needed to hold values `0..n` (at least 1).
pub fn clog2(n: u64) -> u32 {
    if n <= 2 { 1 } else { 64 - (n - 1).leading_zeros() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn precedence_and_literals() {
        let e = bin(BinOp::Sub, id("a"), bin(BinOp::Add, id("b"), lit(8, 255)));
        let mut s = String::new();
        e.print(&mut s);
        assert_eq!(s, "a - (b + 8'hff)");
        let e = cond(bin(BinOp::Eq, id("s"), lit(3, 2)), id("x"), cond(id("t"), id("y"), lit(1, 0)));
        let mut s = String::new();
        e.print(&mut s);
        assert_eq!(s, "s == 3'd2 ? x : t ? y : 1'b0");
    }

    #[test]
    fn partially_used_signals_get_a_scoped_waiver() {
        let mut m = Module { name: "m".into(), ..Default::default() };
        m.ports.push(Port { dir: Dir::Input, name: "clk".into(), width: 1, is_reg: false, comment: None });
        m.ports.push(Port { dir: Dir::Input, name: "a".into(), width: 8, is_reg: false, comment: None });
        m.ports.push(Port { dir: Dir::Output, name: "y".into(), width: 4, is_reg: false, comment: None });
        m.add(Item::Assign("y".into(), Expr::Slice("a".into(), 3, 0)));
        let text = m.print();
        assert!(text.contains("lint_off UNUSEDSIGNAL */\n    input  wire [7:0] a,"), "{text}");
        assert!(clog2(1) == 1 && clog2(2) == 1 && clog2(3) == 2 && clog2(16) == 4 && clog2(17) == 5);
    }
}
