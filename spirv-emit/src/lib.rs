//! hlslc-spirv (filled in by its own issue).
