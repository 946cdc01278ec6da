//! SPIR-V words to text, in exactly the format of SPIRV-Tools' `spirv-dis` with its default
//! options (header comment, friendly names, ids right-aligned so that `=` falls in column 14).
//!
//! Decoding goes through rspirv's binary parser, which follows the grammar (operand kinds,
//! enumerant parameters, typed literals); enumerant and mask names come from rspirv's grammar
//! tables. Friendly names follow SPIRV-Tools' name mapper ([`names`]), and numbers its literal
//! printer ([`number`]).

mod generators;
pub mod names;
pub mod number;

use names::{format_typed, NameMap};
use rspirv::binary::{parse_words, Consumer, Disassemble, ParseAction};
use rspirv::dr::{Instruction, ModuleHeader, Operand};
use spirv::Op;
use std::collections::HashMap;
use std::fmt::Write;

/// Why a binary could not be disassembled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DisasmError(pub String);

impl std::fmt::Display for DisasmError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "invalid SPIR-V binary: {}", self.0)
    }
}
impl std::error::Error for DisasmError {}

#[derive(Default)]
struct Collect {
    header: Option<ModuleHeader>,
    insts: Vec<Instruction>,
}

impl Consumer for Collect {
    fn initialize(&mut self) -> ParseAction {
        ParseAction::Continue
    }
    fn finalize(&mut self) -> ParseAction {
        ParseAction::Continue
    }
    fn consume_header(&mut self, header: ModuleHeader) -> ParseAction {
        self.header = Some(header);
        ParseAction::Continue
    }
    fn consume_instruction(&mut self, inst: Instruction) -> ParseAction {
        self.insts.push(inst);
        ParseAction::Continue
    }
}

/// Disassembles `words` as `spirv-dis` does by default.
pub fn disassemble(words: &[u32]) -> Result<String, DisasmError> {
    if words.len() < 5 {
        return Err(DisasmError("shorter than the module header".into()));
    }
    check_framing(words)?;
    let mut c = Collect::default();
    parse_words(words, &mut c).map_err(|e| DisasmError(e.to_string()))?;
    let names = NameMap::build(&c.insts);
    let mut out = String::new();
    let version = words[1];
    let generator = words[2];
    let _ = writeln!(out, "; SPIR-V");
    let _ = writeln!(out, "; Version: {}.{}", (version >> 16) & 0xff, (version >> 8) & 0xff);
    let _ = writeln!(out, "; Generator: {}; {}", generators::generator_name(generator >> 16), generator & 0xffff);
    let _ = writeln!(out, "; Bound: {}", words[3]);
    let _ = writeln!(out, "; Schema: {}", words[4]);
    let mut ext_sets: HashMap<u32, String> = HashMap::new();
    for inst in &c.insts {
        if inst.class.opcode == Op::ExtInstImport {
            if let (Some(r), Some(Operand::LiteralString(s))) = (inst.result_id, inst.operands.first()) {
                ext_sets.insert(r, s.clone());
            }
        }
        write_instruction(&mut out, inst, &names, &ext_sets);
    }
    Ok(out)
}

/// Checks the header magic and that every instruction's word count is at least 1 and stays inside
/// the binary. rspirv's decoder trusts the word count when it reads strings, so this check is what
/// keeps a truncated or corrupted binary an error instead of a panic.
fn check_framing(words: &[u32]) -> Result<(), DisasmError> {
    if words[0] != spirv::MAGIC_NUMBER {
        return Err(DisasmError(format!("bad magic number {:#010x}", words[0])));
    }
    let mut i = 5;
    while i < words.len() {
        let count = (words[i] >> 16) as usize;
        if count == 0 {
            return Err(DisasmError(format!("instruction at word {i} has a word count of 0")));
        }
        if i + count > words.len() {
            return Err(DisasmError(format!("instruction at word {i} runs past the end of the binary")));
        }
        i += count;
    }
    Ok(())
}

