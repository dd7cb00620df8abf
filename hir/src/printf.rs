//! `printf` formats: parsed once by the front end, then carried by the program to every engine,
//! which all print through [`Format::render`] so their output is the same text.
//!
//! A format is its literal text and its conversions, each bound to one scalar argument (a
//! vector argument, `%v4d`, is its lanes in order; a `%s` of a string literal is already part of
//! the text). Values arrive as raw bits (`u64`, the low bits significant; a `float` as its
//! binary32 pattern).

use std::fmt::Write as _;

/// A parsed `printf` format.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Format {
    pub pieces: Vec<Piece>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Piece {
    Text(String),
    /// One conversion of `lanes` consecutive arguments (1 for a scalar), joined by `,` as
    /// OpenCL prints a vector.
    Conversion(Conversion),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Conversion {
    pub flags: Flags,
    pub width: Option<usize>,
    pub precision: Option<usize>,
    /// `d i u o x X c f F e E g G a A`.
    pub conv: char,
    /// The argument's kind and width in bits (after the length modifier).
    pub arg: ArgKind,
    pub lanes: u8,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Flags {
    pub left: bool,
    pub plus: bool,
    pub space: bool,
    pub alternate: bool,
    pub zero: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArgKind {
    Signed(u32),
    Unsigned(u32),
    Float,
}

/// A conversion as written, before its argument's type is known: what the length modifier and
/// the conversion character ask for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Directive {
    pub flags: Flags,
    pub width: Option<usize>,
    pub precision: Option<usize>,
    pub conv: char,
    /// `hh` 8, `h` 16, none 32, `hl` 32 (vectors only), `l` 64 bits.
    pub length_bits: Option<u32>,
    pub vector: Option<u8>,
}

/// A format split into text and directives (`%%` is text), or a message saying what is wrong.
pub fn parse(text: &str) -> Result<Vec<Result<String, Directive>>, String> {
    let mut out = Vec::new();
    let mut lit = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            lit.push(c);
            continue;
        }
        if chars.peek() == Some(&'%') {
            chars.next();
            lit.push('%');
            continue;
        }
        let mut flags = Flags::default();
        while let Some(&f) = chars.peek() {
            match f {
                '-' => flags.left = true,
                '+' => flags.plus = true,
                ' ' => flags.space = true,
                '#' => flags.alternate = true,
                '0' => flags.zero = true,
                _ => break,
            }
            chars.next();
        }
        let number = |chars: &mut std::iter::Peekable<std::str::Chars>| {
            let mut n: Option<usize> = None;
            while let Some(d) = chars.peek().and_then(|c| c.to_digit(10)) {
                n = Some(n.unwrap_or(0).saturating_mul(10).saturating_add(d as usize).min(4096));
                chars.next();
            }
            n
        };
        if chars.peek() == Some(&'*') {
            return Err("a `*` width or precision (taken from an argument) is not supported".into());
        }
        let width = number(&mut chars);
        let precision = if chars.peek() == Some(&'.') {
            chars.next();
            if chars.peek() == Some(&'*') {
                return Err("a `*` width or precision (taken from an argument) is not supported".into());
            }
            Some(number(&mut chars).unwrap_or(0))
        } else {
            None
        };
        let mut vector = None;
        if chars.peek() == Some(&'v') {
            chars.next();
            vector = match number(&mut chars) {
                Some(n @ (2 | 3 | 4 | 8 | 16)) => Some(n as u8),
                _ => return Err("a vector conversion is `%v2`, `%v3`, `%v4`, `%v8` or `%v16`".into()),
            };
        }
        let mut length_bits = None;
        match chars.peek() {
            Some('h') => {
                chars.next();
                length_bits = Some(16);
                match chars.peek() {
                    Some('h') => {
                        chars.next();
                        length_bits = Some(8);
                    }
                    Some('l') => {
                        chars.next();
                        length_bits = Some(32);
                    }
                    _ => {}
                }
            }
            Some('l') => {
                chars.next();
                length_bits = Some(64);
            }
            _ => {}
        }
        let Some(conv) = chars.next() else { return Err("the format ends inside a conversion".into()) };
        if !"diuoxXcfFeEgGaAsp".contains(conv) {
            return Err(format!("`%{conv}` is not a conversion OpenCL's printf knows"));
        }
        if vector.is_none() && length_bits == Some(32) {
            return Err("the `hl` length modifier is only for vector conversions (`%v4hld`)".into());
        }
        if vector.is_some() && length_bits.is_none() {
            return Err("a vector conversion needs a length modifier (`%v4hld`, `%v2hlf`)".into());
        }
        if !lit.is_empty() {
            out.push(Ok(std::mem::take(&mut lit)));
        }
        out.push(Err(Directive { flags, width, precision, conv, length_bits, vector }));
    }
    if !lit.is_empty() {
        out.push(Ok(lit));
    }
    Ok(out)
}

