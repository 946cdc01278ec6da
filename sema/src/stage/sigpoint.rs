//! DXIL's signature points and how each system value is interpreted at each of them (the
//! `SemanticInterpretationKind` table of `DXIL.rst`, "Semantic Interpretations"): a semantic
//! whose interpretation is `NA` cannot be used there, whichever back end compiles it.

use crate::entry::SystemValue;

/// Where a stage variable sits (`SigPointKind`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum SigPoint {
    VSIn,
    VSOut,
    /// Patch constant function inputs other than the patches.
    PCIn,
    /// Hull shader inputs other than the `InputPatch`.
    HSIn,
    /// Hull shader control points (`InputPatch` elements).
    HSCPIn,
    /// Hull shader control point output.
    HSCPOut,
    /// Patch constant function outputs.
    PCOut,
    /// Domain shader inputs other than the `OutputPatch`: patch constants and system values.
    DSIn,
    /// Domain shader control points (`OutputPatch` elements).
    DSCPIn,
    DSOut,
    /// Geometry shader per-vertex inputs (the primitive-qualified array).
    GSVIn,
    /// Geometry shader inputs other than the vertices.
    GSIn,
    GSOut,
    PSIn,
    PSOut,
    CSIn,
    MSIn,
    /// Mesh shader `out vertices`.
    MSOut,
    /// Mesh shader `out primitives`.
    MSPOut,
    ASIn,
}

impl SigPoint {
    /// The column of the table.
    fn column(self) -> usize {
        self as usize
    }
}

/// `SemanticInterpretationKind`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Interpretation {
    /// Not available: an error to use.
    NA,
    SV,
    SGV,
    Arb,
    NotInSig,
    NotPacked,
    Target,
    TessFactor,
    Shadow,
    ClipCull,
}

/// The table, one row per semantic kind (`Arbitrary` first, then [`SystemValue::ALL`] order), one
/// column per [`SigPoint`]. A cell is `NA`, or a kind with an optional `_MN` minimum shader model
/// (below it the cell is `NA`).
const TABLE: &str = "
Arbitrary              Arb          Arb      NA           NA           Arb      Arb      Arb        Arb          Arb      Arb      Arb      NA           Arb      Arb           NA            NA       NA       Arb      Arb       NA
VertexID               SV           NA       NA           NA           NA       NA       NA         NA           NA       NA       NA       NA           NA       NA            NA            NA       NA       NA       NA        NA
InstanceID             SV           Arb      NA           NA           Arb      Arb      NA         NA           Arb      Arb      Arb      NA           Arb      Arb           NA            NA       NA       NA       NA        NA
Position               Arb          SV       NA           NA           SV       SV       Arb        Arb          SV       SV       SV       NA           SV       SV            NA            NA       NA       SV       NA        NA
RenderTargetArrayIndex Arb          SV       NA           NA           SV       SV       Arb        Arb          SV       SV       SV       NA           SV       SV            NA            NA       NA       NA       SV        NA
ViewPortArrayIndex     Arb          SV       NA           NA           SV       SV       Arb        Arb          SV       SV       SV       NA           SV       SV            NA            NA       NA       NA       SV        NA
ClipDistance           Arb          ClipCull NA           NA           ClipCull ClipCull Arb        Arb          ClipCull ClipCull ClipCull NA           ClipCull ClipCull      NA            NA       NA       ClipCull NA        NA
CullDistance           Arb          ClipCull NA           NA           ClipCull ClipCull Arb        Arb          ClipCull ClipCull ClipCull NA           ClipCull ClipCull      NA            NA       NA       ClipCull NA        NA
OutputControlPointID   NA           NA       NA           NotInSig     NA       NA       NA         NA           NA       NA       NA       NA           NA       NA            NA            NA       NA       NA       NA        NA
DomainLocation         NA           NA       NA           NA           NA       NA       NA         NotInSig     NA       NA       NA       NA           NA       NA            NA            NA       NA       NA       NA        NA
PrimitiveID            NA           NA       NotInSig     NotInSig     NA       NA       NA         NotInSig     NA       NA       NA       Shadow       SGV      SGV           NA            NA       NA       NA       SV        NA
GSInstanceID           NA           NA       NA           NA           NA       NA       NA         NA           NA       NA       NA       NotInSig     NA       NA            NA            NA       NA       NA       NA        NA
SampleIndex            NA           NA       NA           NA           NA       NA       NA         NA           NA       NA       NA       NA           NA       Shadow_41     NA            NA       NA       NA       NA        NA
IsFrontFace            NA           NA       NA           NA           NA       NA       NA         NA           NA       NA       NA       NA           SGV      SGV           NA            NA       NA       NA       NA        NA
Coverage               NA           NA       NA           NA           NA       NA       NA         NA           NA       NA       NA       NA           NA       NotInSig_50   NotPacked_41  NA       NA       NA       NA        NA
InnerCoverage          NA           NA       NA           NA           NA       NA       NA         NA           NA       NA       NA       NA           NA       NotInSig_50   NA            NA       NA       NA       NA        NA
Target                 NA           NA       NA           NA           NA       NA       NA         NA           NA       NA       NA       NA           NA       NA            Target        NA       NA       NA       NA        NA
Depth                  NA           NA       NA           NA           NA       NA       NA         NA           NA       NA       NA       NA           NA       NA            NotPacked     NA       NA       NA       NA        NA
DepthLessEqual         NA           NA       NA           NA           NA       NA       NA         NA           NA       NA       NA       NA           NA       NA            NotPacked_50  NA       NA       NA       NA        NA
DepthGreaterEqual      NA           NA       NA           NA           NA       NA       NA         NA           NA       NA       NA       NA           NA       NA            NotPacked_50  NA       NA       NA       NA        NA
StencilRef             NA           NA       NA           NA           NA       NA       NA         NA           NA       NA       NA       NA           NA       NA            NotPacked_50  NA       NA       NA       NA        NA
DispatchThreadID       NA           NA       NA           NA           NA       NA       NA         NA           NA       NA       NA       NA           NA       NA            NA            NotInSig NotInSig NA       NA        NotInSig
GroupID                NA           NA       NA           NA           NA       NA       NA         NA           NA       NA       NA       NA           NA       NA            NA            NotInSig NotInSig NA       NA        NotInSig
GroupIndex             NA           NA       NA           NA           NA       NA       NA         NA           NA       NA       NA       NA           NA       NA            NA            NotInSig NotInSig NA       NA        NotInSig
GroupThreadID          NA           NA       NA           NA           NA       NA       NA         NA           NA       NA       NA       NA           NA       NA            NA            NotInSig NotInSig NA       NA        NotInSig
TessFactor             NA           NA       NA           NA           NA       NA       TessFactor TessFactor   NA       NA       NA       NA           NA       NA            NA            NA       NA       NA       NA        NA
InsideTessFactor       NA           NA       NA           NA           NA       NA       TessFactor TessFactor   NA       NA       NA       NA           NA       NA            NA            NA       NA       NA       NA        NA
ViewID                 NotInSig_61  NA       NotInSig_61  NotInSig_61  NA       NA       NA         NotInSig_61  NA       NA       NA       NotInSig_61  NA       NotInSig_61   NA            NA       NotInSig NA       NA        NA
Barycentrics           NA           NA       NA           NA           NA       NA       NA         NA           NA       NA       NA       NA           NA       NotPacked_61  NA            NA       NA       NA       NA        NA
ShadingRate            NA           SV_64    NA           NA           SV_64    SV_64    NA         NA           SV_64    SV_64    SV_64    NA           SV_64    SV_64         NA            NA       NA       NA       SV        NA
CullPrimitive          NA           NA       NA           NA           NA       NA       NA         NA           NA       NA       NA       NA           NA       NotInSig      NA            NA       NA       NA       NotPacked NA
StartVertexLocation    NotInSig_68  NA       NA           NA           NA       NA       NA         NA           NA       NA       NA       NA           NA       NA            NA            NA       NA       NA       NA        NA
StartInstanceLocation  NotInSig_68  NA       NA           NA           NA       NA       NA         NA           NA       NA       NA       NA           NA       NA            NA            NA       NA       NA       NA        NA
";

