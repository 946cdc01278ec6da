//! `dx.op` function names and signatures for a chosen overload.
//!
//! Names follow dxc: `dx.op.<class>` for non-overloaded ops, `dx.op.<class>.<suffix>` otherwise,
//! with suffixes `f32`, `i16`, `v4f32` (vectors), the struct name for user-struct pointers
//! (`struct.Payload`) and for objects (`dx.types.Handle`). DXIL's helper struct types
//! (`%dx.types.Handle`, `%dx.types.ResRet.f32`, ...) are created in the module on first use.

use super::{DxilVersion, MemAttrs, OpInfo, Overload, ParamTy, ScalarKind, Signature};
use crate::ir::{Attr, FuncId, Module, Type, TypeId};

/// The `dx.op` suffix of an overload, or `None` for [`Overload::None`].
pub fn overload_suffix(module: &Module, o: Overload) -> Option<String> {
    Some(match o {
        Overload::None => return None,
        Overload::Scalar(k) => k.suffix().to_string(),
        Overload::Vector(k, n) => format!("v{n}{}", k.suffix()),
        Overload::Udt(ptr) => {
            let pointee = module.types.pointee(ptr).unwrap_or(ptr);
            type_name_for_suffix(module, pointee)
        }
        Overload::Object(ty) => type_name_for_suffix(module, ty),
    })
}

fn type_name_for_suffix(module: &Module, ty: TypeId) -> String {
    match module.types.get(ty) {
        Type::Named { name, .. } => name.clone(),
        _ => "udt".to_string(),
    }
}

/// `dx.op.<class>[.<suffix>]`.
pub fn func_name(module: &Module, info: &OpInfo, o: Overload) -> String {
    match overload_suffix(module, o) {
        Some(s) if info.is_overloaded() => format!("dx.op.{}.{}", info.class, s),
        _ => format!("dx.op.{}", info.class),
    }
}

pub fn scalar_type(module: &mut Module, k: ScalarKind) -> TypeId {
    let t = &mut module.types;
    match k {
        ScalarKind::Half => t.half(),
        ScalarKind::Float => t.float(),
        ScalarKind::Double => t.double(),
        ScalarKind::I1 => t.int(1),
        ScalarKind::I8 => t.int(8),
        ScalarKind::I16 => t.int(16),
        ScalarKind::I32 => t.int(32),
        ScalarKind::I64 => t.int(64),
    }
}

/// The IR type of an overload (`None` for [`Overload::None`]).
pub fn overload_type(module: &mut Module, o: Overload) -> Option<TypeId> {
    Some(match o {
        Overload::None => return None,
        Overload::Scalar(k) => scalar_type(module, k),
        Overload::Vector(k, n) => {
            let e = scalar_type(module, k);
            module.types.vector(e, n)
        }
        Overload::Udt(t) | Overload::Object(t) => t,
    })
}

/// `%dx.types.<name> = type { fields }`, created once.
fn dx_struct(module: &mut Module, name: &str, fields: &[TypeId]) -> TypeId {
    let full = format!("dx.types.{name}");
    module.types.named_struct(&full, Some(fields.to_vec()))
}

fn i8_ptr_struct(module: &mut Module, name: &str) -> TypeId {
    let i8t = module.types.i8();
    let p = module.types.pointer(i8t, 0);
    dx_struct(module, name, &[p])
}

/// The scalar kind and vector length behind an overload (`(None, 0)` for udt/object/none).
fn shape(o: Overload) -> (Option<ScalarKind>, u32) {
    match o {
        Overload::Scalar(k) => (Some(k), 0),
        Overload::Vector(k, n) => (Some(k), n),
        _ => (None, 0),
    }
}

