//! Hull and domain shaders, in the shape DXC gives them (DXIL.rst, "Hull shader
//! representation"):
//!
//! - A hull shader is two functions: the control-point function (the entry, `@main`) and the
//!   patch constant function (named by `[patchconstantfunc("f")]`, defined under its mangled
//!   name), tied together by the HS state tag of the entry record. The control point function
//!   reads `InputPatch` elements with `loadInput` and a vertex index, its
//!   `SV_OutputControlPointID` with `outputControlPointID`, and writes its result with
//!   `storeOutput`. The patch constant function reads the same `InputPatch` elements with
//!   `loadInput`, the control-point outputs (`OutputPatch`) with `loadOutputControlPoint`, and
//!   writes its result (tess factors included) with `storePatchConstant`.
//! - A domain shader reads `SV_DomainLocation` with `domainLocation`, the control points
//!   (`OutputPatch`) with `loadInput` and a vertex index, the patch constant data with
//!   `loadPatchConstant`, and writes its vertex with `storeOutput`.
//! - `SV_PrimitiveID` is read with `primitiveID` in both stages (not in a signature).
//!
//! A patch parameter's value is a marker constant (like a geometry shader's stream), so passing
//! a patch on to helper functions works; indexing it loads the control point's elements.

use super::entry::{IoPiece, SigKind};
use super::{unsupported, Flat, Lowerer, R};
use crate::ir::Value;
use crate::ops::{DxilOp, Overload, ScalarKind as OK, Stage};
use hlslc_frontend::ast::StructKind;
use hlslc_frontend::Span;
use hlslc_sema::entry::SystemValue;
use hlslc_sema::tast::{self, ExprId};
use hlslc_sema::types::{ObjectKind, ScalarKind, Type, TypeId, TypeTable};

/// Hull and domain state collected while lowering (see [`crate::metadata::HsState`]).
#[derive(Clone, Debug)]
pub struct TessState {
    /// `DXIL::TessellatorDomain` (0 when not given).
    pub domain: u32,
    pub input_control_points: u32,
    pub output_control_points: u32,
    pub partitioning: u32,
    pub output_primitive: u32,
    pub max_tess_factor: f32,
    /// Lowering the patch constant function: results go to the patch constant signature.
    pub patch_constant_phase: bool,
    /// The input control point's elements once made (shared by both hull functions).
    pub(crate) input_cp: Option<Vec<(u32, IoPiece)>>,
    /// Patch constant rows in use, four columns each.
    pc_rows: Vec<[bool; 4]>,
}

impl Default for TessState {
    fn default() -> Self {
        TessState {
            domain: 0,
            input_control_points: 0,
            output_control_points: 0,
            partitioning: 0,
            output_primitive: 0,
            max_tess_factor: 64.0,
            patch_constant_phase: false,
            input_cp: None,
            pc_rows: Vec::new(),
        }
    }
}

/// A patch parameter: its marker, the load operation and the elements of one control point.
pub(crate) struct Patch {
    marker: Value,
    op: DxilOp,
    elements: Vec<(u32, IoPiece)>,
}

/// Number of edge and inside tess factors of a domain.
fn tess_factor_rows(domain: u32) -> (u32, u32) {
    match domain {
        1 => (2, 0),
        2 => (3, 1),
        3 => (4, 2),
        _ => (0, 0),
    }
}

/// The patch constant function sema resolved for a hull entry point.
pub(crate) fn patch_constant_function(ep: &tast::EntryPoint, entry: &tast::Function) -> R<tast::FuncId> {
    match &ep.hull {
        Some(h) => Ok(h.patch_constant_func),
        None => Err(super::LowerError { message: "hull entry point must have a valid patchconstantfunc attribute".into(), span: Some(entry.span) }),
    }
}

