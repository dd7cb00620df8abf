//! Evaluation of `#if` expressions (C99 6.10.1): integer arithmetic in `intmax_t`/`uintmax_t`
//! (64 bits), identifiers that remain after macro expansion count as 0.

use crate::lex::{P, TokKind, Token};
use crate::literal;
use crate::source::Span;

#[derive(Clone, Copy, Debug)]
struct V {
    bits: u64,
    unsigned: bool,
}

impl V {
    fn signed(v: i64) -> V {
        V { bits: v as u64, unsigned: false }
    }
    fn truth(self) -> bool {
        self.bits != 0
    }
}

type R<T> = Result<T, (String, Option<Span>)>;

struct Eval<'a> {
    toks: &'a [Token],
    pos: usize,
}

/// Evaluates a fully macro-expanded `#if` line.
pub fn eval(toks: &[Token]) -> R<i64> {
    if toks.is_empty() {
        return Err(("#if with no expression".into(), None));
    }
    let mut e = Eval { toks, pos: 0 };
    let v = e.ternary()?;
    if let Some(t) = e.toks.get(e.pos) {
        return Err((format!("unexpected `{}` in #if expression", t.text), Some(t.span)));
    }
    Ok(v.bits as i64)
}

fn binary_prec(p: P) -> Option<u8> {
    Some(match p {
        P::PipePipe => 1,
        P::AmpAmp => 2,
        P::Pipe => 3,
        P::Caret => 4,
        P::Amp => 5,
        P::EqEq | P::Ne => 6,
        P::Lt | P::Gt | P::Le | P::Ge => 7,
        P::Shl | P::Shr => 8,
        P::Plus | P::Minus => 9,
        P::Star | P::Slash | P::Percent => 10,
        _ => return None,
    })
}

impl Eval<'_> {
    fn peek_punct(&self) -> Option<P> {
        match self.toks.get(self.pos).map(|t| &t.kind) {
            Some(TokKind::Punct(p)) => Some(*p),
            _ => None,
        }
    }

    fn span(&self) -> Option<Span> {
        self.toks.get(self.pos).or(self.toks.last()).map(|t| t.span)
    }

    fn ternary(&mut self) -> R<V> {
        let c = self.binary(1)?;
        if self.peek_punct() == Some(P::Question) {
            self.pos += 1;
            let a = self.ternary()?;
            if self.peek_punct() != Some(P::Colon) {
                return Err(("expected `:` in #if expression".into(), self.span()));
            }
            self.pos += 1;
            let b = self.ternary()?;
            let unsigned = a.unsigned || b.unsigned;
            let r = if c.truth() { a } else { b };
            return Ok(V { bits: r.bits, unsigned });
        }
        Ok(c)
    }

    fn binary(&mut self, min_prec: u8) -> R<V> {
        let mut lhs = self.unary()?;
        while let Some(op) = self.peek_punct() {
            let Some(prec) = binary_prec(op) else { break };
            if prec < min_prec {
                break;
            }
            let op_span = self.span();
            self.pos += 1;
            let rhs = self.binary(prec + 1)?;
            lhs = apply(op, lhs, rhs).ok_or(("division by zero in #if expression".to_string(), op_span))?;
        }
        Ok(lhs)
    }

    fn unary(&mut self) -> R<V> {
        let Some(t) = self.toks.get(self.pos) else {
            return Err(("#if expression ends unexpectedly".into(), self.span()));
        };
        self.pos += 1;
        match &t.kind {
            TokKind::Punct(P::Plus) => self.unary(),
            TokKind::Punct(P::Minus) => {
                let v = self.unary()?;
                Ok(V { bits: v.bits.wrapping_neg(), unsigned: v.unsigned })
            }
            TokKind::Punct(P::Tilde) => {
                let v = self.unary()?;
                Ok(V { bits: !v.bits, unsigned: v.unsigned })
            }
            TokKind::Punct(P::Bang) => {
                let v = self.unary()?;
                Ok(V::signed(!v.truth() as i64))
            }
            TokKind::Punct(P::LParen) => {
                let v = self.ternary()?;
                if self.peek_punct() != Some(P::RParen) {
                    return Err(("expected `)` in #if expression".into(), self.span()));
                }
                self.pos += 1;
                Ok(v)
            }
            TokKind::Number => {
                if literal::is_float(&t.text) {
                    return Err((format!("floating constant `{}` in #if expression", t.text), Some(t.span)));
                }
                let l = literal::parse_int(&t.text).map_err(|m| (m, Some(t.span)))?;
                Ok(V { bits: l.value, unsigned: l.suffix.unsigned || l.value > i64::MAX as u64 })
            }
            TokKind::Char => Ok(V::signed(literal::parse_char(&t.text).map_err(|m| (m, Some(t.span)))?)),
            // `true` is a keyword rather than a macro; as in C++, `#if true` holds.
            TokKind::Ident => Ok(V::signed(i64::from(&*t.text == "true"))),
            _ => Err((format!("unexpected `{}` in #if expression", t.text), Some(t.span))),
        }
    }
}

fn apply(op: P, a: V, b: V) -> Option<V> {
    let unsigned = a.unsigned || b.unsigned;
    let (x, y) = (a.bits, b.bits);
    let (sx, sy) = (x as i64, y as i64);
    let arith = |bits: u64| V { bits, unsigned };
    let boolean = |c: bool| V::signed(c as i64);
    Some(match op {
        P::PipePipe => boolean(a.truth() || b.truth()),
        P::AmpAmp => boolean(a.truth() && b.truth()),
        P::Pipe => arith(x | y),
        P::Caret => arith(x ^ y),
        P::Amp => arith(x & y),
        P::EqEq => boolean(x == y),
        P::Ne => boolean(x != y),
        P::Lt => boolean(if unsigned { x < y } else { sx < sy }),
        P::Gt => boolean(if unsigned { x > y } else { sx > sy }),
        P::Le => boolean(if unsigned { x <= y } else { sx <= sy }),
        P::Ge => boolean(if unsigned { x >= y } else { sx >= sy }),
        P::Shl => V { bits: x.wrapping_shl(y as u32), unsigned: a.unsigned },
        P::Shr => V {
            bits: if a.unsigned { x.wrapping_shr(y as u32) } else { sx.wrapping_shr(y as u32) as u64 },
            unsigned: a.unsigned,
        },
        P::Plus => arith(x.wrapping_add(y)),
        P::Minus => arith(x.wrapping_sub(y)),
        P::Star => arith(x.wrapping_mul(y)),
        P::Slash => {
            if y == 0 {
                return None;
            }
            arith(if unsigned { x / y } else { sx.wrapping_div(sy) as u64 })
        }
        P::Percent => {
            if y == 0 {
                return None;
            }
            arith(if unsigned { x % y } else { sx.wrapping_rem(sy) as u64 })
        }
        _ => return None,
    })
}
