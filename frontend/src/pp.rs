//! The C99 preprocessor with OpenCL C's predefined macros and pragma rules.
//!
//! Macro expansion follows Prosser's algorithm: every token carries a hide set of the macros whose
//! expansion produced it, and a macro is not expanded from a token that hides it. Directives are
//! only recognized at the start of a line in source text, never in expansion results.
//!
//! `#pragma` lines kiln understands (loop pragmas, `OPENCL EXTENSION`, `OPENCL FP_CONTRACT`) are
//! handed to the parser as [`TokKind::Pragma`] tokens; unknown pragmas are dropped with a note.
//!
//! The preprocessor does no IO: included files are read through a [`FileLoader`].

mod expr;

use crate::diag::{Diagnostic, codes};
use crate::lex::{self, P, TokKind, Token};
use crate::options::{ClStd, Language, Options};
use crate::source::{FileId, SourceMap, Span};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// How the preprocessor reads `#include`d files.
pub trait FileLoader {
    fn load(&self, path: &Path) -> std::io::Result<String>;
}

/// Reads files from the file system.
pub struct FsLoader;

impl FileLoader for FsLoader {
    fn load(&self, path: &Path) -> std::io::Result<String> {
        std::fs::read_to_string(path)
    }
}

/// Serves files from memory (tests and fuzzing).
#[derive(Default)]
pub struct MemLoader(pub HashMap<PathBuf, String>);

impl FileLoader for MemLoader {
    fn load(&self, path: &Path) -> std::io::Result<String> {
        self.0.get(path).cloned().ok_or_else(|| std::io::Error::from(std::io::ErrorKind::NotFound))
    }
}

/// Pragmas kiln acts on, besides `#pragma OPENCL ...`.
const KNOWN_PRAGMAS: &[&str] = &[
    "unroll",
    "nounroll",
    "ivdep",
    "ii",
    "loop_coalesce",
    "disable_loop_pipelining",
    "max_concurrency",
    "speculated_iterations",
    "max_interleaving",
];

/// Extensions that `#pragma OPENCL EXTENSION name : enable` accepts.
pub const SUPPORTED_EXTENSIONS: &[&str] = &[
    "cl_khr_byte_addressable_store",
    "cl_khr_global_int32_base_atomics",
    "cl_khr_global_int32_extended_atomics",
    "cl_khr_local_int32_base_atomics",
    "cl_khr_local_int32_extended_atomics",
    "cl_khr_int64_base_atomics",
    "cl_khr_int64_extended_atomics",
    "cl_intel_channels",
    "cl_altera_channels",
];

/// Extensions kiln knows by name (so `disable` of them is silent).
const KNOWN_EXTENSIONS: &[&str] = &[
    "cl_khr_fp64",
    "cl_khr_fp16",
    "cl_khr_int64_base_atomics",
    "cl_khr_int64_extended_atomics",
    "cl_khr_global_int32_base_atomics",
    "cl_khr_global_int32_extended_atomics",
    "cl_khr_local_int32_base_atomics",
    "cl_khr_local_int32_extended_atomics",
    "cl_khr_3d_image_writes",
    "cl_intel_channels",
    "cl_altera_channels",
];

const MAX_INCLUDE_DEPTH: usize = 64;

#[derive(Debug)]
struct Macro {
    /// `None` for object-like macros.
    params: Option<Vec<Rc<str>>>,
    variadic: bool,
    body: Vec<Token>,
    span: Span,
    builtin: Option<BuiltinMacro>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BuiltinMacro {
    File,
    Line,
}

#[derive(Debug)]
struct Cond {
    /// Some branch of this conditional has already been taken.
    taken: bool,
    seen_else: bool,
    span: Span,
    file: FileId,
}

/// The result of preprocessing: tokens ready for the parser, ending with `Eof`.
pub struct Preprocessed {
    pub tokens: Vec<Token>,
    pub diags: Vec<Diagnostic>,
}

pub struct Preprocessor<'a> {
    sm: &'a mut SourceMap,
    loader: &'a dyn FileLoader,
    opts: &'a Options,
    macros: HashMap<Rc<str>, Rc<Macro>>,
    /// Pending input, as a stack: the next token is at the end.
    input: Vec<Token>,
    out: Vec<Token>,
    diags: Vec<Diagnostic>,
    conds: Vec<Cond>,
    /// Files being read, innermost last.
    file_stack: Vec<FileId>,
    pragma_once: HashSet<FileId>,
    main_file: FileId,
}

fn with_hideset(mut t: Token, hs: &Option<Rc<Vec<Rc<str>>>>, name: &Rc<str>) -> Token {
    let mut v: Vec<Rc<str>> = t.hideset.as_ref().map(|h| (**h).clone()).unwrap_or_default();
    if let Some(h) = hs {
        for n in h.iter() {
            if !v.contains(n) {
                v.push(n.clone());
            }
        }
    }
    if !v.contains(name) {
        v.push(name.clone());
    }
    t.hideset = Some(Rc::new(v));
    t
}

fn intersect(a: &Option<Rc<Vec<Rc<str>>>>, b: &Option<Rc<Vec<Rc<str>>>>) -> Option<Rc<Vec<Rc<str>>>> {
    match (a, b) {
        (Some(a), Some(b)) => Some(Rc::new(a.iter().filter(|n| b.contains(n)).cloned().collect())),
        _ => None,
    }
}