impl Format {
    /// The number of argument values the format reads.
    pub fn values(&self) -> usize {
        self.pieces
            .iter()
            .map(|p| match p {
                Piece::Conversion(c) => c.lanes as usize,
                Piece::Text(_) => 0,
            })
            .sum()
    }

    /// The text `printf` prints for these argument values (bits, in order).
    pub fn render(&self, values: &[u64]) -> String {
        let mut out = String::new();
        let mut next = values.iter().copied();
        for p in &self.pieces {
            match p {
                Piece::Text(t) => out.push_str(t),
                Piece::Conversion(c) => {
                    for lane in 0..c.lanes {
                        if lane > 0 {
                            out.push(',');
                        }
                        out.push_str(&c.render(next.next().unwrap_or(0)));
                    }
                }
            }
        }
        out
    }
}

fn sign_extend(bits: u64, width: u32) -> i64 {
    if width >= 64 {
        return bits as i64;
    }
    let shift = 64 - width;
    ((bits << shift) as i64) >> shift
}

fn mask(bits: u64, width: u32) -> u64 {
    if width >= 64 { bits } else { bits & ((1u64 << width) - 1) }
}

impl Conversion {
    fn render(&self, bits: u64) -> String {
        let f = self.flags;
        match self.conv {
            'c' => pad(&f, self.width, String::new(), ((bits & 0xff) as u8 as char).to_string(), false),
            'd' | 'i' => {
                let v = match self.arg {
                    ArgKind::Signed(w) | ArgKind::Unsigned(w) => sign_extend(bits, w),
                    ArgKind::Float => f32::from_bits(bits as u32) as i64,
                };
                let sign = sign(v < 0, &f);
                let digits = integer_digits(v.unsigned_abs().to_string(), self.precision);
                pad(&f, self.width, sign.into(), digits, self.precision.is_none())
            }
            'u' | 'o' | 'x' | 'X' => {
                let w = match self.arg {
                    ArgKind::Signed(w) | ArgKind::Unsigned(w) => w,
                    ArgKind::Float => 32,
                };
                let v = mask(bits, w);
                let (digits, prefix) = match self.conv {
                    'u' => (v.to_string(), ""),
                    'o' => (format!("{v:o}"), if f.alternate && v != 0 { "0" } else { "" }),
                    'x' => (format!("{v:x}"), if f.alternate && v != 0 { "0x" } else { "" }),
                    _ => (format!("{v:X}"), if f.alternate && v != 0 { "0X" } else { "" }),
                };
                let digits = integer_digits(digits, self.precision);
                pad(&f, self.width, prefix.into(), digits, self.precision.is_none())
            }
            _ => {
                let x = f64::from(f32::from_bits(bits as u32));
                let sign = sign(x.is_sign_negative() && !x.is_nan(), &f);
                let upper = self.conv.is_ascii_uppercase();
                let body = if x.is_nan() {
                    "nan".to_string()
                } else if x.is_infinite() {
                    "inf".to_string()
                } else {
                    let a = x.abs();
                    let p = self.precision.unwrap_or(6);
                    match self.conv.to_ascii_lowercase() {
                        'f' => fixed(a, p, f.alternate),
                        'e' => exponent(a, p, f.alternate),
                        'g' => general(a, p, f.alternate),
                        _ => hex_float(a, self.precision),
                    }
                };
                let body = if upper { body.to_uppercase() } else { body };
                let finite = x.is_finite();
                pad(&f, self.width, sign.into(), body, finite)
            }
        }
    }
}

