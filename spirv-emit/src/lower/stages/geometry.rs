//! Geometry shaders: execution modes from `[maxvertexcount]`, `[instance]`, the input primitive
//! qualifier and the output stream type (in DXC's order), and the stream methods: `Append(v)`
//! writes `v` to the stream's stage output variables and emits `OpEmitVertex`; `RestartStrip()`
//! is `OpEndPrimitive`.

use super::super::{unsupported, Lowerer, R};
use crate::id::SpvId;
use hlslc_sema::intrinsics::IntrinsicOp as I;
use hlslc_sema::entry::{GsInput, GsOutput};
use hlslc_sema::tast::{EntryPoint, ExprId, Stage};
use spirv::{ExecutionMode, Op};

impl<'m> Lowerer<'m> {
    pub(crate) fn geometry_modes(&mut self, ep: &EntryPoint, wrapper: SpvId) -> R<()> {
        let f = self.m.func(ep.func);
        let Some(gs) = ep.geometry.clone() else {
            return Err(super::super::LowerError {
                fatal: false,
                message: "geometry entry point must have a valid maxvertexcount attribute".into(),
                span: Some(f.span),
                notes: Vec::new(),
            });
        };
        self.b.execution_mode(wrapper, ExecutionMode::OutputVertices, &[gs.max_vertex_count as u32]);
        self.b.execution_mode(wrapper, ExecutionMode::Invocations, &[gs.instance_count as u32]);
        let Some(output) = gs.output else {
            return unsupported("a geometry shader without an output stream parameter", Some(f.span));
        };
        let Some(input) = gs.input else {
            return unsupported("a geometry shader without an input primitive qualifier", Some(f.span));
        };
        let input = match input {
            GsInput::Point => ExecutionMode::InputPoints,
            GsInput::Line => ExecutionMode::InputLines,
            GsInput::Triangle => ExecutionMode::Triangles,
            GsInput::LineAdj => ExecutionMode::InputLinesAdjacency,
            GsInput::TriangleAdj => ExecutionMode::InputTrianglesAdjacency,
        };
        let output = match output {
            GsOutput::Point => ExecutionMode::OutputPoints,
            GsOutput::Line => ExecutionMode::OutputLineStrip,
            GsOutput::Triangle => ExecutionMode::OutputTriangleStrip,
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
