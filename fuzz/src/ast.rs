//! The generated program as a small syntax tree: what the generator builds, the reducer shrinks
//! and the printers (`print`) turn into OpenCL C and into plain C for gcc.
//!
//! Freedom from undefined behaviour is a property of each node, not of the program: a node
//! prints as code that is defined for every value of its operands (arithmetic wraps through
//! unsigned types, shift counts are masked, divisors are checked, indices are reduced modulo
//! the array length). So any expression may replace any other of its type and any statement may
//! be removed, and the program stays defined; the reducer relies on exactly that.

/// An integer type of OpenCL C.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Int {
    pub bits: u8,
    pub signed: bool,
}

impl Int {
    pub const INT: Int = Int { bits: 32, signed: true };
    pub const UINT: Int = Int { bits: 32, signed: false };
    pub const ULONG: Int = Int { bits: 64, signed: false };
    pub const ALL: [Int; 8] = [
        Int { bits: 8, signed: true },
        Int { bits: 8, signed: false },
        Int { bits: 16, signed: true },
        Int { bits: 16, signed: false },
        Int::INT,
        Int::UINT,
        Int { bits: 64, signed: true },
        Int { bits: 64, signed: false },
    ];

    /// The OpenCL C name: `char`, `uint`, ...
    pub fn name(self) -> &'static str {
        match (self.bits, self.signed) {
            (8, true) => "char",
            (8, false) => "uchar",
            (16, true) => "short",
            (16, false) => "ushort",
            (32, true) => "int",
            (32, false) => "uint",
            (64, true) => "long",
            _ => "ulong",
        }
    }

    pub fn unsigned(self) -> Int {
        Int { signed: false, ..self }
    }

    /// The type arithmetic on this type wraps in: `uint` up to 32 bits, else `ulong`.
    pub fn wrap(self) -> Int {
        if self.bits <= 32 { Int::UINT } else { Int { bits: 64, signed: false } }
    }

    pub fn mask(self) -> u64 {
        if self.bits == 64 { u64::MAX } else { (1u64 << self.bits) - 1 }
    }

    /// `bits` of a value as this type's signed or unsigned number.
    pub fn value(self, bits: u64) -> i128 {
        let v = bits & self.mask();
        if self.signed && self.bits < 128 && (v >> (self.bits - 1)) & 1 == 1 {
            v as i128 - (1i128 << self.bits)
        } else {
            v as i128
        }
    }
}

/// A value type: an integer, an integer vector, or `float`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Ty {
    Int(Int),
    Vector(Int, u8),
    Float,
}

impl Ty {
    pub const INT: Ty = Ty::Int(Int::INT);
    pub const UINT: Ty = Ty::Int(Int::UINT);

    pub fn name(self) -> String {
        match self {
            Ty::Int(i) => i.name().to_string(),
            Ty::Vector(i, n) => format!("{}{n}", i.name()),
            Ty::Float => "float".into(),
        }
    }

    pub fn scalar(self) -> Option<Int> {
        match self {
            Ty::Int(i) => Some(i),
            _ => None,
        }
    }

