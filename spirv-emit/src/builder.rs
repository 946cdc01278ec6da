//! The module builder: everything of a module outside function bodies (capabilities, extensions,
//! imports, memory model, entry points, execution modes, debug instructions, global variables) and
//! its serialization in the section order SPIR-V requires. Function bodies are built through
//! [`crate::function`]; the [`Context`] it owns holds types, constants, names and decorations.

use crate::context::Context;
use crate::error::{BuildError, Result};
use crate::function::FunctionState;
use crate::id::SpvId;
use crate::target::TargetEnv;
use indexmap::{IndexMap, IndexSet};
use rspirv::binary::Assemble;
use rspirv::dr::{self, Instruction, Operand};
use spirv::{AddressingModel, Capability, ExecutionMode, ExecutionModel, MemoryModel, Op, SourceLanguage, StorageClass};

/// The generator word DXC writes: tool 14 ("Google spiregg"), version 0. Tools and tests that
/// read `; Generator: Google spiregg; 0` keep working with our output.
pub const GENERATOR_SPIREGG: u32 = 14 << 16;

/// An `OpEntryPoint`. Invariant: `function` is a function of the module when it is finished.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntryPoint {
    pub model: ExecutionModel,
    pub function: SpvId,
    pub name: String,
    /// Interface variables, in the order they are listed.
    pub interface: Vec<SpvId>,
}

/// A finished module before the whole-module passes: the rspirv module, plus facts the passes
/// need that SPIR-V itself does not carry.
#[derive(Clone, Debug)]
pub struct BuiltModule {
    pub module: dr::Module,
    pub target: TargetEnv,
    /// Ids whose values are of a min-precision type, to be decorated `RelaxedPrecision`.
    pub relaxed_precision: Vec<SpvId>,
}

impl BuiltModule {
    /// Serializes to words (header and sections in the required order).
    pub fn to_words(&self) -> Vec<u32> {
        self.module.assemble()
    }
}

pub struct ModuleBuilder {
    pub ctx: Context,
    pub target: TargetEnv,
    pub generator: u32,
    capabilities: IndexSet<Capability>,
    extensions: IndexSet<String>,
    ext_imports: IndexMap<String, SpvId>,
    addressing: AddressingModel,
    memory: MemoryModel,
    entry_points: Vec<EntryPoint>,
    execution_modes: Vec<Instruction>,
    debug_source: Vec<Instruction>,
    module_processed: Vec<Instruction>,
    globals: Vec<Instruction>,
    /// Module-scope `OpExtInst`s of a debug info set, laid out after the global variables (as
    /// DXC does); each comes after the instructions it names (NonSemantic.Shader.DebugInfo.100
    /// has no forward references).
    debug_info: Vec<Instruction>,
    pub(crate) functions: Vec<dr::Function>,
    function_ids: IndexSet<SpvId>,
    pub(crate) current: Option<FunctionState>,
    relaxed: IndexSet<SpvId>,
}

impl ModuleBuilder {
    /// A module for `target` with `OpCapability Shader` and the `Logical GLSL450` memory model,
    /// as DXC starts every module.
    pub fn new(target: TargetEnv) -> ModuleBuilder {
        let mut b = ModuleBuilder {
            ctx: Context::new(),
            target,
            generator: GENERATOR_SPIREGG,
            capabilities: IndexSet::new(),
            extensions: IndexSet::new(),
            ext_imports: IndexMap::new(),
            addressing: AddressingModel::Logical,
            memory: MemoryModel::GLSL450,
            entry_points: Vec::new(),
            execution_modes: Vec::new(),
            debug_source: Vec::new(),
            module_processed: Vec::new(),
            globals: Vec::new(),
            debug_info: Vec::new(),
            functions: Vec::new(),
            function_ids: IndexSet::new(),
            current: None,
            relaxed: IndexSet::new(),
        };
        b.capability(Capability::Shader);
        b
    }

    /// The `Function` variables and the function parameters (of finished functions) that hold
    /// a `PhysicalStorageBuffer` pointer.
    pub fn pointer_holding_locals(&self) -> Vec<SpvId> {
        let holds = |ty: Option<u32>| {
            let Some(crate::types::Type::Pointer { pointee, .. }) = ty.and_then(|t| self.ctx.type_of(SpvId(t))) else {
                return false;
            };
            matches!(self.ctx.type_of(*pointee), Some(crate::types::Type::Pointer { storage: StorageClass::PhysicalStorageBuffer, .. }))
        };
        let mut out = Vec::new();
        for f in &self.functions {
            for p in &f.parameters {
                if holds(p.result_type) {
                    out.extend(p.result_id.map(SpvId));
                }
            }
            for b in &f.blocks {
                for i in &b.instructions {
                    if i.class.opcode == Op::Variable && holds(i.result_type) {
                        out.extend(i.result_id.map(SpvId));
                    }
                }
            }
        }
        out
    }

