//! Values of integer, character and floating literals (shared by `#if` evaluation and the parser).

/// The suffix of an integer literal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct IntSuffix {
    pub unsigned: bool,
    /// `l`/`L`: OpenCL's `long` is 64 bits. `ll` is rejected (reserved `long long`).
    pub long: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IntLiteral {
    pub value: u64,
    pub suffix: IntSuffix,
    /// Octal, hexadecimal and binary literals may take unsigned types (C99 6.4.4.1).
    pub non_decimal: bool,
}

/// Parses a C integer literal such as `0x1Fu`, `017`, `42UL`.
pub fn parse_int(text: &str) -> Result<IntLiteral, String> {
    let lower = text.to_ascii_lowercase();
    let (digits, radix, non_decimal) = if let Some(h) = lower.strip_prefix("0x") {
        (h, 16, true)
    } else if let Some(b) = lower.strip_prefix("0b") {
        (b, 2, true)
    } else if lower.len() > 1 && lower.starts_with('0') {
        (&lower[1..], 8, true)
    } else {
        (&lower[..], 10, false)
    };
    let end = digits.find(|c: char| !c.is_digit(radix)).unwrap_or(digits.len());
    let (num, suffix_text) = digits.split_at(end);
    if num.is_empty() && radix != 8 {
        return Err(format!("invalid integer literal `{text}`"));
    }
    let mut suffix = IntSuffix::default();
    match suffix_text {
        "" => {}
        "u" => suffix.unsigned = true,
        "l" => suffix.long = true,
        "ul" | "lu" => {
            suffix.unsigned = true;
            suffix.long = true;
        }
        "ll" | "ull" | "llu" => return Err(format!("`long long` literals are reserved in OpenCL C: `{text}`")),
        _ => return Err(format!("invalid suffix `{suffix_text}` on integer literal `{text}`")),
    }
    let value = if num.is_empty() {
        0
    } else {
        u64::from_str_radix(num, radix)
            .map_err(|_| format!("integer literal `{text}` is too large for any integer type"))?
    };
    Ok(IntLiteral { value, suffix, non_decimal })
}

/// Parses a character literal such as `'a'` or `'\n'`; returns its `int` value (chars are signed).
pub fn parse_char(text: &str) -> Result<i64, String> {
    let inner = text
        .strip_prefix('\'')
        .and_then(|t| t.strip_suffix('\''))
        .ok_or_else(|| format!("malformed character literal {text}"))?;
    let bytes = unescape(inner)?;
    match bytes.as_slice() {
        [b] => Ok(*b as i8 as i64),
        [] => Err("empty character literal".into()),
        _ => Err(format!("multi-character literal {text} is not supported")),
    }
}

/// Decodes the escape sequences of a string or character literal body.
pub fn unescape(s: &str) -> Result<Vec<u8>, String> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' {
            out.push(b[i]);
            i += 1;
            continue;
        }
        i += 1;
        let c = *b.get(i).ok_or("trailing backslash in literal")?;
        i += 1;
        let v = match c {
            b'n' => b'\n',
            b't' => b'\t',
            b'r' => b'\r',
            b'a' => 7,
            b'b' => 8,
            b'f' => 12,
            b'v' => 11,
            b'\\' => b'\\',
            b'\'' => b'\'',
            b'"' => b'"',
            b'?' => b'?',
            b'x' => {
                let start = i;
                while i < b.len() && b[i].is_ascii_hexdigit() {
                    i += 1;
                }
                let hex = &s[start..i];
                u32::from_str_radix(hex, 16).map_err(|_| "invalid \\x escape".to_string())? as u8
            }
            b'0'..=b'7' => {
                let start = i - 1;
                while i < b.len() && i < start + 3 && (b'0'..=b'7').contains(&b[i]) {
                    i += 1;
                }
                u32::from_str_radix(&s[start..i], 8).map_err(|_| "invalid octal escape".to_string())? as u8
            }
            other => return Err(format!("unknown escape sequence `\\{}`", other as char)),
        };
        out.push(v);
    }
    Ok(out)
}

/// The kind of a floating literal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloatSuffix {
    /// No suffix: `double`.
    None,
    /// `f`/`F`: `float`.
    F,
    /// `h`/`H`: `half`.
    H,
}

/// Is this pp-number a floating literal (as opposed to an integer)?
pub fn is_float(text: &str) -> bool {
    let l = text.to_ascii_lowercase();
    if l.starts_with("0x") {
        return l.contains('.') || l.contains('p');
    }
    l.contains('.') || l.contains('e')
}

/// Parses a floating literal into an `f64` (correctly rounded) and its suffix.
pub fn parse_float(text: &str) -> Result<(f64, FloatSuffix), String> {
    let (body, suffix) = match text.as_bytes().last() {
        Some(b'f' | b'F')
            if !text.to_ascii_lowercase().starts_with("0x") || text.to_ascii_lowercase().contains('p') =>
        {
            (&text[..text.len() - 1], FloatSuffix::F)
        }
        Some(b'h' | b'H') => (&text[..text.len() - 1], FloatSuffix::H),
        _ => (text, FloatSuffix::None),
    };
    let lower = body.to_ascii_lowercase();
    let v = if let Some(hex) = lower.strip_prefix("0x") {
        parse_hex_float(hex).ok_or_else(|| format!("malformed hexadecimal floating literal `{text}`"))?
    } else {
        lower.parse::<f64>().map_err(|_| format!("malformed floating literal `{text}`"))?
    };
    Ok((v, suffix))
}

fn parse_hex_float(s: &str) -> Option<f64> {
    let (mant, exp) = s.split_once('p')?;
    let exp: i32 = exp.parse().ok()?;
    let (int_part, frac_part) = mant.split_once('.').unwrap_or((mant, ""));
    let mut value: f64 = 0.0;
    for c in int_part.chars() {
        value = value * 16.0 + c.to_digit(16)? as f64;
    }
    let mut scale = 1.0 / 16.0;
    for c in frac_part.chars() {
        value += c.to_digit(16)? as f64 * scale;
        scale /= 16.0;
    }
    Some(value * 2f64.powi(exp))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers() {
        assert_eq!(parse_int("0x1Fu").map(|l| (l.value, l.suffix.unsigned)), Ok((31, true)));
        assert_eq!(parse_int("017").map(|l| l.value), Ok(15));
        assert_eq!(parse_int("0").map(|l| l.value), Ok(0));
        assert!(parse_int("12ll").is_err());
        assert!(parse_int("99999999999999999999").is_err());
        assert!(parse_int("12q").is_err());
    }

    #[test]
    fn chars() {
        assert_eq!(parse_char("'a'"), Ok(97));
        assert_eq!(parse_char("'\\n'"), Ok(10));
        assert_eq!(parse_char("'\\xff'"), Ok(-1));
        assert_eq!(parse_char("'\\0'"), Ok(0));
    }

    #[test]
    fn floats() {
        assert_eq!(parse_float("1.5f"), Ok((1.5, FloatSuffix::F)));
        assert_eq!(parse_float("0x1.8p1"), Ok((3.0, FloatSuffix::None)));
        assert!(is_float("1e5") && !is_float("0x1e5"));
    }
}