/// How a semantic (`None`: a user semantic) is interpreted at `point` in shader model
/// `sm` (`(6, 0)`).
pub fn interpretation(sv: Option<SystemValue>, point: SigPoint, sm: (u32, u32)) -> Interpretation {
    let row = sv.map_or(0, |s| s.dxil_kind() as usize);
    let Some(line) = TABLE.lines().filter(|l| !l.trim().is_empty()).nth(row) else { return Interpretation::NA };
    let Some(cell) = line.split_whitespace().nth(1 + point.column()) else { return Interpretation::NA };
    let (kind, min) = match cell.split_once('_') {
        Some((k, v)) => (k, v.parse::<u32>().ok().map(|v| (v / 10, v % 10))),
        None => (cell, None),
    };
    if min.is_some_and(|m| sm < m) {
        return Interpretation::NA;
    }
    use Interpretation::*;
    match kind {
        "SV" => SV,
        "SGV" => SGV,
        "Arb" => Arb,
        "NotInSig" => NotInSig,
        "NotPacked" => NotPacked,
        "Target" => Target,
        "TessFactor" => TessFactor,
        "Shadow" => Shadow,
        "ClipCull" => ClipCull,
        _ => NA,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Interpretation::*;

    #[test]
    fn table_rows_and_columns() {
        let rows: Vec<&str> = TABLE.lines().filter(|l| !l.trim().is_empty()).collect();
        assert_eq!(rows.len(), 1 + SystemValue::ALL.len());
        for (i, r) in rows.iter().enumerate().skip(1) {
            let name = r.split_whitespace().next().unwrap();
            assert!(SystemValue::ALL[i - 1].name()[3..].eq_ignore_ascii_case(name), "{name}");
            assert_eq!(r.split_whitespace().count(), 21, "{name}");
        }
        assert_eq!(interpretation(Some(SystemValue::Position), SigPoint::PSOut, (6, 0)), NA);
        assert_eq!(interpretation(Some(SystemValue::Position), SigPoint::VSOut, (6, 0)), SV);
        assert_eq!(interpretation(None, SigPoint::PSOut, (6, 0)), NA);
        assert_eq!(interpretation(Some(SystemValue::Target), SigPoint::PSOut, (6, 0)), Target);
        assert_eq!(interpretation(Some(SystemValue::ShadingRate), SigPoint::VSOut, (6, 3)), NA);
        assert_eq!(interpretation(Some(SystemValue::ShadingRate), SigPoint::VSOut, (6, 4)), SV);
        assert_eq!(interpretation(Some(SystemValue::ViewID), SigPoint::PSIn, (6, 1)), NotInSig);
    }
}
