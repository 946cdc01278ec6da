//! Builders for DXIL's named metadata (filled in below).