fn write_instruction(out: &mut String, inst: &Instruction, names: &NameMap, ext_sets: &HashMap<u32, String>) {
    match inst.result_id {
        Some(r) => {
            let n = names.name(r);
            let pad = 11usize.saturating_sub(n.len());
            let _ = write!(out, "{:pad$}%{n} = ", "");
        }
        None => out.push_str(&" ".repeat(15)),
    }
    out.push_str("Op");
    out.push_str(inst.class.opname);
    if let Some(t) = inst.result_type {
        let _ = write!(out, " %{}", names.name(t));
    }
    let op = inst.class.opcode;
    // The numeric kind of typed literals: the result type for constants, the selector's type for
    // OpSwitch.
    let typed_kind = match op {
        Op::Constant | Op::SpecConstant => inst.result_type.and_then(|t| names.num_types.get(&t).copied()),
        Op::Switch => match inst.operands.first() {
            Some(Operand::IdRef(sel)) => {
                names.value_types.get(sel).and_then(|t| names.num_types.get(t).copied())
            }
            _ => None,
        },
        _ => None,
    };
    let mut ext_set: Option<&str> = None;
    for (i, operand) in inst.operands.iter().enumerate() {
        out.push(' ');
        match operand {
            Operand::IdRef(id) | Operand::IdScope(id) | Operand::IdMemorySemantics(id) => {
                if op == Op::ExtInst && i == 0 {
                    ext_set = ext_sets.get(id).map(|s| s.as_str());
                }
                // An extended instruction's literal and enumerant operands arrive as ids (the
                // core grammar says IdRef*): print them as its own grammar says.
                let literal = match (op, ext_set, inst.operands.get(1)) {
                    (Op::ExtInst, Some(set), Some(Operand::LiteralExtInstInteger(n))) if i >= 2 => {
                        ext_operand(set, *n, i - 2, *id)
                    }
                    _ => None,
                };
                match literal {
                    Some(text) => out.push_str(&text),
                    None => {
                        let _ = write!(out, "%{}", names.name(*id));
                    }
                }
            }
            Operand::LiteralString(s) => {
                out.push('"');
                for ch in s.chars() {
                    if ch == '"' || ch == '\\' {
                        out.push('\\');
                    }
                    out.push(ch);
                }
                out.push('"');
            }
            Operand::LiteralBit32(_) | Operand::LiteralBit64(_) => {
                let typed = matches!(op, Op::Constant | Op::SpecConstant) || (op == Op::Switch && i >= 2 && i % 2 == 0);
                out.push_str(&format_typed(operand, if typed { typed_kind } else { None }));
            }
            Operand::LiteralExtInstInteger(n) => {
                // spirv-dis has no grammar for NonSemantic.DebugPrintf: it prints the number.
                let name = ext_set
                    .filter(|s| *s != "NonSemantic.DebugPrintf")
                    .and_then(rspirv::grammar::ext_inst_table)
                    .and_then(|t| t.lookup_opcode(*n))
                    .map(|g| g.opname.to_string());
                out.push_str(&name.unwrap_or_else(|| n.to_string()));
            }
            Operand::LiteralSpecConstantOpInteger(o) => {
                out.push_str(rspirv::grammar::INSTRUCTION_TABLE.get(*o).opname);
            }
            other => out.push_str(&other.disassemble()),
        }
    }
    out.push('\n');
}

/// How `spirv-dis` prints word `value`, operand `index` (after the instruction number) of
/// extended instruction `number` of `set`, when its grammar makes it a literal or an enumerant;
/// `None` for an id.
fn ext_operand(set: &str, number: u32, index: usize, value: u32) -> Option<String> {
    let g = rspirv::grammar::ext_inst_table(set)?.lookup_opcode(number)?;
    let last = g.operands.len().checked_sub(1)?;
    let operand = g.operands.get(index.min(last))?;
    if index > last && !matches!(operand.quantifier, rspirv::grammar::OperandQuantifier::ZeroOrMore) {
        return None;
    }
    let kind = format!("{:?}", operand.kind);
    let enumerant = |names: &[&str]| names.get(value as usize).map(|n| n.to_string()).unwrap_or_else(|| value.to_string());
    match kind.as_str() {
        "LiteralInteger" => Some(value.to_string()),
        "SourceLanguage" => Some(spirv::SourceLanguage::from_u32(value).map_or(value.to_string(), |l| format!("{l:?}"))),
        k if k.ends_with("(DebugBaseTypeAttributeEncoding)") => Some(enumerant(&[
            "Unspecified", "Address", "Boolean", "Float", "Signed", "SignedChar", "Unsigned", "UnsignedChar",
        ])),
        k if k.ends_with("(DebugCompositeType)") => Some(enumerant(&["Class", "Structure", "Union"])),
        k if k.ends_with("(DebugTypeQualifier)") => Some(enumerant(&["ConstType", "VolatileType", "RestrictType", "AtomicType"])),
        k if k.ends_with("(DebugOperation)") => Some(enumerant(&[
            "Deref", "Plus", "Minus", "PlusUconst", "BitPiece", "Swap", "Xderef", "StackValue", "Constu", "Fragment",
        ])),
        k if k.ends_with("(DebugInfoFlags)") => {
            const FLAGS: &[&str] = &[
                "FlagIsProtected", "FlagIsPrivate", "FlagIsLocal", "FlagIsDefinition", "FlagFwdDecl", "FlagArtificial",
                "FlagExplicit", "FlagPrototyped", "FlagObjectPointer", "FlagStaticMember", "FlagIndirectVariable",
                "FlagLValueReference", "FlagRValueReference", "FlagIsOptimized", "FlagIsEnumClass",
                "FlagTypePassByValue", "FlagTypePassByReference",
            ];
            if value == 0 {
                return Some("None".to_string());
            }
            let mut parts: Vec<String> = FLAGS.iter().enumerate().filter(|(b, _)| value & (1 << b) != 0).map(|(_, n)| n.to_string()).collect();
            let known = (1u32 << FLAGS.len()) - 1;
            if value & !known != 0 {
                parts.push(format!("0x{:x}", value & !known));
            }
            Some(parts.join("|"))
        }
        _ => None,
    }
}
