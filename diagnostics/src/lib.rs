//! kiln's diagnostics: source files and spans, stable error codes, and the rendering of
//! problems for people and for tools.
//!
//! Owns: the [`SourceMap`] and [`Span`]s that every front end and every later stage points
//! back into, the registry of codes ([`codes`]), [`Diagnostic`] values and their rendering.
//!
//! Must not: know any source language or any stage of the compiler; every front end (OpenCL C,
//! C++) and every later stage depends on this crate, never the other way round.
//!
//! Every stage of kiln reports problems as [`Diagnostic`]s instead of failing: a stable code (see
//! [`codes`]), a primary span, secondary labels, notes and an optional help line. They are rendered
//! in the style of rustc/clang through `codespan-reporting`, or as JSON lines for tools
//! (`--message-format=json`).

pub mod source;
use codespan_reporting::diagnostic as cs;
use codespan_reporting::term;
use serde::Serialize;
pub use source::{FileId, SourceFile, SourceMap, Span};

pub mod codes;
pub use codes::Code;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Note,
    Warning,
    Error,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    pub span: Span,
    pub message: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub code: Code,
    pub message: String,
    /// Where the problem is. `None` only for problems with no source position (a missing file).
    pub primary: Option<Label>,
    pub secondary: Vec<Label>,
    pub notes: Vec<String>,
    pub help: Option<String>,
}

impl Diagnostic {
    pub fn error(code: Code, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            code,
            message: message.into(),
            primary: None,
            secondary: Vec::new(),
            notes: Vec::new(),
            help: None,
        }
    }

    pub fn warning(code: Code, message: impl Into<String>) -> Diagnostic {
        Diagnostic { severity: Severity::Warning, ..Diagnostic::error(code, message) }
    }

    pub fn note(code: Code, message: impl Into<String>) -> Diagnostic {
        Diagnostic { severity: Severity::Note, ..Diagnostic::error(code, message) }
    }

    /// Sets the primary span with an empty label.
    pub fn at(mut self, span: Span) -> Diagnostic {
        self.primary = Some(Label { span, message: String::new() });
        self
    }

    /// Sets the primary span with a label.
    pub fn at_labeled(mut self, span: Span, label: impl Into<String>) -> Diagnostic {
        self.primary = Some(Label { span, message: label.into() });
        self
    }

    pub fn with_label(mut self, span: Span, label: impl Into<String>) -> Diagnostic {
        self.secondary.push(Label { span, message: label.into() });
        self
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }

    /// The error of a stage whose output breaks an invariant: a kiln bug, reported with the
    /// stage's name and what is wrong, never a panic (code [`codes::INTERNAL_ERROR`]).
    pub fn internal_error(stage: &str, problems: &[impl std::fmt::Display]) -> Diagnostic {
        Diagnostic::error(codes::INTERNAL_ERROR, format!("internal error: {stage} produced invalid output"))
            .with_note(problems.iter().map(|p| p.to_string()).collect::<Vec<_>>().join("\n"))
            .with_help("please report this as a kiln bug with the kernel that triggered it")
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    pub fn span(&self) -> Option<Span> {
        self.primary.as_ref().map(|l| l.span)
    }
}

/// An ordered collection of diagnostics produced by one stage.
#[derive(Clone, Debug, Default)]
pub struct Diagnostics {
    items: Vec<Diagnostic>,
}

impl Diagnostics {
    pub fn new() -> Diagnostics {
        Diagnostics::default()
    }
    pub fn push(&mut self, d: Diagnostic) {
        self.items.push(d);
    }
    pub fn extend(&mut self, other: Diagnostics) {
        self.items.extend(other.items);
    }
    pub fn has_errors(&self) -> bool {
        self.items.iter().any(Diagnostic::is_error)
    }
    pub fn error_count(&self) -> usize {
        self.items.iter().filter(|d| d.is_error()).count()
    }
    pub fn iter(&self) -> impl Iterator<Item = &Diagnostic> {
        self.items.iter()
    }
    pub fn len(&self) -> usize {
        self.items.len()
    }
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
    pub fn into_vec(self) -> Vec<Diagnostic> {
        self.items
    }
    /// Sorts by source position (stable for equal positions) so output never depends on the
    /// order in which checks ran.
    pub fn sort(&mut self) {
        self.items.sort_by_key(|d| d.span().map(|s| (s.file, s.lo)));
    }
}

impl From<Diagnostic> for Diagnostics {
    fn from(d: Diagnostic) -> Diagnostics {
        Diagnostics { items: vec![d] }
    }
}

impl IntoIterator for Diagnostics {
    type Item = Diagnostic;
    type IntoIter = std::vec::IntoIter<Diagnostic>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.into_iter()
    }
}

struct Files<'a>(&'a SourceMap);

