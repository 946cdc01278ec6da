//! Capability and extension inference on small modules built through the builder; every module
//! also goes through `spirv-val` for its target, which rejects missing capabilities.

mod common;

use hlslc_spirv::disasm::disassemble;
use hlslc_spirv::passes;
use hlslc_spirv::types::{Decoration, ImageType};
use hlslc_spirv::{ModuleBuilder, TargetEnv};
use rspirv::dr::Operand;
use spirv::{BuiltIn, Decoration as D, ExecutionMode, ExecutionModel, FunctionControl, Op, StorageClass};

fn finish(b: ModuleBuilder, name: &str) -> String {
    let target = b.target;
    let mut m = b.finish().unwrap();
    passes::run_all(&mut m);
    let words = m.to_words();
    let text = disassemble(&words).unwrap();
    if common::tool("spirv-val").is_some() {
        common::spirv_val(&words, name, target.as_str()).unwrap_or_else(|e| panic!("{e}\n{text}"));
    }
    text
}

/// A vertex shader writing `SV_RenderTargetArrayIndex` (the `Layer` built-in).
fn vertex_layer(target: TargetEnv) -> String {
    let mut b = ModuleBuilder::new(target);
    let main = b.ctx.alloc_id();
    let uint = b.ctx.type_u32();
    let float = b.ctx.type_f32();
    let v4 = b.ctx.type_vector(float, 4);
    let pu = b.ctx.type_pointer(StorageClass::Output, uint);
    let pv = b.ctx.type_pointer(StorageClass::Output, v4);
    let layer = b.global_variable(pu, StorageClass::Output, None);
    let pos = b.global_variable(pv, StorageClass::Output, None);
    b.ctx.decorate(layer, &Decoration { kind: D::BuiltIn, args: vec![Operand::BuiltIn(BuiltIn::Layer)] });
    b.ctx.decorate(pos, &Decoration { kind: D::BuiltIn, args: vec![Operand::BuiltIn(BuiltIn::Position)] });
    b.entry_point(ExecutionModel::Vertex, main, "main", vec![layer, pos]);
    let void = b.ctx.type_void();
    let f = b.ctx.type_function(void, &[]);
    let one = b.ctx.const_u32(1);
    let zero = b.ctx.const_f32(0.0);
    let zv = b.ctx.const_composite(v4, &[zero, zero, zero, zero]);
    b.begin_function(main, void, f, FunctionControl::NONE).unwrap();
    let e = b.new_block().unwrap();
    b.switch_to_block(e).unwrap();
    b.store(layer, one, None).unwrap();
    b.store(pos, zv, None).unwrap();
    b.ret().unwrap();
    b.end_function().unwrap();
    finish(b, &format!("layer{target:?}"))
}

#[test]
fn layer_builtin_capability_depends_on_target() {
    let old = vertex_layer(TargetEnv::Vulkan1_0);
    assert!(old.contains("OpCapability ShaderViewportIndexLayerEXT"), "{old}");
    assert!(old.contains("OpExtension \"SPV_EXT_shader_viewport_index_layer\""), "{old}");
    let new = vertex_layer(TargetEnv::Vulkan1_2);
    assert!(new.contains("OpCapability ShaderLayer"), "{new}");
    assert!(!new.contains("OpExtension"), "{new}");
}

#[test]
fn unknown_format_reads_and_64bit_atomics() {
    let mut b = ModuleBuilder::new(TargetEnv::Vulkan1_0);
    let main = b.ctx.alloc_id();
    let float = b.ctx.type_f32();
    let v4 = b.ctx.type_vector(float, 4);
    let int = b.ctx.type_i32();
    let v2i = b.ctx.type_vector(int, 2);
    let ulong = b.ctx.type_int(64, false);
    let img = b.ctx.type_image(
        ImageType {
            sampled_type: float,
            dim: spirv::Dim::Dim2D,
            depth: 2,
            arrayed: false,
            multisampled: false,
            sampled: 2,
            format: spirv::ImageFormat::Unknown,
            access: None,
        },
        Some("type.2d.image"),
    );
    let ip = b.ctx.type_pointer(StorageClass::UniformConstant, img);
    let tex = b.global_variable(ip, StorageClass::UniformConstant, None);
    b.ctx.decorate(tex, &Decoration::with_literals(D::DescriptorSet, &[0]));
    b.ctx.decorate(tex, &Decoration::with_literals(D::Binding, &[0]));
    let pl = b.ctx.type_pointer(StorageClass::Workgroup, ulong);
    let counter = b.global_variable(pl, StorageClass::Workgroup, None);
    b.entry_point(ExecutionModel::GLCompute, main, "main", vec![]);
    b.execution_mode(main, ExecutionMode::LocalSize, &[1, 1, 1]);
    let void = b.ctx.type_void();
    let f = b.ctx.type_function(void, &[]);
    let coord = b.ctx.const_null(v2i);
    let scope = b.ctx.const_u32(2);
    let sem = b.ctx.const_u32(0);
    let one = b.ctx.const_u64(1);
    b.begin_function(main, void, f, FunctionControl::NONE).unwrap();
    let e = b.new_block().unwrap();
    b.switch_to_block(e).unwrap();
    let image = b.load(img, tex, None).unwrap();
    let texel = b.value(Op::ImageRead, v4, vec![Operand::IdRef(image.0), Operand::IdRef(coord.0)]).unwrap();
    b.void(Op::ImageWrite, vec![Operand::IdRef(image.0), Operand::IdRef(coord.0), Operand::IdRef(texel.0)]).unwrap();
    b.value(
        Op::AtomicIAdd,
        ulong,
        vec![Operand::IdRef(counter.0), Operand::IdRef(scope.0), Operand::IdRef(sem.0), Operand::IdRef(one.0)],
    )
    .unwrap();
    b.ret().unwrap();
    b.end_function().unwrap();
    let text = finish(b, "readwrite");
    for cap in ["Int64", "Int64Atomics", "StorageImageReadWithoutFormat", "StorageImageWriteWithoutFormat"] {
        assert!(text.contains(&format!("OpCapability {cap}\n")), "missing {cap}:\n{text}");
    }
    // Declared once each, Shader first.
    assert_eq!(text.matches("OpCapability").count(), 5, "{text}");
    assert!(text.find("OpCapability Shader").unwrap() < text.find("OpCapability Int64").unwrap());
}
