//! What the host bridge exposes of one kernel on a board: its scalar arguments and its buffers
//! with their on-board depth. Both the board top level and the host derive it from the same
//! inputs, and the bridge answers `I` with its [`BridgeLayout::signature`], so a host never
//! talks to a bitstream built for another kernel or other buffer sizes.

use kiln_rtl_gen::Interface;

/// A scalar argument register of the bridge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BridgeArg {
    /// The kernel's input port (`arg_n`, `launch_global_size0`, ...).
    pub port: String,
    pub width: u32,
    /// The kernel parameter it belongs to.
    pub param: usize,
}

/// A buffer in on-chip RAM, one per memory port of the kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BridgeBuffer {
    /// The kernel's memory-port prefix (the pointer argument's name).
    pub name: String,
    /// Element width in bits (a multiple of 8).
    pub width: u32,
    /// Elements per RAM word: the kernel's port moves `lanes` elements per request (a vector
    /// buffer's), the host still addresses single elements (bytes of little-endian words).
    pub lanes: u32,
    /// Elements; a power of two, at least two words.
    pub depth: u64,
    pub read_only: bool,
    pub param: usize,
}

impl BridgeBuffer {
    pub fn bytes_per_element(&self) -> u32 {
        self.width / 8
    }

    pub fn bits(&self) -> u64 {
        self.depth * self.width as u64
    }

    pub fn word_width(&self) -> u32 {
        self.width * self.lanes
    }

    pub fn words(&self) -> u64 {
        self.depth / self.lanes as u64
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BridgeLayout {
    pub module: String,
    /// Whether the kernel module has the `PORTS_ANSWER_NEXT_CYCLE` parameter (it makes port
    /// requests); the board memories keep that promise, so the board top sets it.
    pub ports_answer_next_cycle: bool,
    /// FNV-1a of the kernel's Verilog: a bitstream of the same kernel scheduled differently
    /// (another clock, other options) is another design.
    pub design: u64,
    pub args: Vec<BridgeArg>,
    pub buffers: Vec<BridgeBuffer>,
}

/// Why a kernel cannot be put behind the bridge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LayoutError {
    /// A buffer's elements are not whole bytes of a power-of-two count.
    ElementWidth { buffer: String, width: u32 },
    /// More than 255 buffers or arguments (the protocol numbers them with one byte).
    TooMany(&'static str, usize),
}

impl std::fmt::Display for LayoutError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LayoutError::ElementWidth { buffer, width } => write!(
                f,
                "buffer `{buffer}` has {width}-bit elements; the board bridge needs 8, 16, 32 or 64-bit elements"
            ),
            LayoutError::TooMany(what, n) => {
                write!(f, "the kernel has {n} {what}; the board bridge handles at most 255")
            }
        }
    }
}

impl BridgeLayout {
    /// The layout of a kernel interface with each buffer's depth in elements (rounded up to a
    /// power of two, at least 2).
    pub fn new(
        iface: &Interface,
        kernel_verilog: &str,
        depth_of: &dyn Fn(&str) -> u64,
    ) -> Result<BridgeLayout, LayoutError> {
        if iface.memories.len() > 255 {
            return Err(LayoutError::TooMany("buffers", iface.memories.len()));
        }
        if iface.scalars.len() > 255 {
            return Err(LayoutError::TooMany("scalar arguments", iface.scalars.len()));
        }
        let mut buffers = Vec::new();
        for m in &iface.memories {
            let lanes = m.lanes.max(1);
            let width = m.data_width / lanes;
            if !matches!(width, 8 | 16 | 32 | 64) || !lanes.is_power_of_two() {
                return Err(LayoutError::ElementWidth { buffer: m.prefix.clone(), width });
            }
            buffers.push(BridgeBuffer {
                name: m.prefix.clone(),
                width,
                lanes,
                depth: depth_of(&m.prefix).max(2 * lanes as u64).next_power_of_two(),
                read_only: m.read_only,
                param: m.param,
            });
        }
        let args =
            iface.scalars.iter().map(|s| BridgeArg { port: s.name.clone(), width: s.width, param: s.param }).collect();
        // The design's code, not its comments: they name the source file by the path it was
        // given, and the bitstream of a kernel must not depend on where the kernel lives (the
        // signature is logic, so another value places and routes differently).
        let mut design: u64 = 0xcbf29ce484222325;
        for line in kernel_verilog.lines() {
            let code = line.split("//").next().unwrap_or("");
            for b in code.bytes().chain(std::iter::once(b'\n')) {
                design ^= b as u64;
                design = design.wrapping_mul(0x100000001b3);
            }
        }
        let ports_answer_next_cycle =
            iface.parameters.iter().any(|p| p == kiln_rtl_gen::kernel::PORTS_ANSWER_NEXT_CYCLE);
        Ok(BridgeLayout { module: iface.module.clone(), ports_answer_next_cycle, design, args, buffers })
    }

    /// FNV-1a (32-bit) of everything the host relies on: names, widths, depths, order.
    pub fn signature(&self) -> u32 {
        let mut text = format!("kiln-bridge-1;{};{:016x}", self.module, self.design);
        for a in &self.args {
            text.push_str(&format!(";a:{}:{}", a.port, a.width));
        }
        for b in &self.buffers {
            text.push_str(&format!(";b:{}:{}:{}:{}", b.name, b.width, b.depth, b.read_only));
            if b.lanes > 1 {
                text.push_str(&format!(":x{}", b.lanes));
            }
        }
        let mut h: u32 = 0x811c9dc5;
        for byte in text.bytes() {
            h ^= byte as u32;
            h = h.wrapping_mul(0x01000193);
        }
        h
    }

    /// Bits of on-chip RAM the buffers take.
    pub fn buffer_bits(&self) -> u64 {
        self.buffers.iter().map(BridgeBuffer::bits).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kiln_rtl_gen::{MemoryPort, ScalarPort};

    fn iface(width: u32) -> Interface {
        Interface {
            module: "k".into(),
            parameters: vec![],
            pipes: vec![],
            scalars: vec![ScalarPort { name: "arg_n".into(), width: 32, param: 2 }],
            memories: vec![
                MemoryPort { prefix: "a".into(), data_width: width, lanes: 1, read_only: true, param: 0 },
                MemoryPort { prefix: "b".into(), data_width: 16, lanes: 1, read_only: false, param: 1 },
            ],
        }
    }

    #[test]
    fn depths_round_up_and_change_the_signature() {
        let l = BridgeLayout::new(&iface(32), "module k;", &|n| if n == "a" { 1000 } else { 0 }).expect("layout");
        assert_eq!((l.buffers[0].depth, l.buffers[1].depth), (1024, 2));
        assert_eq!(l.buffer_bits(), 1024 * 32 + 2 * 16);
        let m = BridgeLayout::new(&iface(32), "module k;", &|_| 1000).expect("layout");
        assert_ne!(l.signature(), m.signature());
        let other = BridgeLayout::new(&iface(32), "module k; ", &|n| if n == "a" { 1000 } else { 0 }).expect("layout");
        assert_ne!(l.signature(), other.signature());
        assert_eq!(l.signature(), l.clone().signature());
    }

    #[test]
    fn odd_element_widths_are_refused() {
        let e = BridgeLayout::new(&iface(24), "", &|_| 4).expect_err("24-bit");
        assert!(e.to_string().contains("`a` has 24-bit elements"), "{e}");
    }
}
