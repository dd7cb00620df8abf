//! The host side of the UART bridge (docs/board-bridge.md): one [`Host`] speaks the protocol over
//! any byte stream, a serial port on a real board or the UART model of the Verilator board
//! simulation ([`crate::sim`]), so both run exactly the same code.

use crate::layout::BridgeLayout;
use std::io::{ErrorKind, Read, Write};
use std::time::{Duration, Instant};

const ACK: u8 = 0x06;
const NAK: u8 = 0x15;
const VERSION: u8 = 1;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HostError {
    Io(String),
    /// The board answered something the protocol does not allow.
    Protocol(String),
    /// The board runs a bitstream built for another kernel or other buffer sizes.
    Signature {
        expected: u32,
        found: u32,
    },
    /// An argument does not fit the bitstream.
    Argument(String),
    /// The kernel did not finish in time.
    Timeout(Duration),
}

impl std::fmt::Display for HostError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HostError::Io(m) => write!(f, "board link: {m}"),
            HostError::Protocol(m) => write!(f, "board protocol error: {m}"),
            HostError::Signature { expected, found } => write!(
                f,
                "the board runs a different design (bridge signature {found:08x}, expected {expected:08x}): \
                 rebuild and load the bitstream with the same kernel, options and `--buffer-depth`"
            ),
            HostError::Argument(m) => write!(f, "{m}"),
            HostError::Timeout(d) => write!(f, "the kernel did not finish within {:.1} s", d.as_secs_f64()),
        }
    }
}

fn io(e: std::io::Error) -> HostError {
    HostError::Io(e.to_string())
}

/// A kernel argument, by parameter position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HostArg {
    Scalar(u64),
    Buffer(Vec<u64>),
}

/// What a run on the board returned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardRun {
    pub cycles: u64,
    /// Final buffer contents per kernel parameter (`None` for scalars).
    pub buffers: Vec<Option<Vec<u64>>>,
}

pub struct Host<L: Read + Write> {
    link: L,
    layout: BridgeLayout,
    /// How long `wait_done` waits for a kernel.
    pub run_timeout: Duration,
}

impl<L: Read + Write> Host<L> {
    /// Opens a session: asks the board who it is and checks the signature.
    pub fn connect(link: L, layout: BridgeLayout) -> Result<Host<L>, HostError> {
        let mut h = Host { link, layout, run_timeout: Duration::from_secs(60) };
        h.send(b"I")?;
        let mut id = [0u8; 10];
        h.receive(&mut id)?;
        if &id[..3] != b"KLN" || id[3] != VERSION {
            return Err(HostError::Protocol(format!("the board did not identify as a kiln bridge (got {id:02x?})")));
        }
        let found = u32::from_le_bytes([id[4], id[5], id[6], id[7]]);
        let expected = h.layout.signature();
        if found != expected {
            return Err(HostError::Signature { expected, found });
        }
        if id[8] as usize != h.layout.buffers.len() || id[9] as usize != h.layout.args.len() {
            return Err(HostError::Protocol("the board reports other buffer and argument counts".into()));
        }
        Ok(h)
    }

    fn send(&mut self, bytes: &[u8]) -> Result<(), HostError> {
        self.link.write_all(bytes).map_err(io)?;
        self.link.flush().map_err(io)
    }

    fn receive(&mut self, buf: &mut [u8]) -> Result<(), HostError> {
        self.link.read_exact(buf).map_err(io)
    }

    fn expect_ack(&mut self, what: &str) -> Result<(), HostError> {
        let mut b = [0u8; 1];
        self.receive(&mut b)?;
        match b[0] {
            ACK => Ok(()),
            NAK => Err(HostError::Protocol(format!("the board refused {what} (is the kernel still running?)"))),
            x => Err(HostError::Protocol(format!("unexpected reply {x:#04x} to {what}"))),
        }
    }

    fn header(cmd: u8, index: usize, addr: u32, count: u32) -> Vec<u8> {
        let mut h = vec![cmd, index as u8];
        h.extend_from_slice(&addr.to_le_bytes());
        h.extend_from_slice(&count.to_le_bytes());
        h
    }

    fn buffer_bytes(&self, index: usize, elements: usize) -> Result<u32, HostError> {
        let b = &self.layout.buffers[index];
        if elements as u64 > b.depth {
            return Err(HostError::Argument(format!(
                "buffer `{}` has {elements} elements, but the bitstream holds {} (rebuild with `--buffer-depth {}={elements}`)",
                b.name, b.depth, b.name
            )));
        }
        Ok(elements as u32 * b.bytes_per_element())
    }

