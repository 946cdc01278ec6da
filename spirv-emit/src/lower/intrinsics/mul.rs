//! `mul(a, b)` in every shape, in DXC's form.
//!
//! Float matrices use the SPIR-V matrix instructions with the operands swapped (an HLSL row is
//! a SPIR-V column, so `mul(M, v)` is `OpVectorTimesMatrix v M`). Integer matrices are arrays
//! of row vectors in SPIR-V, which has no integer matrix instructions: DXC transposes the right
//! operand by hand and takes integer dot products of rows and columns; scalars are splat to
//! row vectors.

use super::super::layout::Layout;
use super::super::{unsupported, Lowerer, R};
use crate::id::SpvId;
use hlslc_sema::tast::ExprId;
use hlslc_sema::types::TypeId;
use spirv::Op;

impl<'m> Lowerer<'m> {
    pub(super) fn mul(&mut self, a: ExprId, b: ExprId, ty: TypeId) -> R<SpvId> {
        let (at, bt) = (self.m.expr(a).ty, self.m.expr(b).ty);
        let (Some(sa), Some(sb)) = (self.shape(at), self.shape(bt)) else {
            return unsupported("mul() on these types", self.expr_span(a));
        };
        let rty = self.ty(ty, Layout::Logical)?;
        let float = sa.kind.is_float();
        let (scalar_a, scalar_b) = (sa.count() == 1, sb.count() == 1);
        // A scalar times a vector reads the vector first.
        if scalar_a != scalar_b && !sa.is_matrix() && !sb.is_matrix() {
            let (vec, sc) = if scalar_a { (b, a) } else { (a, b) };
            let (v, s) = (self.rvalue(vec)?, self.rvalue(sc)?);
            if float {
                return Ok(self.b.binary(Op::VectorTimesScalar, rty, v, s)?);
            }
            let n = self.width_of(rty);
            let splat = self.b.composite_construct(rty, &vec![s; n as usize])?;
            let (x, y) = if scalar_a { (splat, v) } else { (v, splat) };
            return Ok(self.b.binary(Op::IMul, rty, x, y)?);
        }
        let (x, y) = (self.rvalue(a)?, self.rvalue(b)?);
        if float {
            let r = match (scalar_a, scalar_b, sa.is_matrix(), sb.is_matrix()) {
                (true, true, _, _) => self.b.binary(Op::FMul, rty, x, y)?,
                (true, false, _, _) => self.b.binary(Op::MatrixTimesScalar, rty, y, x)?,
                (false, true, _, _) => self.b.binary(Op::MatrixTimesScalar, rty, x, y)?,
                (false, false, false, false) => self.b.binary(Op::Dot, rty, x, y)?,
                // mul(v, M) = M^T v in SPIR-V terms: OpMatrixTimesVector M v.
                (false, false, false, true) => self.b.binary(Op::MatrixTimesVector, rty, y, x)?,
                // mul(M, v): OpVectorTimesMatrix v M.
                (false, false, true, false) => self.b.binary(Op::VectorTimesMatrix, rty, y, x)?,
                // mul(A, B) = (B^T A^T)^T: OpMatrixTimesMatrix B A.
                (false, false, true, true) => self.b.binary(Op::MatrixTimesMatrix, rty, y, x)?,
            };
            return Ok(r);
        }
        let elem = self.scalar_ty(sa.kind, Layout::Logical);
        match (scalar_a, scalar_b, sa.is_matrix(), sb.is_matrix()) {
            (true, true, _, _) => Ok(self.b.binary(Op::IMul, rty, x, y)?),
            // Scalar and matrix: the scalar splat to a row, times each row.
            (true, false, _, _) | (false, true, _, _) => {
                let (m, s, sm) = if scalar_a { (y, x, sb) } else { (x, y, sa) };
                let row_ty = self.vector_ty(sm.kind, sm.cols, Layout::Logical);
                let splat = self.b.composite_construct(row_ty, &vec![s; sm.cols as usize])?;
                let mut rows = Vec::new();
                for r in 0..sm.rows {
                    let row = self.b.composite_extract(row_ty, m, &[r])?;
                    rows.push(self.b.binary(Op::IMul, row_ty, row, splat)?);
                }
                Ok(self.b.composite_construct(rty, &rows)?)
            }
            (false, false, false, false) => self.int_dot(elem, x, y, sa.count()),
            // v * M: dot of v with each column of M.
            (false, false, false, true) => {
                let cols = self.int_transpose(y, sb.rows, sb.cols, sb.kind)?;
                let col_ty = self.vector_ty(sb.kind, sb.rows, Layout::Logical);
                let mut parts = Vec::new();
                for c in 0..sb.cols {
                    let col = self.b.composite_extract(col_ty, cols, &[c])?;
                    parts.push(self.int_dot(elem, x, col, sb.rows)?);
                }
                Ok(self.b.composite_construct(rty, &parts)?)
            }
            // M * v: dot of each row of M with v.
            (false, false, true, false) => {
                let row_ty = self.vector_ty(sa.kind, sa.cols, Layout::Logical);
                let mut parts = Vec::new();
                for r in 0..sa.rows {
                    let row = self.b.composite_extract(row_ty, x, &[r])?;
                    parts.push(self.int_dot(elem, row, y, sa.cols)?);
                }
                Ok(self.b.composite_construct(rty, &parts)?)
            }
            // A * B: dot of each row of A with each column of B.
            (false, false, true, true) => {
                let cols = self.int_transpose(y, sb.rows, sb.cols, sb.kind)?;
                let a_row = self.vector_ty(sa.kind, sa.cols, Layout::Logical);
                let b_col = self.vector_ty(sb.kind, sb.rows, Layout::Logical);
                let out_row = self.vector_ty(sa.kind, sb.cols, Layout::Logical);
                let mut rows = Vec::new();
                for r in 0..sa.rows {
                    let row = self.b.composite_extract(a_row, x, &[r])?;
                    let mut parts = Vec::new();
                    for c in 0..sb.cols {
                        let col = self.b.composite_extract(b_col, cols, &[c])?;
                        parts.push(self.int_dot(elem, row, col, sa.cols)?);
                    }
                    rows.push(self.b.composite_construct(out_row, &parts)?);
                }
                Ok(self.b.composite_construct(rty, &rows)?)
            }
        }
    }

    /// The transpose of an integer matrix (an array of `rows` row vectors): every element read
    /// in order, then the columns built and gathered in an array of `cols` vectors.
    fn int_transpose(
        &mut self,
        m: SpvId,
        rows: u32,
        cols: u32,
        kind: hlslc_sema::types::ScalarKind,
    ) -> R<SpvId> {
        let elem = self.scalar_ty(kind, Layout::Logical);
        let mut e = Vec::new();
        for r in 0..rows {
            for c in 0..cols {
                e.push(self.b.composite_extract(elem, m, &[r, c])?);
            }
        }
        let col_ty = self.vector_ty(kind, rows, Layout::Logical);
        let mut columns = Vec::new();
        for c in 0..cols {
            let parts: Vec<SpvId> = (0..rows).map(|r| e[(r * cols + c) as usize]).collect();
            columns.push(self.b.composite_construct(col_ty, &parts)?);
        }
        let arr = self.b.ctx.type_array(col_ty, cols, None);
        Ok(self.b.composite_construct(arr, &columns)?)
    }
}