    /// The type of a comparison of two values of this type.
    pub fn compare_result(self) -> Ty {
        match self {
            Ty::Vector(i, n) => Ty::Vector(Int { bits: i.bits, signed: true }, n),
            _ => Ty::INT,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum WorkItem {
    GlobalId,
    GlobalSize,
    LocalId,
    LocalSize,
    GroupId,
}

impl WorkItem {
    pub fn needs_work_groups(self) -> bool {
        matches!(self, WorkItem::LocalId | WorkItem::LocalSize | WorkItem::GroupId)
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum UnOp {
    Neg,
    BitNot,
    LogNot,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    And,
    Or,
    Xor,
    Shl,
    Shr,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    LogAnd,
    LogOr,
}

impl BinOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::And => "&",
            BinOp::Or => "|",
            BinOp::Xor => "^",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::LogAnd => "&&",
            BinOp::LogOr => "||",
        }
    }

    pub fn is_compare(self) -> bool {
        matches!(self, BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne)
    }

    pub fn is_logical(self) -> bool {
        matches!(self, BinOp::LogAnd | BinOp::LogOr)
    }
}

/// The integer and float built-ins the generator calls.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Builtin {
    Min,
    Max,
    /// `clamp(x, min(a, b), max(a, b))`: the bounds are ordered by construction.
    Clamp,
    Abs,
    AbsDiff,
    AddSat,
    SubSat,
    Hadd,
    Rhadd,
    MulHi,
    Rotate,
    Popcount,
    Clz,
    /// `convert_<int>_sat(float)`.
    ConvertSat(Int),
    /// `isnan(f) ? 0x7fc00000 : as_int(f)`: a float's bits with every NaN made one NaN, since
    /// implementations may differ in a NaN's sign and payload.
    FloatBits,
    Sqrt,
    Fabs,
    Floor,
    Ceil,
    Trunc,
    Round,
    Rint,
    Copysign,
    /// Fused multiply-add: correctly rounded in OpenCL, so every implementation agrees.
    Fma,
    /// `fmin(a, b) + 0.0f`: OpenCL lets `fmin(-0.0f, 0.0f)` be either zero, and adding `+0.0f`
    /// makes both `+0.0f` (and changes no other value).
    Fmin,
    /// `fmax(a, b) + 0.0f`, for the same reason.
    Fmax,
    /// `any(v)` of a signed integer vector.
    Any,
    /// `all(v)`.
    All,
}

impl Builtin {
    pub fn name(self) -> &'static str {
        match self {
            Builtin::Min => "min",
            Builtin::Max => "max",
            Builtin::Clamp => "clamp",
            Builtin::Abs => "abs",
            Builtin::AbsDiff => "abs_diff",
            Builtin::AddSat => "add_sat",
            Builtin::SubSat => "sub_sat",
            Builtin::Hadd => "hadd",
            Builtin::Rhadd => "rhadd",
            Builtin::MulHi => "mul_hi",
            Builtin::Rotate => "rotate",
            Builtin::Popcount => "popcount",
            Builtin::Clz => "clz",
            Builtin::ConvertSat(_) => "convert_sat",
            Builtin::FloatBits => "float_bits",
            Builtin::Sqrt => "sqrt",
            Builtin::Fabs => "fabs",
            Builtin::Floor => "floor",
            Builtin::Ceil => "ceil",
            Builtin::Trunc => "trunc",
            Builtin::Round => "round",
            Builtin::Rint => "rint",
            Builtin::Copysign => "copysign",
            Builtin::Fma => "fma",
            Builtin::Fmin => "fmin",
            Builtin::Fmax => "fmax",
            Builtin::Any => "any",
            Builtin::All => "all",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    /// A constant: its bits (a vector constant is a splat; a float constant is its bits).
    Lit(Ty, u64),
    Var(String, Ty),
    /// `array[(uint)(index) % len]` of a global input, a private or local array, or a
    /// `__constant` table of integers.
    Load {
        array: String,
        len: u32,
        index: Box<Expr>,
        ty: Ty,
    },
    /// `table[(uint)(index) % len].field`, or `(table + ...)->field`, of a `__constant`
    /// table of records.
    TableField {
        table: String,
        len: u32,
        index: Box<Expr>,
        field: String,
        ty: Ty,
        arrow: bool,
    },
    Field {
        var: String,
        field: String,
        ty: Ty,
    },
    WorkItem(WorkItem),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Cast(Ty, Box<Expr>),
    /// `c ? a : b`; with a vector condition, lane by lane.
    Select(Box<Expr>, Box<Expr>, Box<Expr>),
    Call(Builtin, Vec<Expr>),
    Helper {
        name: String,
        ret: Ty,
        args: Vec<Expr>,
    },
    /// One lane of a vector: `v.s3`.
    Lane(Box<Expr>, u8),
    /// Lanes of a vector as a vector: `v.s20`, `v.wzyx`, `v.lo`, ...
    Swizzle(Box<Expr>, Vec<u8>),
    /// `(int4)(a, b, c, d)` from scalars of the element type.
    Build(Ty, Vec<Expr>),
    /// `read_channel_intel(c)`.
    ReadChannel(String, Ty),
}

impl Expr {
    pub fn ty(&self) -> Ty {
        match self {
            Expr::Lit(t, _) | Expr::Var(_, t) | Expr::Cast(t, _) | Expr::Build(t, _) | Expr::ReadChannel(_, t) => *t,
            Expr::Load { ty, .. } | Expr::Field { ty, .. } | Expr::TableField { ty, .. } => *ty,
            Expr::Helper { ret, .. } => *ret,
            Expr::WorkItem(_) => Ty::UINT,
            Expr::Unary(UnOp::LogNot, _) => Ty::INT,
            Expr::Unary(_, a) => a.ty(),
            Expr::Binary(op, a, _) if op.is_compare() => a.ty().compare_result(),
            Expr::Binary(op, _, _) if op.is_logical() => Ty::INT,
            Expr::Binary(_, a, _) => a.ty(),
            Expr::Select(_, a, _) => a.ty(),
            Expr::Call(b, args) => match b {
                Builtin::Abs | Builtin::AbsDiff => match args[0].ty() {
                    Ty::Int(i) => Ty::Int(i.unsigned()),
                    Ty::Vector(i, n) => Ty::Vector(i.unsigned(), n),
                    Ty::Float => Ty::Float,
                },
                Builtin::ConvertSat(i) => Ty::Int(*i),
                Builtin::FloatBits | Builtin::Any | Builtin::All => Ty::INT,
                _ => args[0].ty(),
            },
            Expr::Lane(v, _) => match v.ty() {
                Ty::Vector(i, _) => Ty::Int(i),
                t => t,
            },
            Expr::Swizzle(v, lanes) => match v.ty() {
                Ty::Vector(i, _) if lanes.len() > 1 => Ty::Vector(i, lanes.len() as u8),
                Ty::Vector(i, _) => Ty::Int(i),
                t => t,
            },
        }
    }

