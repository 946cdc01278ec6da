//! Inlines function calls (SPIRV-Tools' exhaustive inlining, which dxc runs first): every call
//! to a function with exactly one `OpReturn`/`OpReturnValue` is replaced by a copy of the
//! callee's body, so that what the emitter passes through pointer parameters becomes plain
//! loads and stores of the caller's variables for [`crate::mem2reg`]. The functions left
//! uncalled are removed by [`crate::unused`].
//!
//! The block holding the call is split: the part before the call branches to the copied entry
//! block, and the callee's return branches to a new block holding the rest (with the split
//! block's merge instruction and terminator, and the name successors' `OpPhi`s now give as their
//! parent). The callee's `OpVariable`s move to the caller's entry block; an initializer becomes a
//! store where the body starts, so a call in a loop still sees it each time. Decorations of the
//! callee's results (`NoContraction`, `RelaxedPrecision`) are copied to the new ids.
//!
//! Debug information (as SPIRV-Tools' inliner keeps it): the copy leaves out the callee's
//! `DebugFunctionDefinition` and the `DebugDeclare`s of parameters whose argument is not a
//! variable; with `NonSemantic.Shader.DebugInfo.100`, each copied `DebugScope` gets a
//! `DebugInlinedAt` naming the call's line and scope (chained to the call's own when the call was
//! itself inlined, and the callee's chains extended by it), and the block after the call starts
//! again with the caller's `DebugScope` and `DebugLine`.
//!
//! A callee with several returns gets a single one first ([`crate::returns`]), as SPIRV-Tools
//! runs merge-return before inlining. Not inlined: callees that still have several returns (one
//! inside a loop) or none, callees marked `DontInline` (HLSL's `[noinline]`, as SPIRV-Tools'
//! inliner leaves them), and calls in a loop header (the header must keep its `OpLoopMerge` next
//! to its terminator).

use crate::debuginfo::{self, ops, Sets};
use crate::returns;
use crate::ids::{chase, id_at, rename_used, IdAlloc};
use rspirv::dr::{Block, Function, Instruction, Module, Operand};
use spirv::{Op, Word};
use crate::hash::HashMap;

/// Most calls inlined in one module (a guard against a blow-up; HLSL has no recursion).
const BUDGET: usize = 20_000;