/// The predefined macros, as source text, for a language version.
fn predefined_source(std: ClStd, language: Language) -> String {
    let mut s = String::new();
    let v = std.version_number();
    s.push_str("#define __OPENCL_VERSION__ 300\n");
    match language {
        Language::OpenClC => s.push_str(&format!("#define __OPENCL_C_VERSION__ {v}\n")),
        // As clang defines them for `-cl-std=clc++1.0`.
        Language::Cxx => s.push_str(
            "#define __OPENCL_CPP_VERSION__ 100\n\
             #define __CL_CPP_VERSION_1_0__ 100\n\
             #define __cplusplus 201703L\n",
        ),
    }
    for (n, val) in [("1_0", 100), ("1_1", 110), ("1_2", 120), ("2_0", 200), ("3_0", 300)] {
        s.push_str(&format!("#define CL_VERSION_{n} {val}\n"));
    }
    s.push_str(
        "#define __ENDIAN_LITTLE__ 1\n\
         #define __KILN__ 1\n\
         #define __kernel_exec(X, typen) __kernel __attribute__((work_group_size_hint(X, 1, 1))) __attribute__((vec_type_hint(typen)))\n\
         #define kernel_exec(X, typen) __kernel __attribute__((work_group_size_hint(X, 1, 1))) __attribute__((vec_type_hint(typen)))\n\
         #define CHAR_BIT 8\n\
         #define SCHAR_MAX 127\n\
         #define SCHAR_MIN (-127-1)\n\
         #define CHAR_MAX SCHAR_MAX\n\
         #define CHAR_MIN SCHAR_MIN\n\
         #define UCHAR_MAX 255\n\
         #define SHRT_MAX 32767\n\
         #define SHRT_MIN (-32767-1)\n\
         #define USHRT_MAX 65535\n\
         #define INT_MAX 2147483647\n\
         #define INT_MIN (-2147483647-1)\n\
         #define UINT_MAX 0xffffffffU\n\
         #define LONG_MAX 0x7fffffffffffffffL\n\
         #define LONG_MIN (-0x7fffffffffffffffL-1)\n\
         #define ULONG_MAX 0xffffffffffffffffUL\n\
         #define FLT_DIG 6\n\
         #define FLT_MANT_DIG 24\n\
         #define FLT_MAX_10_EXP +38\n\
         #define FLT_MAX_EXP +128\n\
         #define FLT_MIN_10_EXP -37\n\
         #define FLT_MIN_EXP -125\n\
         #define FLT_RADIX 2\n\
         #define FLT_MAX 0x1.fffffep127f\n\
         #define FLT_MIN 0x1.0p-126f\n\
         #define FLT_EPSILON 0x1.0p-23f\n\
         #define MAXFLOAT 0x1.fffffep127f\n\
         #define HUGE_VALF __builtin_huge_valf()\n\
         #define INFINITY __builtin_inff()\n\
         #define NAN __builtin_nanf(\"\")\n\
         #define M_E_F 2.71828182845904523536f\n\
         #define M_LOG2E_F 1.44269504088896340736f\n\
         #define M_LOG10E_F 0.434294481903251827651f\n\
         #define M_LN2_F 0.693147180559945309417f\n\
         #define M_LN10_F 2.30258509299404568402f\n\
         #define M_PI_F 3.14159265358979323846f\n\
         #define M_PI_2_F 1.57079632679489661923f\n\
         #define M_PI_4_F 0.785398163397448309616f\n\
         #define M_1_PI_F 0.318309886183790671538f\n\
         #define M_2_PI_F 0.636619772367581343076f\n\
         #define M_2_SQRTPI_F 1.12837916709551257390f\n\
         #define M_SQRT2_F 1.41421356237309504880f\n\
         #define M_SQRT1_2_F 0.707106781186547524401f\n\
         #define CLK_LOCAL_MEM_FENCE 1\n\
         #define CLK_GLOBAL_MEM_FENCE 2\n\
         #define CLK_IMAGE_MEM_FENCE 4\n\
         #define CLK_CHANNEL_MEM_FENCE 8\n\
         #define cl_khr_byte_addressable_store 1\n",
    );
    for ext in SUPPORTED_EXTENSIONS.iter().filter(|e| e.contains("atomics")) {
        s.push_str(&format!("#define {ext} 1\n"));
    }
    if std >= ClStd::Cl2_0 {
        s.push_str(if language == Language::Cxx { "#define NULL nullptr\n" } else { "#define NULL ((void*)0)\n" });
        s.push_str("#define ATOMIC_VAR_INIT(x) (x)\n");
        s.push_str("#define CLK_NULL_RESERVE_ID __builtin_null_reserve_id()\n");
    }
    if std == ClStd::Cl3_0 {
        // Only the optional features kiln implements are advertised.
        s.push_str("#define __opencl_c_int64 1\n");
        s.push_str("#define __opencl_c_work_group_collective_functions 1\n");
        // Every atomic operation is performed in program order (sequentially consistent)
        // whatever order and scope the kernel names.
        for f in [
            "__opencl_c_atomic_order_acq_rel",
            "__opencl_c_atomic_order_seq_cst",
            "__opencl_c_atomic_scope_device",
            "__opencl_c_atomic_scope_all_devices",
        ] {
            s.push_str(&format!("#define {f} 1\n"));
        }
    }
    s
}

impl<'a> Preprocessor<'a> {
    pub fn new(sm: &'a mut SourceMap, loader: &'a dyn FileLoader, opts: &'a Options, main_file: FileId) -> Self {
        Preprocessor {
            sm,
            loader,
            opts,
            macros: HashMap::new(),
            input: Vec::new(),
            out: Vec::new(),
            diags: Vec::new(),
            conds: Vec::new(),
            file_stack: Vec::new(),
            pragma_once: HashSet::new(),
            main_file,
        }
    }

    /// Preprocesses the main file.
    pub fn run(mut self) -> Preprocessed {
        self.define_builtins();
        let main = self.main_file;
        self.push_file(main);
        self.process();
        Preprocessed { tokens: self.out, diags: self.diags }
    }