    pub fn capability(&mut self, cap: Capability) {
        self.capabilities.insert(cap);
    }
    pub fn has_capability(&self, cap: Capability) -> bool {
        self.capabilities.contains(&cap)
    }
    pub fn extension(&mut self, name: &str) {
        self.extensions.insert(name.to_string());
    }
    /// The id of `OpExtInstImport "name"`, imported on first use.
    pub fn ext_inst_import(&mut self, name: &str) -> SpvId {
        if let Some(&id) = self.ext_imports.get(name) {
            return id;
        }
        let id = self.ctx.alloc_id();
        self.ext_imports.insert(name.to_string(), id);
        id
    }
    pub fn glsl_std_450(&mut self) -> SpvId {
        self.ext_inst_import("GLSL.std.450")
    }
    pub fn memory_model(&mut self, addressing: AddressingModel, memory: MemoryModel) {
        self.addressing = addressing;
        self.memory = memory;
    }

    /// Adds an entry point; returns its index for [`ModuleBuilder::entry_point_mut`].
    pub fn entry_point(&mut self, model: ExecutionModel, function: SpvId, name: &str, interface: Vec<SpvId>) -> usize {
        self.entry_points.push(EntryPoint { model, function, name: name.to_string(), interface });
        self.entry_points.len() - 1
    }
    pub fn entry_point_mut(&mut self, index: usize) -> Option<&mut EntryPoint> {
        self.entry_points.get_mut(index)
    }
    pub fn entry_points(&self) -> &[EntryPoint] {
        &self.entry_points
    }
    /// `OpExecutionMode function mode literals...`.
    pub fn execution_mode(&mut self, function: SpvId, mode: ExecutionMode, literals: &[u32]) {
        let mut ops = vec![Operand::IdRef(function.0), Operand::ExecutionMode(mode)];
        ops.extend(literals.iter().map(|&w| Operand::LiteralBit32(w)));
        self.execution_modes.push(Instruction::new(Op::ExecutionMode, None, None, ops));
    }
    /// `OpExecutionModeId function mode ids...`.
    pub fn execution_mode_id(&mut self, function: SpvId, mode: ExecutionMode, ids: &[SpvId]) {
        let mut ops = vec![Operand::IdRef(function.0), Operand::ExecutionMode(mode)];
        ops.extend(ids.iter().map(|i| Operand::IdRef(i.0)));
        self.execution_modes.push(Instruction::new(Op::ExecutionModeId, None, None, ops));
    }

    /// `OpString`.
    pub fn debug_string(&mut self, s: &str) -> SpvId {
        let id = self.ctx.alloc_id();
        self.debug_source.push(Instruction::new(Op::String, None, Some(id.0), vec![Operand::from(s)]));
        id
    }
    /// `OpSource lang version [file [text]]` (DXC: `OpSource HLSL 600`).
    pub fn source(&mut self, lang: SourceLanguage, version: u32, file: Option<SpvId>, text: Option<&str>) {
        let mut ops = vec![Operand::SourceLanguage(lang), Operand::LiteralBit32(version)];
        if let Some(f) = file {
            ops.push(Operand::IdRef(f.0));
            if let Some(t) = text {
                ops.push(Operand::from(t));
            }
        }
        self.debug_source.push(Instruction::new(Op::Source, None, None, ops));
    }
    /// `OpSourceContinued text`, after the `OpSource` whose text was too long for one string.
    pub fn source_continued(&mut self, text: &str) {
        self.debug_source.push(Instruction::new(Op::SourceContinued, None, None, vec![Operand::from(text)]));
    }
    /// A module-scope `OpExtInst %void set instruction operands...` of a debug info set.
    pub fn debug_ext_inst(&mut self, set: SpvId, instruction: u32, operands: Vec<Operand>) -> SpvId {
        let void = self.ctx.type_void();
        let id = self.ctx.alloc_id();
        let mut ops = vec![Operand::IdRef(set.0), Operand::LiteralExtInstInteger(instruction)];
        ops.extend(operands);
        self.debug_info.push(Instruction::new(Op::ExtInst, Some(void.0), Some(id.0), ops));
        id
    }
    /// Replaces, in the module-scope debug instructions, each operand naming an id in `from`
    /// that is not a function of the module by `to` (a `DebugFunction` of a function that was
    /// never lowered names `DebugInfoNone` instead).
    pub fn debug_unresolved_functions(&mut self, from: &[SpvId], to: SpvId) {
        let missing: Vec<u32> = from.iter().filter(|f| !self.function_ids.contains(*f)).map(|f| f.0).collect();
        for inst in &mut self.debug_info {
            for o in &mut inst.operands {
                if let Operand::IdRef(id) = o {
                    if missing.contains(id) {
                        *id = to.0;
                    }
                }
            }
        }
    }
    /// `OpExtInst %void set instruction operands...` of a debug info set in the current block.
    pub fn debug_ext_inst_here(&mut self, set: SpvId, instruction: u32, operands: Vec<Operand>) -> Result<SpvId> {
        let void = self.ctx.type_void();
        let id = self.ctx.alloc_id();
        let mut ops = vec![Operand::IdRef(set.0), Operand::LiteralExtInstInteger(instruction)];
        ops.extend(operands);
        self.push(Instruction::new(Op::ExtInst, Some(void.0), Some(id.0), ops))?;
        Ok(id)
    }
    pub fn module_processed(&mut self, s: &str) {
        self.module_processed.push(Instruction::new(Op::ModuleProcessed, None, None, vec![Operand::from(s)]));
    }