/// Inlines every call it can; returns whether anything changed.
pub fn run(m: &mut Module) -> bool {
    let index: HashMap<Word, usize> =
        m.functions.iter().enumerate().filter_map(|(i, f)| Some((f.def.as_ref()?.result_id?, i))).collect();
    let mut ids = IdAlloc::new(m);
    // Calls that live functions still make to each function (merge-return below changes none).
    // A function nothing live calls (every call to it inlined, or its callers dead) that is not
    // an entry point or an export is dead: inlining into it would be work the removal of unused
    // functions throws away. The emitter orders callers before callees, so without this most
    // helpers were inlined into after their last caller had taken them in (6% of a whole
    // compile of the tessellator samples). A dead function's own calls die with it.
    let mut calls: HashMap<Word, usize> = HashMap::default();
    for c in m.functions.iter().flat_map(|f| callees(&f.blocks)) {
        *calls.entry(c).or_default() += 1;
    }
    // Called functions with several returns get one first, where they can.
    let sets = Sets::new(m);
    for f in &mut m.functions {
        if f.def.as_ref().and_then(|d| d.result_id).is_some_and(|id| calls.contains_key(&id)) && !dont_inline(f) {
            returns::merge(f, &mut ids, &sets);
        }
    }
    let inlinable: Vec<bool> = m.functions.iter().map(|f| single_return(f) && !dont_inline(f)).collect();
    // Each target's decorations, as positions in `m.annotations` (which the loop below leaves
    // as they are until it ends).
    let mut decorations: HashMap<Word, Vec<usize>> = HashMap::default();
    for (k, a) in m.annotations.iter().enumerate() {
        if a.class.opcode == Op::Decorate {
            if let Some(t) = id_at(a, 0) {
                decorations.entry(t).or_default().push(k);
            }
        }
    }
    let mut dbg = Debug::new(m);
    let mut new_decorations = Vec::new();
    let mut count = 0;
    let roots = roots(m);
    let mut dead: crate::hash::HashSet<Word> = Default::default();
    let mut purge: crate::hash::HashSet<Word> = Default::default();
    for f in &m.functions {
        let id = f.def.as_ref().and_then(|d| d.result_id).unwrap_or(0);
        if !roots.contains(&id) && calls.get(&id).copied().unwrap_or(0) == 0 {
            kill(m, &index, &roots, &mut calls, &mut dead, id);
        }
    }
    for fi in 0..m.functions.len() {
        let id = m.functions[fi].def.as_ref().and_then(|d| d.result_id).unwrap_or(0);
        if dead.contains(&id) {
            continue;
        }
        let (mut parents, mut results) = (HashMap::default(), HashMap::default());
        let mut bi = 0;
        while bi < m.functions[fi].blocks.len() && count < BUDGET {
            let block = &m.functions[fi].blocks[bi];
            if block.instructions.iter().any(|i| i.class.opcode == Op::LoopMerge) {
                bi += 1;
                continue;
            }
            let call = block.instructions.iter().position(|i| {
                i.class.opcode == Op::FunctionCall
                    && id_at(i, 0).and_then(|c| index.get(&c)).is_some_and(|&ci| ci != fi && inlinable[ci])
            });
            let Some(at) = call else {
                bi += 1;
                continue;
            };
            let callee_id = id_at(&block.instructions[at], 0).unwrap();
            let callee_index = index[&callee_id];
            // The call goes. A callee this call was the last live use of gives its body up
            // instead of a copy of it (the wrapper's call of `src_main`, every helper called
            // once), and its calls move with it; what is left of it is an unreachable block
            // until the removal of unused functions takes it away. A copied body's calls are
            // new calls.
            let left = calls.get_mut(&callee_id).map(|n| {
                *n = n.saturating_sub(1);
                *n
            });
            let dies = !roots.contains(&callee_id) && left.unwrap_or(0) == 0;
            if dies {
                dead.insert(callee_id);
            } else {
                for c in callees(&m.functions[callee_index].blocks) {
                    *calls.entry(c).or_default() += 1;
                }
            }
            let params = m.functions[callee_index].parameters.clone();
            let body = if dies {
                let stub = vec![Block {
                    label: Some(inst(Op::Label, None, Some(ids.fresh()), vec![])),
                    instructions: vec![inst(Op::Unreachable, None, None, vec![])],
                }];
                let body = std::mem::replace(&mut m.functions[callee_index].blocks, stub);
                // Its ids are renamed like a copy's: their names and decorations go (a copy's
                // decorations are made for the new ids), as they would with the function.
                for i in body.iter().flat_map(|b| b.label.iter().chain(&b.instructions)) {
                    purge.extend(i.result_id);
                }
                body
            } else {
                m.functions[callee_index].blocks.clone()
            };
            let caller = &mut m.functions[fi];
            let decorations = Decorations { of: &decorations, all: &m.annotations };
            let r = inline_call(caller, bi, at, &params, body, &mut ids, &decorations, &mut new_decorations, &mut dbg);
            parents.insert(r.parent.0, r.parent.1);
            if let Some((from, to)) = r.result {
                results.insert(from, to);
            }
            count += 1;
            // Go on with the block that now ends in the branch to the copied body: the copy
            // follows it and may hold calls of its own.
        }
        apply(&mut m.functions[fi], &parents, &results);
    }
    if !purge.is_empty() {
        m.annotations.retain(|a| !id_at(a, 0).is_some_and(|t| purge.contains(&t)));
        m.debug_names.retain(|n| !id_at(n, 0).is_some_and(|t| purge.contains(&t)));
    }
    m.annotations.extend(new_decorations);
    m.types_global_values.extend(dbg.new);
    ids.finish(m);
    count > 0
}

