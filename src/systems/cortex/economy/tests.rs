//! Tests of the scene's economy.
