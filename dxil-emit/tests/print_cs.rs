//! A hand-built compute shader printed in dxc's style, checked line by line and, when LLVM 14's
//! `llvm-as` is installed, parsed by it.
//!
//! The shader is what this HLSL lowers to at cs_6_0:
//!
//! ```hlsl
//! Buffer<float> In : register(t0);
//! RWBuffer<float> Out : register(u0);
//! [numthreads(8, 1, 1)]
//! void main(uint3 id : SV_DispatchThreadID) { Out[id.x] = sin(In[id.x]); }
//! ```

use hlslc_dxil::ir::{BinOp, CastOp, FloatPred, Function, FunctionBuilder, Global, IntPred, Linkage, Module, Value};
use hlslc_dxil::metadata::{self, ComponentType, EntryPoint, EntryProperties, Resource, ResourceDetail, ResourceKind, ResourceSymbol, Resources};
use hlslc_dxil::ops::{try_create, DxilOp, DxilVersion, Overload, ScalarKind, Stage, Target};
use std::io::Write;
use std::process::{Command, Stdio};

const CS_EXPECTED: &str = r#";
; Resource Bindings:
;
; Name                                 Type  Format         Dim      ID      HLSL Bind  Count
; ------------------------------ ---------- ------- ----------- ------- -------------- ------
; In                                texture     f32         buf      T0             t0     1
; Out                                   UAV     f32         buf      U0             u0     1
;
target datalayout = "e-m:e-p:32:32-i1:32-i8:32-i16:32-i32:32-i64:64-f16:32-f32:32-f64:64-n8:16:32:64"
target triple = "dxil-ms-dx"

%dx.types.Handle = type { i8* }
%dx.types.ResRet.f32 = type { float, float, float, float, i32 }
%"class.Buffer<float>" = type { float }
%"class.RWBuffer<float>" = type { float }

define void @main() {
  %1 = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 1, i32 0, i32 0, i1 false)  ; CreateHandle(resourceClass,rangeId,index,nonUniformIndex)
  %2 = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 0, i32 0, i32 0, i1 false)  ; CreateHandle(resourceClass,rangeId,index,nonUniformIndex)
  %3 = call i32 @dx.op.threadId.i32(i32 93, i32 0)  ; ThreadId(component)
  %4 = call %dx.types.ResRet.f32 @dx.op.bufferLoad.f32(i32 68, %dx.types.Handle %2, i32 %3, i32 undef)  ; BufferLoad(srv,index,wot)
  %5 = extractvalue %dx.types.ResRet.f32 %4, 0
  %6 = call float @dx.op.unary.f32(i32 13, float %5)  ; Sin(value)
  call void @dx.op.bufferStore.f32(i32 69, %dx.types.Handle %1, i32 %3, i32 undef, float %6, float %6, float %6, float %6, i8 15)  ; BufferStore(uav,coord0,coord1,value0,value1,value2,value3,mask)
  ret void
}

; Function Attrs: nounwind readonly
declare %dx.types.Handle @dx.op.createHandle(i32, i8, i32, i32, i1) #0

; Function Attrs: nounwind readnone
declare i32 @dx.op.threadId.i32(i32, i32) #1

; Function Attrs: nounwind readonly
declare %dx.types.ResRet.f32 @dx.op.bufferLoad.f32(i32, %dx.types.Handle, i32, i32) #0

; Function Attrs: nounwind readnone
declare float @dx.op.unary.f32(i32, float) #1

; Function Attrs: nounwind
declare void @dx.op.bufferStore.f32(i32, %dx.types.Handle, i32, i32, float, float, float, float, i8) #2

attributes #0 = { nounwind readonly }
attributes #1 = { nounwind readnone }
attributes #2 = { nounwind }

!dx.version = !{!0}
!dx.valver = !{!1}
!dx.shaderModel = !{!2}
!dx.resources = !{!3}
!dx.entryPoints = !{!9}

!0 = !{i32 1, i32 0}
!1 = !{i32 1, i32 8}
!2 = !{!"cs", i32 6, i32 0}
!3 = !{!4, !7, null, null}
!4 = !{!5}
!5 = !{i32 0, %"class.Buffer<float>"* undef, !"In", i32 0, i32 0, i32 1, i32 10, i32 0, !6}
!6 = !{i32 0, i32 9}
!7 = !{!8}
!8 = !{i32 0, %"class.RWBuffer<float>"* undef, !"Out", i32 0, i32 0, i32 1, i32 10, i1 false, i1 false, i1 false, !6}
!9 = !{void ()* @main, !"main", null, !3, !10}
!10 = !{i32 4, !11}
!11 = !{i32 8, i32 1, i32 1}
"#;