    /// A module-scope `OpVariable` of pointer type `ptr_ty` in `storage`.
    pub fn global_variable(&mut self, ptr_ty: SpvId, storage: StorageClass, init: Option<SpvId>) -> SpvId {
        let id = self.ctx.alloc_id();
        let mut ops = vec![Operand::StorageClass(storage)];
        if let Some(i) = init {
            ops.push(Operand::IdRef(i.0));
        }
        self.globals.push(Instruction::new(Op::Variable, Some(ptr_ty.0), Some(id.0), ops));
        id
    }

    /// The storage class of module-scope variable `id`, if it is one this builder declared.
    pub fn global_storage(&self, id: SpvId) -> Option<StorageClass> {
        self.globals.iter().find(|i| i.result_id == Some(id.0)).and_then(|i| match i.operands.first() {
            Some(Operand::StorageClass(sc)) => Some(*sc),
            _ => None,
        })
    }

    /// Flags `id` as holding a min-precision value; the RelaxedPrecision pass decorates it.
    pub fn mark_relaxed_precision(&mut self, id: SpvId) {
        self.relaxed.insert(id);
    }

    pub(crate) fn register_function(&mut self, id: SpvId) {
        self.function_ids.insert(id);
    }

    /// Ends building: checks that no function is open and that entry points and execution modes
    /// name functions of the module, then lays the sections out in SPIR-V's required order.
    pub fn finish(mut self) -> Result<BuiltModule> {
        if self.current.is_some() {
            return Err(BuildError::FunctionAlreadyOpen);
        }
        for ep in &self.entry_points {
            if !self.function_ids.contains(&ep.function) {
                return Err(BuildError::UnknownFunction(ep.function));
            }
        }
        for em in &self.execution_modes {
            if let Some(Operand::IdRef(f)) = em.operands.first() {
                if !self.function_ids.contains(&SpvId(*f)) {
                    return Err(BuildError::UnknownFunction(SpvId(*f)));
                }
            }
        }
        let (names, annotations, mut decls) = self.ctx.take_sections();
        decls.append(&mut self.globals);
        if !self.debug_info.is_empty() {
            // dxc's order of the debug instructions and of the strings they name.
            let opencl = self.ext_imports.iter().any(|(n, _)| n == "OpenCL.DebugInfo.100");
            let sorted = crate::debug_order::sort(std::mem::take(&mut self.debug_info), opencl);
            let others: Vec<&Instruction> = self.functions.iter().flat_map(|f| f.all_inst_iter()).collect();
            crate::debug_order::order_strings(&mut self.debug_source, &sorted, &others);
            decls.extend(sorted);
        }
        let mut header = dr::ModuleHeader::new(self.ctx.bound());
        let (major, minor) = self.target.spirv_version();
        header.set_version(major, minor);
        header.generator = self.generator;
        let module = dr::Module {
            header: Some(header),
            capabilities: self
                .capabilities
                .iter()
                .map(|&c| Instruction::new(Op::Capability, None, None, vec![Operand::Capability(c)]))
                .collect(),
            extensions: self
                .extensions
                .iter()
                .map(|e| Instruction::new(Op::Extension, None, None, vec![Operand::from(e.as_str())]))
                .collect(),
            ext_inst_imports: self
                .ext_imports
                .iter()
                .map(|(n, id)| Instruction::new(Op::ExtInstImport, None, Some(id.0), vec![Operand::from(n.as_str())]))
                .collect(),
            memory_model: Some(Instruction::new(
                Op::MemoryModel,
                None,
                None,
                vec![Operand::AddressingModel(self.addressing), Operand::MemoryModel(self.memory)],
            )),
            entry_points: self
                .entry_points
                .iter()
                .map(|ep| {
                    let mut ops = vec![
                        Operand::ExecutionModel(ep.model),
                        Operand::IdRef(ep.function.0),
                        Operand::from(ep.name.as_str()),
                    ];
                    ops.extend(ep.interface.iter().map(|i| Operand::IdRef(i.0)));
                    Instruction::new(Op::EntryPoint, None, None, ops)
                })
                .collect(),
            execution_modes: self.execution_modes,
            debug_string_source: self.debug_source,
            debug_names: names,
            debug_module_processed: self.module_processed,
            annotations,
            types_global_values: decls,
            functions: self.functions,
        };
        Ok(BuiltModule { module, target: self.target, relaxed_precision: self.relaxed.into_iter().collect() })
    }
}