    fn define_builtins(&mut self) {
        for (name, b) in [("__FILE__", BuiltinMacro::File), ("__LINE__", BuiltinMacro::Line)] {
            self.macros.insert(
                name.into(),
                Rc::new(Macro { params: None, variadic: false, body: vec![], span: Span::default(), builtin: Some(b) }),
            );
        }
        let mut text = predefined_source(self.opts.std, self.opts.language);
        for (n, v) in &self.opts.defines {
            text.push_str(&format!("#define {n} {}\n", v.as_deref().unwrap_or("1")));
        }
        for n in &self.opts.undefines {
            text.push_str(&format!("#undef {n}\n"));
        }
        let id = self.sm.add("<command line>", None, text);
        self.push_file(id);
        self.process_until_file_end();
    }

    fn cxx(&self) -> bool {
        self.opts.language == Language::Cxx
    }

    fn push_file(&mut self, id: FileId) {
        let (toks, diags) = lex::lex_language(id, &self.sm.file(id).text, self.cxx());
        self.diags.extend(diags);
        self.file_stack.push(id);
        self.input.extend(toks.into_iter().rev());
    }

    fn next(&mut self) -> Option<Token> {
        self.input.pop()
    }

    fn peek(&self) -> Option<&Token> {
        self.input.last()
    }

    /// Processes input until the `Eof` of the file on top of the stack (used for the predefines).
    fn process_until_file_end(&mut self) {
        let depth = self.file_stack.len();
        while self.file_stack.len() >= depth {
            if !self.step() {
                break;
            }
        }
    }

    fn process(&mut self) {
        while self.step() {}
    }

    /// Handles one input token. Returns false at the end of the main file.
    fn step(&mut self) -> bool {
        let Some(tok) = self.next() else { return false };
        if tok.is_eof() {
            return self.end_of_file(tok);
        }
        if tok.line_start && tok.is_punct(P::Hash) && tok.hideset.is_none() && tok.origin.is_none() {
            self.directive(tok);
            return true;
        }
        if !self.try_expand(&tok) {
            self.out.push(tok);
        }
        true
    }

    fn end_of_file(&mut self, eof: Token) -> bool {
        let file = self.file_stack.pop().unwrap_or(self.main_file);
        while self.conds.last().is_some_and(|c| c.file == file) {
            if let Some(c) = self.conds.pop() {
                self.diags.push(
                    Diagnostic::error(codes::UNTERMINATED_IF, "unterminated conditional directive")
                        .at_labeled(c.span, "this #if has no matching #endif"),
                );
            }
        }
        if file == self.main_file {
            self.out.push(eof);
            return false;
        }
        true
    }

    /// Reads the rest of the current directive line.
    fn line_tokens(&mut self) -> Vec<Token> {
        let mut v = Vec::new();
        while let Some(t) = self.peek() {
            if t.line_start || t.is_eof() {
                break;
            }
            if let Some(t) = self.next() {
                v.push(t);
            }
        }
        v
    }

    fn directive(&mut self, hash: Token) {
        let Some(name) = self.peek().cloned() else { return };
        if name.line_start || name.is_eof() {
            return; // the null directive
        }
        self.next();
        let span = hash.span.to(name.span);
        match &*name.text {
            "define" => {
                let line = self.line_tokens();
                self.define(line, span);
            }
            "undef" => {
                let line = self.line_tokens();
                match line.first() {
                    Some(t) if t.kind == TokKind::Ident => {
                        self.macros.remove(&*t.text);
                    }
                    _ => self.diags.push(Diagnostic::error(codes::BAD_MACRO_DEF, "#undef needs a macro name").at(span)),
                }
            }
            "include" => {
                let line = self.line_tokens();
                self.include(line, span);
            }
            "if" => {
                let line = self.line_tokens();
                let v = self.eval_condition(line, span);
                self.begin_conditional(v, span);
            }
            "ifdef" | "ifndef" => {
                let line = self.line_tokens();
                let defined = match line.first() {
                    Some(t) if t.kind == TokKind::Ident => self.macros.contains_key(&*t.text),
                    _ => {
                        self.diags.push(
                            Diagnostic::error(codes::BAD_DIRECTIVE, format!("#{} needs a macro name", name.text))
                                .at(span),
                        );
                        false
                    }
                };
                let v = if &*name.text == "ifdef" { defined } else { !defined };
                self.begin_conditional(v, span);
            }
            "elif" | "else" => {
                let _ = self.line_tokens();
                match self.conds.last_mut() {
                    Some(c) if !c.seen_else => {
                        if &*name.text == "else" {
                            c.seen_else = true;
                        }
                        // The previous group was taken (we were processing it), so skip the rest.
                        c.taken = true;
                        self.skip_group();
                    }
                    Some(_) => self.diags.push(
                        Diagnostic::error(codes::UNMATCHED_CONDITIONAL, format!("#{} after #else", name.text)).at(span),
                    ),
                    None => self.diags.push(
                        Diagnostic::error(codes::UNMATCHED_CONDITIONAL, format!("#{} without #if", name.text)).at(span),
                    ),
                }
            }
            "endif" => {
                let _ = self.line_tokens();
                if self.conds.pop().is_none() {
                    self.diags.push(Diagnostic::error(codes::UNMATCHED_CONDITIONAL, "#endif without #if").at(span));
                }
            }
            "error" => {
                let line = self.line_tokens();
                let msg = spell(&line);
                self.diags.push(Diagnostic::error(codes::ERROR_DIRECTIVE, format!("#error {msg}")).at(span));
            }
            "warning" => {
                let line = self.line_tokens();
                let msg = spell(&line);
                self.diags.push(Diagnostic::warning(codes::ERROR_DIRECTIVE, format!("#warning {msg}")).at(span));
            }
            "line" => {
                let line = self.line_tokens();
                let line = self.expand_list(line);
                let ok = match line.as_slice() {
                    [n] => n.kind == TokKind::Number && n.text.parse::<u32>().is_ok_and(|v| v > 0),
                    [n, f] => {
                        n.kind == TokKind::Number
                            && n.text.parse::<u32>().is_ok_and(|v| v > 0)
                            && f.kind == TokKind::Str
                    }
                    _ => false,
                };
                if !ok {
                    self.diags.push(
                        Diagnostic::error(
                            codes::BAD_LINE_DIRECTIVE,
                            "#line needs a positive line number and an optional file name",
                        )
                        .at(span),
                    );
                }
            }
            "pragma" => {
                let line = self.line_tokens();
                self.pragma(line, span);
            }
            // A line marker of preprocessed output (`# 12 "kernel.cl" 2`): the flags after the
            // file name say whether a file is entered or left. Diagnostics keep the positions in
            // the file kiln reads, so the marker needs no action.
            _ if name.kind == TokKind::Number && name.text.parse::<u32>().is_ok() => {
                let line = self.line_tokens();
                let well_formed = match line.split_first() {
                    None => true,
                    Some((f, flags)) => {
                        f.kind == TokKind::Str && flags.iter().all(|t| matches!(&*t.text, "1" | "2" | "3" | "4"))
                    }
                };
                if !well_formed {
                    self.diags.push(
                        Diagnostic::error(
                            codes::BAD_LINE_DIRECTIVE,
                            "a line marker is `# LINE \"FILE\"` followed by flags 1 to 4",
                        )
                        .at(span),
                    );
                }
            }
            _ => {
                let _ = self.line_tokens();
                self.diags.push(
                    Diagnostic::error(codes::BAD_DIRECTIVE, format!("unknown preprocessor directive `#{}`", name.text))
                        .at(span),
                );
            }
        }
    }

