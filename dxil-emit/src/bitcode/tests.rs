use super::*;
use crate::print_module;
use crate::ir::{BinOp, FunctionBuilder, Global};

/// `void @f()` returning at once, plus a global and named metadata.
fn small_module() -> Module {
    let mut m = Module::new_dxil();
    let void = m.types.void();
    let float = m.types.float();
    let fty = m.types.function(void, vec![]);
    let f = m.declare_function("main", fty, None);
    let init = m.const_f32(1.5);
    m.add_global(Global { name: "g".into(), ty: float, addrspace: 3, linkage: Linkage::Internal, constant: false, init: Some(init), align: 4 });
    let mut b = FunctionBuilder::new(&mut m, f);
    let entry = b.append_block(None);
    b.position_at_end(entry);
    let one = Value::Const(b.module.const_i32(1));
    let _ = b.binary(BinOp::Add, one, one);
    b.ret(None);
    let s = Module::md_string("ps");
    let six = m.md_i32(6);
    let node = m.md_node(vec![s, six, MdOperand::Null]);
    m.add_named_md("dx.shaderModel", node);
    m
}

#[test]
fn starts_with_the_magic_and_is_whole_words() {
    let bc = write_bitcode(&small_module());
    assert_eq!(&bc[..4], &[0x42, 0x43, 0xC0, 0xDE]);
    assert_eq!(bc.len() % 4, 0);
    // The module block follows: ENTER_SUBBLOCK (1) in 2 bits, block id 8 in VBR8.
    assert_eq!(bc[4] & 0b11, 1);
    assert_eq!((bc[4] >> 2) | ((bc[5] & 0b11) << 6), 8);
}

#[test]
fn same_module_same_bytes() {
    let a = write_bitcode(&small_module());
    let b = write_bitcode(&small_module());
    assert_eq!(a, b);
}

#[test]
fn types_are_numbered_after_their_contents() {
    let mut m = Module::new_dxil();
    // A named struct created empty, whose body then refers to a type created after it.
    let s = m.types.named_struct("S", None);
    let float = m.types.float();
    let arr = m.types.array(float, 4);
    m.types.set_struct_body(s, vec![arr]);
    let e = Enumerator::new(&m);
    assert!(e.type_id(float) < e.type_id(arr));
    assert!(e.type_id(arr) < e.type_id(s), "a struct's record must follow the types it contains");
}

#[test]
fn signed_vbr_keeps_the_sign_in_bit_zero() {
    assert_eq!(signed(0), 0);
    assert_eq!(signed(3), 6);
    assert_eq!(signed(-3), 7);
    assert_eq!(signed(i64::MIN), 1);
}

/// Lines that carry meaning: no comments, blank lines or the header llvm-dis adds.
fn meaningful(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| l.split(';').next().unwrap_or("").trim_end().to_string())
        .filter(|l| !l.trim().is_empty() && !l.starts_with("source_filename"))
        .collect()
}

/// When LLVM 14's `llvm-dis` is installed, it reads the bitcode back to the printed text.
#[test]
fn llvm_dis_reads_back_the_printed_module() {
    let Ok(dir) = std::env::var("CARGO_TARGET_TMPDIR").or_else(|_| std::env::var("TMPDIR")).or_else(|_| Ok::<_, ()>("/tmp".into())) else { return };
    let m = small_module();
    let path = std::path::Path::new(&dir).join(format!("hlslc-bitcode-{}.bc", std::process::id()));
    std::fs::write(&path, write_bitcode(&m)).unwrap();
    let out = std::process::Command::new("llvm-dis-14").arg("-o").arg("-").arg(&path).output();
    let _ = std::fs::remove_file(&path);
    let Ok(out) = out else {
        println!("llvm-dis-14 not found, skipped");
        return;
    };
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let got = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(meaningful(&got), meaningful(&print_module(&m)), "llvm-dis:\n{got}");
}

/// Aggregates fold as LLVM's constant uniquing folds them, so that llvm-dis prints what the
/// printer prints: all-zero is `zeroinitializer`, all-undef is `undef`.
#[test]
fn aggregates_fold_like_llvm() {
    let mut m = Module::new_dxil();
    let i32t = m.types.i32();
    let pair = m.types.literal_struct(vec![i32t, i32t]);
    let zero = m.const_i32(0);
    let one = m.const_i32(1);
    let undef = m.undef(i32t);
    let z = m.const_aggregate(pair, vec![zero, zero]);
    assert_eq!(m.consts.get(z), &Const::Null(pair));
    let u = m.const_aggregate(pair, vec![undef, undef]);
    assert_eq!(m.consts.get(u), &Const::Undef(pair));
    let mixed = m.const_aggregate(pair, vec![zero, one]);
    assert!(matches!(m.consts.get(mixed), Const::Aggregate { .. }));
}
