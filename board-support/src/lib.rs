//! kiln's board support: from a kernel's Verilog to a bitstream for a real board, and a way to
//! run it there.
//!
//! Owns: board definitions as data ([`board`], `boards/*.toml`), the board top level with the
//! UART host bridge ([`top`], `rtl/`), what the bridge exposes and its signature ([`layout`]),
//! the memory-fit check ([`fit`]), pin constraints ([`constraints`]), the tool flow and its
//! summary ([`flow`], [`report`]), the host side of the bridge protocol ([`host`]) and the
//! Verilator board simulation with a UART model ([`sim`]).
//!
//! Must not: know about OpenCL or the IR (it sees a kernel only through its
//! [`kiln_rtl_gen::Interface`] and Verilog), make scheduling decisions, or have a code path per
//! board: what differs between boards belongs in their files.

pub mod board;
pub mod constraints;
pub mod fit;
pub mod flow;
pub mod host;
pub mod layout;
pub mod report;
pub mod sim;
pub mod top;

pub use board::{Board, board_by_name, board_names};
pub use layout::BridgeLayout;