fn compute_shader() -> Module {
    let mut m = Module::new_dxil();
    let target = Target { stage: Stage::Compute, version: DxilVersion::new(1, 0) };
    let void = m.types.void();
    let fty = m.types.function(void, vec![]);
    let main = m.declare_function("main", fty, None);
    let f32o = Overload::Scalar(ScalarKind::Float);
    {
        let mut b = FunctionBuilder::new(&mut m, main);
        let entry = b.append_block(None);
        b.position_at_end(entry);
        let c = |b: &mut FunctionBuilder, v: i32| Value::Const(b.module.const_i32(v));
        let (uav_class, srv_class) = (Value::Const(b.module.const_i8(1)), Value::Const(b.module.const_i8(0)));
        let no = Value::Const(b.module.const_bool(false));
        let zero = c(&mut b, 0);
        let out = try_create(&mut b, DxilOp::CreateHandle, Overload::None, &[uav_class, zero, zero, no], target).expect("uav handle");
        let inp = try_create(&mut b, DxilOp::CreateHandle, Overload::None, &[srv_class, zero, zero, no], target).expect("srv handle");
        let tid = try_create(&mut b, DxilOp::ThreadId, Overload::Scalar(ScalarKind::I32), &[zero], target).expect("threadId");
        let i32t = b.module.types.i32();
        let undef = Value::Const(b.module.undef(i32t));
        let ret = try_create(&mut b, DxilOp::BufferLoad, f32o, &[inp, tid, undef], target).expect("bufferLoad");
        let x = b.extract_value(ret, vec![0]);
        let s = try_create(&mut b, DxilOp::Sin, f32o, &[x], target).expect("sin");
        let mask = Value::Const(b.module.const_i8(15));
        try_create(&mut b, DxilOp::BufferStore, f32o, &[out, tid, undef, s, s, s, s, mask], target).expect("bufferStore");
        b.ret(None);
    }
    let float = m.types.float();
    let buffer = m.types.named_struct("class.Buffer<float>", Some(vec![float]));
    let rwbuffer = m.types.named_struct("class.RWBuffer<float>", Some(vec![float]));
    let (buffer_ptr, rwbuffer_ptr) = (m.types.pointer(buffer, 0), m.types.pointer(rwbuffer, 0));
    metadata::emit_version(&mut m, DxilVersion::new(1, 0));
    metadata::emit_valver(&mut m, 1, 8);
    metadata::emit_shader_model(&mut m, Stage::Compute, 6, 0);
    let typed = Some(ComponentType::F32);
    let res = Resources {
        srvs: vec![Resource {
            id: 0,
            symbol: ResourceSymbol::Undef(buffer_ptr),
            name: "In".into(),
            space: 0,
            lower_bound: 0,
            range_size: 1,
            detail: ResourceDetail::Srv { kind: ResourceKind::TypedBuffer, sample_count: 0, element: typed, stride: None },
        }],
        uavs: vec![Resource {
            id: 0,
            symbol: ResourceSymbol::Undef(rwbuffer_ptr),
            name: "Out".into(),
            space: 0,
            lower_bound: 0,
            range_size: 1,
            detail: ResourceDetail::Uav {
                kind: ResourceKind::TypedBuffer,
                globally_coherent: false,
                has_counter: false,
                rasterizer_ordered: false,
                element: typed,
                stride: None,
            },
        }],
        ..Resources::default()
    };
    let resources = metadata::emit_resources(&mut m, &res);
    let properties = EntryProperties { num_threads: Some([8, 1, 1]), ..EntryProperties::default() };
    metadata::emit_entry_point(&mut m, &EntryPoint { function: Some(main), name: "main".into(), signatures: None, resources, properties });
    m
}

/// Runs LLVM 14's `llvm-as` on `text`; `None` when it is not installed.
fn llvm_as(text: &str) -> Option<Result<(), String>> {
    let tool = ["/usr/lib/llvm-14/bin/llvm-as", "llvm-as-14"].into_iter().find(|t| Command::new(t).arg("--version").output().is_ok())?;
    let mut child = Command::new(tool).args(["-o", "/dev/null", "-"]).stdin(Stdio::piped()).stderr(Stdio::piped()).spawn().ok()?;
    child.stdin.take()?.write_all(text.as_bytes()).ok()?;
    let out = child.wait_with_output().ok()?;
    Some(if out.status.success() { Ok(()) } else { Err(String::from_utf8_lossy(&out.stderr).into_owned()) })
}