/// Marks `id` dead, and with it every function only dead functions call.
fn kill(
    m: &Module,
    index: &HashMap<Word, usize>,
    roots: &crate::hash::HashSet<Word>,
    calls: &mut HashMap<Word, usize>,
    dead: &mut crate::hash::HashSet<Word>,
    id: Word,
) {
    let mut stack = vec![id];
    while let Some(f) = stack.pop() {
        if !dead.insert(f) {
            continue;
        }
        let Some(&fi) = index.get(&f) else { continue };
        for c in callees(&m.functions[fi].blocks) {
            if let Some(n) = calls.get_mut(&c) {
                *n = n.saturating_sub(1);
                if *n == 0 && !roots.contains(&c) {
                    stack.push(c);
                }
            }
        }
    }
}

/// The function each call in `blocks` calls, once per call.
fn callees(blocks: &[Block]) -> impl Iterator<Item = Word> + '_ {
    blocks.iter().flat_map(|b| &b.instructions).filter(|i| i.class.opcode == Op::FunctionCall).filter_map(|i| id_at(i, 0))
}

/// The functions that live whether or not anything calls them: entry points and exports.
fn roots(m: &Module) -> crate::hash::HashSet<Word> {
    let mut r: crate::hash::HashSet<Word> = m.entry_points.iter().filter_map(|e| id_at(e, 1)).collect();
    for a in &m.annotations {
        let export = a.class.opcode == Op::Decorate
            && matches!(a.operands.get(1), Some(Operand::Decoration(spirv::Decoration::LinkageAttributes)))
            && a.operands.iter().any(|o| matches!(o, Operand::LinkageType(spirv::LinkageType::Export)));
        if export {
            r.extend(id_at(a, 0));
        }
    }
    r
}

/// Whether `f` has a body with exactly one return.
fn single_return(f: &Function) -> bool {
    let returns = f
        .blocks
        .iter()
        .filter_map(|b| b.instructions.last())
        .filter(|i| matches!(i.class.opcode, Op::Return | Op::ReturnValue))
        .count();
    !f.blocks.is_empty() && returns == 1
}

fn inst(op: Op, result_type: Option<Word>, result_id: Option<Word>, operands: Vec<Operand>) -> Instruction {
    Instruction::new(op, result_type, result_id, operands)
}

/// The debug information the inliner reads and adds.
struct Debug {
    sets: Sets,
    /// `DebugInlinedAt` id -> (line, scope, the one it is inlined at).
    records: HashMap<Word, (Word, Word, Option<Word>)>,
    /// New `DebugInlinedAt`s, for the end of the module's globals.
    new: Vec<Instruction>,
}

impl Debug {
    fn new(m: &Module) -> Debug {
        let sets = Sets::new(m);
        let mut records = HashMap::default();
        for i in &m.types_global_values {
            if sets.op(i) == Some(ops::INLINED_AT) {
                if let (Some(r), Some(line), Some(scope)) = (i.result_id, debuginfo::arg(i, 0), debuginfo::arg(i, 1)) {
                    records.insert(r, (line, scope, debuginfo::arg(i, 2)));
                }
            }
        }
        Debug { sets, records, new: Vec::new() }
    }

    /// A new `DebugInlinedAt` (of the shader set, with `void` as its type).
    fn record(&mut self, ids: &mut IdAlloc, void: Word, line: Word, scope: Word, outer: Option<Word>) -> Word {
        let set = self.sets.shader.expect("the shader debug set");
        let id = ids.fresh();
        let mut args = vec![line, scope];
        args.extend(outer);
        self.new.push(debuginfo::inst(void, set, id, ops::INLINED_AT, &args));
        self.records.insert(id, (line, scope, outer));
        id
    }

