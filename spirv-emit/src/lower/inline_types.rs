//! Inline SPIR-V types (SPIR-V.rst, "Inline SPIR-V"), as DXC emits them:
//!
//! - `vk::SpirvType<Opcode, Size, Alignment, Operands...>` and `vk::SpirvOpaqueType<Opcode,
//!   Operands...>`: the type instruction `Opcode` with its operands (a type argument is that
//!   type's id, `vk::integral_constant<T, V>` the id of a constant, `vk::Literal<...>` a literal
//!   word), named `spirvIntrinsicType`. The size and alignment matter only for buffer layouts,
//!   which sema computes.
//! - `vk::ext_type<N>`: the type a call of the `[[vk::ext_type_def(N, Opcode)]]` function
//!   defines, its arguments the operands (a `[[vk::ext_literal]]` parameter a literal word, any
//!   other the type of the argument). The call itself emits nothing but the function's
//!   capabilities and extensions.
//! - `[[vk::ext_capability]]`/`[[vk::ext_extension]]` on a typedef of such a type: declared when
//!   the type is lowered (sema's `type_requirements`, applied by `Lowerer::ty`), so an unused
//!   typedef adds nothing. The same for those attributes on a struct field and the struct.

use super::layout::Layout;
use super::{LowerError, Lowerer, R};
use crate::id::SpvId;
use crate::types::{InlineOperand, Type as SpvType};
use hlslc_sema::tast::{AttrArg, ConstValue, ExprId, ExprKind, FuncId};
use hlslc_sema::types::{InlineSpirvType, ScalarKind, SpirvOperand, Type, TypeId};
use hlslc_frontend::Span;
use spirv::Op;

/// The name DXC gives every inline type.
const NAME: &str = "spirvIntrinsicType";

fn fail(message: String, span: Option<Span>) -> LowerError {
    LowerError { fatal: false, message, span, notes: Vec::new() }
}

/// The opcode `n` when it declares a type.
fn type_opcode(n: u32, what: &str, span: Option<Span>) -> R<Op> {
    let op = Op::from_u32(n).ok_or_else(|| fail(format!("{what}: {n} is not a SPIR-V opcode"), span))?;
    if !format!("{op:?}").starts_with("Type") {
        return Err(fail(format!("{what}: Op{op:?} does not declare a type"), span));
    }
    Ok(op)
}

impl<'m> Lowerer<'m> {
    /// The SPIR-V type of an inline SPIR-V type.
    pub(crate) fn inline_spirv_ty(&mut self, it: &InlineSpirvType) -> R<SpvId> {
        let (opcode, operands) = match it {
            InlineSpirvType::Inline { opcode, operands, .. } => {
                let op = type_opcode(*opcode, "vk::SpirvType", None)?;
                let mut out = Vec::new();
                for o in operands {
                    out.push(match *o {
                        SpirvOperand::Type(ty) => InlineOperand::Id(self.ty(ty, Layout::Logical)?),
                        SpirvOperand::Constant { ty, value } => InlineOperand::Id(self.inline_constant(ty, value)?),
                        SpirvOperand::Literal(v) => InlineOperand::Literal(v as u32),
                    });
                }
                (op, out)
            }
            InlineSpirvType::Def(n) => self.ext_type_def(*n)?,
        };
        // As for the HLSL types: outside ray tracing stages these are ray query's (DXC's choice).
        let rt = self.m.entries.iter().any(|e| super::raytracing::ray_model(e.stage).is_some());
        if opcode == Op::TypeRayQueryKHR || (opcode == Op::TypeAccelerationStructureKHR && !rt && !self.opts.ray_tracing_nv) {
            self.require_ray_query();
        }
        let id = self.b.ctx.intern(SpvType::Inline { opcode, operands });
        self.b.ctx.name_once(id, NAME);
        Ok(id)
    }

