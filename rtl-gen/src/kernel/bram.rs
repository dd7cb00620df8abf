//! On-chip memories whose read data pass the block RAMs' own output register
//! (`Timing::registers_block_ram_output`), which synthesis does not infer: Yosys maps every
//! ECP5 DP16KD without it. Each such memory is a companion module of the kernel
//! (`Module::companions`): DP16KDs in true dual-port mode where `SYNTHESIS` is defined (port A
//! writes, port B reads into its output register), otherwise the same memory, read register
//! and output register in behavioural Verilog for simulators and linters.
//!
//! The pin layout follows Yosys's own DP16KD mapping (`techlibs/ecp5/brams_map.v`): data in
//! the low bits of `DI`/`DO`, the word address in the high bits of `AD` (shifted by the
//! configuration: 0 bits for x1 up to 4 for x18), and in x18 mode `AD[1:0]` the byte enables.

use super::*;

/// A memory of `depth` words of `width` bits with a write port and a read port whose data
/// arrive through two registers: the read register (loaded from `ra` when `re`) and the output
/// register (loaded from the read register when `oce`).
pub(super) struct RegisteredRam {
    pub name: String,
    pub width: u32,
    pub depth: u32,
    /// Bits of `wa` and `ra` (the kernel's address width of the memory).
    pub address_bits: u32,
    /// The blocks' configuration width (1, 2, 4, 9 or 18) and how many hold a word side by side.
    pub config: u32,
    pub blocks: u32,
}

impl RegisteredRam {
    /// The module: the DP16KDs for synthesis, the behavioural model otherwise.
    pub fn module(&self) -> Module {
        let aw = self.address_bits;
        let port = |dir, name: &str, width| Port { dir, name: name.into(), width, is_reg: false, comment: None };
        let ports = vec![
            port(Dir::Input, "clk", 1),
            port(Dir::Input, "we", 1),
            port(Dir::Input, "wa", aw),
            port(Dir::Input, "wd", self.width),
            port(Dir::Input, "re", 1),
            port(Dir::Input, "ra", aw),
            port(Dir::Input, "oce", 1),
            port(Dir::Output, "rdata", self.width),
        ];
        let model = vec![
            Item::Memory { name: "words".into(), width: self.width, depth: self.depth, style: None, no_rw_check: true },
            Item::Reg { name: "read".into(), width: self.width },
            Item::Reg { name: "out".into(), width: self.width },
            Item::Always(vec![
                Stmt::If(id("we"), vec![Stmt::Set(Expr::Index("words".into(), Box::new(id("wa"))), id("wd"))], vec![]),
                Stmt::If(id("re"), vec![set("read", Expr::Index("words".into(), Box::new(id("ra"))))], vec![]),
                Stmt::If(id("oce"), vec![set("out", id("read"))], vec![]),
            ]),
            Item::Assign("rdata".into(), id("out")),
        ];
        Module {
            name: self.name.clone(),
            header: vec![format!(
                "{} x {} bits in {} DP16KD(s) of {} bits, read through their output registers (kiln rtl-gen `bram`).",
                self.depth, self.width, self.blocks, self.config
            )],
            ports,
            items: vec![Item::Ifdef { name: "SYNTHESIS", then: self.blocks_for_synthesis(), otherwise: model }],
            ..Default::default()
        }
    }