    /// The chain `inner` with `outer` appended at its end (copied: the callee keeps its own).
    fn rechain(&mut self, ids: &mut IdAlloc, void: Word, inner: Word, outer: Word, memo: &mut HashMap<Word, Word>) -> Word {
        if let Some(&n) = memo.get(&inner) {
            return n;
        }
        let Some(&(line, scope, next)) = self.records.get(&inner) else { return outer };
        let tail = match next {
            Some(n) => self.rechain(ids, void, n, outer, memo),
            None => outer,
        };
        let n = self.record(ids, void, line, scope, Some(tail));
        memo.insert(inner, n);
        n
    }
}

#[allow(clippy::too_many_arguments)]
fn inline_call(
    caller: &mut Function,
    bi: usize,
    at: usize,
    params: &[Instruction],
    blocks: Vec<Block>,
    ids: &mut IdAlloc,
    decorations: &Decorations,
    new_decorations: &mut Vec<Instruction>,
    dbg: &mut Debug,
) -> Renames {
    let call = caller.blocks[bi].instructions[at].clone();
    // The caller's scope and line at the call.
    let (mut scope, mut line) = (None, None);
    if !dbg.sets.is_empty() {
        for i in &caller.blocks[bi].instructions[..at] {
            match dbg.sets.op(i) {
                Some(ops::SCOPE) => scope = Some(i.clone()),
                Some(ops::NO_SCOPE) => scope = None,
                Some(ops::LINE) => line = Some(i.clone()),
                Some(ops::NO_LINE) => line = None,
                _ => {}
            }
        }
    }
    let inlined_at = match (&scope, &line, dbg.sets.shader) {
        (Some(s), Some(l), Some(set)) if id_at(s, 0) == Some(set) => {
            let (void, sc, outer) = (s.result_type.unwrap(), debuginfo::arg(s, 0), debuginfo::arg(s, 1));
            match (sc, debuginfo::arg(l, 1)) {
                (Some(sc), Some(ln)) => Some((void, dbg.record(ids, void, ln, sc, outer))),
                _ => None,
            }
        }
        _ => None,
    };
    let mut memo = HashMap::default();
    let mut variables_seen: std::collections::HashSet<Word> = caller.parameters.iter().filter_map(|p| p.result_id).collect();
    variables_seen.extend(
        caller.blocks[0].instructions.iter().take_while(|i| i.class.opcode == Op::Variable).filter_map(|i| i.result_id),
    );
    let split_label = caller.blocks[bi].label.as_ref().and_then(|l| l.result_id).expect("a block has a label");
    // Ids of the copy: parameters become the arguments, every result gets a fresh id.
    let results: usize = blocks.iter().map(|b| b.instructions.len() + 1).sum();
    let mut map: HashMap<Word, Word> = HashMap::with_capacity_and_hasher(params.len() + results, Default::default());
    for (p, arg) in params.iter().zip(call.operands.iter().skip(1)) {
        if let (Some(p), Some(a)) = (p.result_id, arg.id_ref_any()) {
            map.insert(p, a);
        }
    }
    for b in &blocks {
        for i in b.label.iter().chain(&b.instructions) {
            if let Some(r) = i.result_id {
                let fresh = ids.fresh();
                map.insert(r, fresh);
                for &k in decorations.of.get(&r).into_iter().flatten() {
                    let mut d = decorations.all[k].clone();
                    d.operands[0] = Operand::IdRef(fresh);
                    new_decorations.push(d);
                }
            }
        }
    }
    let rename = |id: Word| map.get(&id).copied();
    let after_label = ids.fresh();

    // The copied blocks; variables collected for the caller's entry block.
    let mut variables = Vec::new();
    let mut initial_stores = Vec::new();
    let mut body: Vec<Block> = Vec::new();
    let mut result = None;
    for b in blocks {
        let mut nb = Block { label: b.label, instructions: Vec::with_capacity(b.instructions.len()) };
        if let Some(l) = nb.label.as_mut() {
            l.result_id = l.result_id.and_then(rename);
        }
        for mut c in b.instructions {
            c.result_id = c.result_id.and_then(rename);
            rename_used(&mut c, &rename);
            match dbg.sets.op(&c) {
                Some(ops::FUNCTION_DEFINITION) => continue,
                Some(ops::DECLARE) if !debuginfo::arg(&c, 1).is_some_and(|v| variables_seen.contains(&v)) => continue,
                Some(ops::SCOPE) => {
                    if let Some((void, record)) = inlined_at {
                        match debuginfo::arg(&c, 1) {
                            Some(inner) => {
                                let chained = dbg.rechain(ids, void, inner, record, &mut memo);
                                c.operands[3] = Operand::IdRef(chained);
                            }
                            None => c.operands.push(Operand::IdRef(record)),
                        }
                    }
                }
                _ => {}
            }
            match c.class.opcode {
                Op::Variable => {
                    variables_seen.extend(c.result_id);
                    if c.operands.len() > 1 {
                        let init = c.operands.pop().unwrap();
                        initial_stores.push(inst(Op::Store, None, None, vec![Operand::IdRef(c.result_id.unwrap()), init]));
                    }
                    variables.push(c);
                }
                Op::Return => nb.instructions.push(inst(Op::Branch, None, None, vec![Operand::IdRef(after_label)])),
                Op::ReturnValue => {
                    result = id_at(&c, 0);
                    nb.instructions.push(inst(Op::Branch, None, None, vec![Operand::IdRef(after_label)]));
                }
                _ => nb.instructions.push(c),
            }
        }
        body.push(nb);
    }
    let entry_label = body[0].label.as_ref().and_then(|l| l.result_id).unwrap();

    // Split the caller's block around the call.
    let block = &mut caller.blocks[bi];
    let mut rest: Vec<Instruction> = Vec::new();
    for i in [scope, line].into_iter().flatten() {
        rest.push(Instruction { result_id: Some(ids.fresh()), ..i });
    }
    rest.extend(block.instructions.drain(at..).skip(1));
    block.instructions.extend(initial_stores);
    block.instructions.push(inst(Op::Branch, None, None, vec![Operand::IdRef(entry_label)]));
    let after = Block { label: Some(inst(Op::Label, None, Some(after_label), vec![])), instructions: rest };
    let at_block = bi + 1;
    caller.blocks.splice(at_block..at_block, body.into_iter().chain(std::iter::once(after)));

    // Variables first in the caller's entry block.
    let entry = &mut caller.blocks[0].instructions;
    let n = entry.iter().take_while(|i| i.class.opcode == Op::Variable).count();
    entry.splice(n..n, variables);
    Renames { parent: (split_label, after_label), result: call.result_id.zip(result) }
}