    fn begin_conditional(&mut self, value: bool, span: Span) {
        let file = self.file_stack.last().copied().unwrap_or(self.main_file);
        self.conds.push(Cond { taken: value, seen_else: false, span, file });
        if !value {
            self.skip_group();
        }
    }

    /// Skips tokens of a group whose condition is false, up to the `#elif`/`#else`/`#endif` that
    /// ends it, and handles that directive.
    fn skip_group(&mut self) {
        let mut depth = 0usize;
        loop {
            let Some(t) = self.next() else { return };
            if t.is_eof() {
                self.input.push(t);
                return;
            }
            if !(t.line_start && t.is_punct(P::Hash)) {
                continue;
            }
            let Some(name) = self.peek().cloned() else { continue };
            if name.line_start {
                continue;
            }
            let span = t.span.to(name.span);
            match &*name.text {
                "if" | "ifdef" | "ifndef" => {
                    self.next();
                    let _ = self.line_tokens();
                    depth += 1;
                }
                "endif" => {
                    self.next();
                    let _ = self.line_tokens();
                    if depth == 0 {
                        self.conds.pop();
                        return;
                    }
                    depth -= 1;
                }
                "else" if depth == 0 => {
                    self.next();
                    let _ = self.line_tokens();
                    let Some(c) = self.conds.last_mut() else { return };
                    if c.seen_else {
                        self.diags.push(Diagnostic::error(codes::UNMATCHED_CONDITIONAL, "#else after #else").at(span));
                    }
                    c.seen_else = true;
                    if !c.taken {
                        c.taken = true;
                        return;
                    }
                }
                "elif" if depth == 0 => {
                    self.next();
                    let line = self.line_tokens();
                    let Some(c) = self.conds.last() else { return };
                    if c.seen_else {
                        self.diags.push(Diagnostic::error(codes::UNMATCHED_CONDITIONAL, "#elif after #else").at(span));
                    }
                    if !c.taken {
                        let v = self.eval_condition(line, span);
                        if v {
                            if let Some(c) = self.conds.last_mut() {
                                c.taken = true;
                            }
                            return;
                        }
                    }
                }
                _ => {}
            }
        }
    }

    fn define(&mut self, line: Vec<Token>, span: Span) {
        let mut it = line.into_iter().peekable();
        let Some(name) = it.next().filter(|t| t.kind == TokKind::Ident) else {
            self.diags.push(Diagnostic::error(codes::BAD_MACRO_DEF, "#define needs a macro name").at(span));
            return;
        };
        if &*name.text == "defined" {
            self.diags
                .push(Diagnostic::error(codes::BAD_MACRO_DEF, "`defined` cannot be defined as a macro").at(name.span));
            return;
        }
        let mut params = None;
        let mut variadic = false;
        // A '(' immediately after the name (no space) starts a parameter list.
        if it.peek().is_some_and(|t| t.is_punct(P::LParen) && !t.leading_space) {
            it.next();
            let mut ps: Vec<Rc<str>> = Vec::new();
            let mut ok = false;
            loop {
                match it.next() {
                    Some(t) if t.is_punct(P::RParen) && ps.is_empty() => {
                        ok = true;
                        break;
                    }
                    Some(t) if t.is_punct(P::Ellipsis) => {
                        variadic = true;
                        ps.push("__VA_ARGS__".into());
                        ok = it.next().is_some_and(|t| t.is_punct(P::RParen));
                        if self.opts.std < ClStd::Cl3_0 {
                            self.diags.push(
                                Diagnostic::error(codes::VARIADIC_MACRO_VERSION, "variadic macros need OpenCL C 3.0")
                                    .at(t.span)
                                    .with_help("compile with -cl-std=CL3.0"),
                            );
                        }
                        break;
                    }
                    Some(t) if t.kind == TokKind::Ident => {
                        if ps.contains(&t.text) {
                            break;
                        }
                        ps.push(t.text.clone());
                        match it.next() {
                            Some(c) if c.is_punct(P::Comma) => continue,
                            Some(c) if c.is_punct(P::RParen) => {
                                ok = true;
                                break;
                            }
                            _ => break,
                        }
                    }
                    _ => break,
                }
            }
            if !ok {
                self.diags.push(
                    Diagnostic::error(
                        codes::BAD_MACRO_DEF,
                        format!("malformed parameter list for macro `{}`", name.text),
                    )
                    .at(span.to(name.span)),
                );
                return;
            }
            params = Some(ps);
        }
        let body: Vec<Token> = it.collect();
        if body.first().is_some_and(|t| t.is_punct(P::HashHash)) || body.last().is_some_and(|t| t.is_punct(P::HashHash))
        {
            self.diags.push(
                Diagnostic::error(codes::BAD_PASTE, "`##` cannot appear at either end of a macro body").at(name.span),
            );
            return;
        }
        if let Some(ps) = &params {
            for (i, t) in body.iter().enumerate() {
                if t.is_punct(P::Hash) {
                    let next_is_param =
                        body.get(i + 1).is_some_and(|n| n.kind == TokKind::Ident && ps.contains(&n.text));
                    if !next_is_param {
                        self.diags.push(
                            Diagnostic::error(codes::BAD_PASTE, "`#` must be followed by a macro parameter").at(t.span),
                        );
                        return;
                    }
                }
            }
        }
        if let Some(old) = self.macros.get(&name.text)
            && old.builtin.is_none()
            && !same_definition(old, &params, &body)
        {
            self.diags.push(
                Diagnostic::warning(codes::MACRO_REDEFINED, format!("macro `{}` redefined", name.text))
                    .at(name.span)
                    .with_label(old.span, "previous definition"),
            );
        }
        self.macros
            .insert(name.text.clone(), Rc::new(Macro { params, variadic, body, span: name.span, builtin: None }));
    }