    /// The direct sub-expressions.
    pub fn children(&self) -> Vec<&Expr> {
        match self {
            Expr::Lit(..) | Expr::Var(..) | Expr::Field { .. } | Expr::WorkItem(_) | Expr::ReadChannel(..) => vec![],
            Expr::Load { index, .. } | Expr::TableField { index, .. } => vec![index],
            Expr::Unary(_, a) | Expr::Cast(_, a) | Expr::Lane(a, _) | Expr::Swizzle(a, _) => vec![a],
            Expr::Binary(_, a, b) => vec![a, b],
            Expr::Select(c, a, b) => vec![c, a, b],
            Expr::Call(_, args) | Expr::Helper { args, .. } | Expr::Build(_, args) => args.iter().collect(),
        }
    }

    pub fn children_mut(&mut self) -> Vec<&mut Expr> {
        match self {
            Expr::Lit(..) | Expr::Var(..) | Expr::Field { .. } | Expr::WorkItem(_) | Expr::ReadChannel(..) => vec![],
            Expr::Load { index, .. } | Expr::TableField { index, .. } => vec![index],
            Expr::Unary(_, a) | Expr::Cast(_, a) | Expr::Lane(a, _) | Expr::Swizzle(a, _) => vec![a],
            Expr::Binary(_, a, b) => vec![a, b],
            Expr::Select(c, a, b) => vec![c, a, b],
            Expr::Call(_, args) | Expr::Helper { args, .. } | Expr::Build(_, args) => args.iter_mut().collect(),
        }
    }

    /// Whether reading this expression twice reads the same value (no channel read inside).
    pub fn is_pure(&self) -> bool {
        !matches!(self, Expr::ReadChannel(..)) && self.children().iter().all(|c| c.is_pure())
    }