/// The module's `OpDecorate`s by target (positions in `all`).
struct Decorations<'m> {
    of: &'m HashMap<Word, Vec<usize>>,
    all: &'m [Instruction],
}

/// What an inlined call leaves to rename in its caller: the split block, as the parent named by
/// the successors' `OpPhi`s, becomes the block after the call; the call's result becomes the
/// returned value.
struct Renames {
    parent: (Word, Word),
    result: Option<(Word, Word)>,
}


/// Applies the renames of every call inlined into `f`.
fn apply(f: &mut Function, parents: &HashMap<Word, Word>, results: &HashMap<Word, Word>) {
    for i in f.blocks.iter_mut().flat_map(|b| b.instructions.iter_mut()) {
        if !results.is_empty() {
            rename_used(i, &|id| chase(results, id));
        }
        if i.class.opcode == Op::Phi && !parents.is_empty() {
            for (k, op) in i.operands.iter_mut().enumerate() {
                if k % 2 == 1 {
                    if let Some(n) = op.id_ref_any().and_then(|l| chase(parents, l)) {
                        *op = Operand::IdRef(n);
                    }
                }
            }
        }
    }
}

/// Whether the function's control mask asks not to inline it.
fn dont_inline(f: &Function) -> bool {
    f.def.as_ref().is_some_and(|d| {
        d.operands.iter().any(|o| matches!(o, Operand::FunctionControl(c) if c.contains(spirv::FunctionControl::DONT_INLINE)))
    })
}