    fn include(&mut self, line: Vec<Token>, span: Span) {
        let line = if line.first().is_some_and(|t| t.kind == TokKind::Ident) { self.expand_list(line) } else { line };
        let quoted = |t: &Token| t.text.strip_prefix('"').and_then(|s| s.strip_suffix('"')).map(str::to_string);
        let (name, angled) = match line.as_slice() {
            // An unterminated literal (`#include "`) is one quote long.
            [t] if t.kind == TokKind::Str && quoted(t).is_some() => (quoted(t).unwrap_or_default(), false),
            [first, .., last] if first.is_punct(P::Lt) && last.is_punct(P::Gt) => {
                let inner: String = line[1..line.len() - 1].iter().map(|t| t.text.to_string()).collect();
                (inner, true)
            }
            _ => {
                self.diags.push(
                    Diagnostic::error(codes::BAD_DIRECTIVE, "#include expects \"FILENAME\" or <FILENAME>").at(span),
                );
                return;
            }
        };
        if self.file_stack.len() > MAX_INCLUDE_DEPTH {
            self.diags.push(
                Diagnostic::error(codes::INCLUDE_DEPTH, format!("#include nested too deeply including \"{name}\""))
                    .at(span),
            );
            return;
        }
        let mut candidates = Vec::new();
        if !angled {
            let cur = self.file_stack.last().copied().unwrap_or(self.main_file);
            let dir = self.sm.file(cur).path.as_ref().and_then(|p| p.parent().map(Path::to_path_buf));
            candidates.push(dir.unwrap_or_default().join(&name));
        }
        for d in &self.opts.include_dirs {
            candidates.push(d.join(&name));
        }
        for path in candidates {
            if let Some(id) = self.sm.find_path(&path)
                && self.pragma_once.contains(&id)
            {
                return;
            }
            if let Ok(text) = self.loader.load(&path) {
                let shown = path.to_string_lossy().into_owned();
                let id = self.sm.add(shown, Some(path), text);
                self.push_file(id);
                return;
            }
        }
        let mut d = Diagnostic::error(codes::INCLUDE_NOT_FOUND, format!("'{name}' file not found")).at(span);
        if angled {
            d = d.with_note("OpenCL C has no standard headers; built-in functions are always available");
        } else if self.opts.include_dirs.is_empty() {
            d = d.with_help("add the directory that holds it with -I");
        }
        self.diags.push(d);
    }

    fn pragma(&mut self, line: Vec<Token>, span: Span) {
        let Some(first) = line.first() else {
            return;
        };
        if first.is_ident("OPENCL") {
            self.opencl_pragma(&line, span);
            self.emit_pragma(line, span);
            return;
        }
        if first.is_ident("once") {
            if let Some(&f) = self.file_stack.last() {
                self.pragma_once.insert(f);
            }
            return;
        }
        if first.kind == TokKind::Ident && KNOWN_PRAGMAS.contains(&&*first.text) {
            // Arguments of vendor loop pragmas are macro-expanded (as clang does for `unroll`).
            let head = line[0].clone();
            let mut rest = self.expand_list(line[1..].to_vec());
            rest.insert(0, head);
            self.emit_pragma(rest, span);
            return;
        }
        let name = spell(&line);
        self.diags.push(
            Diagnostic::note(codes::UNKNOWN_PRAGMA, format!("unknown pragma `{name}` ignored")).at(span.to(first.span)),
        );
    }

    fn emit_pragma(&mut self, line: Vec<Token>, span: Span) {
        let end = line.last().map(|t| t.span).unwrap_or(span);
        let mut t = Token::new(TokKind::Pragma, spell(&line), span.to(end));
        t.line_start = true;
        t.pragma = Some(Rc::new(line));
        self.out.push(t);
    }

    fn opencl_pragma(&mut self, line: &[Token], span: Span) {
        let words: Vec<&str> = line.iter().map(|t| &*t.text).collect();
        match words.as_slice() {
            ["OPENCL", "FP_CONTRACT", "ON" | "OFF" | "DEFAULT"] => {}
            ["OPENCL", "EXTENSION", name, ":", action @ ("enable" | "disable")] => {
                let supported = SUPPORTED_EXTENSIONS.contains(name);
                if *action == "enable" && (*name == "all" || !supported) {
                    let msg = if *name == "all" {
                        "`all` can only be used with `disable`".to_string()
                    } else {
                        format!("extension `{name}` is not supported by kiln")
                    };
                    self.diags.push(Diagnostic::error(codes::EXTENSION_UNSUPPORTED, msg).at(span.to(line[2].span)));
                } else if *action == "disable" && *name != "all" && !supported && !KNOWN_EXTENSIONS.contains(name) {
                    self.diags.push(
                        Diagnostic::warning(codes::EXTENSION_DISABLE_UNKNOWN, format!("unknown extension `{name}` disabled"))
                            .at(span.to(line[2].span)),
                    );
                }
            }
            _ => self.diags.push(
                Diagnostic::error(
                    codes::BAD_OPENCL_PRAGMA,
                    "expected `#pragma OPENCL EXTENSION name : enable|disable` or `#pragma OPENCL FP_CONTRACT ON|OFF|DEFAULT`",
                )
                .at(span.to(line.last().map(|t| t.span).unwrap_or(span))),
            ),
        }
    }