    pub fn size(&self) -> usize {
        1 + self.children().iter().map(|c| c.size()).sum::<usize>()
    }
}

/// Where an assignment writes.
#[derive(Clone, Debug, PartialEq)]
pub enum Place {
    Var(String),
    /// A private array element: `a[(uint)(index) % len]`.
    Elem {
        array: String,
        len: u32,
        index: Expr,
    },
    /// One of this work-item's output slots: `out[gid * stride + base + (uint)(index) % range]`.
    Out {
        buffer: String,
        stride: u32,
        base: u32,
        range: u32,
        index: Expr,
    },
    Field {
        var: String,
        field: String,
    },
    Lane {
        var: String,
        lane: u8,
    },
}

/// How a loop's trip count is given.
#[derive(Clone, Debug, PartialEq)]
pub enum Bound {
    Const(u32),
    /// `i < ((uint)param & mask)`: a run-time count of at most `mask`.
    Param {
        name: String,
        mask: u32,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoopHint {
    None,
    UnrollFull,
    Unroll(u32),
    UnrollHint(u32),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    Decl {
        name: String,
        ty: Ty,
        init: Expr,
    },
    /// `T a[len] = { ... };` (the missing elements zero).
    Array {
        name: String,
        ty: Ty,
        len: u32,
        init: Vec<Expr>,
    },
    /// A two-dimensional private array without an initializer, filled by a loop nest from
    /// `fill` and its indices, then read by a stencil loop nest at `taps` (row and column
    /// offsets in -1..=1 from an interior element) into the variable `var`, in unsigned 64-bit
    /// arithmetic (the shapes `pad-rows` and the unrolling for banks rewrite):
    ///
    /// ```c
    /// { T g[R][C];
    ///   for (int g_r = 0; g_r < R; g_r++) for (int g_c = 0; g_c < C; g_c++)
    ///       g[g_r][g_c] = (T)((ulong)(fill) + (ulong)(g_r * 7 + g_c));
    ///   for (int g_r = 1; g_r < R - 1; g_r++) for (int g_c = 1; g_c < C - 1; g_c++)
    ///       var = (V)((ulong)var * 3UL + ((ulong)g[g_r - 1][g_c] ^ (ulong)g[g_r][g_c + 1] ...)); }
    /// ```
    Grid {
        name: String,
        elem: Int,
        rows: u32,
        cols: u32,
        fill: Expr,
        var: String,
        var_ty: Int,
        taps: Vec<(i32, i32)>,
    },
    /// `struct S s = { ... };` or a union with its first member initialized.
    Record {
        name: String,
        record: String,
        init: Vec<Expr>,
    },
    Assign {
        place: Place,
        value: Expr,
    },
    If {
        cond: Expr,
        then: Vec<Stmt>,
        els: Vec<Stmt>,
    },
    For {
        var: String,
        var_ty: Int,
        bound: Bound,
        also: Option<Expr>,
        hint: LoopHint,
        body: Vec<Stmt>,
        /// A label right after the loop, which `GotoIf`s in its body jump to.
        exit: Option<String>,
    },
    Switch {
        scrutinee: Expr,
        cases: Vec<(u32, Vec<Stmt>, bool)>,
        default: Vec<Stmt>,
    },
    /// `tile[lid] = value; barrier; var = tile[(lid + offset) % size]; barrier;` in uniform
    /// control flow: each work-item reads a neighbour's value.
    Exchange {
        tile: String,
        size: u32,
        value: Expr,
        var: String,
        offset: u32,
    },
    /// `write_channel_intel(c, value);`.
    WriteChannel {
        channel: String,
        value: Expr,
    },
    /// `if (cond) goto label;`: a forward jump out of the innermost loop whose `exit` is
    /// `label` (from its body, but not from inside a `switch`).
    GotoIf {
        cond: Expr,
        label: String,
    },
    /// `[result =] atomic_op(&place, value);` on one of this work-item's `int`/`uint` output
    /// slots (only this work-item touches it, so the old value it returns is defined).
    Atomic {
        op: AtomicOp,
        place: Place,
        /// The slot's type.
        ty: Int,
        /// No operand for `inc`/`dec`.
        value: Option<Expr>,
        /// A variable that takes the old value (converted to its type).
        result: Option<(String, Ty)>,
    },
}

/// The OpenCL 1.1 32-bit atomic functions on `__global` memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum AtomicOp {
    Add,
    Sub,
    Xchg,
    Inc,
    Dec,
    Min,
    Max,
    And,
    Or,
    Xor,
}

impl AtomicOp {
    pub const ALL: [AtomicOp; 10] = [
        AtomicOp::Add,
        AtomicOp::Sub,
        AtomicOp::Xchg,
        AtomicOp::Inc,
        AtomicOp::Dec,
        AtomicOp::Min,
        AtomicOp::Max,
        AtomicOp::And,
        AtomicOp::Or,
        AtomicOp::Xor,
    ];

    pub fn name(self) -> &'static str {
        match self {
            AtomicOp::Add => "add",
            AtomicOp::Sub => "sub",
            AtomicOp::Xchg => "xchg",
            AtomicOp::Inc => "inc",
            AtomicOp::Dec => "dec",
            AtomicOp::Min => "min",
            AtomicOp::Max => "max",
            AtomicOp::And => "and",
            AtomicOp::Or => "or",
            AtomicOp::Xor => "xor",
        }
    }

    pub fn has_operand(self) -> bool {
        !matches!(self, AtomicOp::Inc | AtomicOp::Dec)
    }
}

impl Stmt {
    /// The nested statement lists.
    pub fn blocks(&self) -> Vec<&Vec<Stmt>> {
        match self {
            Stmt::If { then, els, .. } => vec![then, els],
            Stmt::For { body, .. } => vec![body],
            Stmt::Switch { cases, default, .. } => {
                let mut v: Vec<&Vec<Stmt>> = cases.iter().map(|c| &c.1).collect();
                v.push(default);
                v
            }
            _ => vec![],
        }
    }

