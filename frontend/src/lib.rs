//! kiln's OpenCL C front end: source text to the typed, checked program of `kiln-hir`.
//!
//! Owns: the preprocessor with OpenCL's predefined macros, the lexer and parser of OpenCL C
//! (1.2, 2.0, 3.0 and the Intel and Xilinx FPGA dialects), and semantic analysis — the OpenCL C
//! rules that produce a [`kiln_hir::Program`].
//!
//! Must not: define the HIR, the types or the diagnostics (they are `kiln-hir`'s and
//! `kiln-diagnostics`', shared with every other front end); know anything about hardware,
//! schedules or Verilog; read files except through the [`pp::FileLoader`] it is given; panic on
//! any input.
//!
//! Pipeline: [`lex`] → [`pp`] → [`parse`] → [`sema`] → [`kiln_hir::Program`].

pub mod ast;
pub mod lex;
pub mod literal;
pub mod mathlib;
pub mod options;
pub mod parse;
pub mod pp;
pub mod sema;

// The shared crates under the names the front end's modules use.
pub(crate) use kiln_diagnostics as diag;
pub(crate) use kiln_diagnostics::source;
pub(crate) use kiln_hir as hir;
pub(crate) use kiln_hir::{builtins, types};

use kiln_diagnostics::{Diagnostic, Diagnostics, FileId, SourceMap};
pub use options::{ClStd, Language, Options};

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
        if failed {
            None
        } else {
            match mathlib::link(a.program, &mut sources) {
                Ok(p) => Some(p),
                Err(d) => {
                    diags.push(d);
                    None
                }
            }
        }
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
