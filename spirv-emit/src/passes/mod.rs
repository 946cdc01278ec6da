//! Whole-module passes, run after the emitter over the finished module.