/// The MSVC-style decorated name DXC gives a free function (`\x01?f@@YA?AUS@@V?$InputPatch@UT@@$02@@@Z`).
pub(crate) fn mangled_name(m: &tast::Module, f: &tast::Function) -> String {
    let mut names = vec![f.name.clone()];
    let mut out = format!("\u{1}?{}@@YA", f.name);
    out += &match m.types.get(f.ret) {
        Type::Struct(_) | Type::Object { .. } | Type::Vector(..) | Type::Matrix { .. } => format!("?A{}", mangle_type(&m.types, f.ret, &mut names)),
        _ => mangle_type(&m.types, f.ret, &mut names),
    };
    if f.params.is_empty() {
        out += "XZ";
    } else {
        let mut seen: Vec<String> = Vec::new();
        for &p in &f.params {
            let t = mangle_type(&m.types, m.var(p).ty, &mut names);
            match seen.iter().position(|s| *s == t) {
                Some(i) if i < 10 => out += &i.to_string(),
                _ => {
                    out += &t;
                    if t.len() > 1 {
                        seen.push(t);
                    }
                }
            }
        }
        out += "@Z";
    }
    out
}

/// A name fragment: a back reference to an earlier one, or the name and `@`.
fn mangle_fragment(name: &str, names: &mut Vec<String>) -> String {
    match names.iter().position(|n| n == name) {
        Some(i) if i < 10 => i.to_string(),
        _ => {
            names.push(name.to_string());
            format!("{name}@")
        }
    }
}

fn mangle_number(n: u32) -> String {
    if (1..=10).contains(&n) {
        return format!("{}", n - 1);
    }
    let mut s = String::new();
    let mut v = n;
    while v > 0 {
        s.insert(0, (b'A' + (v % 16) as u8) as char);
        v /= 16;
    }
    if s.is_empty() {
        s.push('A');
    }
    s + "@"
}

fn mangle_type(types: &TypeTable, ty: TypeId, names: &mut Vec<String>) -> String {
    let scalar = |k: ScalarKind| match k {
        ScalarKind::Bool => "_N",
        ScalarKind::Int | ScalarKind::LitInt => "H",
        ScalarKind::UInt => "I",
        ScalarKind::Float | ScalarKind::LitFloat => "M",
        ScalarKind::Double => "N",
        ScalarKind::Int64 => "_J",
        ScalarKind::UInt64 => "_K",
        ScalarKind::Half | ScalarKind::Min16Float | ScalarKind::Min10Float => "$f16@",
        ScalarKind::Int16 | ScalarKind::Min16Int | ScalarKind::Min12Int => "F",
        ScalarKind::UInt16 | ScalarKind::Min16UInt => "G",
    };
    let template = |name: &str, args: String, names: &mut Vec<String>| {
        let inst = format!("?${name}@{args}@");
        mangle_fragment_template(&inst, names)
    };
    match types.get(ty) {
        Type::Scalar(k) => scalar(*k).to_string(),
        Type::Vector(k, n) => format!("V{}@", template("vector", format!("{}$0{}", scalar(*k), mangle_number(u32::from(*n))), names)),
        Type::Matrix { elem, rows, cols, .. } => format!(
            "V{}@",
            template("matrix", format!("{}$0{}$0{}", scalar(*elem), mangle_number(u32::from(*rows)), mangle_number(u32::from(*cols))), names)
        ),
        Type::Struct(s) => {
            let def = &types.structs[s.0 as usize];
            let tag = if def.kind == StructKind::Class { "V" } else { "U" };
            format!("{tag}{}@", mangle_fragment(&def.name, names))
        }
        Type::Object { kind, elem, count } => {
            let mut inner = Vec::new();
            let mut args = elem.map_or(String::new(), |e| mangle_type(types, e, &mut inner));
            if let Some(c) = count {
                args += &format!("$0{}", mangle_number(*c));
            }
            if args.is_empty() {
                format!("U{}@", mangle_fragment(kind.name(), names))
            } else {
                format!("V{}@", template(kind.name(), args, names))
            }
        }
        _ => "X".to_string(),
    }
}

fn mangle_fragment_template(inst: &str, names: &mut Vec<String>) -> String {
    match names.iter().position(|n| n == inst) {
        Some(i) if i < 10 => i.to_string(),
        _ => {
            names.push(inst.to_string());
            inst.to_string()
        }
    }
}

