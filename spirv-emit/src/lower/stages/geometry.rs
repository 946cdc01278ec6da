//! Geometry shaders: execution modes from `[maxvertexcount]`, `[instance]`, the input primitive
//! qualifier and the output stream type (in DXC's order), and the stream methods: `Append(v)`
//! writes `v` to the stream's stage output variables and emits `OpEmitVertex`; `RestartStrip()`
//! is `OpEndPrimitive`.

use super::super::{unsupported, Lowerer, R};
use super::attr_ints;
use crate::id::SpvId;
use hlslc_frontend::ast::Modifier;
use hlslc_sema::intrinsics::IntrinsicOp as I;
use hlslc_sema::tast::{EntryPoint, ExprId, Stage};
use hlslc_sema::types::{ObjectKind, Type};
use spirv::{ExecutionMode, Op};

impl<'m> Lowerer<'m> {
    pub(crate) fn geometry_modes(&mut self, ep: &EntryPoint, wrapper: SpvId) -> R<()> {
        let f = self.m.func(ep.func);
        let Some(max) = attr_ints(f, "maxvertexcount").and_then(|v| v.first().copied()) else {
            return Err(super::super::LowerError {
                message: "geometry entry point must have a valid maxvertexcount attribute".into(),
                span: Some(f.span),
                notes: Vec::new(),
            });
        };
        self.b.execution_mode(wrapper, ExecutionMode::OutputVertices, &[max as u32]);
        let invocations = attr_ints(f, "instance").and_then(|v| v.first().copied()).unwrap_or(1);
        self.b.execution_mode(wrapper, ExecutionMode::Invocations, &[invocations as u32]);
        let (mut output, mut input) = (None, None);
        for &p in &f.params {
            let var = self.m.var(p);
            if let Type::Object { kind, .. } = self.m.types.get(var.ty) {
                let mode = match kind {
                    ObjectKind::PointStream => Some(ExecutionMode::OutputPoints),
                    ObjectKind::LineStream => Some(ExecutionMode::OutputLineStrip),
                    ObjectKind::TriangleStream => Some(ExecutionMode::OutputTriangleStrip),
                    _ => None,
                };
                if output.is_none() {
                    output = mode;
                }
            }
            let mode = match var.primitive {
                Some(Modifier::Point) => Some(ExecutionMode::InputPoints),
                Some(Modifier::Line) => Some(ExecutionMode::InputLines),
                Some(Modifier::Triangle) => Some(ExecutionMode::Triangles),
                Some(Modifier::LineAdj) => Some(ExecutionMode::InputLinesAdjacency),
                Some(Modifier::TriangleAdj) => Some(ExecutionMode::InputTrianglesAdjacency),
                _ => None,
            };
            if input.is_none() {
                input = mode;
            }
        }
        let Some(output) = output else {
            return unsupported("a geometry shader without an output stream parameter", Some(f.span));
        };
        let Some(input) = input else {
            return unsupported("a geometry shader without an input primitive qualifier", Some(f.span));
        };
        // DXC adds the output mode while visiting the stream parameter, which usually comes last.
        self.b.execution_mode(wrapper, input, &[]);
        self.b.execution_mode(wrapper, output, &[]);
        Ok(())
    }

    /// `stream.Append(v)` and `stream.RestartStrip()`.
    pub(crate) fn stream_method(&mut self, op: I, args: &[ExprId], e: ExprId) -> R<Option<SpvId>> {
        if self.stage != Some(Stage::Geometry) {
            return unsupported("stream output objects outside a geometry shader", self.expr_span(e));
        }
        match op {
            I::MethodAppend => {
                let Some(tree) = self.stream_out.clone() else {
                    return unsupported("Append on a stream that is not an entry point parameter", self.expr_span(e));
                };
                let v = self.rvalue(args[0])?;
                self.store_output(Stage::Geometry, &tree, v)?;
                self.b.void(Op::EmitVertex, vec![])?;
            }
            I::MethodRestartStrip => self.b.void(Op::EndPrimitive, vec![])?,
            _ => return Ok(None),
        }
        Ok(Some(SpvId(0)))
    }
}
