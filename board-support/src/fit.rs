//! Memory fit: every buffer and every on-chip kernel memory must fit the board's RAM, checked
//! before synthesis so the user hears which buffer is too large, not a placer error.

use crate::board::Board;
use crate::layout::BridgeLayout;

/// An on-chip memory of the kernel itself (`__local` or private arrays in block RAM).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelMemory {
    pub name: String,
    pub bits: u64,
}

/// Why a design does not fit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FitError {
    pub what: String,
    pub bits: u64,
    pub used_before: u64,
    pub available: u64,
    pub board: String,
}

impl std::fmt::Display for FitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} needs {} bits ({} bytes) of on-chip RAM, but board `{}` has {} bits in all",
            self.what,
            self.bits,
            self.bits / 8,
            self.board,
            self.available
        )?;
        if self.used_before > 0 {
            write!(f, " and {} of them are already taken by the memories before it", self.used_before)?;
        }
        Ok(())
    }
}

/// Checks the buffers (in order), then the kernel's own memories, against the board's RAM.
pub fn check_fit(board: &Board, layout: &BridgeLayout, kernel_memories: &[KernelMemory]) -> Result<u64, FitError> {
    let available = board.memory_bits();
    let mut used = 0u64;
    let items = layout
        .buffers
        .iter()
        .map(|b| (format!("buffer `{}` ({} x {}-bit elements)", b.name, b.depth, b.width), b.bits()))
        .chain(kernel_memories.iter().map(|m| (format!("kernel memory `{}`", m.name), m.bits)));
    for (what, bits) in items {
        if used + bits > available {
            return Err(FitError { what, bits, used_before: used, available, board: board.name.clone() });
        }
        used += bits;
    }
    Ok(used)
}

#[cfg(test)]
mod tests {
    use super::*;
    use kiln_rtl_gen::{Interface, MemoryPort};

    #[test]
    fn the_error_names_the_buffer_that_overflows() {
        let iface = Interface {
            module: "k".into(),
            scalars: vec![],
            memories: vec![
                MemoryPort { prefix: "small".into(), data_width: 32, read_only: false, param: 0 },
                MemoryPort { prefix: "big".into(), data_width: 64, read_only: false, param: 1 },
            ],
        };
        let board = crate::board::board_by_name("icebreaker").expect("board");
        let fits = BridgeLayout::new(&iface, "", &|_| 1024).expect("layout");
        assert_eq!(check_fit(&board, &fits, &[]), Ok(1024 * 96));
        let huge = BridgeLayout::new(&iface, "", &|n| if n == "big" { 1 << 15 } else { 1024 }).expect("layout");
        let e = check_fit(&board, &huge, &[]).expect_err("too big");
        assert_eq!(e.what, "buffer `big` (32768 x 64-bit elements)");
        let text = e.to_string();
        assert!(text.contains("needs 2097152 bits") && text.contains("has 1171456 bits"), "{text}");
        let e = check_fit(&board, &fits, &[KernelMemory { name: "tile".into(), bits: 2_000_000 }]).expect_err("local");
        assert!(e.to_string().starts_with("kernel memory `tile` needs"), "{e}");
    }
}
