//! Mutants of a compiled shader, to show that the execution tests notice when the compiler's
//! output computes something else (issue #6): each [`Site`] is one small change to the SPIR-V
//! that keeps it valid but changes what it computes.
//!
//! - [`Site::Opcode`]: one arithmetic, comparison, bitwise or atomic instruction becomes its
//!   partner with the same operand and result types (`OpIAdd` <-> `OpISub`, `OpFMul` <-> `OpFDiv`,
//!   `OpSLessThan` <-> `OpSGreaterThan`, `OpBitwiseAnd` <-> `OpBitwiseOr`, `OpAtomicUMin` <->
//!   `OpAtomicUMax`, ...).
//! - [`Site::Constant`]: one 32-bit scalar constant is replaced, in the value operands of those
//!   instructions (an atomic's value, compare-exchange's value and comparator) and of
//!   `OpStore`/`OpSelect`/`OpCompositeConstruct`/`OpReturnValue`, by a new
//!   constant one larger (floats: +1, or doubled when that would be lost to rounding). Its uses
//!   as an index, a scope or memory semantics are left alone, so the mutant stays valid.
//!
//! `HLSLC_EXEC_MUTATE` picks a site for the ordinary exec test run (`opcode:N`, `const:N`: the
//! N-th site of that kind in each shader; shaders with fewer sites run unchanged); the
//! `exec_mutants` test tries every site of every HLSL case.

use spirv::Op;

/// One place where a shader can be changed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Site {
    /// The instruction at this word offset gets opcode `to`.
    Opcode { at: usize, to: Op },
    /// Value uses of the constant with this id get a changed copy.
    Constant { id: u32 },
    /// The GLSL.std.450 instruction at this word offset becomes instruction `to` (`FMin` <->
    /// `FMax`, `Floor` <-> `Ceil`, `Sqrt` <-> `InverseSqrt`, `FClamp` <-> `FMix`, ...).
    Ext { at: usize, to: u32 },
    /// The matrix product at this word offset computes the other product of the same shape:
    /// `M*v` <-> `v*M` on a square matrix, `A*B` -> `B*A`.
    Matrix { at: usize },
}

/// GLSL.std.450 instructions that can be swapped (same operand and result types).
const EXT_PAIRS: &[(u32, u32)] = &[
    (8, 9),   // Floor, Ceil
    (2, 3),   // RoundEven, Trunc
    (1, 9),   // Round, Ceil
    (4, 6),   // FAbs, FSign
    (5, 7),   // SAbs, SSign
    (10, 8),  // Fract, Floor
    (31, 32), // Sqrt, InverseSqrt
    (27, 28), // Exp, Log
    (29, 30), // Exp2, Log2
    (13, 14), // Sin, Cos
    (37, 40), // FMin, FMax
    (38, 41), // UMin, UMax
    (39, 42), // SMin, SMax
    (43, 46), // FClamp, FMix
    (44, 45), // UClamp, SClamp
    (74, 73), // FindSMsb, FindILsb
    (75, 73), // FindUMsb, FindILsb
    (69, 4),  // Normalize, FAbs
    (50, 46), // Fma, FMix
];

fn ext_partner(inst: u32) -> Option<u32> {
    EXT_PAIRS.iter().find_map(|&(a, b)| if a == inst { Some(b) } else if b == inst { Some(a) } else { None })
}