    /// Evaluates an `#if`/`#elif` condition line.
    fn eval_condition(&mut self, line: Vec<Token>, span: Span) -> bool {
        // Replace `defined X` / `defined(X)` before expansion.
        let mut pre = Vec::new();
        let mut i = 0;
        while i < line.len() {
            let t = &line[i];
            if t.is_ident("defined") {
                let (name, next) = if line.get(i + 1).is_some_and(|t| t.is_punct(P::LParen)) {
                    let ok = line.get(i + 3).is_some_and(|t| t.is_punct(P::RParen));
                    (line.get(i + 2).filter(|_| ok), i + 4)
                } else {
                    (line.get(i + 1), i + 2)
                };
                match name.filter(|n| n.kind == TokKind::Ident) {
                    Some(n) => {
                        let v = if self.macros.contains_key(&*n.text) { "1" } else { "0" };
                        pre.push(Token::new(TokKind::Number, v, t.span));
                        i = next;
                    }
                    None => {
                        self.diags
                            .push(Diagnostic::error(codes::BAD_IF_EXPR, "`defined` needs a macro name").at(t.span));
                        return false;
                    }
                }
            } else {
                pre.push(t.clone());
                i += 1;
            }
        }
        let expanded = self.expand_list(pre);
        match expr::eval(&expanded) {
            Ok(v) => v != 0,
            Err((msg, at)) => {
                self.diags.push(Diagnostic::error(codes::BAD_IF_EXPR, msg).at(at.unwrap_or(span)));
                false
            }
        }
    }

    /// Fully macro-expands a token list in isolation (macro arguments, `#if` lines).
    fn expand_list(&mut self, toks: Vec<Token>) -> Vec<Token> {
        let saved_input = std::mem::replace(&mut self.input, toks.into_iter().rev().collect());
        let saved_out = std::mem::take(&mut self.out);
        while let Some(t) = self.next() {
            if !self.try_expand(&t) {
                self.out.push(t);
            }
        }
        self.input = saved_input;
        std::mem::replace(&mut self.out, saved_out)
    }

    /// If `tok` names a macro that may be expanded here, pushes its expansion back onto the input
    /// and returns true.
    fn try_expand(&mut self, tok: &Token) -> bool {
        if tok.kind != TokKind::Ident {
            return false;
        }
        let Some(m) = self.macros.get(&*tok.text).cloned() else { return false };
        if tok.hidden(&tok.text) {
            return false;
        }
        if let Some(b) = m.builtin {
            let loc = self.sm.location(tok.span);
            let mut t = match b {
                BuiltinMacro::File => Token::new(TokKind::Str, format!("\"{}\"", loc.file.escape_default()), tok.span),
                BuiltinMacro::Line => Token::new(TokKind::Number, loc.line.to_string(), tok.span),
            };
            t.leading_space = tok.leading_space;
            t.origin = Some(tok.span);
            self.input.push(t);
            return true;
        }
        let name = tok.text.clone();
        let expansion = match &m.params {
            None => {
                let body: Vec<Token> = m.body.iter().map(|b| self.relocate(b, tok)).collect();
                body.into_iter().map(|t| with_hideset(t, &tok.hideset, &name)).collect::<Vec<_>>()
            }
            Some(params) => {
                if !self.peek().is_some_and(|t| t.is_punct(P::LParen)) {
                    return false;
                }
                self.next();
                let Some((args, rparen)) = self.read_args(tok, params.len(), m.variadic) else {
                    // The invocation was reported; stand in a `0` so that parsing goes on quietly.
                    let mut zero = Token::new(TokKind::Number, "0", tok.span);
                    zero.leading_space = tok.leading_space;
                    self.input.push(zero);
                    return true;
                };
                let hs = intersect(&tok.hideset, &rparen.hideset);
                let body = self.substitute(&m, params, args, tok);
                body.into_iter().map(|t| with_hideset(t, &hs, &name)).collect()
            }
        };
        let mut expansion = expansion;
        if let Some(first) = expansion.first_mut() {
            first.leading_space = tok.leading_space;
        }
        self.input.extend(expansion.into_iter().rev());
        true
    }

    /// A copy of a macro-body token placed at an invocation site.
    fn relocate(&self, body_tok: &Token, site: &Token) -> Token {
        let mut t = body_tok.clone();
        t.origin = Some(body_tok.origin.unwrap_or(body_tok.span));
        t.span = site.span;
        t.line_start = false;
        t
    }

