//! hlslc-dxil (filled in by its own issue).