impl<'a> codespan_reporting::files::Files<'a> for Files<'a> {
    type FileId = u32;
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, id: u32) -> Result<&'a str, codespan_reporting::files::Error> {
        Ok(&self.0.file(crate::source::FileId(id)).name)
    }
    fn source(&'a self, id: u32) -> Result<&'a str, codespan_reporting::files::Error> {
        Ok(&self.0.file(crate::source::FileId(id)).text)
    }
    fn line_index(&'a self, id: u32, byte: usize) -> Result<usize, codespan_reporting::files::Error> {
        let starts = self.0.file(crate::source::FileId(id)).line_starts();
        Ok(match starts.binary_search(&(byte as u32)) {
            Ok(i) => i,
            Err(i) => i - 1,
        })
    }
    fn line_range(&'a self, id: u32, line: usize) -> Result<std::ops::Range<usize>, codespan_reporting::files::Error> {
        let f = self.0.file(crate::source::FileId(id));
        let starts = f.line_starts();
        let start = *starts
            .get(line)
            .ok_or(codespan_reporting::files::Error::LineTooLarge { given: line, max: starts.len() - 1 })?
            as usize;
        let end = starts.get(line + 1).map(|&e| e as usize).unwrap_or(f.text.len());
        Ok(start..end)
    }
}

fn to_codespan(d: &Diagnostic) -> cs::Diagnostic<u32> {
    let severity = match d.severity {
        Severity::Error => cs::Severity::Error,
        Severity::Warning => cs::Severity::Warning,
        Severity::Note => cs::Severity::Note,
    };
    let mut labels = Vec::new();
    if let Some(p) = &d.primary {
        labels.push(
            cs::Label::primary(p.span.file.0, p.span.lo as usize..p.span.hi as usize).with_message(p.message.clone()),
        );
    }
    for l in &d.secondary {
        labels.push(
            cs::Label::secondary(l.span.file.0, l.span.lo as usize..l.span.hi as usize).with_message(l.message.clone()),
        );
    }
    let mut notes: Vec<String> = d.notes.iter().map(|n| format!("note: {n}")).collect();
    if let Some(h) = &d.help {
        notes.push(format!("help: {h}"));
    }
    cs::Diagnostic::new(severity)
        .with_code(d.code.0)
        .with_message(d.message.clone())
        .with_labels(labels)
        .with_notes(notes)
}

/// Renders diagnostics as human-readable text (with source excerpts), without colors.
pub fn render(sources: &SourceMap, diags: &[Diagnostic]) -> String {
    let mut buf = term::termcolor::NoColor::new(Vec::new());
    let config = term::Config::default();
    let files = Files(sources);
    for d in diags {
        // Rendering into memory can only fail on a malformed span; fall back to a one-liner.
        if term::emit_to_write_style(&mut buf, &config, &files, &to_codespan(d)).is_err() {
            use std::io::Write;
            let _ = writeln!(buf, "{}", one_line(sources, d));
        }
    }
    String::from_utf8_lossy(&buf.into_inner()).into_owned()
}

/// `file:line:col: error[E0301]: message` — the compact form used in logs and test expectations.
pub fn one_line(sources: &SourceMap, d: &Diagnostic) -> String {
    let sev = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
    };
    match d.span() {
        Some(s) => format!("{}: {sev}[{}]: {}", sources.location(s), d.code.0, d.message),
        None => format!("{sev}[{}]: {}", d.code.0, d.message),
    }
}

#[derive(Serialize)]
struct JsonSpan {
    file: String,
    line: u32,
    column: u32,
    end_line: u32,
    end_column: u32,
    label: String,
}

#[derive(Serialize)]
struct JsonDiagnostic<'a> {
    severity: Severity,
    code: &'static str,
    message: &'a str,
    spans: Vec<JsonSpan>,
    notes: &'a [String],
    help: Option<&'a str>,
}

fn json_span(sources: &SourceMap, l: &Label) -> JsonSpan {
    let f = sources.file(l.span.file);
    let (line, column) = f.line_col(l.span.lo);
    let (end_line, end_column) = f.line_col(l.span.hi);
    JsonSpan { file: f.name.clone(), line, column, end_line, end_column, label: l.message.clone() }
}

/// One JSON object per line, for `--message-format=json`. The primary span comes first.
pub fn render_json(sources: &SourceMap, diags: &[Diagnostic]) -> String {
    let mut out = String::new();
    for d in diags {
        let mut spans = Vec::new();
        if let Some(p) = &d.primary {
            spans.push(json_span(sources, p));
        }
        spans.extend(d.secondary.iter().map(|l| json_span(sources, l)));
        let j = JsonDiagnostic {
            severity: d.severity,
            code: d.code.0,
            message: &d.message,
            spans,
            notes: &d.notes,
            help: d.help.as_deref(),
        };
        if let Ok(s) = serde_json::to_string(&j) {
            out.push_str(&s);
            out.push('\n');
        }
    }
    out
}
