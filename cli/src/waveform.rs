//! `--vcd`: a waveform is kept in memory while the simulator runs and written to its file once,
//! whole, when the run ends — also when it ends in a deadlock, so that the stop can be looked
//! at — and never left half-written.

use crate::commands::write_atomic;
use kiln_diagnostics::Diagnostic;
use kiln_diagnostics::codes;
use kiln_scheduler::Schedule;
use kiln_simulator::trace::Trace;
use std::cell::RefCell;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// A writer into a buffer the waveform keeps a handle on.
struct Shared(Rc<RefCell<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(data);
        Ok(data.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

pub(crate) struct Waveform {
    bytes: Rc<RefCell<Vec<u8>>>,
    path: PathBuf,
    pub trace: Trace,
}

fn cannot(path: &Path, e: std::io::Error) -> Diagnostic {
    Diagnostic::error(codes::IO_WRITE, format!("cannot write `{}`: {e}", path.display()))
}

impl Waveform {
    /// A waveform of one kernel.
    pub(crate) fn kernel(path: &Path, s: &Schedule) -> Result<Waveform, Diagnostic> {
        let bytes = Rc::new(RefCell::new(Vec::new()));
        let trace = Trace::new(Box::new(Shared(bytes.clone())), s).map_err(|e| cannot(path, e))?;
        Ok(Waveform { bytes, path: path.to_path_buf(), trace })
    }

    /// A waveform of a system: a scope per launch (`kernels`: scope name and schedule) and the
    /// fill level of each FIFO (`fifos`: name and depth).
    pub(crate) fn system(
        path: &Path,
        kernels: &[(&str, &Schedule)],
        fifos: &[(String, u32)],
    ) -> Result<Waveform, Diagnostic> {
        let bytes = Rc::new(RefCell::new(Vec::new()));
        let trace = Trace::for_system(Box::new(Shared(bytes.clone())), kernels, fifos).map_err(|e| cannot(path, e))?;
        Ok(Waveform { bytes, path: path.to_path_buf(), trace })
    }

    /// Writes the waveform to its file.
    pub(crate) fn save(self) -> Result<(), Diagnostic> {
        let failed = self.trace.failed();
        drop(self.trace);
        if failed {
            return Err(Diagnostic::error(codes::IO_WRITE, format!("cannot write `{}`", self.path.display())));
        }
        let bytes = self.bytes.borrow();
        write_atomic(&self.path, &bytes)
    }
}
