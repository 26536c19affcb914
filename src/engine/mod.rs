//! The two ways oddsmith answers a question: the Monte Carlo engine samples a
//! system's trials in parallel, reproducibly; the exact helpers give systems a
//! shared work budget so an exact method can refuse, quickly, a case too large
//! to finish in about a second, and the chain engine plays a mechanic of
//! several steps exactly, state by state, within that budget.

pub(crate) mod chain;
pub mod cost;
pub mod exact;
pub mod monte_carlo;
pub mod rng;
