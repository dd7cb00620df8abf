//! Reading the tools' logs back: resource use (nextpnr's "Device utilisation" table, or Yosys's
//! cell statistics for what nextpnr does not list) and the routed Fmax.

use crate::board::Board;
use serde::Serialize;
use std::collections::BTreeMap;

/// One resource line of the summary.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Utilization {
    pub resource: String,
    pub used: u64,
    pub available: Option<u64>,
}

/// The first token of a line that is a number (`F_PLLOUT:  30.000 MHz` gives 30).
pub fn first_number(line: &str) -> Option<f64> {
    line.split_whitespace().find_map(|t| t.trim_end_matches([':', ',']).parse::<f64>().ok())
}

/// nextpnr's utilisation table: BEL type -> (used, available).
pub fn nextpnr_utilisation(log: &str) -> BTreeMap<String, (u64, u64)> {
    let mut out = BTreeMap::new();
    let mut lines = log.lines().skip_while(|l| !l.contains("Device utilisation:"));
    lines.next();
    for line in lines {
        let body = line.trim_start_matches("Info:").trim();
        let Some((name, rest)) = body.split_once(':') else { break };
        let Some((used, avail)) = rest.split_once('/') else { break };
        let (Ok(used), Some(Ok(avail))) =
            (used.trim().parse::<u64>(), avail.split_whitespace().next().map(str::parse::<u64>))
        else {
            break;
        };
        out.insert(name.trim().to_string(), (used, avail));
    }
    out
}

/// Yosys's cell counts from the last statistics in a synthesis log.
pub fn yosys_cells(log: &str) -> BTreeMap<String, u64> {
    let mut out = BTreeMap::new();
    let Some(start) = log.rfind("Number of cells") else { return out };
    for line in log[start..].lines().skip(1) {
        let t: Vec<&str> = line.split_whitespace().collect();
        if t.is_empty() {
            if out.is_empty() {
                continue;
            }
            break;
        }
        // Yosys 0.23 prints `NAME COUNT`; later versions print `COUNT NAME`.
        let pair = match (t.first().map(|x| x.parse::<u64>()), t.get(1).map(|x| x.parse::<u64>())) {
            (_, Some(Ok(n))) if t.len() == 2 => Some((t[0], n)),
            (Some(Ok(n)), _) if t.len() == 2 => Some((t[1], n)),
            _ => None,
        };
        match pair {
            Some((name, n)) => {
                out.insert(name.to_string(), n);
            }
            None => break,
        }
    }
    out
}

/// The routed maximum frequency of the design's clock: the last figure nextpnr printed for each
/// clock, the lowest over the real clocks (nextpnr also lists the tied-off clock inputs of
/// unused DSP cells, `$PACKER_GND_NET`, which are not clocks).
pub fn fmax_mhz(log: &str) -> Option<f64> {
    let mut last: BTreeMap<String, f64> = BTreeMap::new();
    for line in log.lines() {
        let Some(i) = line.find("Max frequency for clock") else { continue };
        let rest = &line[i..];
        let Some(q1) = rest.find('\'') else { continue };
        let Some(q2) = rest[q1 + 1..].find('\'') else { continue };
        let clock = &rest[q1 + 1..q1 + 1 + q2];
        if clock.contains("$PACKER_") {
            continue;
        }
        if let Some(f) = first_number(&rest[q1 + 2 + q2..]) {
            last.insert(clock.to_string(), f);
        }
    }
    last.values().copied().reduce(f64::min)
}