    pub fn blocks_mut(&mut self) -> Vec<&mut Vec<Stmt>> {
        match self {
            Stmt::If { then, els, .. } => vec![then, els],
            Stmt::For { body, .. } => vec![body],
            Stmt::Switch { cases, default, .. } => {
                let mut v: Vec<&mut Vec<Stmt>> = cases.iter_mut().map(|c| &mut c.1).collect();
                v.push(default);
                v
            }
            _ => vec![],
        }
    }

    /// The expressions directly in this statement (not in nested blocks).
    pub fn exprs_mut(&mut self) -> Vec<&mut Expr> {
        match self {
            Stmt::Decl { init, .. } => vec![init],
            Stmt::Array { init, .. } | Stmt::Record { init, .. } => init.iter_mut().collect(),
            Stmt::Assign { place, value } => match place {
                Place::Elem { index, .. } | Place::Out { index, .. } => vec![index, value],
                _ => vec![value],
            },
            Stmt::If { cond, .. } => vec![cond],
            Stmt::For { also, .. } => also.iter_mut().collect(),
            Stmt::Switch { scrutinee, .. } => vec![scrutinee],
            Stmt::Exchange { value, .. } => vec![value],
            Stmt::Grid { fill, .. } => vec![fill],
            Stmt::WriteChannel { value, .. } => vec![value],
            Stmt::GotoIf { cond, .. } => vec![cond],
            Stmt::Atomic { place, value, .. } => {
                let mut v: Vec<&mut Expr> = match place {
                    Place::Elem { index, .. } | Place::Out { index, .. } => vec![index],
                    _ => vec![],
                };
                v.extend(value.iter_mut());
                v
            }
        }
    }

    /// Whether the statement must stay even when it looks removable: a channel write pairs
    /// with a read in another kernel, so removing it alone would deadlock the system.
    pub fn is_paired(&self) -> bool {
        matches!(self, Stmt::WriteChannel { .. })
            || self.blocks().iter().any(|b| b.iter().any(Stmt::is_paired))
            || self.has_channel_read()
    }

    fn has_channel_read(&self) -> bool {
        match self {
            Stmt::Decl { init, .. } => !init.is_pure(),
            Stmt::Assign { value, .. } => !value.is_pure(),
            _ => false,
        }
    }
}

/// `struct S { int f0; uchar f1; }` or a union of same-sized integers.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    pub name: String,
    pub is_union: bool,
    pub fields: Vec<(String, Int)>,
}

/// A program-scope `__constant` table: its rows, one value per field (a union's row sets its
/// first member).
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    pub name: String,
    pub elem: TableElem,
    pub rows: Vec<Vec<u64>>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TableElem {
    Int(Int),
    /// An index into [`Program::records`].
    Record(usize),
}

/// A helper function: pure, scalar parameters, declarations then a return.
#[derive(Clone, Debug, PartialEq)]
pub struct Helper {
    pub name: String,
    pub ret: Ty,
    pub params: Vec<(String, Ty)>,
    pub body: Vec<Stmt>,
    pub result: Expr,
}

/// A buffer of the run: an input with its data, or an output of `len` zeros.
#[derive(Clone, Debug, PartialEq)]
pub struct Buffer {
    pub name: String,
    pub ty: Int,
    pub data: Vec<u64>,
    pub output: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Scalar {
    pub name: String,
    pub ty: Int,
    pub value: u64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Kernel {
    pub name: String,
    /// The buffers and scalars it takes, by name, in parameter order (buffers first).
    pub buffers: Vec<String>,
    pub scalars: Vec<String>,
    /// `__local` tile (name, element type, length) for `Exchange`.
    pub tile: Option<(String, Int, u32)>,
    /// Whether the tile is a `__local` pointer parameter (sized by the run) rather than an
    /// array declared in the kernel.
    pub tile_is_param: bool,
    pub body: Vec<Stmt>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Channel {
    pub name: String,
    pub ty: Int,
    pub depth: u32,
    pub style: ChannelStyle,
}

/// How a system's kernels spell their FIFO: each is a dialect kiln accepts, and each must
/// give the same hardware behaviour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChannelStyle {
    /// Intel's program-scope `channel`, `read_channel_intel` and `write_channel_intel`.
    Intel,
    /// OpenCL 2.0 pipe kernel arguments, `read_pipe`/`write_pipe` retried until they succeed.
    Pipe,
    /// Xilinx's program-scope `pipe` with `read_pipe_block`/`write_pipe_block`.
    XilinxPipe,
}

/// A whole generated test: the kernel file and the run that goes with it.
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    pub seed: u64,
    pub records: Vec<Record>,
    pub tables: Vec<Table>,
    pub helpers: Vec<Helper>,
    pub channels: Vec<Channel>,
    pub kernels: Vec<Kernel>,
    pub buffers: Vec<Buffer>,
    pub scalars: Vec<Scalar>,
    pub global_size: u32,
    /// The work-group size of the run, when the kernel uses work-groups.
    pub local_size: Option<u32>,
    /// Whether the kernel states `reqd_work_group_size` (else the size is a run-time input).
    pub reqd_size: bool,
    /// Output slots per work-item in each output buffer.
    pub slots: u32,
}

impl Program {
    pub fn is_system(&self) -> bool {
        self.kernels.len() > 1
    }

