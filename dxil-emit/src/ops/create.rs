//! The checked op builder: [`try_create`] emits a `dx.op` call only when the op, its overload,
//! the shader stage and the DXIL version agree, and otherwise says exactly why not.

use super::sig::{declare_op, param_type};
use super::{DxilOp, DxilVersion, OpInfo, Overload, Stage, Signature};
use crate::ir::{FunctionBuilder, Value};
use hlslc_frontend::Diagnostic;
use std::fmt;

/// What the module is compiled for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Target {
    pub stage: Stage,
    pub version: DxilVersion,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpErrorKind {
    /// The opcode is a reserved hole.
    Reserved,
    /// The table does not model this op's signature yet.
    Unmodelled,
    /// The target's stage does not exist at the target DXIL version.
    StageNotInVersion,
    /// The op appeared in a later DXIL version (or needs a later shader model).
    NotInVersion { introduced: DxilVersion },
    /// The op was removed at or before the target version.
    Removed { since: DxilVersion },
    /// The op is not valid in the target stage.
    StageNotAllowed { allowed: Vec<&'static str> },
    /// The overload is not valid at the target version (`valid` describes the valid ones).
    InvalidOverload { valid: String },
    /// The op is overloaded and no overload was given.
    MissingOverload,
    ArgCount { expected: usize, got: usize },
    ArgType { index: usize, name: &'static str },
    NotImmediate { index: usize, name: &'static str },
    /// A function with the op's name already exists with another type.
    SignatureClash { name: String },
}

/// A refused op: which op, which target, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpError {
    pub op: DxilOp,
    pub target: Target,
    pub overload: Overload,
    pub kind: OpErrorKind,
}

impl fmt::Display for OpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let info = self.op.info();
        let (stage, v) = (self.target.stage.name(), self.target.version);
        write!(f, "DXIL operation {} (opcode {}) ", info.name, info.opcode as i32)?;
        match &self.kind {
            OpErrorKind::Reserved => write!(f, "is a reserved opcode"),
            OpErrorKind::Unmodelled => write!(f, "has a signature hlslc does not model yet"),
            OpErrorKind::StageNotInVersion => write!(f, "is not supported: {stage} shaders do not exist in DXIL {v}"),
            OpErrorKind::NotInVersion { introduced } => {
                let sm = info.min_shader_model;
                write!(f, "is not supported before DXIL {introduced} (shader model {}.{}); the target is DXIL {v}", sm.0, sm.1)
            }
            OpErrorKind::Removed { since } => write!(f, "is not supported since DXIL {since} (removed); the target is DXIL {v}"),
            OpErrorKind::StageNotAllowed { allowed } => {
                write!(f, "is not supported in {stage} shaders at DXIL {v} (valid in: {})", allowed.join(", "))
            }
            OpErrorKind::InvalidOverload { valid } => {
                write!(f, "is not supported with overload {:?} at DXIL {v} (valid: {valid})", self.overload)
            }
            OpErrorKind::MissingOverload => write!(f, "is overloaded and needs an overload type"),
            OpErrorKind::ArgCount { expected, got } => write!(f, "takes {expected} arguments after the opcode, got {got}"),
            OpErrorKind::ArgType { index, name } => write!(f, "argument {index} ({name}) has the wrong type"),
            OpErrorKind::NotImmediate { index, name } => write!(f, "argument {index} ({name}) must be a constant"),
            OpErrorKind::SignatureClash { name } => write!(f, "cannot be declared: @{name} already exists with another type"),
        }
    }
}

impl std::error::Error for OpError {}

impl OpError {
    /// The user-facing diagnostic (no location: the lowering attaches the call's span).
    pub fn to_diagnostic(&self) -> Diagnostic {
        Diagnostic::error(self.to_string())
    }
}

/// Checks that `op` may be used with overload `o` in `target`, without emitting anything.
pub fn check(op: DxilOp, o: Overload, target: Target) -> Result<(), OpError> {
    let info: &OpInfo = op.info();
    let err = |kind| Err(OpError { op, target, overload: o, kind });
    let v = target.version;
    match info.signature {
        Signature::Reserved => return err(OpErrorKind::Reserved),
        Signature::Opaque => return err(OpErrorKind::Unmodelled),
        Signature::Known { .. } => {}
    }
    if v < super::stage_introduced(target.stage) {
        return err(OpErrorKind::StageNotInVersion);
    }
    let sm_version = DxilVersion::for_shader_model(info.min_shader_model.0, info.min_shader_model.1);
    if v < info.introduced || v < sm_version {
        return err(OpErrorKind::NotInVersion { introduced: info.introduced.max(sm_version) });
    }
    let stages = info.stages_at(v).unwrap_or(super::StageSet(0));
    if stages.is_removed() {
        let since = info.stages.iter().rev().find(|(ver, s)| *ver <= v && s.is_removed()).map_or(info.introduced, |e| e.0);
        return err(OpErrorKind::Removed { since });
    }
    if !stages.contains(target.stage) {
        return err(OpErrorKind::StageNotAllowed { allowed: stages.names() });
    }
    match (info.overloads_at(v), o) {
        (None, Overload::None) => {}
        (None, _) => return err(OpErrorKind::InvalidOverload { valid: "none: the op is not overloaded".into() }),
        (Some(_), Overload::None) => return err(OpErrorKind::MissingOverload),
        (Some(set), o) if !set.allows(o) => return err(OpErrorKind::InvalidOverload { valid: set.describe() }),
        _ => {}
    }
    Ok(())
}

/// Emits `call @dx.op.<class>.<overload>(i32 <opcode>, args...)` after checking the op against
/// `target` (see [`check`]) and `args` against the signature: count, types, and constants for
/// immediate parameters. Returns the call (a `void`-typed instruction for ops without result).
pub fn try_create(b: &mut FunctionBuilder<'_>, op: DxilOp, o: Overload, args: &[Value], target: Target) -> Result<Value, OpError> {
    check(op, o, target)?;
    let info = op.info();
    let err = |kind| OpError { op, target, overload: o, kind };
    let Signature::Known { params, .. } = info.signature else { return Err(err(OpErrorKind::Unmodelled)) };
    if params.len() != args.len() {
        return Err(err(OpErrorKind::ArgCount { expected: params.len(), got: args.len() }));
    }
    for (i, (p, a)) in params.iter().zip(args).enumerate() {
        let want = param_type(b.module, p.ty, o);
        if want != Some(b.type_of(*a)) {
            return Err(err(OpErrorKind::ArgType { index: i, name: p.name }));
        }
        if p.immediate && !matches!(a, Value::Const(_)) {
            return Err(err(OpErrorKind::NotImmediate { index: i, name: p.name }));
        }
    }
    let Some(func) = declare_op(b.module, info, o, target.version) else {
        let name = super::sig::func_name(b.module, info, o);
        return Err(err(OpErrorKind::SignatureClash { name }));
    };
    let opcode = b.module.const_i32(info.opcode as i32);
    let mut call_args = vec![Value::Const(opcode)];
    call_args.extend_from_slice(args);
    Ok(b.call(func, call_args))
}
