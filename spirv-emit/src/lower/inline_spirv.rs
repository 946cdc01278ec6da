//! Inline SPIR-V (SPIR-V.rst, "Inline SPIR-V"): the `vk::ext_*` attributes and intrinsics that
//! let HLSL name SPIR-V instructions, decorations, storage classes, built-ins, capabilities,
//! extensions and execution modes by number, as DXC emits them.
//!
//! - `[[vk::ext_instruction(opcode[, "set"])]]` on a function declaration: a call is the
//!   instruction itself (`OpExtInst` of the imported set when one is named). Its arguments are
//!   value ids, except for `[[vk::ext_literal]]` parameters (the constant as a literal word) and
//!   `[[vk::ext_reference]]` parameters (the pointer to the argument).
//! - `[[vk::ext_capability(N)]]`, `[[vk::ext_extension("...")]]`: `OpCapability`/`OpExtension`
//!   when the declaration or statement carrying them is used.
//! - `[[vk::ext_decorate(D, literals...)]]`, `ext_decorate_id(D, ids...)`,
//!   `ext_decorate_string(D, strings...)`: `OpDecorate`/`OpDecorateId`/`OpDecorateString` on the
//!   variable, parameter or function.
//! - `[[vk::ext_storage_class(N)]]`: the variable lives in storage class `N`.
//! - `[[vk::ext_builtin_input(N)]]`/`ext_builtin_output(N)` on a `static` global: the variable is
//!   the `Input`/`Output` variable decorated `BuiltIn N`.
//! - `vk::ext_execution_mode(mode, literals...)`, `vk::ext_execution_mode_id(mode, ids...)`:
//!   `OpExecutionMode`/`OpExecutionModeId` on the entry point.
//!
//! Numbers SPIR-V does not define (rspirv's grammar) are refused with an error naming the
//! attribute: the emitter cannot write an enumerant it does not know into a typed operand.

use super::layout::Layout;
use super::{LowerError, Lowerer, VarHome, R};
use crate::id::SpvId;
use crate::types::Decoration;
use hlslc_frontend::Span;
use hlslc_sema::tast::{AttrArg, ConstValue, ExprId, ExprKind, FuncId, RawAttr, Stage, VarId};
use hlslc_sema::types::{ScalarKind, TypeTable};
use rspirv::dr::Operand;
use spirv::{Op, StorageClass};

/// The `[[vk::name]]` attributes among `attrs`.
pub(crate) fn vk_attrs<'a>(attrs: &'a [RawAttr], name: &'a str) -> impl Iterator<Item = &'a RawAttr> + 'a {
    attrs.iter().filter(move |a| a.namespace.as_deref() == Some("vk") && a.name == name)
}

/// Whether `attrs` has `[[vk::name]]`.
pub(crate) fn has_vk(attrs: &[RawAttr], name: &str) -> bool {
    vk_attrs(attrs, name).next().is_some()
}

/// The first `vk::ext_decorate*` attribute among `attrs`.
fn decoration_attr(attrs: &[RawAttr]) -> Option<&'static str> {
    ["ext_decorate", "ext_decorate_id", "ext_decorate_string"].into_iter().find(|n| has_vk(attrs, n))
}

/// An attribute argument as a 32-bit word.
fn word(a: &AttrArg) -> Option<u32> {
    match a {
        AttrArg::Int(i) => u32::try_from(*i).ok().or_else(|| i32::try_from(*i).ok().map(|v| v as u32)),
        _ => None,
    }
}

fn err(attr: &str, what: impl std::fmt::Display, span: Option<Span>) -> LowerError {
    LowerError { fatal: false, message: format!("attribute 'vk::{attr}': {what}"), span, notes: Vec::new() }
}