    /// Writes `data` to the start of buffer `index` (little-endian elements).
    pub fn write_buffer(&mut self, index: usize, data: &[u64]) -> Result<(), HostError> {
        let count = self.buffer_bytes(index, data.len())?;
        let per = self.layout.buffers[index].bytes_per_element() as usize;
        let mut msg = Self::header(b'W', index, 0, count);
        for v in data {
            msg.extend_from_slice(&v.to_le_bytes()[..per]);
        }
        self.send(&msg)?;
        self.expect_ack("a buffer write")
    }

    /// Reads the first `elements` elements of buffer `index`.
    pub fn read_buffer(&mut self, index: usize, elements: usize) -> Result<Vec<u64>, HostError> {
        let count = self.buffer_bytes(index, elements)?;
        let per = self.layout.buffers[index].bytes_per_element() as usize;
        self.send(&Self::header(b'R', index, 0, count))?;
        let mut bytes = vec![0u8; count as usize];
        self.receive(&mut bytes)?;
        Ok(bytes
            .chunks(per)
            .map(|c| {
                let mut v = [0u8; 8];
                v[..per].copy_from_slice(c);
                u64::from_le_bytes(v)
            })
            .collect())
    }

    /// Sets scalar argument `index` (the kernel latches it at start).
    pub fn set_arg(&mut self, index: usize, value: u64) -> Result<(), HostError> {
        let mut msg = vec![b'A', index as u8];
        msg.extend_from_slice(&value.to_le_bytes());
        self.send(&msg)?;
        self.expect_ack("an argument")
    }

    pub fn start(&mut self) -> Result<(), HostError> {
        self.send(b"S")?;
        self.expect_ack("start")
    }

    /// Waits until the kernel has finished (read timeouts of the link are retried).
    pub fn wait_done(&mut self) -> Result<(), HostError> {
        self.send(b"D")?;
        let began = Instant::now();
        let mut b = [0u8; 1];
        loop {
            match self.link.read(&mut b) {
                Ok(1) if b[0] == ACK => return Ok(()),
                Ok(1) => return Err(HostError::Protocol(format!("unexpected reply {:#04x} to wait", b[0]))),
                Ok(_) => return Err(HostError::Io("the link closed".into())),
                Err(e) if matches!(e.kind(), ErrorKind::TimedOut | ErrorKind::WouldBlock | ErrorKind::Interrupted) => {
                    if began.elapsed() > self.run_timeout {
                        return Err(HostError::Timeout(self.run_timeout));
                    }
                }
                Err(e) => return Err(io(e)),
            }
        }
    }

    /// The cycle count of the last run (docs/timing.md §2).
    pub fn cycles(&mut self) -> Result<u64, HostError> {
        self.send(b"C")?;
        let mut b = [0u8; 8];
        self.receive(&mut b)?;
        Ok(u64::from_le_bytes(b))
    }

    /// One whole run: buffers and arguments in, start, wait, buffers and cycle count out.
    pub fn run(&mut self, args: &[HostArg]) -> Result<BoardRun, HostError> {
        let mut lengths = Vec::new();
        for i in 0..self.layout.buffers.len() {
            let param = self.layout.buffers[i].param;
            let data = match args.get(param) {
                Some(HostArg::Buffer(d)) => d.clone(),
                _ => return Err(HostError::Argument(format!("no data for buffer `{}`", self.layout.buffers[i].name))),
            };
            self.write_buffer(i, &data)?;
            lengths.push((param, data.len()));
        }
        for i in 0..self.layout.args.len() {
            let a = &self.layout.args[i];
            let value = match args.get(a.param) {
                Some(HostArg::Scalar(v)) => *v,
                _ => return Err(HostError::Argument(format!("no value for argument `{}`", a.port))),
            };
            self.set_arg(i, value)?;
        }
        self.start()?;
        self.wait_done()?;
        let mut buffers = vec![None; args.len()];
        for (i, (param, len)) in lengths.into_iter().enumerate() {
            buffers[param] = Some(self.read_buffer(i, len)?);
        }
        let cycles = self.cycles()?;
        Ok(BoardRun { cycles, buffers })
    }

    /// Gives the link back (the simulation link reports how many cycles it ran).
    pub fn into_link(self) -> L {
        self.link
    }
}

/// Opens a serial port (8N1, no flow control) for a [`Host`].
pub fn open_serial(path: &str, baud: u32) -> Result<Box<dyn serialport::SerialPort>, HostError> {
    serialport::new(path, baud)
        .data_bits(serialport::DataBits::Eight)
        .parity(serialport::Parity::None)
        .stop_bits(serialport::StopBits::One)
        .flow_control(serialport::FlowControl::None)
        .timeout(Duration::from_millis(500))
        .open()
        .map_err(|e| HostError::Io(format!("cannot open serial port `{path}`: {e}")))
}