    /// `vk::integral_constant<T, V>` as an operand: the id of the constant.
    fn inline_constant(&mut self, ty: TypeId, value: i64) -> R<SpvId> {
        if matches!(self.m.types.get(ty), Type::Scalar(ScalarKind::Bool)) {
            return Ok(self.b.ctx.const_bool(value != 0));
        }
        let sty = self.ty(ty, Layout::Logical)?;
        Ok(self.b.ctx.const_scalar(sty, value as u64)?)
    }

    /// Whether `f` is a `[[vk::ext_type_def(N, Opcode)]]` function.
    pub(crate) fn is_type_def(&self, f: FuncId) -> bool {
        super::inline_spirv::has_vk(&self.m.func(f).attrs, "ext_type_def")
    }

    /// `(N, Opcode)` of a `[[vk::ext_type_def]]` function.
    fn type_def_of(&self, f: FuncId) -> Option<(u32, u32)> {
        let a = super::inline_spirv::vk_attrs(&self.m.func(f).attrs, "ext_type_def").last()?;
        match a.args.as_slice() {
            [AttrArg::Int(n), AttrArg::Int(op)] => Some((u32::try_from(*n).ok()?, u32::try_from(*op).ok()?)),
            _ => None,
        }
    }

    /// `vk::ext_type<n>`: the opcode and operands of the first call of the function that defines
    /// it.
    fn ext_type_def(&mut self, n: u32) -> R<(Op, Vec<InlineOperand>)> {
        let m = self.m;
        let call = m.exprs.iter().enumerate().find_map(|(i, e)| match &e.kind {
            ExprKind::Call { func, args, .. } if self.is_type_def(*func) && self.type_def_of(*func).map(|d| d.0) == Some(n) => {
                Some((ExprId(i as u32), *func, args.clone()))
            }
            _ => None,
        });
        let Some((e, func, args)) = call else {
            return Err(fail(format!("vk::ext_type<{n}>: no call of a [[vk::ext_type_def({n}, ...)]] function defines it"), None));
        };
        let span = self.expr_span(e);
        let Some((_, opcode)) = self.type_def_of(func) else {
            return Err(fail("attribute 'vk::ext_type_def': the id and the opcode must be integer constants".into(), span));
        };
        let op = type_opcode(opcode, "attribute 'vk::ext_type_def'", span)?;
        let f = m.func(func);
        let mut operands = Vec::new();
        for (i, &arg) in args.iter().enumerate() {
            let Some(&pv) = f.params.get(i) else { break };
            if super::inline_spirv::has_vk(&m.var(pv).attrs, "ext_literal") {
                let w = match self.flat_constant(arg).as_deref() {
                    Some([ConstValue::Int(i)]) => *i as u32,
                    Some([ConstValue::Bool(b)]) => *b as u32,
                    _ => {
                        let message = format!("attribute 'vk::ext_literal': the argument of parameter '{}' must be an integer constant", m.var(pv).name);
                        return Err(fail(message, self.expr_span(arg)));
                    }
                };
                operands.push(InlineOperand::Literal(w));
            } else {
                operands.push(InlineOperand::Id(self.ty(m.expr(arg).ty, Layout::Logical)?));
            }
        }
        Ok((op, operands))
    }

    /// A call of a `[[vk::ext_type_def]]` function: the type it defines is declared, with the
    /// function's capabilities and extensions; no code.
    pub(crate) fn type_def_call(&mut self, func: FuncId, e: ExprId) -> R<SpvId> {
        let span = self.expr_span(e);
        self.ext_requirements(&self.m.func(func).attrs, span)?;
        let Some((n, _)) = self.type_def_of(func) else {
            return Err(fail("attribute 'vk::ext_type_def': the id and the opcode must be integer constants".into(), span));
        };
        // The program may never name `vk::ext_type<n>`: the type is declared all the same.
        match self.m.types.find(&Type::InlineSpirv(InlineSpirvType::Def(n))) {
            Some(t) => {
                self.ty(t, Layout::Logical)?;
            }
            None => {
                let (opcode, operands) = self.ext_type_def(n)?;
                let id = self.b.ctx.intern(SpvType::Inline { opcode, operands });
                self.b.ctx.name_once(id, NAME);
            }
        }
        Ok(SpvId(0))
    }
}