/// Opcodes an inline instruction may not be: they structure the module or end a block, which
/// the emitter does itself.
fn structural(op: Op) -> bool {
    matches!(
        op,
        Op::Function
            | Op::FunctionEnd
            | Op::FunctionParameter
            | Op::Label
            | Op::Branch
            | Op::BranchConditional
            | Op::Switch
            | Op::Return
            | Op::ReturnValue
            | Op::Kill
            | Op::Unreachable
            | Op::TerminateInvocation
            | Op::SelectionMerge
            | Op::LoopMerge
            | Op::Phi
            | Op::Variable
            | Op::Capability
            | Op::Extension
            | Op::ExtInstImport
            | Op::MemoryModel
            | Op::EntryPoint
            | Op::ExecutionMode
            | Op::ExecutionModeId
    ) || {
        let name = format!("{op:?}");
        name.starts_with("Type") || name.starts_with("Constant") || name.starts_with("SpecConstant")
    }
}

impl<'m> Lowerer<'m> {
    /// `[[vk::ext_capability]]` and `[[vk::ext_extension]]` among `attrs`: added to the module.
    pub(crate) fn ext_requirements(&mut self, attrs: &[RawAttr], span: Option<Span>) -> R<()> {
        for a in vk_attrs(attrs, "ext_capability") {
            for arg in &a.args {
                let n = word(arg).ok_or_else(|| err("ext_capability", "the capability must be an integer constant", span))?;
                let c = spirv::Capability::from_u32(n).ok_or_else(|| err("ext_capability", format!("{n} is not a SPIR-V capability"), span))?;
                self.b.capability(c);
            }
        }
        for a in vk_attrs(attrs, "ext_extension") {
            for arg in &a.args {
                match arg {
                    AttrArg::Str(s) => self.b.extension(s),
                    _ => return Err(err("ext_extension", "the extension must be a string", span)),
                }
            }
        }
        Ok(())
    }

    /// `[[vk::ext_decorate]]`, `ext_decorate_id` and `ext_decorate_string` among `attrs`, on
    /// `target`. Id operands that are not constants are evaluated where the code is (a
    /// function must be open).
    pub(crate) fn ext_decorations(&mut self, target: SpvId, attrs: &[RawAttr], span: Option<Span>) -> R<()> {
        for (name, kind) in [("ext_decorate", 0), ("ext_decorate_id", 1), ("ext_decorate_string", 2)] {
            for a in vk_attrs(attrs, name) {
                let Some(first) = a.args.first() else {
                    return Err(err(name, "a decoration number is required", span));
                };
                let n = word(first).ok_or_else(|| err(name, "the decoration must be an integer constant", span))?;
                let d = spirv::Decoration::from_u32(n).ok_or_else(|| err(name, format!("{n} is not a SPIR-V decoration"), span))?;
                let mut args = Vec::new();
                for arg in &a.args[1..] {
                    let op = match (kind, arg) {
                        (0, _) => Operand::LiteralBit32(word(arg).ok_or_else(|| err(name, "operands must be integer constants", span))?),
                        (1, AttrArg::Int(i)) => {
                            let t = self.scalar_ty(ScalarKind::Int, Layout::Logical);
                            Operand::IdRef(self.b.ctx.const_scalar(t, *i as u64)?.0)
                        }
                        (1, AttrArg::Expr(e)) => {
                            if self.b.current_block().is_none() || self.b.is_terminated() {
                                return Err(err(name, "an operand that is not a constant needs a function to be evaluated in", span));
                            }
                            Operand::IdRef(self.rvalue(*e)?.0)
                        }
                        (2, AttrArg::Str(s)) => Operand::LiteralString(s.clone()),
                        (1, _) => return Err(err(name, "operands must be constants or expressions", span)),
                        _ => return Err(err(name, "operands must be strings", span)),
                    };
                    args.push(op);
                }
                if !decoration_decodes(d, &args) {
                    return Err(err(name, format!("decoration {d:?} does not take the {} operand(s) given", args.len()), span));
                }
                self.b.ctx.decorate(target, &Decoration { kind: d, args });
            }
        }
        Ok(())
    }