/// Opcodes that can be swapped without changing operand or result types.
const PAIRS: &[(Op, Op)] = &[
    (Op::IAdd, Op::ISub),
    (Op::FAdd, Op::FSub),
    (Op::FMul, Op::FDiv),
    (Op::SDiv, Op::SRem),
    (Op::UDiv, Op::UMod),
    (Op::SLessThan, Op::SGreaterThan),
    (Op::SLessThanEqual, Op::SGreaterThanEqual),
    (Op::ULessThan, Op::UGreaterThan),
    (Op::ULessThanEqual, Op::UGreaterThanEqual),
    (Op::FOrdLessThan, Op::FOrdGreaterThan),
    (Op::FOrdLessThanEqual, Op::FOrdGreaterThanEqual),
    (Op::IEqual, Op::INotEqual),
    (Op::BitwiseAnd, Op::BitwiseOr),
    (Op::BitwiseXor, Op::BitwiseOr),
    (Op::ShiftLeftLogical, Op::ShiftRightLogical),
    (Op::LogicalAnd, Op::LogicalOr),
    (Op::AtomicIAdd, Op::AtomicISub),
    (Op::AtomicAnd, Op::AtomicOr),
    (Op::AtomicXor, Op::AtomicOr),
    (Op::AtomicSMin, Op::AtomicSMax),
    (Op::AtomicUMin, Op::AtomicUMax),
    (Op::AtomicExchange, Op::AtomicIAdd),
];

/// `IMul` has no partner of the same shape in the list above; it becomes an add.
fn partner(op: Op) -> Option<Op> {
    match op {
        Op::IMul => return Some(Op::IAdd),
        // FToU needs an unsigned result type, FToS takes any: one way only.
        Op::ConvertFToU => return Some(Op::ConvertFToS),
        Op::ConvertSToF => return Some(Op::ConvertUToF),
        Op::ConvertUToF => return Some(Op::ConvertSToF),
        _ => {}
    }
    PAIRS.iter().find_map(|&(a, b)| if a == op { Some(b) } else if b == op { Some(a) } else { None })
}

/// Operands (word indices within the instruction) whose ids may be a mutated constant.
fn value_operands(op: Op, len: usize) -> std::ops::Range<usize> {
    let atomic = matches!(
        op,
        Op::AtomicIAdd | Op::AtomicISub | Op::AtomicAnd | Op::AtomicOr | Op::AtomicXor | Op::AtomicSMin | Op::AtomicSMax | Op::AtomicUMin | Op::AtomicUMax | Op::AtomicExchange
    );
    match op {
        // pointer, scope and semantics come first
        _ if atomic => 6..len,
        Op::AtomicCompareExchange => 7..len,
        Op::ExtInst => 5..len,
        Op::Dot | Op::VectorTimesScalar | Op::MatrixTimesScalar | Op::MatrixTimesVector | Op::VectorTimesMatrix | Op::MatrixTimesMatrix => 3..len,
        Op::Store => 2..3,
        Op::ReturnValue => 1..2,
        Op::Select | Op::CompositeConstruct => 3..len,
        _ if partner(op).is_some() || matches!(op, Op::SNegate | Op::FNegate | Op::Not | Op::ShiftRightArithmetic | Op::FRem | Op::SMod) => 3..len,
        _ => 0..0,
    }
}

/// (word offset, opcode, length) of every instruction after the header.
fn instructions(words: &[u32]) -> Vec<(usize, u32, usize)> {
    let mut out = Vec::new();
    let mut i = 5;
    while i < words.len() {
        let len = (words[i] >> 16) as usize;
        if len == 0 || i + len > words.len() {
            break;
        }
        out.push((i, words[i] & 0xFFFF, len));
        i += len;
    }
    out
}

fn op(code: u32) -> Option<Op> {
    Op::from_u32(code)
}

/// The 32-bit int and float scalar types: id -> is float.
fn scalar_types(words: &[u32]) -> std::collections::HashMap<u32, bool> {
    let mut m = std::collections::HashMap::new();
    for (at, code, len) in instructions(words) {
        match op(code) {
            Some(Op::TypeInt) if len == 4 && words[at + 2] == 32 => {
                m.insert(words[at + 1], false);
            }
            Some(Op::TypeFloat) if len >= 3 && words[at + 2] == 32 => {
                m.insert(words[at + 1], true);
            }
            _ => {}
        }
    }
    m
}

/// The id of the GLSL.std.450 import.
fn glsl_set(words: &[u32]) -> Option<u32> {
    instructions(words).into_iter().filter(|&(_, code, len)| op(code) == Some(Op::ExtInstImport) && len >= 3).find_map(|(at, _, len)| {
        let name: Vec<u8> = words[at + 2..at + len].iter().flat_map(|w| w.to_le_bytes()).take_while(|&b| b != 0).collect();
        (name == b"GLSL.std.450").then(|| words[at + 1])
    })
}

