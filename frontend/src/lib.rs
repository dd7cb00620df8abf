//! kiln's front end: OpenCL C source text to a typed, checked program.
//!
//! Owns: the source map and diagnostics (used by every later stage), the preprocessor, the
//! parser, the type system and semantic analysis, and the typed program ([`hir`]) that the
//! dataflow crate lowers.
//!
//! Must not: know anything about hardware, schedules or Verilog; read files except through the
//! [`pp::FileLoader`] it is given; panic on any input.
//!
//! Pipeline: [`lex`] → [`pp`] → [`parse`] → [`sema`] → [`hir::Program`].

pub mod ast;
pub mod builtins;
pub mod diag;
pub mod hir;
pub mod lex;
pub mod literal;
pub mod options;
pub mod parse;
pub mod pp;
pub mod sema;
pub mod source;
pub mod types;

pub use diag::{Diagnostic, Diagnostics, Severity};
pub use options::{ClStd, Options};
pub use source::{FileId, SourceMap, Span};

/// The result of running the front end on one file.
pub struct FrontendOutput {
    pub sources: SourceMap,
    /// The checked program; `None` when any error was reported.
    pub program: Option<hir::Program>,
    /// All diagnostics, sorted by position.
    pub diags: Vec<Diagnostic>,
}

impl FrontendOutput {
    pub fn has_errors(&self) -> bool {
        self.diags.iter().any(Diagnostic::is_error)
    }
}

/// Runs the front end on source text already loaded into `sources` as `file`.
pub fn check(mut sources: SourceMap, file: FileId, loader: &dyn pp::FileLoader, opts: &Options) -> FrontendOutput {
    let pre = pp::preprocess(&mut sources, loader, opts, file);
    let mut diags = pre.diags;
    let (tu, parse_diags) = parse::parse(&pre.tokens, opts.std);
    diags.extend(parse_diags);
    let program = if diags.iter().any(Diagnostic::is_error) {
        None
    } else {
        let a = sema::analyze(&tu, opts);
        let failed = a.diags.iter().any(Diagnostic::is_error);
        diags.extend(a.diags);
        if failed { None } else { Some(a.program) }
    };
    let mut all = Diagnostics::new();
    for d in diags {
        all.push(d);
    }
    all.sort();
    FrontendOutput { sources, program, diags: all.into_vec() }
}

/// Runs the front end on an in-memory source (tests, fuzzing). `#include` finds nothing.
pub fn check_source(name: &str, text: &str, opts: &Options) -> FrontendOutput {
    let mut sources = SourceMap::new();
    let file = sources.add(name, None, text.to_string());
    check(sources, file, &pp::MemLoader::default(), opts)
}