/// The summary's resource lines, as the board file maps them: each entry names nextpnr BEL
/// types, or `synth:PREFIX` for Yosys cells whose type starts with PREFIX.
/// A synthesis that ran in halves has a log for each; their counts add up.
pub fn utilization(board: &Board, synth_logs: &[String], pnr_log: &str) -> Vec<Utilization> {
    let bels = nextpnr_utilisation(pnr_log);
    let mut cells: BTreeMap<String, u64> = BTreeMap::new();
    for log in synth_logs {
        for (name, n) in yosys_cells(log) {
            *cells.entry(name).or_default() += n;
        }
    }
    let r = &board.report;
    let declared = &board.resources;
    let mut out = Vec::new();
    for (resource, sources, fallback) in [
        ("LUTs", &r.luts, Some(declared.luts)),
        ("FFs", &r.ffs, Some(declared.ffs)),
        ("BRAM", &r.bram, None),
        ("SPRAM", &r.spram, None),
        ("DSPs", &r.dsps, Some(declared.dsps)),
    ] {
        if sources.is_empty() {
            continue;
        }
        let mut used = 0;
        let mut available = None;
        for s in sources {
            if let Some(prefix) = s.strip_prefix("synth:") {
                used += cells.iter().filter(|(n, _)| n.starts_with(prefix)).map(|(_, c)| c).sum::<u64>();
            } else if let Some((u, a)) = bels.get(s) {
                used += u;
                available = Some(*a);
            }
        }
        // Several sources (cells of different sizes sharing one kind of block) or a Yosys count:
        // the board file's figure is the one that means something.
        if sources.len() > 1 || sources.iter().any(|s| s.starts_with("synth:")) {
            available = fallback.or(available);
        }
        out.push(Utilization { resource: resource.into(), used, available });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const PNR: &str = "Info: Device utilisation:\nInfo: \t           ICESTORM_LC:   371/ 5280     7%\nInfo: \t          ICESTORM_RAM:     2/   30     6%\nInfo: \t                 SB_IO:     6/   96     6%\nInfo: \nInfo: Max frequency for clock 'clk$SB_IO_IN_$glb_clk': 50.00 MHz (PASS at 12.00 MHz)\nInfo: Max frequency for clock '$PACKER_GND_NET_$glb_clk': 900.00 MHz (PASS at 12.00 MHz)\nInfo: Max frequency for clock 'clk$SB_IO_IN_$glb_clk': 54.69 MHz (PASS at 12.00 MHz)\n";
    const SYNTH: &str = "=== design ===\n   Number of cells:                 30\n     SB_DFF                         12\n     SB_DFFE                         4\n     SB_LUT4                        14\n\nEnd\n";

    #[test]
    fn nextpnr_tables_and_fmax() {
        let u = nextpnr_utilisation(PNR);
        assert_eq!(u.get("ICESTORM_LC"), Some(&(371, 5280)));
        assert_eq!(u.get("SB_IO"), Some(&(6, 96)));
        assert_eq!(fmax_mhz(PNR), Some(54.69));
        assert_eq!(fmax_mhz("nothing"), None);
    }

    #[test]
    fn yosys_statistics_in_both_orders() {
        let c = yosys_cells(SYNTH);
        assert_eq!((c["SB_DFF"], c["SB_DFFE"], c["SB_LUT4"]), (12, 4, 14));
        let newer = "   Number of cells:  7\n        5   TRELLIS_FF\n        2   LUT4\n\n";
        let c = yosys_cells(newer);
        assert_eq!((c["TRELLIS_FF"], c["LUT4"]), (5, 2));
    }

    #[test]
    fn the_board_file_decides_the_resource_lines() {
        let b = crate::board::board_by_name("icebreaker").expect("board");
        let u = utilization(&b, &[SYNTH.to_string()], PNR);
        let get = |r: &str| u.iter().find(|x| x.resource == r).cloned();
        assert_eq!(get("LUTs"), Some(Utilization { resource: "LUTs".into(), used: 371, available: Some(5280) }));
        assert_eq!(get("FFs").map(|x| x.used), Some(16));
        assert_eq!(get("BRAM").map(|x| (x.used, x.available)), Some((2, Some(30))));
        assert_eq!(first_number("F_PLLOUT:   30.000 MHz (achieved)"), Some(30.0));
        assert_eq!(first_number("clkout0 frequency: 62.5 MHz"), Some(62.5));
    }
}