    fn blocks_for_synthesis(&self) -> Vec<Item> {
        let c = self.config;
        let aw = self.address_bits;
        let shift = match c {
            1 => 0,
            2 => 1,
            4 => 2,
            9 => 3,
            _ => 4,
        };
        let padded = self.blocks * c;
        let mut items = vec![
            Item::Wire {
                name: "wd_padded".into(),
                width: padded,
                value: Some(if padded > self.width {
                    Expr::Concat(vec![lit(padded - self.width, 0), id("wd")])
                } else {
                    id("wd")
                }),
                comment: None,
            },
            Item::Wire { name: "rdata_padded".into(), width: padded, value: None, comment: None },
        ];
        // Address pin `i` of a port: a word address bit, or below the shift a byte enable (x18)
        // or zero.
        let address_pin = |signal: &str, i: u32, byte_enable: Expr| -> Expr {
            if i >= shift {
                let bit = i - shift;
                if bit < aw { Expr::Bit(signal.into(), bit) } else { lit(1, 0) }
            } else if c == 18 && i < 2 {
                byte_enable
            } else {
                lit(1, 0)
            }
        };
        let string_params = [
            ("REGMODE_A", "NOREG"),
            ("REGMODE_B", "OUTREG"),
            ("RESETMODE", "SYNC"),
            ("ASYNC_RESET_RELEASE", "SYNC"),
            ("CSDECODE_A", "0b000"),
            ("CSDECODE_B", "0b000"),
            ("WRITEMODE_A", "NORMAL"),
            ("WRITEMODE_B", "NORMAL"),
            ("GSR", "AUTO"),
        ];
        for b in 0..self.blocks {
            let mut params = vec![
                ("DATA_WIDTH_A".to_string(), lit(32, u64::from(c))),
                ("DATA_WIDTH_B".to_string(), lit(32, u64::from(c))),
            ];
            params.extend(string_params.iter().map(|(p, v)| (p.to_string(), Expr::Str(v.to_string()))));
            let mut conns = Vec::new();
            for i in 0..18 {
                let data = if i < c { Expr::Bit("wd_padded".into(), b * c + i) } else { lit(1, 0) };
                conns.push((format!("DIA{i}"), Dir::Input, data));
            }
            for i in 0..14 {
                conns.push((format!("ADA{i}"), Dir::Input, address_pin("wa", i, lit(1, 1))));
            }
            for (pin, signal) in [("CLKA", id("clk")), ("CEA", id("we")), ("WEA", id("we")), ("OCEA", lit(1, 0))] {
                conns.push((pin.into(), Dir::Input, signal));
            }
            for pin in ["RSTA", "CSA0", "CSA1", "CSA2"] {
                conns.push((pin.into(), Dir::Input, lit(1, 0)));
            }
            for i in 0..18 {
                conns.push((format!("DIB{i}"), Dir::Input, lit(1, 0)));
            }
            for i in 0..14 {
                conns.push((format!("ADB{i}"), Dir::Input, address_pin("ra", i, lit(1, 0))));
            }
            for (pin, signal) in [("CLKB", id("clk")), ("CEB", id("re")), ("WEB", lit(1, 0)), ("OCEB", id("oce"))] {
                conns.push((pin.into(), Dir::Input, signal));
            }
            for pin in ["RSTB", "CSB0", "CSB1", "CSB2"] {
                conns.push((pin.into(), Dir::Input, lit(1, 0)));
            }
            for i in 0..c {
                conns.push((format!("DOB{i}"), Dir::Output, Expr::Bit("rdata_padded".into(), b * c + i)));
            }
            items.push(Item::Instance(Instance { module: "DP16KD".into(), name: format!("block{b}"), params, conns }));
        }
        let data = if padded > self.width {
            Expr::Slice("rdata_padded".into(), self.width - 1, 0)
        } else {
            id("rdata_padded")
        };
        items.push(Item::Assign("rdata".into(), data));
        items
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ram(width: u32, depth: u32, config: u32) -> String {
        RegisteredRam {
            name: "k_mem_a".into(),
            width,
            depth,
            address_bits: clog2(u64::from(depth)),
            config,
            blocks: width.div_ceil(config),
        }
        .module()
        .print()
    }

    #[test]
    fn a_32_bit_memory_of_1000_words_is_two_x18_blocks_with_their_output_registers() {
        let text = ram(32, 1000, 18);
        let (synthesis, model) = text.split_once("`else").expect("both branches");
        assert_eq!(synthesis.matches("DP16KD #(").count(), 2);
        assert!(synthesis.contains(".REGMODE_B(\"OUTREG\")") && synthesis.contains(".REGMODE_A(\"NOREG\")"));
        assert!(synthesis.contains(".DATA_WIDTH_A(32'h12)") && synthesis.contains(".DATA_WIDTH_B(32'h12)"));
        // x18: the word address from AD4 up, byte enables on the write port's AD0/AD1.
        assert!(synthesis.contains(".ADA4(wa[0])") && synthesis.contains(".ADA13(wa[9])"));
        assert!(synthesis.contains(".ADA0(1'b1)") && synthesis.contains(".ADB0(1'b0)"));
        assert!(
            synthesis.contains(".ADB4(ra[0])") && synthesis.contains(".OCEB(oce)") && synthesis.contains(".CEB(re)")
        );
        // The second block holds bits 18..31 and two bits of padding.
        assert!(synthesis.contains(".DIA0(wd_padded[18])") && synthesis.contains(".DOB17(rdata_padded[35])"));
        assert!(synthesis.contains("assign rdata = rdata_padded[31:0];"));
        assert!(!synthesis.contains("always"));
        assert!(model.contains("if (oce) begin") && model.contains("out <= read;"));
        assert!(model.contains("read <= words[ra];"));
        assert!(!model.contains("DP16KD"));
    }

    #[test]
    fn narrow_configurations_shift_the_address_less() {
        let x9 = ram(32, 1600, 9);
        assert_eq!(x9.matches("DP16KD #(").count(), 4);
        assert!(x9.contains(".ADA3(wa[0])") && x9.contains(".ADA2(1'b0)") && x9.contains(".ADA0(1'b0)"));
        let x1 = ram(1, 10000, 1);
        assert!(x1.contains(".ADB0(ra[0])") && x1.contains(".ADB13(ra[13])"));
        assert!(x1.contains("assign rdata = rdata_padded;"));
    }
}