    pub fn buffer(&self, name: &str) -> Option<&Buffer> {
        self.buffers.iter().find(|b| b.name == name)
    }

    pub fn scalar(&self, name: &str) -> Option<&Scalar> {
        self.scalars.iter().find(|s| s.name == name)
    }

    /// The OpenCL 2.0 pipes kernel `k` takes as parameters, with their access qualifier: a
    /// system's first kernel writes its pipes, the others read them.
    pub fn pipe_params(&self, k: &Kernel) -> Vec<(&Channel, &'static str)> {
        let writes = self.kernels.first().is_some_and(|first| first.name == k.name);
        let access = if writes { "write_only" } else { "read_only" };
        self.channels.iter().filter(|c| c.style == ChannelStyle::Pipe).map(|c| (c, access)).collect()
    }

    fn any_stmt(&self, f: &dyn Fn(&Stmt) -> bool) -> bool {
        fn walk(b: &[Stmt], f: &dyn Fn(&Stmt) -> bool) -> bool {
            b.iter().any(|s| f(s) || s.blocks().iter().any(|b| walk(b, f)))
        }
        self.kernels.iter().any(|k| walk(&k.body, f)) || self.helpers.iter().any(|h| walk(&h.body, f))
    }

    fn any_expr(&self, f: &dyn Fn(&Expr) -> bool) -> bool {
        let mut found = false;
        crate::walk::program_exprs(self, &mut |e| found |= f(e));
        found
    }

    /// Whether a work-item waits at barriers (`Exchange`).
    pub fn uses_barriers(&self) -> bool {
        self.any_stmt(&|s| matches!(s, Stmt::Exchange { .. }))
    }

    pub fn uses_float(&self) -> bool {
        self.any_expr(&|e| e.ty() == Ty::Float)
    }

    /// Whether plain C can run the program: no vectors, no work-groups, no float (the C
    /// library's float functions are not OpenCL's).
    pub fn runs_as_c(&self) -> bool {
        !self.uses_float()
            && self.local_size.is_none()
            && !self.any_stmt(&|s| matches!(s, Stmt::Exchange { .. }))
            && !self.any_expr(&|e| {
                matches!(e.ty(), Ty::Vector(..) | Ty::Float)
                    || matches!(e, Expr::WorkItem(w) if w.needs_work_groups())
                    || matches!(e, Expr::Call(Builtin::Any | Builtin::All, _))
            })
            && !self.any_stmt(&|s| {
                matches!(s, Stmt::Decl { ty: Ty::Vector(..), .. } | Stmt::Array { ty: Ty::Vector(..), .. })
            })
    }

    /// Whether PoCL can run it: not a system (PoCL has no Intel channels), no `abs_diff`
    /// of 32- or 64-bit signed operands, which PoCL 3.1 computes with a wrapping subtraction
    /// (`abs_diff(18946, INT_MIN)` gives 2147464702, not 2147502594), nor `abs` of them, which
    /// PoCL 3.1 folds to 0 for a constant `INT_MIN` (`abs((int)0x80000000) >> 1` gives 0, not
    /// 2^30; the same value read from a buffer gives 2^31), and no `rint`, which PoCL
    /// 3.1 folds into code that crashes when its operand is a constant of magnitude 2^31 or more
    /// (`rint(2147483648.0f)`; `rint(2147483520.0f)` and `rint` of the same value read from a
    /// buffer run).
    pub fn runs_on_pocl(&self) -> bool {
        !self.is_system()
            && !self.any_expr(&|e| {
                matches!(e, Expr::Call(Builtin::AbsDiff | Builtin::Abs, args)
                    if matches!(args[0].ty(), Ty::Int(i) | Ty::Vector(i, _) if i.signed && i.bits >= 32))
                    || matches!(e, Expr::Call(Builtin::Rint, _))
            })
    }
}
