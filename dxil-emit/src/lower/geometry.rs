//! Geometry shaders: the input primitive's vertex arrays are read with `loadInput` and a vertex
//! index; each output stream parameter declares its own output signature elements (packed from
//! row 0, tagged with the stream number); `stream.Append(v)` stores `v`'s elements and emits
//! `emitStream`, `RestartStrip()` emits `cutStream`; the entry's state (`[maxvertexcount]`,
//! `[instance]`, input primitive, stream mask, output topology) becomes the GS state tag.

use super::entry::IoPiece;
use super::{unsupported, Flat, Lowerer, R};
use crate::ir::Value;
use crate::metadata::GsState;
use crate::ops::{DxilOp, Overload};
use hlslc_frontend::Span;
use hlslc_sema::intrinsics::IntrinsicOp as I;
use hlslc_sema::entry::GsInput;
use hlslc_sema::tast::{self, ExprId, Interpolation};
use hlslc_sema::types::{ObjectKind, Type, TypeId};

/// One output stream parameter: its marker value (the parameter's flattened "handle"), and its
/// signature elements with the pieces they were made from.
pub(crate) struct StreamOut {
    marker: Value,
    index: u32,
    elements: Vec<(u32, IoPiece)>,
}

/// Whether `kind` is a stream-output object.
pub(crate) fn is_stream(kind: ObjectKind) -> bool {
    matches!(kind, ObjectKind::PointStream | ObjectKind::LineStream | ObjectKind::TriangleStream)
}

impl Lowerer<'_> {
    /// Declares the output stream parameter of type `ty` (element type `elem`); returns the
    /// parameter's flattened value.
    pub(crate) fn declare_stream(&mut self, kind: ObjectKind, elem: Option<TypeId>, span: Span) -> R<Flat> {
        let Some(elem) = elem else { return unsupported("an output stream without an element type", Some(span)) };
        let index = self.streams.len() as u32;
        if index >= 4 {
            return unsupported("more than four output streams", Some(span));
        }
        let mut pieces = Vec::new();
        self.io_pieces(elem, None, Interpolation::default(), span, &mut pieces)?;
        self.sigs.restart_output_packing();
        let mut elements = Vec::new();
        for piece in pieces {
            let id = self.add_element(&piece, false)?;
            self.sigs.outputs[id as usize].output_stream = Some(index);
            elements.push((id, piece));
        }
        let topology = match kind {
            ObjectKind::PointStream => 1,
            ObjectKind::LineStream => 3,
            _ => 5,
        };
        if let Some(gs) = self.sigs.gs_state.as_mut() {
            gs.stream_mask |= 1 << index;
            if index == 0 {
                gs.output_topology = topology;
            }
        }
        let marker = self.ci32(index as i32);
        self.streams.push(StreamOut { marker, index, elements });
        Ok(vec![marker])
    }

    /// Starts the GS state from the geometry state sema resolved for the entry point.
    pub(crate) fn begin_geometry(&mut self, f: &tast::Function) -> R<()> {
        let Some(gs) = self.t.entry.as_ref().and_then(|e| e.geometry.clone()) else {
            return unsupported("a geometry shader without [maxvertexcount]", Some(f.span));
        };
        let Some(input) = gs.input else {
            return unsupported("a geometry shader without an input primitive qualifier", Some(f.span));
        };
        let input_primitive = match input {
            GsInput::Point => 1,
            GsInput::Line => 2,
            GsInput::Triangle => 3,
            GsInput::LineAdj => 6,
            GsInput::TriangleAdj => 7,
        };
        self.sigs.gs_state = Some(GsState {
            input_primitive,
            max_vertex_count: gs.max_vertex_count as u32,
            stream_mask: 0,
            output_topology: 0,
            instance_count: gs.instance_count as u32,
        });
        Ok(())
    }

    /// Reads the vertex array parameter `var` (`triangle VSOut v[3]`): each vertex's elements
    /// with `loadInput`'s vertex index, in the array's flattened order.
    pub(crate) fn load_vertex_array(&mut self, var: &tast::Var) -> R<Flat> {
        let Type::Array { elem, len: Some(n) } = self.t.types.get(var.ty).clone() else {
            return unsupported("an input primitive qualifier on a parameter that is not a sized array", Some(var.span));
        };
        let mut pieces = Vec::new();
        self.io_pieces(elem, var.semantic.as_ref(), var.interpolation, var.span, &mut pieces)?;
        let mut ids = Vec::new();
        for piece in &pieces {
            ids.push(self.add_element(piece, true)?);
        }
        let mut out = Vec::new();
        for vertex in 0..n {
            for (piece, id) in pieces.iter().zip(&ids) {
                let vtx = self.ci32(vertex as i32);
                out.extend(self.load_element(piece, *id, vtx)?);
            }
        }
        Ok(out)
    }

    /// `stream.Append(v)` and `stream.RestartStrip()`.
    pub(crate) fn stream_method(&mut self, op: I, obj: ExprId, args: &[ExprId], e: ExprId) -> R<Flat> {
        let span = self.span(e);
        let marker = self.expr(obj)?;
        let Some(si) = self.streams.iter().position(|s| Some(&s.marker) == marker.first()) else {
            return unsupported("a stream that is not an entry-point parameter", span);
        };
        let index = self.streams[si].index;
        match op {
            I::MethodAppend => {
                let Some(&arg) = args.first() else { return unsupported("Append without a value", span) };
                let vals = self.expr(arg)?;
                let elements: Vec<(u32, TypeId, Span)> = self.streams[si].elements.iter().map(|(id, p)| (*id, p.ty, p.span)).collect();
                let mut at = 0;
                for (i, (id, ty, _)) in elements.iter().enumerate() {
                    let n = self.flat_len(*ty);
                    if vals.len() < at + n {
                        return unsupported("an appended value that does not match the stream's element type", span);
                    }
                    let piece = self.streams[si].elements[i].1.clone();
                    self.store_element(*id, &piece, &vals[at..at + n])?;
                    at += n;
                }
                let s = self.ci8(index as i8);
                self.op(DxilOp::EmitStream, Overload::None, &[s], span)?;
            }
            I::MethodRestartStrip => {
                let s = self.ci8(index as i8);
                self.op(DxilOp::CutStream, Overload::None, &[s], span)?;
            }
            _ => return unsupported(format!("the stream method {op:?}"), span),
        }
        Ok(Vec::new())
    }
}