/// Result id -> result type id, for the instructions whose grammar starts with both.
fn result_types(words: &[u32]) -> std::collections::HashMap<u32, u32> {
    use rspirv::grammar::{OperandKind, INSTRUCTION_TABLE};
    let mut m = std::collections::HashMap::new();
    for (at, code, len) in instructions(words) {
        let Some(g) = INSTRUCTION_TABLE.lookup_opcode(code) else { continue };
        let kinds: Vec<OperandKind> = g.operands.iter().take(2).map(|o| o.kind).collect();
        if len >= 3 && kinds == [OperandKind::IdResultType, OperandKind::IdResult] {
            m.insert(words[at + 2], words[at + 1]);
        }
    }
    m
}

/// Whether type `t` is a matrix with as many columns as rows.
fn is_square_matrix(words: &[u32], t: u32) -> bool {
    let insts = instructions(words);
    let def = |id: u32| insts.iter().find(|&&(at, code, len)| len >= 3 && words[at + 1] == id && matches!(op(code), Some(Op::TypeMatrix | Op::TypeVector))).copied();
    let Some((at, code, _)) = def(t) else { return false };
    if op(code) != Some(Op::TypeMatrix) {
        return false;
    }
    let cols = words[at + 3];
    def(words[at + 2]).is_some_and(|(v, _, _)| words[v + 3] == cols)
}

/// Every mutation site of a module, opcode sites (in code order) first, then constants.
pub fn sites(words: &[u32]) -> Vec<Site> {
    let insts = instructions(words);
    let mut out: Vec<Site> = insts
        .iter()
        .filter_map(|&(at, code, _)| op(code).and_then(partner).map(|to| Site::Opcode { at, to }))
        .collect();
    let glsl = glsl_set(words);
    let types = result_types(words);
    for &(at, code, len) in &insts {
        match op(code) {
            Some(Op::ExtInst) if len >= 5 && Some(words[at + 3]) == glsl => {
                if let Some(to) = ext_partner(words[at + 4]) {
                    out.push(Site::Ext { at, to });
                }
            }
            Some(o @ (Op::MatrixTimesVector | Op::VectorTimesMatrix | Op::MatrixTimesMatrix)) if len == 5 => {
                let m = if o == Op::VectorTimesMatrix { words[at + 4] } else { words[at + 3] };
                let square = types.get(&m).is_some_and(|t| is_square_matrix(words, *t));
                let same = o != Op::MatrixTimesMatrix || types.get(&words[at + 3]) == types.get(&words[at + 4]);
                if square && same {
                    out.push(Site::Matrix { at });
                }
            }
            _ => {}
        }
    }
    let scalars = scalar_types(words);
    let mut used = std::collections::BTreeSet::new();
    for &(at, code, len) in &insts {
        let Some(o) = op(code) else { continue };
        for k in value_operands(o, len) {
            used.insert(words[at + k]);
        }
    }
    for &(at, code, len) in &insts {
        if op(code) == Some(Op::Constant) && len == 4 && scalars.contains_key(&words[at + 1]) && used.contains(&words[at + 2]) {
            out.push(Site::Constant { id: words[at + 2] });
        }
    }
    out
}