    /// The storage class `[[vk::ext_storage_class(N)]]` gives a variable, if any.
    pub(crate) fn ext_storage_class(&self, attrs: &[RawAttr], span: Option<Span>) -> R<Option<StorageClass>> {
        let Some(a) = vk_attrs(attrs, "ext_storage_class").last() else { return Ok(None) };
        let n = a.args.first().and_then(word).ok_or_else(|| err("ext_storage_class", "the storage class must be an integer constant", span))?;
        let sc = StorageClass::from_u32(n).ok_or_else(|| err("ext_storage_class", format!("{n} is not a SPIR-V storage class"), span))?;
        Ok(Some(sc))
    }

    /// A global or local variable of `[[vk::ext_storage_class]]`: a module-scope variable of
    /// that storage class (SPIR-V allows only `Function` variables in a function). `None` when
    /// the variable has no such attribute.
    pub(crate) fn ext_storage_variable(&mut self, v: VarId, attrs: &[RawAttr]) -> R<Option<SpvId>> {
        let var = self.m.var(v);
        let Some(sc) = self.ext_storage_class(attrs, Some(var.span))? else { return Ok(None) };
        let pty = self.ptr_ty(var.ty, Layout::Logical, sc)?;
        let id = self.b.global_variable(pty, sc, None);
        self.b.ctx.name(id, &var.name);
        self.vars.insert(v, VarHome::Ptr { ptr: id, storage: sc, layout: Layout::Logical });
        self.inline_interface.push(id);
        Ok(Some(id))
    }

    /// A `static` global with `[[vk::ext_builtin_input(N)]]` or `[[vk::ext_builtin_output(N)]]`:
    /// the built-in's `Input`/`Output` variable (one per built-in and direction), listed in the
    /// entry points' interfaces. False when the global has neither attribute.
    pub(crate) fn ext_builtin_global(&mut self, g: VarId) -> R<bool> {
        let var = self.m.var(g);
        let span = Some(var.span);
        let input = vk_attrs(&var.attrs, "ext_builtin_input").last();
        let output = vk_attrs(&var.attrs, "ext_builtin_output").last();
        let (a, sc) = match (input, output) {
            (None, None) => return Ok(false),
            (Some(_), Some(_)) => {
                return Err(LowerError { fatal: false, message: "vk::ext_builtin_input cannot be used together with vk::ext_builtin_output".into(), span, notes: Vec::new() })
            }
            (Some(a), None) => (a, StorageClass::Input),
            (None, Some(a)) => (a, StorageClass::Output),
        };
        if var.storage != hlslc_sema::tast::Storage::Static {
            return Err(LowerError {
                fatal: false,
                message: "vk::ext_builtin_input and vk::ext_builtin_output can only be applied to a static variable".into(),
                span,
                notes: Vec::new(),
            });
        }
        if sc == StorageClass::Input && !var.is_const {
            return Err(LowerError { fatal: false, message: "vk::ext_builtin_input can only be applied to a const-qualified variable".into(), span, notes: Vec::new() });
        }
        let attr = if sc == StorageClass::Input { "ext_builtin_input" } else { "ext_builtin_output" };
        let n = a.args.first().and_then(word).ok_or_else(|| err(attr, "the built-in must be an integer constant", span))?;
        let b = spirv::BuiltIn::from_u32(n).ok_or_else(|| err(attr, format!("{n} is not a SPIR-V built-in"), span))?;
        let other = if sc == StorageClass::Input { StorageClass::Output } else { StorageClass::Input };
        if self.ext_builtins.contains_key(&(n, other)) {
            let dir = if sc == StorageClass::Input { "an input" } else { "an output" };
            return Err(LowerError { fatal: false, message: format!("cannot redefine builtin {n} as {dir}"), span, notes: Vec::new() });
        }
        let id = match self.ext_builtins.get(&(n, sc)) {
            Some(&id) => id,
            None => {
                let pty = self.ptr_ty(var.ty, Layout::Logical, sc)?;
                let id = self.b.global_variable(pty, sc, None);
                // DXC names an input built-in after its declaration and leaves an output one
                // unnamed.
                if sc == StorageClass::Input {
                    self.b.ctx.name(id, &var.name);
                }
                self.b.ctx.decorate(id, &Decoration::builtin(b));
                // Integer inputs of a pixel shader are flat (Vulkan's rule for every input).
                let integer = matches!(self.m.types.component(var.ty), Some(ScalarKind::Int | ScalarKind::UInt | ScalarKind::Int16 | ScalarKind::UInt16 | ScalarKind::Int64 | ScalarKind::UInt64));
                let pixel = self.m.entries.iter().any(|e| e.stage == Stage::Pixel);
                if sc == StorageClass::Input && pixel && integer {
                    self.b.ctx.decorate(id, &Decoration::new(spirv::Decoration::Flat));
                }
                self.ext_builtins.insert((n, sc), id);
                self.inline_interface.push(id);
                id
            }
        };
        self.vars.insert(g, VarHome::Ptr { ptr: id, storage: sc, layout: Layout::Logical });
        Ok(true)
    }

