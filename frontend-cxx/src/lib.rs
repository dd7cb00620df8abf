//! kiln's C++ front end: C++ for OpenCL kernels (`.clcpp`, `-cl-std=CLC++`) and the OpenCL
//! C++ 1.0 library subset FPGA kernels use (`cl::array`, `cl::local<T>`, `cl::global_ptr<T>`,
//! `cl::work_group_barrier`, `cl::atomic<T>`, `cl::pipe<T>`, ...), to the same HIR the OpenCL C
//! front end produces.
//!
//! Owns: the C++ parser, name lookup, templates, overload resolution, constructors, lambdas,
//! `constexpr` evaluation, the library's headers (`include/`), and the lowering of all of it
//! onto OpenCL C 2.0 — classes as structs, every call inlined — which the OpenCL C front end
//! then checks into a [`kiln_hir::Program`]. One back end serves both languages.
//!
//! Must not: define the HIR or diagnostics; know hardware; duplicate OpenCL C's rules (types of
//! built-in operations and functions are asked of the OpenCL C front end); read files except
//! through the [`FileLoader`] it is given; panic on any input.
//!
//! Pipeline: the shared preprocessor (with `::` lexed) → [`parse`] → [`elab`] (OpenCL C syntax)
//! → `kiln_frontend::sema` → the math library link → [`kiln_hir::Program`].

pub mod ast;
pub mod consteval;
pub mod elab;
pub mod parse;
pub mod print;
pub mod ty;

use kiln_diagnostics::{Diagnostic, Diagnostics, FileId, SourceMap};
use kiln_frontend::pp::FileLoader;
use kiln_frontend::{FrontendOutput, Language, Options};
use std::path::{Path, PathBuf};

/// The library header every `<opencl_*>` header stands for.
const LIBRARY: &str = include_str!("../include/opencl_kiln.h");

/// The headers of the OpenCL C++ 1.0 library kiln provides (each is the whole subset).
pub const HEADERS: &[&str] = &[
    "opencl_def",
    "opencl_vec",
    "opencl_memory",
    "opencl_work_item",
    "opencl_synchronization",
    "opencl_math",
    "opencl_integer",
    "opencl_common",
    "opencl_geometric",
    "opencl_relational",
    "opencl_vector_load_store",
    "opencl_convert",
    "opencl_reinterpret",
    "opencl_atomic",
    "opencl_pipe",
    "opencl_array",
    "opencl_printf",
    "opencl_utility",
    "opencl_limits",
    "opencl_type_traits",
    "opencl_range",
    "opencl_functional",
    "opencl_numeric",
];

/// Where the library's headers appear to live (`#include <opencl_array>` finds them here).
fn library_dir() -> PathBuf {
    PathBuf::from("<kiln>/include")
}

/// Serves the library's headers, and every other file through the caller's loader.
struct LibraryLoader<'a> {
    inner: &'a dyn FileLoader,
}

impl FileLoader for LibraryLoader<'_> {
    fn load(&self, path: &Path) -> std::io::Result<String> {
        if let Ok(rest) = path.strip_prefix(library_dir()) {
            let name = rest.to_string_lossy();
            if name == "opencl_kiln.h" {
                return Ok(LIBRARY.to_string());
            }
            if HEADERS.contains(&name.as_ref()) {
                return Ok("#include <opencl_kiln.h>\n".to_string());
            }
            return Err(std::io::Error::from(std::io::ErrorKind::NotFound));
        }
        self.inner.load(path)
    }
}

/// The options the C++ front end runs with: C++ for OpenCL lowered onto OpenCL C 2.0, the
/// library's headers on the include path.
fn cxx_options(opts: &Options) -> Options {
    let mut copts = opts.clone();
    copts.language = Language::Cxx;
    copts.std = kiln_frontend::ClStd::Cl2_0;
    copts.include_dirs.push(library_dir());
    copts
}

/// Preprocesses, parses and elaborates `file` into the OpenCL C translation unit it lowers to.
fn lower(
    sources: &mut SourceMap,
    file: FileId,
    loader: &dyn FileLoader,
    copts: &Options,
) -> (Option<kiln_frontend::ast::TranslationUnit>, Vec<Diagnostic>) {
    let lib = LibraryLoader { inner: loader };
    let pre = kiln_frontend::pp::preprocess(sources, &lib, copts, file);
    let mut diags = pre.diags;
    let (items, parse_diags) = parse::parse(&pre.tokens);
    diags.extend(parse_diags);
    if diags.iter().any(Diagnostic::is_error) {
        return (None, diags);
    }
    let (tu, elab_diags) = elab::elaborate(&items, copts);
    diags.extend(elab_diags);
    if diags.iter().any(Diagnostic::is_error) {
        return (None, diags);
    }
    (Some(tu), diags)
}

fn sorted(diags: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let mut all = Diagnostics::new();
    for d in diags {
        all.push(d);
    }
    all.sort();
    all.into_vec()
}

/// Runs the C++ front end on `file` of `sources`.
pub fn check(mut sources: SourceMap, file: FileId, loader: &dyn FileLoader, opts: &Options) -> FrontendOutput {
    let copts = cxx_options(opts);
    let (tu, mut diags) = lower(&mut sources, file, loader, &copts);
    let mut program = None;
    if let Some(tu) = tu {
        let a = kiln_frontend::sema::analyze(&tu, &copts);
        let failed = a.diags.iter().any(Diagnostic::is_error);
        diags.extend(a.diags);
        if !failed {
            match kiln_frontend::mathlib::link(a.program, &mut sources) {
                Ok(p) => program = Some(p),
                Err(d) => diags.push(d),
            }
        }
    }
    FrontendOutput { sources, program, diags: sorted(diags) }
}

/// The OpenCL C program a C++ file lowers to, as source text (`None` after errors).
pub fn emit_opencl(
    mut sources: SourceMap,
    file: FileId,
    loader: &dyn FileLoader,
    opts: &Options,
) -> (SourceMap, Option<String>, Vec<Diagnostic>) {
    let copts = cxx_options(opts);
    let (tu, diags) = lower(&mut sources, file, loader, &copts);
    let text = tu.map(|tu| print::print(&tu));
    (sources, text, sorted(diags))
}

/// Runs the C++ front end on an in-memory source (tests).
pub fn check_source(name: &str, text: &str, opts: &Options) -> FrontendOutput {
    let mut sources = SourceMap::new();
    let file = sources.add(name, None, text.to_string());
    check(sources, file, &kiln_frontend::pp::MemLoader::default(), opts)
}

/// Whether a file is C++ for OpenCL by its name (`.clcpp`) or by the options
/// (`-cl-std=CLC++`).
pub fn is_cxx(path: &str, opts: &Options) -> bool {
    opts.language == Language::Cxx || path.ends_with(".clcpp")
}
