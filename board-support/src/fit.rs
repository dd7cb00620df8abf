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
    /// Block RAM already taken by the memories placed before it.
    pub used_before: u64,
    pub bram_bits: u64,
    pub spram_blocks: u64,
    pub spram_bits: u64,
    pub board: String,
}

impl std::fmt::Display for FitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} needs {} bits ({} bytes) of on-chip RAM, but board `{}` has {} bits of block RAM",
            self.what,
            self.bits,
            self.bits / 8,
            self.board,
            self.bram_bits
        )?;
        if self.used_before > 0 {
            write!(f, " and the kernel's other memories and buffers take {} bits of it", self.used_before)?;
        }
        if self.spram_blocks > 0 {
            write!(
                f,
                "; the {} single-port RAM blocks left ({} bits) cannot hold it",
                self.spram_blocks, self.spram_bits
            )?;
        }
        Ok(())
    }
}

/// Where each buffer goes: `true` for single-port RAM (SPRAM), `false` for block RAM.
pub type Placement = Vec<bool>;

/// Places the buffers and checks that they and the kernel's own memories fit. Kernel memories
/// and the smaller buffers go to block RAM; when block RAM runs out, the largest buffers move to
/// the single-port RAM blocks (whole blocks each), if the board has them.
pub fn check_fit(
    board: &Board,
    layout: &BridgeLayout,
    kernel_memories: &[KernelMemory],
) -> Result<Placement, FitError> {
    let r = &board.resources;
    let error = |what: String, bits: u64, used_before: u64, spram_left: u64| FitError {
        what,
        bits,
        used_before,
        bram_bits: r.bram_bits,
        spram_blocks: spram_left,
        spram_bits: spram_left * r.spram_width * r.spram_depth,
        board: board.name.clone(),
    };
    let mut used = 0u64;
    for m in kernel_memories {
        if used + m.bits > r.bram_bits {
            return Err(error(format!("kernel memory `{}`", m.name), m.bits, used, r.spram_blocks));
        }
        used += m.bits;
    }
    let mut placement = vec![false; layout.buffers.len()];
    let mut spram_left = r.spram_blocks;
    let mut order: Vec<usize> = (0..layout.buffers.len()).collect();
    // Largest first, then in parameter order: deterministic.
    order.sort_by_key(|&i| (std::cmp::Reverse(layout.buffers[i].bits()), i));
    let mut in_bram: u64 = layout.buffers.iter().map(|b| b.bits()).sum();
    for &i in &order {
        if used + in_bram <= r.bram_bits {
            break;
        }
        let b = &layout.buffers[i];
        let describe = || format!("buffer `{}` ({} x {}-bit elements)", b.name, b.depth, b.width);
        match board.spram_blocks_for(b.word_width() as u64, b.words()) {
            Some(n) if n <= spram_left => {
                spram_left -= n;
                placement[i] = true;
                in_bram -= b.bits();
            }
            _ => {
                let before = used + in_bram - b.bits();
                return Err(error(describe(), b.bits(), before, spram_left));
            }
        }
    }
    Ok(placement)
}

#[cfg(test)]
mod tests {
    use super::*;
    use kiln_rtl_gen::{Interface, MemoryPort};

    #[test]
    fn the_error_names_the_buffer_that_overflows() {
        let iface = Interface {
            module: "k".into(),
            parameters: vec![],
            pipes: vec![],
            scalars: vec![],
            memories: vec![
                MemoryPort { prefix: "small".into(), data_width: 32, lanes: 1, read_only: false, param: 0 },
                MemoryPort { prefix: "big".into(), data_width: 64, lanes: 1, read_only: false, param: 1 },
            ],
        };
        let board = crate::board::board_by_name("icebreaker").expect("board");
        let fits = BridgeLayout::new(&iface, "", &|_| 1024).expect("layout");
        assert_eq!(check_fit(&board, &fits, &[]), Ok(vec![false, false]));
        let huge = BridgeLayout::new(&iface, "", &|n| if n == "big" { 1 << 15 } else { 1024 }).expect("layout");
        let e = check_fit(&board, &huge, &[]).expect_err("too big");
        assert_eq!(e.what, "buffer `big` (32768 x 64-bit elements)");
        let text = e.to_string();
        assert!(
            text.contains("needs 2097152 bits")
                && text.contains("4 single-port RAM blocks left (1048576 bits) cannot hold it"),
            "{text}"
        );
        // A buffer too large for block RAM moves to single-port RAM (64 bits wide: 4 blocks).
        let spram = BridgeLayout::new(&iface, "", &|n| if n == "big" { 8192 } else { 1024 }).expect("layout");
        assert_eq!(check_fit(&board, &spram, &[]), Ok(vec![false, true]));
        let ecp5 = crate::board::board_by_name("ulx3s-85f").expect("board");
        assert_eq!(check_fit(&ecp5, &spram, &[]), Ok(vec![false, false]));
        let e = check_fit(&board, &fits, &[KernelMemory { name: "tile".into(), bits: 2_000_000 }]).expect_err("local");
        assert!(e.to_string().starts_with("kernel memory `tile` needs"), "{e}");
    }
}