    /// Adds the variables made here to every entry point's interface: built-ins always, the
    /// others from SPIR-V 1.4 on (where the interface lists every global the entry uses).
    pub(crate) fn finish_inline_interfaces(&mut self) {
        let all = self.opts.target.spirv_version() >= (1, 4);
        let ids: Vec<SpvId> = self.inline_interface.clone();
        let io: Vec<SpvId> = self.ext_builtins.values().copied().collect();
        for i in 0..self.b.entry_points().len() {
            let Some(ep) = self.b.entry_point_mut(i) else { continue };
            for &id in &ids {
                if (all || io.contains(&id)) && !ep.interface.contains(&id) {
                    ep.interface.push(id);
                }
            }
        }
    }

    /// The inline SPIR-V attributes of a function being lowered (`id`) and of its parameters:
    /// capabilities and extensions, decorations of the function (those of its parameters are
    /// added with each parameter). An entry point's decorations and those of its parameters go
    /// to its stage variables ([`Self::entry_io_decorations`]); a `void` entry point has no
    /// variable for its own.
    pub(crate) fn inline_function_attrs(&mut self, fid: FuncId, id: SpvId, is_entry: bool) -> R<()> {
        let m = self.m;
        let f = m.func(fid);
        self.ext_requirements(&f.attrs, Some(f.span))?;
        for &p in &f.params {
            let pv = m.var(p);
            self.ext_requirements(&pv.attrs, Some(pv.span))?;
            for n in ["ext_literal", "ext_reference"] {
                if has_vk(&pv.attrs, n) {
                    return Err(err(n, "only parameters of a [[vk::ext_instruction]] function can have it", Some(pv.span)));
                }
            }
        }
        if !is_entry {
            if has_vk(&f.attrs, "spvexecutionmode") {
                let message = "attribute 'vk::spvexecutionmode' is not supported on a function that is not an entry point by the SPIR-V back end".to_string();
                return Err(LowerError { fatal: false, message, span: Some(f.span), notes: Vec::new() });
            }
            // OpDecorateId and OpDecorateString decorate values; dxc has no function form of
            // them (spv.intrinsicDecorate.function.error). Reported, and lowering goes on, so
            // every such function is named.
            let mut refused = false;
            for n in ["ext_decorate_string", "ext_decorate_id"] {
                if has_vk(&f.attrs, n) {
                    let message = format!("vk::{n} is not supported on functions");
                    self.deferred.push(LowerError { fatal: false, message, span: Some(f.span), notes: Vec::new() });
                    refused = true;
                }
            }
            if refused {
                return Ok(());
            }
            return self.ext_decorations(id, &f.attrs, Some(f.span));
        }
        let hull = m.entries.iter().any(|e| e.func == fid && e.stage == Stage::Hull);
        if f.ret == TypeTable::VOID || hull {
            if let Some(n) = decoration_attr(&f.attrs) {
                let message = format!("attribute 'vk::{n}' is not supported on an entry point that returns nothing, or on a hull shader, by the SPIR-V back end (it decorates the return value's stage variable)");
                return Err(LowerError { fatal: false, message, span: Some(f.span), notes: Vec::new() });
            }
        }
        Ok(())
    }

