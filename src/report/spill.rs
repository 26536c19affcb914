//! A scenario's distribution rows written to `distributions.csv`'s table
//! as each case is evaluated, in an anonymous temporary file, and dropped
//! from the results unless a chart may draw them: every other writer reads
//! only the metrics, and the rows were the largest part of a result, so a
//! 100,000-case sweep no longer holds them all: memory
//! stays under about 1 GB whatever the case count.

use std::fs::File;
use std::io::{BufWriter, Seek, SeekFrom, Write};

use anyhow::Context;
use rustc_hash::FxHashMap;

use super::chart;
use super::csv::DistributionsWriter;
use super::CaseResult;
use crate::systems::System;

/// `distributions.csv` as written while the scenario ran.
#[derive(Debug)]
pub struct SpilledTable {
    file: File,
}

impl SpilledTable {
    /// Copies the whole table to `out`.
    pub fn copy_to(&self, out: &mut dyn Write) -> anyhow::Result<()> {
        let context = "cannot read back the distributions table";
        let mut file = &self.file;
        file.seek(SeekFrom::Start(0)).context(context)?;
        std::io::copy(&mut file, out).context(context)?;
        Ok(())
    }
}

/// The table being written, and how many cases of each system have been
/// seen (charts draw only a system's first cases).
pub struct DistributionSpill {
    table: DistributionsWriter<BufWriter<File>>,
    cases_seen: FxHashMap<System, usize>,
}

impl DistributionSpill {
    /// An empty table in a new anonymous temporary file (removed by the
    /// system when the run ends, however it ends).
    pub fn new() -> anyhow::Result<DistributionSpill> {
        let file = tempfile::tempfile()
            .context("cannot create a temporary file for the distributions table")?;
        Ok(DistributionSpill {
            table: DistributionsWriter::new(BufWriter::new(file))?,
            cases_seen: FxHashMap::default(),
        })
    }

    /// Writes the rows of one case's results (one, or two with `--method
    /// both`) and drops them from the results unless a chart may draw the case.
    pub fn take(&mut self, results: &mut [CaseResult]) -> anyhow::Result<()> {
        for result in results.iter() {
            self.table.add(result)?;
        }
        let Some(first) = results.first() else {
            return Ok(());
        };
        let seen = self.cases_seen.entry(first.system).or_default();
        let charted = chart::may_draw(*seen);
        *seen += 1;
        if !charted {
            drop_rows(results);
        }
        Ok(())
    }

    /// The finished table.
    pub fn finish(self) -> anyhow::Result<SpilledTable> {
        let file = self
            .table
            .finish()?
            .into_inner()
            .map_err(|e| e.into_error())
            .context("cannot write the distributions table")?;
        Ok(SpilledTable { file })
    }
}

/// Frees the distribution rows of results nothing will read them from.
pub fn drop_rows(results: &mut [CaseResult]) {
    for result in results {
        result.rows = Vec::new();
    }
}