/// What goes before a signed number's digits: `-`, else `+` or a space when the flags ask.
fn sign(negative: bool, f: &Flags) -> &'static str {
    if negative {
        "-"
    } else if f.plus {
        "+"
    } else if f.space {
        " "
    } else {
        ""
    }
}

/// Digits with at least `precision` of them (`%.0d` of 0 prints nothing).
fn integer_digits(digits: String, precision: Option<usize>) -> String {
    match precision {
        Some(0) if digits == "0" => String::new(),
        Some(p) if digits.len() < p => format!("{}{digits}", "0".repeat(p - digits.len())),
        _ => digits,
    }
}

/// `prefix` (a sign or `0x`) and `body` padded to `width`: with zeros after the prefix when the
/// `0` flag is set and allowed, else with spaces on the left (or right with `-`).
fn pad(f: &Flags, width: Option<usize>, prefix: String, body: String, zero_ok: bool) -> String {
    let len = prefix.len() + body.len();
    let Some(w) = width.filter(|&w| w > len) else { return prefix + &body };
    let fill = w - len;
    if f.left {
        format!("{prefix}{body}{}", " ".repeat(fill))
    } else if f.zero && zero_ok {
        format!("{prefix}{}{body}", "0".repeat(fill))
    } else {
        format!("{}{prefix}{body}", " ".repeat(fill))
    }
}

fn fixed(a: f64, p: usize, alternate: bool) -> String {
    let mut s = format!("{a:.p$}");
    if alternate && p == 0 {
        s.push('.');
    }
    s
}