    /// Decorations of an entry point's parameter or return value (`attrs`) on the stage
    /// variables made for it (`vars`), as DXC decorates them.
    pub(crate) fn entry_io_decorations(&mut self, attrs: &[RawAttr], vars: &[SpvId], span: Span) -> R<()> {
        let Some(n) = decoration_attr(attrs) else { return Ok(()) };
        if vars.is_empty() {
            let message = format!("attribute 'vk::{n}' is not supported by the SPIR-V back end on an entry point parameter or return value without a stage variable");
            return Err(LowerError { fatal: false, message, span: Some(span), notes: Vec::new() });
        }
        for &v in vars {
            self.ext_decorations(v, attrs, Some(span))?;
        }
        Ok(())
    }

    /// The inline SPIR-V attributes of the global variables, once they are declared:
    /// capabilities, extensions and decorations. A member of a constant buffer (`$Globals`
    /// included) is not a variable of its own: decorating it is refused.
    pub(crate) fn global_inline_attrs(&mut self) -> R<()> {
        let m = self.m;
        for &g in &m.globals {
            let var = m.var(g);
            if var.attrs.is_empty() {
                continue;
            }
            self.ext_requirements(&var.attrs, Some(var.span))?;
            let decorate = ["ext_decorate", "ext_decorate_id", "ext_decorate_string"].into_iter().find(|n| has_vk(&var.attrs, n));
            match (self.vars.get(&g), decorate) {
                (_, None) => {}
                (Some(VarHome::Ptr { ptr, .. }), Some(_)) => {
                    let ptr = *ptr;
                    self.ext_decorations(ptr, &var.attrs, Some(var.span))?;
                }
                (_, Some(n)) => {
                    let message = format!("attribute 'vk::{n}' is not supported on '{}' by the SPIR-V back end: it is a member of a constant buffer or a specialization constant, not a variable", var.name);
                    return Err(LowerError { fatal: false, message, span: Some(var.span), notes: Vec::new() });
                }
            }
        }
        Ok(())
    }

    /// The inline SPIR-V attributes of a statement: capabilities and extensions. Decorations
    /// and storage classes need the variables of a declaration (see `stmt.rs::local`);
    /// elsewhere they are refused.
    pub(crate) fn stmt_inline_attrs(&mut self, stmt: &hlslc_sema::tast::Stmt, span: Option<Span>) -> R<()> {
        self.ext_requirements(&stmt.attrs, span)?;
        if matches!(stmt.kind, hlslc_sema::tast::StmtKind::Decl(_)) {
            return Ok(());
        }
        for n in ["ext_decorate", "ext_decorate_id", "ext_decorate_string", "ext_storage_class"] {
            if has_vk(&stmt.attrs, n) {
                let message = format!("attribute 'vk::{n}' is not supported on a statement that declares no variable by the SPIR-V back end");
                return Err(LowerError { fatal: false, message, span, notes: Vec::new() });
            }
        }
        Ok(())
    }

