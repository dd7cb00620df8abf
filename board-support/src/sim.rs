//! The board without a board: the whole board top level (kernel, RAMs, bridge, UART) in
//! Verilator, with a bit-level model of the USB UART (`rtl/uart_harness.cpp`), reachable as a
//! byte stream ([`SimLink`]) that the same [`crate::host::Host`] code drives as a serial port.
//! The model is built by the simulator crate's Verilator driver, like every kernel model.

use kiln_simulator::cosim::{CosimError, ModelSpeed, verilate};
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

const HARNESS: &str = include_str!("../rtl/uart_harness.cpp");

/// Builds (or finds in `cache_root`) the Verilator model of a board design given as
/// (file name, Verilog) pairs.
pub fn build_board_model(files: &[(String, String)], cache_root: &Path) -> Result<PathBuf, CosimError> {
    verilate("board", crate::top::TOP_MODULE, files, HARNESS, ModelSpeed::SimulateFast, cache_root)
}

/// A byte stream to the simulated board's UART.
pub struct SimLink {
    child: Child,
    to: BufWriter<ChildStdin>,
    from: BufReader<ChildStdout>,
    pending: Vec<u8>,
    /// Clock cycles the board has run so far (power-on included).
    pub board_cycles: u64,
}

impl SimLink {
    /// Starts a model; `max_cycles` bounds the wait for any one reply.
    pub fn start(model: &Path, clocks_per_bit: u32, max_cycles: u64) -> Result<SimLink, CosimError> {
        let mut child = Command::new(model)
            .args([clocks_per_bit.to_string(), max_cycles.to_string()])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| CosimError::Io(format!("cannot start {}: {e}", model.display())))?;
        let (Some(to), Some(from)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(CosimError::Io("the board model has no pipes".into()));
        };
        Ok(SimLink { child, to: BufWriter::new(to), from: BufReader::new(from), pending: Vec::new(), board_cycles: 0 })
    }

    fn push_pending(&mut self) -> std::io::Result<()> {
        if !self.pending.is_empty() {
            self.to.write_all(b"T")?;
            self.to.write_all(&(self.pending.len() as u32).to_le_bytes())?;
            self.to.write_all(&self.pending)?;
            self.pending.clear();
        }
        Ok(())
    }
}

impl Write for SimLink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.pending.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.push_pending()?;
        self.to.flush()
    }
}

impl Read for SimLink {
    /// Clocks the board until `buf.len()` bytes came out of its UART.
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        self.push_pending()?;
        self.to.write_all(b"R")?;
        self.to.write_all(&(buf.len() as u32).to_le_bytes())?;
        self.to.flush()?;
        let mut tag = [0u8; 1];
        let mut len = [0u8; 4];
        self.from.read_exact(&mut tag)?;
        self.from.read_exact(&mut len)?;
        let n = u32::from_le_bytes(len) as usize;
        match tag[0] {
            b'D' if n == buf.len() => {
                self.from.read_exact(buf)?;
                let mut c = [0u8; 8];
                self.from.read_exact(&mut c)?;
                self.board_cycles = u64::from_le_bytes(c);
                Ok(n)
            }
            b'E' => {
                let mut msg = vec![0u8; n];
                self.from.read_exact(&mut msg)?;
                Err(std::io::Error::other(String::from_utf8_lossy(&msg).into_owned()))
            }
            t => Err(std::io::Error::other(format!("board model sent message {t:#04x}"))),
        }
    }
}

impl Drop for SimLink {
    fn drop(&mut self) {
        let _ = self.to.write_all(b"Q");
        let _ = self.to.flush();
        let _ = self.child.wait();
    }
}
