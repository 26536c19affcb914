//! Tests of extended and contested actions.