    /// `[[vk::spvexecutionmode(N)]]` on entry point `func` (whose `OpEntryPoint` is `wrapper`):
    /// `OpExecutionMode wrapper N`, in the order written.
    pub(crate) fn spv_execution_modes(&mut self, func: FuncId, wrapper: SpvId) -> R<()> {
        let f = self.m.func(func);
        for a in vk_attrs(&f.attrs, "spvexecutionmode") {
            for arg in &a.args {
                let n = word(arg);
                let Some(mode) = n.and_then(spirv::ExecutionMode::from_u32) else {
                    let shown = match arg {
                        AttrArg::Int(i) => i.to_string(),
                        _ => "(not an integer)".into(),
                    };
                    return Err(LowerError { fatal: false, message: format!("Invalid execution mode operand: {shown}"), span: Some(f.span), notes: Vec::new() });
                };
                // The attribute gives no operands: a mode that needs some (`Invocations`,
                // `LocalSize`) would make an undecodable binary (found by fuzzing).
                if !execution_mode_decodes(false, mode, &[]) {
                    return Err(LowerError {
                        fatal: false,
                        message: format!("attribute 'vk::spvexecutionmode': execution mode {mode:?} takes operands, which the attribute cannot give (use vk::ext_execution_mode)"),
                        span: Some(f.span),
                        notes: Vec::new(),
                    });
                }
                self.b.execution_mode(wrapper, mode, &[]);
            }
        }
        Ok(())
    }

    /// Whether a call of `f` is an inline instruction.
    pub(crate) fn is_inline_instruction(&self, f: FuncId) -> bool {
        has_vk(&self.m.func(f).attrs, "ext_instruction")
    }

    /// A call of a `[[vk::ext_instruction]]` function: the instruction, with the function's
    /// capabilities and extensions added to the module.
    pub(crate) fn inline_instruction(&mut self, func: FuncId, args: &[ExprId], ty: hlslc_sema::types::TypeId, e: ExprId) -> R<SpvId> {
        let m = self.m;
        let f = m.func(func);
        let span = self.expr_span(e);
        self.ext_requirements(&f.attrs, span)?;
        let a = vk_attrs(&f.attrs, "ext_instruction").last().expect("checked by is_inline_instruction");
        let opcode = a.args.first().and_then(word).ok_or_else(|| err("ext_instruction", "the opcode must be an integer constant", span))?;
        let set = match a.args.get(1) {
            None => None,
            Some(AttrArg::Str(s)) => Some(s.clone()),
            Some(_) => return Err(err("ext_instruction", "the instruction set must be a string", span)),
        };
        let mut operands = Vec::new();
        for (i, &arg) in args.iter().enumerate() {
            let Some(&pv) = f.params.get(i) else { break };
            let p = m.var(pv);
            if has_vk(&p.attrs, "ext_literal") {
                let c = self.flat_constant(arg).and_then(|c| match c.as_slice() {
                    [ConstValue::Int(i)] => Some(*i as u32),
                    [ConstValue::Bool(b)] => Some(*b as u32),
                    _ => None,
                });
                let Some(w) = c else {
                    return Err(err("ext_literal", format!("the argument of parameter '{}' must be an integer constant", p.name), self.expr_span(arg)));
                };
                operands.push(Operand::LiteralBit32(w));
            } else if has_vk(&p.attrs, "ext_reference") {
                let arg = strip_noop(m, arg);
                if !m.expr(arg).lvalue {
                    let message = "argument for a parameter with vk::ext_reference attribute must be a reference".to_string();
                    return Err(LowerError { fatal: false, message, span: self.expr_span(arg), notes: Vec::new() });
                }
                let place = self.lvalue(arg)?;
                match Self::place_ptr(&place) {
                    Some((ptr, _, _)) => operands.push(Operand::IdRef(ptr.0)),
                    None => {
                        return Err(err("ext_reference", format!("the argument of parameter '{}' must be a variable, member or element", p.name), self.expr_span(arg)))
                    }
                }
            } else {
                operands.push(Operand::IdRef(self.rvalue(arg)?.0));
            }
        }
        let void = ty == TypeTable::VOID;
        if let Some(set) = set {
            let import = self.b.ext_inst_import(&set);
            let mut ops = vec![Operand::IdRef(import.0), Operand::LiteralExtInstInteger(opcode)];
            ops.extend(operands);
            let rty = self.ty(ty, Layout::Logical)?;
            return Ok(self.b.value(Op::ExtInst, rty, ops)?);
        }
        let op = Op::from_u32(opcode).ok_or_else(|| err("ext_instruction", format!("{opcode} is not a SPIR-V opcode"), span))?;
        let name = format!("{op:?}");
        if !void && (name.starts_with("Constant") || name.starts_with("SpecConstant")) {
            // A constant of the module (DXC's spv.intrinsicConstantValue.hlsl): its operands
            // must be literals or constants.
            let constant = |o: &Operand| match o {
                Operand::IdRef(id) => self.b.ctx.is_constant(SpvId(*id)),
                _ => true,
            };
            if !operands.iter().all(constant) {
                return Err(err("ext_instruction", format!("the operands of Op{op:?} must be literals or constants"), span));
            }
            let rty = self.ty(ty, Layout::Logical)?;
            return Ok(self.b.ctx.inline_constant(op, rty, operands));
        }
        if structural(op) {
            return Err(err("ext_instruction", format!("Op{op:?} cannot be written as an inline instruction"), span));
        }
        if void {
            self.b.void(op, operands)?;
            return Ok(SpvId(0));
        }
        let rty = self.ty(ty, Layout::Logical)?;
        Ok(self.b.value(op, rty, operands)?)
    }

