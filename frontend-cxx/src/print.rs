//! The OpenCL C a C++ kernel is lowered to, printed as source (`kiln check --emit-opencl`):
//! what kiln builds, readable next to the C++ it came from.

use kiln_frontend::ast::*;
use std::fmt::Write;

pub fn print(tu: &TranslationUnit) -> String {
    let mut p = Printer { out: String::new(), indent: 0 };
    for item in &tu.items {
        match item {
            ExternalDecl::Function(f) => p.function(f),
            ExternalDecl::Declaration(d) => {
                p.declaration(d);
                p.out.push_str(";\n");
            }
            ExternalDecl::Pragma(pr) => p.pragma(pr),
        }
        p.out.push('\n');
    }
    p.out
}

struct Printer {
    out: String,
    indent: usize,
}

fn space_kw(s: AddrSpace) -> &'static str {
    s.keyword()
}

impl Printer {
    fn line(&mut self) {
        self.out.push('\n');
        for _ in 0..self.indent {
            self.out.push_str("    ");
        }
    }

    fn pragma(&mut self, p: &Pragma) {
        let words: Vec<&str> = p.words.iter().map(|(w, _)| &**w).collect();
        let _ = write!(self.out, "#pragma {}\n", words.join(" "));
    }

    fn attrs(&mut self, attrs: &[Attribute]) {
        for a in attrs {
            let _ = write!(self.out, "__attribute__(({}", a.name);
            if !a.args.is_empty() {
                self.out.push('(');
                for (i, x) in a.args.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    match x {
                        AttrArg::Expr(e) => self.expr(e),
                        AttrArg::Type(t) => self.type_name(t),
                    }
                }
                self.out.push(')');
            }
            self.out.push_str(")) ");
        }
    }

    fn specs(&mut self, s: &DeclSpecs) {
        self.attrs(&s.attrs);
        if s.kernel.is_some() {
            self.out.push_str("__kernel ");
        }
        if let Some((StorageClass::Static, _)) = s.storage {
            self.out.push_str("static ");
        }
        if let Some((sp, _)) = s.addr_space {
            let _ = write!(self.out, "{} ", space_kw(sp));
        }
        match s.access {
            Some((Access::ReadOnly, _)) => self.out.push_str("read_only "),
            Some((Access::WriteOnly, _)) => self.out.push_str("write_only "),
            _ => {}
        }
        if s.quals.is_const {
            self.out.push_str("const ");
        }
        if s.quals.is_volatile {
            self.out.push_str("volatile ");
        }
        self.type_spec(&s.ty);
    }

    fn type_spec(&mut self, t: &TypeSpec) {
        match t {
            TypeSpec::Words(ws) => {
                let names: Vec<&str> = ws
                    .iter()
                    .map(|(w, _)| match w {
                        TypeWord::Void => "void",
                        TypeWord::Bool => "bool",
                        TypeWord::Char => "char",
                        TypeWord::Short => "short",
                        TypeWord::Int => "int",
                        TypeWord::Long => "long",
                        TypeWord::Float => "float",
                        TypeWord::Double => "double",
                        TypeWord::Half => "half",
                        TypeWord::Signed => "signed",
                        TypeWord::Unsigned => "unsigned",
                        TypeWord::Complex => "_Complex",
                        TypeWord::Imaginary => "_Imaginary",
                    })
                    .collect();
                self.out.push_str(&names.join(" "));
            }
            TypeSpec::Named(n, _) => self.out.push_str(n),
            TypeSpec::Struct(r) | TypeSpec::Union(r) => {
                self.out.push_str(if matches!(t, TypeSpec::Union(_)) { "union " } else { "struct " });
                if let Some((n, _)) = &r.name {
                    self.out.push_str(n);
                }
                if let Some(fields) = &r.fields {
                    self.out.push_str(" {");
                    self.indent += 1;
                    for f in fields {
                        self.line();
                        self.specs(&f.specs);
                        for (i, (d, _)) in f.declarators.iter().enumerate() {
                            self.out.push_str(if i == 0 { " " } else { ", " });
                            self.declarator(d);
                        }
                        self.out.push(';');
                    }
                    self.indent -= 1;
                    self.line();
                    self.out.push('}');
                }
            }
            TypeSpec::Enum(_) => self.out.push_str("int"),
            TypeSpec::Pipe(inner, _, _) => {
                self.out.push_str("pipe ");
                self.type_name(inner);
            }
            TypeSpec::Atomic(inner, _) => {
                self.out.push_str("_Atomic(");
                self.type_name(inner);
                self.out.push(')');
            }
        }
    }

    fn type_name(&mut self, t: &TypeName) {
        self.specs(&t.specs);
        if !t.declarator.derived.is_empty() {
            self.out.push(' ');
            self.declarator(&t.declarator);
        }
    }

    /// A declarator: built from the name outwards, the outermost derived part first
    /// (`derived` lists the part that binds tightest to the base type first).
    fn declarator(&mut self, d: &Declarator) {
        let mut cur = d.name.as_ref().map(|(n, _)| n.to_string()).unwrap_or_default();
        for part in d.derived.iter().rev() {
            match part {
                DerivedPart::Pointer { quals, addr_space, .. } => {
                    let mut s = String::from("*");
                    if let Some((sp, _)) = addr_space {
                        let _ = write!(s, " {} ", space_kw(*sp));
                    }
                    if quals.is_const {
                        s.push_str(" const ");
                    }
                    cur = format!("{s}{cur}");
                }
                DerivedPart::Array { size, .. } => {
                    if cur.starts_with('*') {
                        cur = format!("({cur})");
                    }
                    let mut sub = Printer { out: String::new(), indent: 0 };
                    if let Some(e) = size {
                        sub.expr(e);
                    }
                    cur = format!("{cur}[{}]", sub.out);
                }
                DerivedPart::Function { params, .. } => {
                    if cur.starts_with('*') {
                        cur = format!("({cur})");
                    }
                    let mut sub = Printer { out: String::new(), indent: 0 };
                    sub.out.push('(');
                    for (i, p) in params.iter().enumerate() {
                        if i > 0 {
                            sub.out.push_str(", ");
                        }
                        sub.specs(&p.specs);
                        sub.out.push(' ');
                        sub.declarator(&p.declarator);
                    }
                    if params.is_empty() {
                        sub.out.push_str("void");
                    }
                    sub.out.push(')');
                    cur = format!("{cur}{}", sub.out);
                }
                DerivedPart::Block { .. } => cur = format!("^{cur}"),
            }
        }
        self.out.push_str(&cur);
    }

    fn declaration(&mut self, d: &Declaration) {
        self.specs(&d.specs);
        for (i, id) in d.declarators.iter().enumerate() {
            self.out.push_str(if i == 0 { " " } else { ", " });
            self.declarator(&id.declarator);
            if let Some(init) = &id.init {
                self.out.push_str(" = ");
                self.initializer(init);
            }
        }
    }

    fn initializer(&mut self, i: &Initializer) {
        match i {
            Initializer::Expr(e) => self.expr(e),
            Initializer::List(items, _) => {
                self.out.push('{');
                for (k, (des, init)) in items.iter().enumerate() {
                    if k > 0 {
                        self.out.push_str(", ");
                    }
                    for d in des {
                        match d {
                            Designator::Field(n, _) => {
                                let _ = write!(self.out, ".{n} = ");
                            }
                            Designator::Index(e) => {
                                self.out.push('[');
                                self.expr(e);
                                self.out.push_str("] = ");
                            }
                        }
                    }
                    self.initializer(init);
                }
                self.out.push('}');
            }
        }
    }

    fn function(&mut self, f: &FunctionDef) {
        self.specs(&f.specs);
        self.out.push(' ');
        self.declarator(&f.declarator);
        self.out.push(' ');
        self.stmt(&f.body);
        self.out.push('\n');
    }

    fn loop_attrs(&mut self, la: &LoopAttrs) {
        if let Some((n, _)) = &la.unroll {
            self.out.push_str("#pragma unroll");
            if let Some(e) = n {
                self.out.push(' ');
                self.expr(e);
            }
            self.line();
        }
        if let Some((n, _)) = &la.ivdep {
            self.out.push_str("#pragma ivdep");
            if let Some(e) = n {
                self.out.push_str(" safelen(");
                self.expr(e);
                self.out.push(')');
            }
            self.line();
        }
        if let Some((e, _)) = &la.ii {
            self.out.push_str("#pragma ii ");
            self.expr(e);
            self.line();
        }
        if let Some((n, _)) = &la.loop_coalesce {
            self.out.push_str("#pragma loop_coalesce");
            if let Some(e) = n {
                self.out.push(' ');
                self.expr(e);
            }
            self.line();
        }
        if la.disable_pipelining.is_some() {
            self.out.push_str("#pragma disable_loop_pipelining");
            self.line();
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Compound(items) => {
                self.out.push('{');
                self.indent += 1;
                for it in items {
                    self.line();
                    match it {
                        BlockItem::Decl(d) => {
                            self.declaration(d);
                            self.out.push(';');
                        }
                        BlockItem::Stmt(s) => self.stmt(s),
                        BlockItem::Pragma(p) => {
                            let words: Vec<&str> = p.words.iter().map(|(w, _)| &**w).collect();
                            let _ = write!(self.out, "#pragma {}", words.join(" "));
                        }
                    }
                }
                self.indent -= 1;
                self.line();
                self.out.push('}');
            }
            StmtKind::Expr(None) => self.out.push(';'),
            StmtKind::Expr(Some(e)) => {
                self.expr(e);
                self.out.push(';');
            }
            StmtKind::If(c, t, e) => {
                self.out.push_str("if (");
                self.expr(c);
                self.out.push_str(") ");
                self.stmt(t);
                if let Some(e) = e {
                    self.out.push_str(" else ");
                    self.stmt(e);
                }
            }
            StmtKind::While(c, b, la) => {
                self.loop_attrs(la);
                self.out.push_str("while (");
                self.expr(c);
                self.out.push_str(") ");
                self.stmt(b);
            }
            StmtKind::DoWhile(b, c, la) => {
                self.loop_attrs(la);
                self.out.push_str("do ");
                self.stmt(b);
                self.out.push_str(" while (");
                self.expr(c);
                self.out.push_str(");");
            }
            StmtKind::For(init, c, step, b, la) => {
                self.loop_attrs(la);
                self.out.push_str("for (");
                match init {
                    ForInit::None => {}
                    ForInit::Expr(e) => self.expr(e),
                    ForInit::Decl(d) => self.declaration(d),
                }
                self.out.push_str("; ");
                if let Some(c) = c {
                    self.expr(c);
                }
                self.out.push_str("; ");
                if let Some(st) = step {
                    self.expr(st);
                }
                self.out.push_str(") ");
                self.stmt(b);
            }
            StmtKind::Switch(v, b) => {
                self.out.push_str("switch (");
                self.expr(v);
                self.out.push_str(") ");
                self.stmt(b);
            }
            StmtKind::Case(v, b) => {
                self.out.push_str("case ");
                self.expr(v);
                self.out.push_str(": ");
                self.stmt(b);
            }
            StmtKind::Default(b) => {
                self.out.push_str("default: ");
                self.stmt(b);
            }
            StmtKind::Break => self.out.push_str("break;"),
            StmtKind::Continue => self.out.push_str("continue;"),
            StmtKind::Return(None) => self.out.push_str("return;"),
            StmtKind::Return(Some(e)) => {
                self.out.push_str("return ");
                self.expr(e);
                self.out.push(';');
            }
            StmtKind::Goto(l) => {
                let _ = write!(self.out, "goto {l};");
            }
            StmtKind::Labeled(l, b) => {
                let _ = write!(self.out, "{l}: ");
                self.stmt(b);
            }
        }
    }

    fn expr(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Ident(n) | ExprKind::Int(n) | ExprKind::Float(n) | ExprKind::Char(n) => self.out.push_str(n),
            ExprKind::Str(parts) => {
                for (i, p) in parts.iter().enumerate() {
                    if i > 0 {
                        self.out.push(' ');
                    }
                    self.out.push_str(p);
                }
            }
            ExprKind::Paren(x) => {
                self.out.push('(');
                self.expr(x);
                self.out.push(')');
            }
            ExprKind::Unary(op, x) => {
                if !matches!(op, UnOp::PostInc | UnOp::PostDec) {
                    self.out.push_str(unop_spelling(*op));
                }
                self.expr(x);
                match op {
                    UnOp::PostInc => self.out.push_str("++"),
                    UnOp::PostDec => self.out.push_str("--"),
                    _ => {}
                }
            }
            ExprKind::Binary(op, a, b) => {
                self.expr(a);
                let _ = write!(self.out, " {} ", op.spelling());
                self.expr(b);
            }
            ExprKind::Assign(op, a, b) => {
                self.expr(a);
                match op {
                    None => self.out.push_str(" = "),
                    Some(o) => {
                        let _ = write!(self.out, " {}= ", o.spelling());
                    }
                }
                self.expr(b);
            }
            ExprKind::Cond(c, a, b) => {
                self.expr(c);
                self.out.push_str(" ? ");
                self.expr(a);
                self.out.push_str(" : ");
                self.expr(b);
            }
            ExprKind::Cast(t, x) => {
                self.out.push('(');
                self.type_name(t);
                self.out.push(')');
                self.expr(x);
            }
            ExprKind::Call(f, args) => {
                self.expr(f);
                self.out.push('(');
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.expr(a);
                }
                self.out.push(')');
            }
            ExprKind::Index(a, i) => {
                self.expr(a);
                self.out.push('[');
                self.expr(i);
                self.out.push(']');
            }
            ExprKind::Member(a, n, _) => {
                self.expr(a);
                let _ = write!(self.out, ".{n}");
            }
            ExprKind::Arrow(a, n, _) => {
                self.expr(a);
                let _ = write!(self.out, "->{n}");
            }
            ExprKind::SizeofExpr(x) => {
                self.out.push_str("sizeof(");
                self.expr(x);
                self.out.push(')');
            }
            ExprKind::SizeofType(t) | ExprKind::AlignofType(t) | ExprKind::VecStepType(t) => {
                self.out.push_str("sizeof(");
                self.type_name(t);
                self.out.push(')');
            }
            ExprKind::VecStepExpr(x) => {
                self.out.push_str("vec_step(");
                self.expr(x);
                self.out.push(')');
            }
            ExprKind::Comma(xs) => {
                for (i, x) in xs.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.expr(x);
                }
            }
            ExprKind::CompoundLiteral(t, init) => {
                self.out.push('(');
                self.type_name(t);
                self.out.push(')');
                self.initializer(init);
            }
            ExprKind::BlockLiteral => self.out.push_str("^{}"),
            ExprKind::ReservedXor(a, b) => {
                self.expr(a);
                self.out.push_str(" ^^ ");
                self.expr(b);
            }
        }
    }
}

/// One expression as OpenCL C source.
pub fn expr_text(e: &Expr) -> String {
    let mut p = Printer { out: String::new(), indent: 0 };
    p.expr(e);
    p.out
}

/// An operator's spelling (`++` for both increments).
pub fn unop_spelling(op: UnOp) -> &'static str {
    match op {
        UnOp::Neg => "-",
        UnOp::Plus => "+",
        UnOp::Not => "!",
        UnOp::BitNot => "~",
        UnOp::Deref => "*",
        UnOp::AddrOf => "&",
        UnOp::PreInc | UnOp::PostInc => "++",
        UnOp::PreDec | UnOp::PostDec => "--",
    }
}