    /// Reads the arguments of a function-like macro invocation after its `(`.
    fn read_args(&mut self, name: &Token, nparams: usize, variadic: bool) -> Option<(Vec<Vec<Token>>, Token)> {
        let mut args: Vec<Vec<Token>> = vec![Vec::new()];
        let mut depth = 0usize;
        loop {
            let Some(t) = self.next() else {
                self.diags.push(
                    Diagnostic::error(
                        codes::UNTERMINATED_MACRO_CALL,
                        format!("unterminated invocation of macro `{}`", name.text),
                    )
                    .at(name.span),
                );
                return None;
            };
            if t.is_eof() {
                self.diags.push(
                    Diagnostic::error(
                        codes::UNTERMINATED_MACRO_CALL,
                        format!("unterminated invocation of macro `{}`", name.text),
                    )
                    .at(name.span),
                );
                self.input.push(t);
                return None;
            }
            if t.is_punct(P::LParen) {
                depth += 1;
            } else if t.is_punct(P::RParen) {
                if depth == 0 {
                    let n = args.len();
                    let ok = if nparams == 0 {
                        n == 1 && args[0].is_empty()
                    } else if variadic {
                        n >= nparams - 1
                    } else {
                        n == nparams
                    };
                    if variadic && n == nparams - 1 {
                        args.push(Vec::new());
                    }
                    if !ok {
                        self.diags.push(
                            Diagnostic::error(
                                codes::MACRO_ARG_COUNT,
                                format!(
                                    "macro `{}` takes {} argument(s), {} given",
                                    name.text,
                                    nparams,
                                    if nparams == 0 && args[0].is_empty() { 0 } else { n }
                                ),
                            )
                            .at(name.span.to(t.span)),
                        );
                        return None;
                    }
                    if nparams == 0 {
                        args.clear();
                    }
                    return Some((args, t));
                }
                depth -= 1;
            } else if t.is_punct(P::Comma) && depth == 0 && !(variadic && args.len() == nparams) {
                args.push(Vec::new());
                continue;
            }
            let mut t = t;
            t.line_start = false;
            if let Some(last) = args.last_mut() {
                last.push(t);
            }
        }
    }

    fn substitute(&mut self, m: &Macro, params: &[Rc<str>], args: Vec<Vec<Token>>, site: &Token) -> Vec<Token> {
        let param_index = |t: &Token| -> Option<usize> {
            if t.kind == TokKind::Ident { params.iter().position(|p| **p == *t.text) } else { None }
        };
        let mut expanded_cache: Vec<Option<Vec<Token>>> = vec![None; args.len()];
        let mut out: Vec<Token> = Vec::new();
        let body = &m.body;
        let mut i = 0;
        while i < body.len() {
            let t = &body[i];
            if t.is_punct(P::Hash)
                && let Some(pi) = body.get(i + 1).and_then(param_index)
            {
                let s = stringize(&args[pi]);
                let mut st = Token::new(TokKind::Str, s, site.span);
                st.leading_space = t.leading_space;
                st.origin = Some(t.span);
                out.push(st);
                i += 2;
                continue;
            }
            if t.is_punct(P::HashHash) {
                let Some(rhs) = body.get(i + 1) else { break };
                let rhs_toks: Vec<Token> = match param_index(rhs) {
                    Some(pi) => args[pi].clone(),
                    None => vec![self.relocate(rhs, site)],
                };
                let mut rest = rhs_toks.into_iter();
                if let Some(first) = rest.next() {
                    match out.pop() {
                        Some(lhs) => match self.paste(&lhs, &first, site) {
                            Some(p) => out.push(p),
                            None => {
                                out.push(lhs);
                                out.push(first);
                            }
                        },
                        None => out.push(first),
                    }
                }
                out.extend(rest);
                i += 2;
                continue;
            }
            if let Some(pi) = param_index(t) {
                let next_is_paste = body.get(i + 1).is_some_and(|n| n.is_punct(P::HashHash));
                let mut toks = if next_is_paste {
                    args[pi].clone()
                } else {
                    if expanded_cache[pi].is_none() {
                        expanded_cache[pi] = Some(self.expand_list(args[pi].clone()));
                    }
                    expanded_cache[pi].clone().unwrap_or_default()
                };
                if next_is_paste && toks.is_empty() {
                    // Placemarker: `empty ## rhs` yields rhs.
                    if let Some(rhs) = body.get(i + 2) {
                        match param_index(rhs) {
                            Some(rpi) => out.extend(args[rpi].iter().cloned()),
                            None => out.push(self.relocate(rhs, site)),
                        }
                    }
                    i += 3;
                    continue;
                }
                for tk in &mut toks {
                    tk.span = site.span;
                }
                if let Some(f) = toks.first_mut() {
                    f.leading_space = t.leading_space;
                }
                out.extend(toks);
                i += 1;
                continue;
            }
            out.push(self.relocate(t, site));
            i += 1;
        }
        out
    }

    fn paste(&mut self, lhs: &Token, rhs: &Token, site: &Token) -> Option<Token> {
        let text = format!("{}{}", lhs.text, rhs.text);
        match lex::lex_single(&text, site.span, self.cxx()) {
            Some(mut t) => {
                t.leading_space = lhs.leading_space;
                t.origin = lhs.origin;
                Some(t)
            }
            None => {
                self.diags.push(
                    Diagnostic::error(
                        codes::BAD_PASTE,
                        format!("pasting `{}` and `{}` does not give a valid preprocessing token", lhs.text, rhs.text),
                    )
                    .at(site.span),
                );
                None
            }
        }
    }
}

fn same_definition(old: &Macro, params: &Option<Vec<Rc<str>>>, body: &[Token]) -> bool {
    old.params == *params
        && old.body.len() == body.len()
        && old.body.iter().zip(body).all(|(a, b)| a.text == b.text && a.kind == b.kind)
}

/// The spelling of a token list with single spaces where the source had whitespace.
pub fn spell(toks: &[Token]) -> String {
    let mut s = String::new();
    for (i, t) in toks.iter().enumerate() {
        if i > 0 && t.leading_space {
            s.push(' ');
        }
        s.push_str(&t.text);
    }
    s
}

fn stringize(toks: &[Token]) -> String {
    let mut s = String::from("\"");
    for (i, t) in toks.iter().enumerate() {
        if i > 0 && t.leading_space {
            s.push(' ');
        }
        if matches!(t.kind, TokKind::Str | TokKind::Char) {
            for c in t.text.chars() {
                if c == '"' || c == '\\' {
                    s.push('\\');
                }
                s.push(c);
            }
        } else {
            s.push_str(&t.text);
        }
    }
    s.push('"');
    s
}

