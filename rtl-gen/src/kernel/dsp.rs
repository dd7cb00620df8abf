//! DSP blocks that synthesis does not reach from behavioural Verilog: the ECP5's MULT18X18D
//! with its output register (`Timing::registers_products_in_dsp`). Each is a companion module
//! of the kernel (`Module::companions`): the primitive where `SYNTHESIS` is defined, the same
//! register in behavioural Verilog for simulators and linters.

use super::*;

/// Bits of each operand of [`registered_multiplier`], and of its product.
pub(super) const OPERAND_BITS: u32 = 18;
pub(super) const PRODUCT_BITS: u32 = 36;

impl Gen<'_> {
    /// Adds `{name} <= a * b` when `enable` (operands of [`OPERAND_BITS`], unsigned) as a
    /// DSP block with its output register, and returns the register's wire of
    /// [`PRODUCT_BITS`].
    pub(super) fn registered_product(&mut self, name: &str, a: Expr, b: Expr, enable: Expr) -> String {
        let module = format!("{}_mul18_reg", self.m.name);
        if !self.m.companions.iter().any(|c| c.name == module) {
            self.m.companions.push(registered_multiplier(module.clone()));
        }
        let product = format!("{name}_dsp");
        self.m.add(Item::Wire { name: product.clone(), width: PRODUCT_BITS, value: None, comment: None });
        self.m.add(Item::Instance(Instance {
            module,
            name: format!("{name}_block"),
            params: vec![],
            conns: vec![
                ("clk".into(), Dir::Input, id("clk")),
                ("ce".into(), Dir::Input, enable),
                ("a".into(), Dir::Input, a),
                ("b".into(), Dir::Input, b),
                ("p".into(), Dir::Output, id(&product)),
            ],
        }));
        product
    }
}

/// Module `name`: `p <= a * b` at the clock when `ce` (18 x 18 bits unsigned, 36-bit product).
/// For synthesis an ECP5 MULT18X18D whose output register (clock CLK0, enable CE0, reset RST0
/// tied low, not set by the global set/reset) is `p`, the inputs unregistered; otherwise the
/// same register in behavioural Verilog.
fn registered_multiplier(name: String) -> Module {
    let port = |dir, name: &str, width| Port { dir, name: name.into(), width, is_reg: false, comment: None };
    let ports = vec![
        port(Dir::Input, "clk", 1),
        port(Dir::Input, "ce", 1),
        port(Dir::Input, "a", OPERAND_BITS),
        port(Dir::Input, "b", OPERAND_BITS),
        port(Dir::Output, "p", PRODUCT_BITS),
    ];
    let mut conns = Vec::new();
    for (pin, signal) in [("A", "a"), ("B", "b")] {
        conns.extend((0..OPERAND_BITS).map(|i| (format!("{pin}{i}"), Dir::Input, Expr::Bit(signal.into(), i))));
    }
    conns.extend((0..OPERAND_BITS).map(|i| (format!("C{i}"), Dir::Input, lit(1, 0))));
    for pin in ["SIGNEDA", "SIGNEDB", "SOURCEA", "SOURCEB"] {
        conns.push((pin.into(), Dir::Input, lit(1, 0)));
    }
    for (pin, used) in [("CLK", "clk"), ("CE", "ce")] {
        conns.push((format!("{pin}0"), Dir::Input, id(used)));
        conns.extend((1..4).map(|i| (format!("{pin}{i}"), Dir::Input, lit(1, 0))));
    }
    conns.extend((0..4).map(|i| (format!("RST{i}"), Dir::Input, lit(1, 0))));
    conns.extend((0..PRODUCT_BITS).map(|i| (format!("P{i}"), Dir::Output, Expr::Bit("p".into(), i))));
    let primitive = Item::Instance(Instance {
        module: "MULT18X18D".into(),
        name: "block".into(),
        params: [("REG_OUTPUT_CLK", "CLK0"), ("REG_OUTPUT_CE", "CE0"), ("REG_OUTPUT_RST", "RST0"), ("GSR", "DISABLED")]
            .into_iter()
            .map(|(p, v)| (p.to_string(), Expr::Str(v.into())))
            .collect(),
        conns,
    });
    let widen = |x: &str| Expr::Concat(vec![lit(OPERAND_BITS, 0), id(x)]);
    let model = vec![
        Item::Reg { name: "product".into(), width: PRODUCT_BITS },
        Item::Always(vec![Stmt::If(id("ce"), vec![set("product", bin(BinOp::Mul, widen("a"), widen("b")))], vec![])]),
        Item::Assign("p".into(), id("product")),
    ];
    Module {
        name,
        header: vec!["An ECP5 DSP multiplier with its output register (kiln rtl-gen `dsp`).".into()],
        ports,
        items: vec![Item::Ifdef { name: "SYNTHESIS", then: vec![primitive], otherwise: model }],
        ..Default::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wrapper_is_the_primitive_for_synthesis_and_a_register_otherwise() {
        let text = registered_multiplier("k_mul18_reg".into()).print();
        let (synthesis, model) = text.split_once("`else").expect("both branches");
        assert!(synthesis.contains("`ifdef SYNTHESIS"));
        assert!(synthesis.contains("MULT18X18D #("));
        assert!(synthesis.contains(".REG_OUTPUT_CLK(\"CLK0\")"));
        assert!(
            synthesis.contains(".CE0(ce)") && synthesis.contains(".CLK0(clk)") && synthesis.contains(".RST0(1'b0)")
        );
        assert!(synthesis.contains(".A17(a[17])") && synthesis.contains(".P35(p[35])"));
        assert!(!synthesis.contains("always"));
        assert!(model.contains("if (ce) begin"));
        assert!(model.contains("product <= {18'd0, a} * {18'd0, b};"));
        assert!(model.contains("assign p = product;"));
        assert!(model.contains("`endif"));
        assert!(!model.contains("MULT18X18D"));
    }
}