/// `d.ddde±XX` (at least two exponent digits, as C prints).
fn exponent(a: f64, p: usize, alternate: bool) -> String {
    let s = format!("{a:.p$e}");
    let (mantissa, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let e: i32 = exp.parse().unwrap_or(0);
    let mut m = mantissa.to_string();
    if alternate && p == 0 {
        m.push('.');
    }
    let mut out = m;
    let _ = write!(out, "e{}{:02}", if e < 0 { '-' } else { '+' }, e.unsigned_abs());
    out
}

/// `%g`: `%e` when the exponent is below -4 or at least the precision, else `%f`, trailing
/// zeros removed unless `#`.
fn general(a: f64, p: usize, alternate: bool) -> String {
    let p = if p == 0 { 1 } else { p };
    let exp = if a == 0.0 {
        0
    } else {
        let s = format!("{a:.prec$e}", prec = p - 1);
        s.split_once('e').and_then(|(_, e)| e.parse::<i32>().ok()).unwrap_or(0)
    };
    let s = if exp < -4 || exp >= p as i32 {
        exponent(a, p - 1, alternate)
    } else {
        fixed(a, (p as i32 - 1 - exp).max(0) as usize, alternate)
    };
    if alternate {
        return s;
    }
    match s.split_once('e') {
        Some((m, e)) => format!("{}e{e}", trim_zeros(m)),
        None => trim_zeros(&s).to_string(),
    }
}

fn trim_zeros(s: &str) -> &str {
    if s.contains('.') { s.trim_end_matches('0').trim_end_matches('.') } else { s }
}

/// `%a`: `0x1.hhhp±d`, the shortest exact form unless a precision is given.
fn hex_float(a: f64, precision: Option<usize>) -> String {
    if a == 0.0 {
        return match precision {
            Some(p) if p > 0 => format!("0x0.{}p+0", "0".repeat(p)),
            _ => "0x0p+0".into(),
        };
    }
    let bits = a.to_bits();
    let mut exp = ((bits >> 52) & 0x7ff) as i64 - 1023;
    let mut frac = bits & ((1u64 << 52) - 1);
    if exp == -1023 {
        // Subnormal doubles do not arise from floats, but stay exact: normalize.
        let shift = frac.leading_zeros() as i64 - 11;
        frac = (frac << shift) & ((1u64 << 52) - 1);
        exp = -1022 - shift;
    }
    let mut digits = format!("{frac:013x}");
    match precision {
        Some(p) if p < 13 => {
            // Round the fraction to `p` hex digits, to nearest even.
            let drop = 4 * (13 - p) as u32;
            let keep = frac >> drop;
            let rest = frac & ((1u64 << drop) - 1);
            let half = 1u64 << (drop - 1);
            let mut r = keep + u64::from(rest > half || (rest == half && keep & 1 == 1));
            let mut lead = 1u64;
            if p == 0 {
                lead += r;
                r = 0;
            } else if r >> (4 * p) != 0 {
                lead += 1;
                r &= (1u64 << (4 * p)) - 1;
            }
            digits = if p == 0 { String::new() } else { format!("{r:0width$x}", width = p) };
            let point = if digits.is_empty() { "" } else { "." };
            return format!("0x{lead}{point}{digits}p{}{}", if exp < 0 { '-' } else { '+' }, exp.unsigned_abs());
        }
        Some(p) => digits.push_str(&"0".repeat(p - 13)),
        None => digits = digits.trim_end_matches('0').to_string(),
    }
    let point = if digits.is_empty() { "" } else { "." };
    format!("0x1{point}{digits}p{}{}", if exp < 0 { '-' } else { '+' }, exp.unsigned_abs())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn conv(conv: char, arg: ArgKind) -> Conversion {
        Conversion { flags: Flags::default(), width: None, precision: None, conv, arg, lanes: 1 }
    }

    #[test]
    fn integers_print_as_c_prints_them() {
        let mut c = conv('d', ArgKind::Signed(32));
        assert_eq!(c.render(0xffff_ffff), "-1");
        c.width = Some(5);
        c.flags.zero = true;
        assert_eq!(c.render(42), "00042");
        c.flags.left = true;
        assert_eq!(c.render(42), "42   ");
        let mut x = conv('x', ArgKind::Signed(8));
        x.flags.alternate = true;
        assert_eq!(x.render(0xff), "0xff");
        assert_eq!(conv('u', ArgKind::Unsigned(64)).render(u64::MAX), "18446744073709551615");
        let mut p = conv('d', ArgKind::Signed(32));
        p.precision = Some(3);
        p.width = Some(6);
        assert_eq!(p.render(7), "   007");
    }

    #[test]
    fn floats_print_as_c_prints_them() {
        let b = |x: f32| u64::from(x.to_bits());
        assert_eq!(conv('f', ArgKind::Float).render(b(1.5)), "1.500000");
        assert_eq!(conv('e', ArgKind::Float).render(b(12345.0)), "1.234500e+04");
        assert_eq!(conv('e', ArgKind::Float).render(b(0.0)), "0.000000e+00");
        assert_eq!(conv('g', ArgKind::Float).render(b(0.0001)), "0.0001");
        assert_eq!(conv('g', ArgKind::Float).render(b(1e-5)), "1e-05");
        assert_eq!(conv('g', ArgKind::Float).render(b(123456.0)), "123456");
        assert_eq!(conv('g', ArgKind::Float).render(b(1234567.0)), "1.23457e+06");
        assert_eq!(conv('f', ArgKind::Float).render(b(-0.0)), "-0.000000");
        assert_eq!(conv('F', ArgKind::Float).render(b(f32::INFINITY)), "INF");
        assert_eq!(conv('a', ArgKind::Float).render(b(1.0)), "0x1p+0");
        assert_eq!(conv('a', ArgKind::Float).render(b(0.75)), "0x1.8p-1");
        let mut w = conv('f', ArgKind::Float);
        w.width = Some(8);
        w.precision = Some(2);
        assert_eq!(w.render(b(1.23456)), "    1.23");
    }

    #[test]
    fn formats_parse_with_vectors_and_reject_what_printf_does_not_define() {
        let d = parse("x=%5.2f %v4hld%%\n").unwrap();
        assert_eq!(d.len(), 5);
        assert!(parse("%q").is_err());
        assert!(parse("%v4d").is_err(), "a vector needs a length modifier");
        assert!(parse("%hld").is_err(), "hl is for vectors");
        assert!(parse("%*d").is_err());
        assert!(parse("50%").is_err());
    }
}