/// Preprocesses `file` (already in `sm`).
pub fn preprocess(sm: &mut SourceMap, loader: &dyn FileLoader, opts: &Options, file: FileId) -> Preprocessed {
    Preprocessor::new(sm, loader, opts, file).run()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pp_with(src: &str, opts: &Options) -> (String, Vec<&'static str>) {
        let mut sm = SourceMap::new();
        let f = sm.add("t.cl", Some(PathBuf::from("/t.cl")), src.to_string());
        let loader =
            MemLoader(HashMap::from([(PathBuf::from("/inc.h"), "#define FROM_INC 7\nint inc;\n".to_string())]));
        let r = preprocess(&mut sm, &loader, opts, f);
        let text = r.tokens.iter().filter(|t| !t.is_eof()).map(|t| t.text.to_string()).collect::<Vec<_>>().join(" ");
        (text, r.diags.iter().map(|d| d.code.0).collect())
    }

    fn pp(src: &str) -> (String, Vec<&'static str>) {
        pp_with(src, &Options::default())
    }

    #[test]
    fn object_and_function_macros() {
        assert_eq!(
            pp("#define N 4\n#define SQ(x) ((x)*(x))\nint a = SQ(N+1);").0,
            "int a = ( ( 4 + 1 ) * ( 4 + 1 ) ) ;"
        );
    }

    #[test]
    fn self_reference_does_not_loop() {
        assert_eq!(pp("#define foo foo + 1\nfoo").0, "foo + 1");
        assert_eq!(pp("#define f(x) x g\n#define g f\nf(1)(2)").0, "1 f ( 2 )");
    }

    #[test]
    fn stringize_and_paste() {
        assert_eq!(
            pp("#define S(x) #x\n#define C(a,b) a##b\nS(a \"b\") C(in,t) C(,x) C(1,)").0,
            "\"a \\\"b\\\"\" int x 1"
        );
    }

    #[test]
    fn c99_standard_example() {
        // C99 6.10.3.5 example 3 (abridged).
        let src = "#define x 3\n#define f(a) f(x * (a))\n#undef x\n#define x 2\n#define g f\n#define z z[0]\n\
                   #define h g(~\n#define m(a) a(w)\n#define w 0,1\n#define t(a) a\n\
                   f(y+1) + f(f(z)) % t(t(g)(0) + t)(1);\ng(x+(3,4)-w) | h 5) & m\n(f)^m(m);";
        assert_eq!(
            pp(src).0,
            "f ( 2 * ( y + 1 ) ) + f ( 2 * ( f ( 2 * ( z [ 0 ] ) ) ) ) % f ( 2 * ( 0 ) ) + t ( 1 ) ; \
             f ( 2 * ( 2 + ( 3 , 4 ) - 0 , 1 ) ) | f ( 2 * ( ~ 5 ) ) & f ( 2 * ( 0 , 1 ) ) ^ m ( 0 , 1 ) ;"
        );
    }

    #[test]
    fn conditionals() {
        let src = "#if defined(A) || B > 1\nno\n#elif 1 + 2 * 3 == 7 && !defined B\nyes\n#else\nno\n#endif\n\
                   #ifdef __OPENCL_C_VERSION__\nv\n#endif\n#if 0\n#if 1\nx\n#endif\n#else\nz\n#endif";
        assert_eq!(pp(src), ("yes v z".to_string(), vec![]));
    }

    #[test]
    fn version_macros_follow_std() {
        let o = Options { std: ClStd::Cl1_2, ..Options::default() };
        assert_eq!(pp_with("__OPENCL_C_VERSION__ __opencl_c_int64", &o).0, "120 __opencl_c_int64");
        assert_eq!(pp("__OPENCL_C_VERSION__ __opencl_c_int64").0, "300 1");
    }

    #[test]
    fn command_line_defines() {
        let mut o = Options::default();
        o.add_define("N=16");
        o.add_define("FLAG");
        assert_eq!(pp_with("N FLAG", &o).0, "16 1");
    }

    #[test]
    fn includes() {
        assert_eq!(pp("#include \"inc.h\"\nFROM_INC").0, "int inc ; 7");
        assert_eq!(pp("#include <stdio.h>\n").1, ["E0104"]);
        assert_eq!(pp("#include \"missing.h\"\n").1, ["E0104"]);
    }

    #[test]
    fn errors() {
        assert_eq!(pp("#if 1\n").1, ["E0107"]);
        assert_eq!(pp("#endif\n").1, ["E0108"]);
        assert_eq!(pp("#error stop here\n").1, ["E0105"]);
        assert_eq!(pp("#define f(a,b) a\nf(1)").1, ["E0110"]);
        assert_eq!(pp("#define f(a) a\nf(1").1, ["E0111"]);
        assert_eq!(pp("#foo\n").1, ["E0106"]);
        assert_eq!(pp("#if 1/0\n#endif\n").1, ["E0109"]);
        assert_eq!(pp("#define C(a,b) a##b\nC(+,/)").1, ["E0113"]);
    }

    #[test]
    fn variadic_macros_need_cl3() {
        assert_eq!(pp("#define V(...) f(__VA_ARGS__)\nV(1,2)"), ("f ( 1 , 2 )".to_string(), vec![]));
        let o = Options { std: ClStd::Cl1_2, ..Options::default() };
        assert_eq!(pp_with("#define V(...) f(__VA_ARGS__)\n", &o).1, ["E0115"]);
    }

    #[test]
    fn pragmas() {
        let (text, codes) =
            pp("#define U 4\n#pragma unroll U\n#pragma acme thing\n#pragma OPENCL EXTENSION all : enable\n");
        assert_eq!(text, "unroll 4 OPENCL EXTENSION all : enable");
        assert_eq!(codes, ["N0101", "E0117"]);
    }

    #[test]
    fn file_and_line() {
        assert_eq!(pp("\n\n__LINE__ __FILE__").0, "3 \"t.cl\"");
    }
}
