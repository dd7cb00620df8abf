//! The front end and lowering, as the commands reach them: a checked program with its source
//! map, its kernels by name, and a kernel lowered to the dataflow IR (verified).

use kiln_dataflow::Kernel;
use kiln_diagnostics::{Diagnostic, FileId, SourceMap, Span, codes};
use kiln_frontend::Options;
use kiln_frontend::pp::FileLoader;
use kiln_hir::{FuncId, Program};
use std::rc::Rc;

/// Diagnostics that ended a command.
#[derive(Debug)]
pub struct Failure {
    pub diags: Vec<Diagnostic>,
}

impl From<Diagnostic> for Failure {
    fn from(d: Diagnostic) -> Failure {
        Failure { diags: vec![d] }
    }
}

impl From<Vec<Diagnostic>> for Failure {
    fn from(diags: Vec<Diagnostic>) -> Failure {
        Failure { diags }
    }
}

/// The source files of a session and the checked program.
pub struct Frontend {
    pub sources: SourceMap,
    pub program: Program,
    /// Warnings and notes (errors end the session).
    pub diags: Vec<Diagnostic>,
}

/// Runs the front end on `file` of `sources`, reading `#include`s through `loader`. On errors,
/// returns every diagnostic with the source map so that the caller can render them.
pub fn frontend(
    sources: SourceMap,
    file: FileId,
    loader: &dyn FileLoader,
    opts: &Options,
) -> Result<Frontend, (SourceMap, Failure)> {
    // C++ for OpenCL (`.clcpp` files, `-cl-std=CLC++`) has its own front end; both produce the
    // same HIR.
    let out = if kiln_frontend_cxx::is_cxx(&sources.file(file).name, opts) {
        kiln_frontend_cxx::check(sources, file, loader, opts)
    } else {
        kiln_frontend::check(sources, file, loader, opts)
    };
    match out.program {
        Some(program) => Ok(Frontend { sources: out.sources, program, diags: out.diags }),
        None => Err((out.sources, Failure { diags: out.diags })),
    }
}

/// Names of the kernels in a program, in source order.
pub fn kernel_names(prog: &Program) -> Vec<String> {
    prog.kernels().map(|(_, f)| f.name.to_string()).collect()
}

/// Finds a kernel by name, with a helpful error listing the available ones.
pub fn find_kernel(prog: &Program, name: &str, at: Option<Span>) -> Result<FuncId, Failure> {
    if let Some(id) = prog.kernel_by_name(name) {
        return Ok(id);
    }
    let names = kernel_names(prog);
    let mut d = Diagnostic::error(codes::UNKNOWN_KERNEL, format!("no kernel named `{name}`"));
    if let Some(s) = at {
        d = d.at(s);
    }
    d = if names.is_empty() {
        d.with_note("the file defines no kernel")
    } else {
        d.with_note(format!("kernels in the file: {}", names.join(", ")))
    };
    Err(d.into())
}

/// Lowers one kernel to the dataflow IR as written (the emulator's form) and verifies it.
pub fn lower(
    prog: &Program,
    kernel: FuncId,
    local_size: Option<[u32; 3]>,
    local_args: &[(Rc<str>, u32)],
) -> Result<Kernel, Failure> {
    let opts = kiln_dataflow::lower::LowerOptions { local_size, local_args: local_args.to_vec(), ..Default::default() };
    lower_with(prog, kernel, &opts)
}

/// Lowers one kernel with options (hardware builds apply the loop transformations).
pub fn lower_with(
    prog: &Program,
    kernel: FuncId,
    opts: &kiln_dataflow::lower::LowerOptions,
) -> Result<Kernel, Failure> {
    let k = kiln_dataflow::lower::lower_kernel_with(prog, kernel, opts)?;
    kiln_dataflow::verify::verify(&k).map_err(|e| Diagnostic::internal_error("lowering", &e))?;
    Ok(k)
}