/// The mutant for one site (`None` if the site does not fit the module).
pub fn apply(words: &[u32], site: Site) -> Option<Vec<u32>> {
    let mut w = words.to_vec();
    match site {
        Site::Opcode { at, to } => {
            let code = *w.get(at)?;
            partner(op(code & 0xFFFF)?)?;
            w[at] = (code & 0xFFFF_0000) | to as u32;
            Some(w)
        }
        Site::Ext { at, to } => {
            if op(*w.get(at)? & 0xFFFF) != Some(Op::ExtInst) {
                return None;
            }
            w[at + 4] = to;
            Some(w)
        }
        Site::Matrix { at } => {
            let code = *w.get(at)?;
            let to = match op(code & 0xFFFF)? {
                Op::MatrixTimesVector => Op::VectorTimesMatrix,
                Op::VectorTimesMatrix => Op::MatrixTimesVector,
                Op::MatrixTimesMatrix => Op::MatrixTimesMatrix,
                _ => return None,
            };
            w[at] = (code & 0xFFFF_0000) | to as u32;
            w.swap(at + 3, at + 4);
            Some(w)
        }
        Site::Constant { id } => {
            let insts = instructions(words);
            let &(at, _, _) = insts.iter().find(|&&(at, code, len)| op(code) == Some(Op::Constant) && len == 4 && words[at + 2] == id)?;
            let is_float = *scalar_types(words).get(&words[at + 1])?;
            let old = words[at + 3];
            let new = if is_float {
                let f = f32::from_bits(old);
                let g = if (f + 1.0) != f { f + 1.0 } else { f * 2.0 };
                g.to_bits()
            } else {
                old.wrapping_add(1)
            };
            let new_id = w[3];
            w[3] += 1;
            for &(i, code, len) in &insts {
                let Some(o) = op(code) else { continue };
                for k in value_operands(o, len) {
                    if w[i + k] == id {
                        w[i + k] = new_id;
                    }
                }
            }
            // The new constant right after the old one (same type, so types come before it).
            let inst = [(4 << 16) | Op::Constant as u32, words[at + 1], new_id, new];
            w.splice(at + 4..at + 4, inst);
            Some(w)
        }
    }
}

/// Parses `HLSLC_EXEC_MUTATE`: `opcode:N` or `const:N` (N counts from 0).
pub fn parse_request(s: &str) -> Result<(bool, usize), String> {
    let (kind, n) = s.split_once(':').ok_or_else(|| format!("HLSLC_EXEC_MUTATE={s}: expected opcode:N or const:N"))?;
    let n: usize = n.parse().map_err(|_| format!("HLSLC_EXEC_MUTATE={s}: N is not a number"))?;
    match kind {
        "opcode" => Ok((true, n)),
        "const" => Ok((false, n)),
        _ => Err(format!("HLSLC_EXEC_MUTATE={s}: unknown kind '{kind}' (opcode, const)")),
    }
}

/// The N-th site of the requested kind.
pub fn pick(words: &[u32], opcode: bool, n: usize) -> Option<Site> {
    sites(words).into_iter().filter(|s| matches!(s, Site::Opcode { .. }) == opcode).nth(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `%3 = OpIAdd %int %c1 %c1` in a minimal module: types, one constant, one add.
    fn module() -> Vec<u32> {
        let mut w = vec![0x0723_0203, 0x0001_0000, 0, 10, 0];
        w.extend([(4 << 16) | Op::TypeInt as u32, 1, 32, 1]);
        w.extend([(4 << 16) | Op::Constant as u32, 1, 2, 7]);
        w.extend([(5 << 16) | Op::IAdd as u32, 1, 3, 2, 2]);
        w
    }

    #[test]
    fn finds_and_applies_sites() {
        let w = module();
        let s = sites(&w);
        assert_eq!(s, [Site::Opcode { at: 13, to: Op::ISub }, Site::Constant { id: 2 }]);
        let m = apply(&w, s[0]).unwrap();
        assert_eq!(m[13] & 0xFFFF, Op::ISub as u32);
        let c = apply(&w, s[1]).unwrap();
        assert_eq!(c[3], 11, "bound grows");
        assert_eq!(&c[13..17], &[(4 << 16) | Op::Constant as u32, 1, 10, 8], "new constant, value + 1");
        assert_eq!(&c[17..], &[(5 << 16) | Op::IAdd as u32, 1, 3, 10, 10], "uses replaced");
    }

    #[test]
    fn parses_requests() {
        assert_eq!(parse_request("opcode:3"), Ok((true, 3)));
        assert_eq!(parse_request("const:0"), Ok((false, 0)));
        assert!(parse_request("opcode").is_err());
        assert!(parse_request("swap:1").is_err());
    }
}