/// The IR type of one signature slot for overload `o`. `None` when the slot needs an overload
/// the op was not given.
pub fn param_type(module: &mut Module, ty: ParamTy, o: Overload) -> Option<TypeId> {
    let (kind, len) = shape(o);
    let with_elem = |module: &mut Module, e: ScalarKind| {
        let et = scalar_type(module, e);
        if len > 0 {
            module.types.vector(et, len)
        } else {
            et
        }
    };
    let i32t = module.types.i32();
    let f32t = module.types.float();
    Some(match ty {
        ParamTy::Void => module.types.void(),
        ParamTy::I1 => module.types.int(1),
        ParamTy::I8 => module.types.i8(),
        ParamTy::I16 => module.types.int(16),
        ParamTy::I32 => i32t,
        ParamTy::I64 => module.types.int(64),
        ParamTy::Half => module.types.half(),
        ParamTy::Float => f32t,
        ParamTy::Double => module.types.double(),
        ParamTy::FloatPtr => module.types.pointer(f32t, 0),
        ParamTy::Overload => overload_type(module, o)?,
        ParamTy::OverloadShapeI1 => with_elem(module, ScalarKind::I1),
        ParamTy::OverloadShapeI32 => with_elem(module, ScalarKind::I32),
        ParamTy::Element => scalar_type(module, kind?),
        ParamTy::ResRet => {
            let k = kind?;
            let et = scalar_type(module, k);
            if len > 0 {
                let v = module.types.vector(et, len);
                dx_struct(module, &format!("ResRet.v{len}{}", k.suffix()), &[v, i32t])
            } else {
                dx_struct(module, &format!("ResRet.{}", k.suffix()), &[et, et, et, et, i32t])
            }
        }
        ParamTy::CBufRet => {
            let k = kind?;
            let et = scalar_type(module, k);
            match k {
                ScalarKind::Double | ScalarKind::I64 => dx_struct(module, &format!("CBufRet.{}", k.suffix()), &[et, et]),
                ScalarKind::Half | ScalarKind::I16 => dx_struct(module, &format!("CBufRet.{}.8", k.suffix()), &[et; 8]),
                _ => dx_struct(module, &format!("CBufRet.{}", k.suffix()), &[et, et, et, et]),
            }
        }
        ParamTy::Four => {
            let k = kind?;
            let et = scalar_type(module, k);
            dx_struct(module, &format!("four{}", k.suffix()), &[et; 4])
        }
        ParamTy::Vec9 => {
            let et = scalar_type(module, kind?);
            module.types.vector(et, 9)
        }
        ParamTy::Handle => i8_ptr_struct(module, "Handle"),
        ParamTy::NodeHandle => i8_ptr_struct(module, "NodeHandle"),
        ParamTy::NodeRecordHandle => i8_ptr_struct(module, "NodeRecordHandle"),
        ParamTy::HitObject => i8_ptr_struct(module, "HitObject"),
        ParamTy::Dimensions => dx_struct(module, "Dimensions", &[i32t; 4]),
        ParamTy::SamplePos => dx_struct(module, "SamplePos", &[f32t, f32t]),
        ParamTy::TwoI32 => dx_struct(module, "twoi32", &[i32t, i32t]),
        ParamTy::I32c => {
            let i1 = module.types.int(1);
            dx_struct(module, "i32c", &[i32t, i1])
        }
        ParamTy::FourI32 => dx_struct(module, "fouri32", &[i32t; 4]),
        ParamTy::SplitDouble => dx_struct(module, "splitdouble", &[i32t, i32t]),
        ParamTy::ResourceProperties => dx_struct(module, "ResourceProperties", &[i32t, i32t]),
        ParamTy::ResBind => {
            let i8t = module.types.i8();
            dx_struct(module, "ResBind", &[i32t, i32t, i32t, i8t])
        }
        ParamTy::NodeInfo => dx_struct(module, "NodeInfo", &[i32t, i32t]),
        ParamTy::NodeRecordInfo => dx_struct(module, "NodeRecordInfo", &[i32t, i32t]),
    })
}

/// The function type of `info` at overload `o`: the return type, then `i32` (the opcode), then
/// the parameters. `None` for reserved/opaque ops or when `o` cannot fill an overloaded slot.
pub fn op_function_type(module: &mut Module, info: &OpInfo, o: Overload) -> Option<TypeId> {
    let Signature::Known { ret, params } = info.signature else { return None };
    let ret = param_type(module, ret, o)?;
    let mut tys = vec![module.types.i32()];
    for p in params {
        tys.push(param_type(module, p.ty, o)?);
    }
    Some(module.types.function(ret, tys))
}

/// Function attributes of a `dx.op` declaration at DXIL version `v`: `nounwind` plus the op's
/// memory attributes.
pub fn op_attrs(info: &OpInfo, v: DxilVersion) -> Vec<Attr> {
    let m: MemAttrs = info.attrs_at(v);
    let mut a = vec![Attr::NoUnwind];
    for (bit, attr) in [
        (MemAttrs::READ_NONE, Attr::ReadNone),
        (MemAttrs::READ_ONLY, Attr::ReadOnly),
        (MemAttrs::NO_DUPLICATE, Attr::NoDuplicate),
        (MemAttrs::NO_RETURN, Attr::NoReturn),
        (MemAttrs::ARG_MEM_ONLY, Attr::ArgMemOnly),
    ] {
        if m.has(bit) {
            a.push(attr);
        }
    }
    a
}

/// Declares (or finds) the `dx.op` function for `info` at overload `o`. Returns `None` when the
/// signature cannot be built, or when a function of that name exists with another type.
pub fn declare_op(module: &mut Module, info: &OpInfo, o: Overload, v: DxilVersion) -> Option<FuncId> {
    let fty = op_function_type(module, info, o)?;
    let name = func_name(module, info, o);
    if let Some(existing) = module.lookup_function(&name) {
        return (module.function(existing).ty == fty).then_some(existing);
    }
    let attrs = module.attr_set(op_attrs(info, v));
    if info.is_experimental() {
        module.preview = true;
    }
    Some(module.declare_function(&name, fty, Some(attrs)))
}
