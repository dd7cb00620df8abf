//! Source files and byte spans.
//!
//! Every token, AST node, IR operation and diagnostic points back into a [`SourceMap`] through a
//! [`Span`]. A span is a half-open byte range in one file; line and column are computed on demand.

use std::path::{Path, PathBuf};

/// Index of a file in a [`SourceMap`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct FileId(pub u32);

/// A half-open byte range `[lo, hi)` in one source file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Span {
    pub file: FileId,
    pub lo: u32,
    pub hi: u32,
}

impl Span {
    pub fn new(file: FileId, lo: u32, hi: u32) -> Span {
        Span { file, lo, hi: hi.max(lo) }
    }

    /// The smallest span covering `self` and `other` (if both are in the same file).
    pub fn to(self, other: Span) -> Span {
        if self.file != other.file {
            return self;
        }
        Span { file: self.file, lo: self.lo.min(other.lo), hi: self.hi.max(other.hi) }
    }
}

/// One loaded source file.
#[derive(Debug)]
pub struct SourceFile {
    /// The name shown in diagnostics (the path as the user gave it).
    pub name: String,
    /// The path on disk, used to resolve `#include "..."` relative to this file.
    pub path: Option<PathBuf>,
    pub text: String,
    line_starts: Vec<u32>,
}

impl SourceFile {
    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: u32) -> (u32, u32) {
        let line = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.line_starts[line] as usize;
        let end = (offset as usize).min(self.text.len());
        let col = self.text.get(start..end).map(|s| s.chars().count()).unwrap_or(end - start);
        (line as u32 + 1, col as u32 + 1)
    }

    pub fn line_starts(&self) -> &[u32] {
        &self.line_starts
    }
}

/// All files of one compilation: the kernel file and everything it includes.
#[derive(Debug, Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

impl SourceMap {
    pub fn new() -> SourceMap {
        SourceMap::default()
    }

    pub fn add(&mut self, name: impl Into<String>, path: Option<PathBuf>, text: String) -> FileId {
        let mut line_starts = vec![0u32];
        for (i, b) in text.bytes().enumerate() {
            if b == b'\n' {
                line_starts.push(i as u32 + 1);
            }
        }
        let id = FileId(self.files.len() as u32);
        self.files.push(SourceFile { name: name.into(), path, text, line_starts });
        id
    }

    pub fn file(&self, id: FileId) -> &SourceFile {
        &self.files[id.0 as usize]
    }

    pub fn files(&self) -> impl Iterator<Item = (FileId, &SourceFile)> {
        self.files.iter().enumerate().map(|(i, f)| (FileId(i as u32), f))
    }

    pub fn find_path(&self, path: &Path) -> Option<FileId> {
        self.files.iter().position(|f| f.path.as_deref() == Some(path)).map(|i| FileId(i as u32))
    }

    /// `file:line:col` of the start of a span.
    pub fn location(&self, span: Span) -> Location {
        let f = self.file(span.file);
        let (line, col) = f.line_col(span.lo);
        Location { file: f.name.clone(), line, col }
    }

    /// The source text a span covers.
    pub fn snippet(&self, span: Span) -> &str {
        let f = self.file(span.file);
        f.text.get(span.lo as usize..span.hi as usize).unwrap_or("")
    }
}

/// A human-readable source position.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Location {
    pub file: String,
    pub line: u32,
    pub col: u32,
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.col)
    }
}