impl Lowerer<'_> {
    /// Reads the hull or domain state sema resolved for the entry point.
    pub(crate) fn begin_tessellation(&mut self) {
        let Some(ep) = self.t.entry.as_ref() else { return };
        let st = &mut self.sigs.tess;
        st.domain = ep.domain.map_or(0, |d| d as u32);
        if let Some(h) = &ep.hull {
            st.partitioning = h.partitioning.map_or(0, |p| p as u32);
            st.output_primitive = h.output_topology.map_or(0, |t| t as u32);
            if let Some(n) = h.output_control_points {
                st.output_control_points = n.max(0) as u32;
            }
            if let Some(x) = h.max_tess_factor {
                st.max_tess_factor = x;
            }
        }
    }

    /// Whether `ty` is an `InputPatch` or `OutputPatch`; its element type and count.
    pub(crate) fn patch_parts(&self, ty: TypeId) -> Option<(ObjectKind, TypeId, u32)> {
        match self.t.types.get(ty) {
            Type::Object { kind: kind @ (ObjectKind::InputPatch | ObjectKind::OutputPatch), elem: Some(e), count } => Some((*kind, *e, count.unwrap_or(0))),
            _ => None,
        }
    }

    /// Declares the patch parameter `var` of a hull or domain function; returns its marker.
    pub(crate) fn declare_patch(&mut self, var: &tast::Var, kind: ObjectKind, elem: TypeId, count: u32) -> R<Flat> {
        let span = Some(var.span);
        let stage = self.target.stage;
        let mut pieces = Vec::new();
        self.io_pieces(elem, None, var.interpolation, var.span, &mut pieces)?;
        let (op, elements) = match (stage, kind) {
            (Stage::Hull, ObjectKind::OutputPatch) => {
                // The control point function's outputs, matched by semantic.
                let mut elements = Vec::new();
                for piece in pieces {
                    let (name, index) = (piece.semantic.canonical_name(), piece.semantic.index());
                    let Some(e) = self.sigs.outputs.iter().find(|e| e.semantic.eq_ignore_ascii_case(name) && e.semantic_indices.first() == Some(&index)) else {
                        return unsupported(format!("an OutputPatch element `{}` the control point function does not write", piece.semantic), span);
                    };
                    elements.push((e.id, piece));
                }
                (DxilOp::LoadOutputControlPoint, elements)
            }
            (Stage::Hull | Stage::Domain, _) => {
                self.sigs.tess.input_control_points = count;
                let elements = match self.sigs.tess.input_cp.clone() {
                    Some(e) => e,
                    None => {
                        let mut elements = Vec::new();
                        for piece in pieces {
                            let id = self.add_element_to(&piece, SigKind::Input)?;
                            elements.push((id, piece));
                        }
                        self.sigs.tess.input_cp = Some(elements.clone());
                        elements
                    }
                };
                (DxilOp::LoadInput, elements)
            }
            _ => return unsupported(format!("`{}` outside hull and domain shaders", kind.name()), span),
        };
        let marker = self.ci32(0x7fff_0000 + self.patches.len() as i32);
        self.patches.push(Patch { marker, op, elements });
        Ok(vec![marker])
    }

    /// `patch[i]`: the control point's elements loaded with the patch's operation.
    pub(crate) fn patch_index(&mut self, base: ExprId, index: ExprId, e: ExprId) -> R<Flat> {
        let span = self.span(e);
        let marker = self.expr(base)?;
        let Some(pi) = self.patches.iter().position(|p| Some(&p.marker) == marker.first()) else {
            return unsupported("a patch that is not an entry-point parameter", span);
        };
        let idx = self.expr(index)?;
        let Some(&vertex) = idx.first() else { return unsupported("this patch index", span) };
        let ik = self.kind_of(self.t.expr(index).ty);
        let vertex = self.convert_scalar(vertex, ik, ScalarKind::UInt);
        let op = self.patches[pi].op;
        let elements = self.patches[pi].elements.clone();
        let mut out = Vec::new();
        for (id, piece) in &elements {
            out.extend(self.load_element_with(op, piece, *id, Some(vertex))?);
        }
        Ok(out)
    }

    /// Reads a hull or domain system value (`None` when `name` is not one of them).
    pub(crate) fn load_tess_system_value(&mut self, piece: &IoPiece, sv: Option<SystemValue>) -> R<Option<Flat>> {
        let span = Some(piece.span);
        let kinds = self.leaf_kinds(piece.ty);
        let i32o = Overload::Scalar(OK::I32);
        let v = match (self.target.stage, sv) {
            (Stage::Domain, Some(SystemValue::DomainLocation)) => {
                let mut out = Vec::new();
                for (i, k) in kinds.iter().enumerate() {
                    let c = self.ci8(i as i8);
                    let v = self.op(DxilOp::DomainLocation, Overload::Scalar(OK::Float), &[c], span)?;
                    out.push(self.convert_scalar(v, ScalarKind::Float, *k));
                }
                return Ok(Some(out));
            }
            (Stage::Hull, Some(SystemValue::OutputControlPointID)) if !self.sigs.tess.patch_constant_phase => self.op(DxilOp::OutputControlPointID, i32o, &[], span)?,
            (Stage::Hull | Stage::Domain, Some(SystemValue::PrimitiveID)) => self.op(DxilOp::PrimitiveID, i32o, &[], span)?,
            _ => return Ok(None),
        };
        Ok(Some(kinds.iter().map(|k| self.convert_scalar(v, ScalarKind::UInt, *k)).collect()))
    }

    /// Reads a domain shader's patch constant input `piece` with `loadPatchConstant`.
    pub(crate) fn load_patch_constant(&mut self, piece: &IoPiece) -> R<Flat> {
        let id = self.add_element_to(piece, SigKind::PatchConstant)?;
        self.load_element_with(DxilOp::LoadPatchConstant, piece, id, None)
    }

    /// Writes the patch constant function's result `piece` with `storePatchConstant`.
    pub(crate) fn store_patch_constant(&mut self, piece: &IoPiece, values: &[Value]) -> R<()> {
        let id = self.add_element_to(piece, SigKind::PatchConstant)?;
        self.store_element_with(DxilOp::StorePatchConstant, id, piece, values)
    }

    /// Places a patch constant element: tess factors in the last column of the first rows
    /// (edges, then inside factors), others first-fit in the rest; returns its id.
    pub(crate) fn add_patch_constant(&mut self, semantic: String, index: u32, sv: u8, comp: crate::metadata::ComponentType, rows: u32, cols: u8) -> u32 {
        let st = &mut self.sigs.tess;
        let (edges, inside) = tess_factor_rows(st.domain);
        if st.pc_rows.len() < (edges + inside) as usize {
            st.pc_rows.resize((edges + inside) as usize, [false, false, false, true]);
        }
        let (start_row, start_col) = match sv {
            25 => (0, 3),
            26 => (edges, 3),
            _ => {
                let fits = |r: u32, c: u8, grid: &Vec<[bool; 4]>| {
                    (r..r + rows).all(|row| (c..c + cols).all(|col| !grid.get(row as usize).is_some_and(|g| g[col as usize])))
                };
                let mut place = (0, 0);
                'search: for r in 0..=st.pc_rows.len() as u32 {
                    for c in 0..=(4 - cols.min(4)) {
                        if fits(r, c, &st.pc_rows) {
                            place = (r, c);
                            break 'search;
                        }
                    }
                }
                let need = (place.0 + rows) as usize;
                if st.pc_rows.len() < need {
                    st.pc_rows.resize(need, [false; 4]);
                }
                for row in place.0..place.0 + rows {
                    for col in place.1..place.1 + cols {
                        st.pc_rows[row as usize][col as usize] = true;
                    }
                }
                place
            }
        };
        let id = self.sigs.patch_constant.len() as u32;
        self.sigs.patch_constant.push(crate::metadata::SignatureElement {
            id,
            semantic,
            component_type: comp,
            system_value: sv,
            semantic_indices: (0..rows).map(|r| index + r).collect(),
            interpolation: crate::metadata::InterpolationMode::Undefined,
            rows,
            cols,
            start_row: Some(start_row),
            start_col,
            output_stream: None,
        });
        id
    }
}

/// The source position of a function, for laying functions out in source order as DXC does.
pub(crate) fn source_order(f: &tast::Function) -> (u32, u32) {
    let s: Span = f.span;
    (s.file.0, s.start)
}