    /// `vk::ext_execution_mode(mode, literals...)` (`id: false`) or
    /// `vk::ext_execution_mode_id(mode, ids...)` on the entry point.
    pub(crate) fn ext_execution_mode(&mut self, id: bool, args: &[ExprId], e: ExprId) -> R<SpvId> {
        let span = self.expr_span(e);
        let name = if id { "vk::ext_execution_mode_id" } else { "vk::ext_execution_mode" };
        let fail = |what: String| LowerError { fatal: false, message: format!("{name}: {what}"), span, notes: Vec::new() };
        let entry = match self.b.entry_points() {
            [one] => one.function,
            _ => return Err(fail("a module with several entry points cannot say which one the execution mode is for".into())),
        };
        let literal = |l: &Self, a: ExprId| match l.flat_constant(a).as_deref() {
            Some([ConstValue::Int(i)]) => Some(*i as u32),
            Some([ConstValue::Bool(b)]) => Some(*b as u32),
            _ => None,
        };
        let Some((&first, rest)) = args.split_first() else { return Err(fail("the execution mode is required".into())) };
        let n = literal(self, first).ok_or_else(|| fail("the execution mode must be an integer constant".into()))?;
        let mode = spirv::ExecutionMode::from_u32(n).ok_or_else(|| fail(format!("{n} is not a SPIR-V execution mode")))?;
        if id {
            let mut ids = Vec::new();
            for &a in rest {
                if self.flat_constant(a).is_none() {
                    return Err(fail("its operands must be constants".into()));
                }
                ids.push(self.rvalue(a)?);
            }
            if !execution_mode_decodes(true, mode, &ids.iter().map(|i| i.0).collect::<Vec<_>>()) {
                return Err(fail(format!("execution mode {mode:?} does not take the {} operand(s) given", ids.len())));
            }
            self.b.execution_mode_id(entry, mode, &ids);
        } else {
            let mut words = Vec::new();
            for &a in rest {
                words.push(literal(self, a).ok_or_else(|| fail("its operands must be integer constants".into()))?);
            }
            if !execution_mode_decodes(false, mode, &words) {
                return Err(fail(format!("execution mode {mode:?} does not take the {} operand(s) given", words.len())));
            }
            self.b.execution_mode(entry, mode, &words);
        }
        Ok(SpvId(0))
    }
}