fn assert_text(actual: &str, expected: &str) {
    for (i, (a, e)) in actual.lines().zip(expected.lines()).enumerate() {
        assert_eq!(a, e, "line {} differs", i + 1);
    }
    assert_eq!(actual.lines().count(), expected.lines().count(), "line count differs:\n{actual}");
    assert_eq!(actual, expected);
}

#[test]
fn compute_shader_prints_like_dxc() {
    let text = hlslc_dxil::print_module(&compute_shader());
    assert_text(&text, CS_EXPECTED);
}

#[test]
fn compute_shader_parses_with_llvm_as() {
    let text = hlslc_dxil::print_module(&compute_shader());
    match llvm_as(&text) {
        None => eprintln!("llvm-as (LLVM 14) not found; skipping"),
        Some(r) => r.unwrap_or_else(|e| panic!("llvm-as rejected the module:\n{e}\n{text}")),
    }
}

/// Control flow, phis, switch, memory, casts, constants that need hex, quoted names.
fn control_flow_module() -> Module {
    let mut m = Module::new_dxil();
    let float = m.types.float();
    let i32t = m.types.i32();
    let arr = m.types.array(float, 4);
    let zero_arr = m.null(arr);
    let g = m.add_global(Global {
        name: "\u{1}?table@@3PAMA".into(),
        ty: arr,
        addrspace: 3,
        linkage: Linkage::Internal,
        constant: false,
        init: Some(zero_arr),
        align: 4,
    });
    let fty = m.types.function(float, vec![float, i32t]);
    let f = m.add_function(Function {
        name: "\u{1}?helper@@YAMMH@Z".into(),
        ty: fty,
        linkage: Linkage::Internal,
        attrs: None,
        arg_names: vec![Some("x".into()), None],
        body: None,
    });
    let attrs = m.attr_set(vec![hlslc_dxil::ir::Attr::NoUnwind, hlslc_dxil::ir::Attr::NoInline]);
    m.function_mut(f).attrs = Some(attrs);
    let mut b = FunctionBuilder::new(&mut m, f);
    let entry = b.append_block(None);
    let neg = b.append_block(None);
    let pos = b.append_block(Some("if.else"));
    let join = b.append_block(None);
    let other = b.append_block(None);
    b.position_at_end(entry);
    let zero_f = Value::Const(b.module.const_f32(0.0));
    let cond = b.fcmp(FloatPred::Olt, Value::Arg(0), zero_f);
    b.cond_br(cond, neg, pos);
    b.position_at_end(neg);
    let tenth = Value::Const(b.module.const_f32(0.1));
    let a = b.binary(BinOp::FMul, Value::Arg(0), tenth);
    b.set_name(a, "scaled");
    b.br(join);
    b.position_at_end(pos);
    let idx = Value::Arg(1);
    let zero = Value::Const(b.module.const_i32(0));
    let p = b.gep(true, Value::Global(g), vec![zero, idx]);
    let l = b.load(p, 4);
    let one = Value::Const(b.module.const_i32(1));
    let k1 = b.module.const_i32(1);
    let k7 = b.module.const_i32(7);
    b.switch(idx, join, vec![(k1, other), (k7, other)]);
    b.position_at_end(other);
    let half = Value::Const(b.module.const_f32(0.5));
    b.store(half, p, 4);
    b.br(join);
    b.position_at_end(join);
    let phi = b.phi(float, vec![(a, neg), (l, pos), (half, other)]);
    let big = b.icmp(IntPred::Sgt, idx, one);
    let as_int = b.cast(CastOp::FPToSI, phi, i32t);
    let back = b.cast(CastOp::SIToFP, as_int, float);
    let r = b.select(big, back, phi);
    b.ret(Some(r));
    m
}

const CFG_EXPECTED: &str = r#"target datalayout = "e-m:e-p:32:32-i1:32-i8:32-i16:32-i32:32-i64:64-f16:32-f32:32-f64:64-n8:16:32:64"
target triple = "dxil-ms-dx"

@"\01?table@@3PAMA" = internal addrspace(3) global [4 x float] zeroinitializer, align 4