/// Whether `OpExecutionMode[Id] %entry mode operands...` decodes with exactly these operands, by
/// SPIR-V's grammar (rspirv's decoder): a mode given too few or too many operands would make a
/// binary that no consumer can read (`LocalSize` with one operand; found by fuzzing).
fn execution_mode_decodes(id: bool, mode: spirv::ExecutionMode, operands: &[u32]) -> bool {
    let op = if id { spirv::Op::ExecutionModeId } else { spirv::Op::ExecutionMode };
    let count = 3 + operands.len() as u32;
    let bound = operands.iter().copied().max().unwrap_or(0).max(1) + 1;
    let mut words = vec![spirv::MAGIC_NUMBER, 0x0001_0000, 0, bound, 0, (count << 16) | op as u32, 1, mode as u32];
    words.extend_from_slice(operands);
    decoded_operands(&words) == Some(2 + operands.len())
}

/// Whether `OpDecorate`/`OpDecorateId`/`OpDecorateString` of decoration `d` with `args` decodes
/// back with exactly those operands (a decoration that takes none, or other ones, would make
/// SPIR-V no consumer can read: found by fuzzing `vk::ext_decorate_id(13, 13)`).
fn decoration_decodes(d: spirv::Decoration, args: &[Operand]) -> bool {
    use rspirv::binary::Assemble;
    let op = if args.iter().any(|a| matches!(a, Operand::IdRef(_))) {
        spirv::Op::DecorateId
    } else if args.iter().any(|a| matches!(a, Operand::LiteralString(_))) {
        spirv::Op::DecorateString
    } else {
        spirv::Op::Decorate
    };
    let mut operands = vec![Operand::IdRef(1), Operand::Decoration(d)];
    operands.extend(args.iter().cloned().map(|a| match a {
        // Any id below the bound decodes; the value's own id is not known here.
        Operand::IdRef(_) => Operand::IdRef(1),
        other => other,
    }));
    let inst = rspirv::dr::Instruction::new(op, None, None, operands);
    let mut body = Vec::new();
    inst.assemble_into(&mut body);
    let mut words = vec![spirv::MAGIC_NUMBER, 0x0001_0000, 0, 2, 0];
    words.extend(body);
    // The operands must also decode as what was given: an id where an id was given (an id's
    // value read as FPFastMathMode's mask decodes, or not, by chance: found by fuzzing
    // `vk::ext_decorate_id(40, 13)`).
    decoded(&words).is_some_and(|ops| {
        ops.len() == 2 + args.len() && args.iter().zip(&ops[2..]).all(|(a, d)| matches!(a, Operand::IdRef(_)) == matches!(d, Operand::IdRef(_)))
    })
}

/// The operand count of the one instruction in `words` (a header, then the instruction) as
/// rspirv's bare decoder reads it (its module loader does not place `OpExecutionModeId`).
fn decoded_operands(words: &[u32]) -> Option<usize> {
    decoded(words).map(|ops| ops.len())
}

/// The operands of the one instruction in `words`, as rspirv's bare decoder reads them.
fn decoded(words: &[u32]) -> Option<Vec<Operand>> {
    struct One(Option<Vec<Operand>>);
    impl rspirv::binary::Consumer for One {
        fn initialize(&mut self) -> rspirv::binary::ParseAction {
            rspirv::binary::ParseAction::Continue
        }
        fn finalize(&mut self) -> rspirv::binary::ParseAction {
            rspirv::binary::ParseAction::Continue
        }
        fn consume_header(&mut self, _: rspirv::dr::ModuleHeader) -> rspirv::binary::ParseAction {
            rspirv::binary::ParseAction::Continue
        }
        fn consume_instruction(&mut self, inst: rspirv::dr::Instruction) -> rspirv::binary::ParseAction {
            self.0 = Some(inst.operands);
            rspirv::binary::ParseAction::Continue
        }
    }
    let mut one = One(None);
    rspirv::binary::parse_words(words, &mut one).ok()?;
    one.0
}

/// `e` without the no-op casts sema puts around an argument.
fn strip_noop(m: &hlslc_sema::tast::Module, mut e: ExprId) -> ExprId {
    while let ExprKind::Cast { kind: hlslc_sema::tast::CastKind::NoOp, expr, .. } = &m.expr(e).kind {
        e = *expr;
    }
    e
}