; Function Attrs: noinline nounwind
define internal float @"\01?helper@@YAMMH@Z"(float %x, i32) #0 {
  %2 = fcmp fast olt float %x, 0.000000e+00
  br i1 %2, label %3, label %if.else

; <label>:3                                       ; preds = %1
  %scaled = fmul fast float %x, 0x3FB99999A0000000
  br label %6

if.else:                                          ; preds = %1
  %4 = getelementptr inbounds [4 x float], [4 x float] addrspace(3)* @"\01?table@@3PAMA", i32 0, i32 %0
  %5 = load float, float addrspace(3)* %4, align 4
  switch i32 %0, label %6 [
    i32 1, label %11
    i32 7, label %11
  ]

; <label>:6                                       ; preds = %11, %if.else, %3
  %phi = phi float [ %scaled, %3 ], [ %5, %if.else ], [ 5.000000e-01, %11 ]
  %7 = icmp sgt i32 %0, 1
  %8 = fptosi float %phi to i32
  %9 = sitofp i32 %8 to float
  %10 = select i1 %7, float %9, float %phi
  ret float %10

; <label>:11                                      ; preds = %if.else, %if.else
  store float 5.000000e-01, float addrspace(3)* %4, align 4
  br label %6
}

attributes #0 = { noinline nounwind }
"#;

#[test]
fn control_flow_prints_like_llvm_3_7() {
    let mut m = control_flow_module();
    // Name the phi so both named and numbered values appear after it.
    if let Some(body) = m.functions[0].body.as_mut() {
        let phi = body.blocks[3].insts[0];
        body.insts[phi.0 as usize].name = Some("phi".into());
    }
    let text = hlslc_dxil::print_module(&m);
    assert_text(&text, CFG_EXPECTED);
    match llvm_as(&text) {
        None => eprintln!("llvm-as (LLVM 14) not found; skipping"),
        Some(r) => r.unwrap_or_else(|e| panic!("llvm-as rejected the module:\n{e}\n{text}")),
    }
}

/// Every modelled op, declared at every overload the table allows (vectors as `<4 x T>`), prints
/// as a module that LLVM 14 accepts: names, helper struct types and attribute groups are valid.
#[test]
fn every_op_declaration_parses_with_llvm_as() {
    use hlslc_dxil::ops::{declare_op, OverloadSet, Signature, OP_TABLE};
    let mut m = Module::new_dxil();
    let payload = m.types.named_struct("struct.Payload", Some(vec![]));
    let payload_ptr = m.types.pointer(payload, 0);
    let handle = hlslc_dxil::ops::sig::param_type(&mut m, hlslc_dxil::ops::ParamTy::Handle, Overload::None).expect("handle");
    let mut declared = 0;
    for info in OP_TABLE.iter().filter(|i| matches!(i.signature, Signature::Known { .. })) {
        let version = info.overloads.last().map_or(info.introduced, |(v, _)| *v);
        let set: Option<OverloadSet> = info.overloads_at(version);
        let overloads: Vec<Overload> = match set {
            None => vec![Overload::None],
            Some(s) => {
                let mut v = Vec::new();
                for k in ScalarKind::ALL {
                    for o in [Overload::Scalar(k), Overload::Vector(k, 4)] {
                        if s.allows(o) {
                            v.push(o);
                        }
                    }
                }
                for o in [Overload::Udt(payload_ptr), Overload::Object(handle)] {
                    if s.allows(o) {
                        v.push(o);
                    }
                }
                v
            }
        };
        for o in overloads {
            declare_op(&mut m, info, o, version).unwrap_or_else(|| panic!("{} {o:?} not declared", info.name));
            declared += 1;
        }
    }
    assert!(declared > 600, "{declared}");
    let text = hlslc_dxil::print_module(&m);
    assert!(text.contains("declare %dx.types.ResRet.v4f32 @dx.op.rawBufferVectorLoad.v4f32(i32, %dx.types.Handle, i32, i32, i32) #"));
    assert!(text.contains("declare void @dx.op.traceRay.struct.Payload(i32, %dx.types.Handle, i32, i32, i32, i32, i32, float, float, float, float, float, float, float, float, %struct.Payload*) #"));
    match llvm_as(&text) {
        None => eprintln!("llvm-as (LLVM 14) not found; skipping"),
        Some(r) => r.unwrap_or_else(|e| panic!("llvm-as rejected the declarations:\n{e}")),
    }
}
