//! Writing a report folder (docs/reports.md: "a file is written whole or
//! not at all"). The folder itself is kept — its inode, mode and owner, and
//! a shell or another process working inside it — and its contents are
//! replaced file by file: every new file is first written whole under a
//! temporary name in the folder, and only once all are written is each
//! renamed over its old version. A failure while writing (a full disk, a
//! folder in the way) leaves the old files as they were, with no temporary
//! file left behind; the renames that follow cannot fail for want of space.
//! The folder is never renamed or removed, so a folder that is a mount
//! point, or the working directory of another process, is written like any
//! other.
//!
//! What oddsmith wrote is listed in a manifest, [`MANIFEST`], written with
//! the files. A later run deletes only what that list names and it did not
//! write again (the charts of cases no longer there, a table the scenario
//! no longer makes): a file the user, or another process, put in the folder
//! is never deleted, even one named like oddsmith's charts, and neither is
//! anything that is not a regular file.
//!
//! A lock on the parent folder makes a second run into the same folder wait
//! until the first has finished, so the folder never mixes two runs; a
//! Ctrl-C while waiting stops the run with nothing written.

use std::collections::BTreeSet;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use anyhow::Context;

use super::FolderFile;

/// The list of the files oddsmith wrote into a report folder, one name a
/// line, by name: the only files a later run may delete.
pub const MANIFEST: &str = ".oddsmith-files";

/// How often a run waiting for the lock looks for Ctrl-C.
const LOCK_POLL: Duration = Duration::from_millis(20);

/// The lock on a report folder's parent folder (an advisory `flock` on
/// the folder itself, so no lock file is left beside the reports), held
/// until dropped. Runs writing different folders of one parent wait for
/// each other too; writing is the short last step of a run.
/// `oddsmith report` holds it over all its folders and the index, so two
/// runs never leave an index of one beside folders of the other.
pub struct ParentLock {
    /// The parent folder, resolved, to tell whether a folder's parent is
    /// this one: a second lock on it from the same process would wait for
    /// itself.
    resolved: Option<PathBuf>,
    _file: File,
}

impl ParentLock {
    /// Takes the lock on `parent` (to write `dir` in it), waiting with a
    /// note while another run holds it; a Ctrl-C while waiting (`cancel`)
    /// returns [`crate::engine::monte_carlo::Interrupted`].
    pub fn take(parent: &Path, dir: &Path, cancel: &AtomicBool) -> anyhow::Result<ParentLock> {
        let file = File::open(parent)
            .with_context(|| format!("cannot open {} to lock it", parent.display()))?;
        let mut said = false;
        loop {
            match file.try_lock() {
                Ok(()) => break,
                Err(std::fs::TryLockError::WouldBlock) => {
                    if !said {
                        crate::messages::say(format_args!(
                            "waiting: another oddsmith is writing into {}",
                            parent.display()
                        ));
                        said = true;
                    }
                    crate::interrupt::check(cancel)?;
                    std::thread::sleep(LOCK_POLL);
                }
                Err(std::fs::TryLockError::Error(e)) => {
                    return Err(e).with_context(|| {
                        format!(
                            "cannot lock {} to write {}",
                            parent.display(),
                            dir.display()
                        )
                    });
                }
            }
        }
        Ok(ParentLock {
            resolved: std::fs::canonicalize(parent).ok(),
            _file: file,
        })
    }

    /// Whether this lock is on `parent`.
    fn holds(&self, parent: &Path) -> bool {
        self.resolved.is_some() && std::fs::canonicalize(parent).ok() == self.resolved
    }
}

/// A new file of the report, written whole under a temporary name in the
/// folder (removed if dropped before it is renamed into place).
fn write_temp(
    dir: &Path,
    name: &str,
    write: impl FnOnce(&mut dyn Write) -> anyhow::Result<()>,
) -> anyhow::Result<tempfile::TempPath> {
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    // Report files are for publishing: 0666 less the umask, as
    // `File::create` makes them, not tempfile's private 0600.
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    let temp = builder.tempfile_in(dir)?;
    let (file, path) = temp.into_parts();
    let mut out = std::io::BufWriter::new(file);
    write(&mut out)?;
    out.flush()?;
    Ok(path)
}

/// A name the manifest may hold: one plain file name of the folder (a
/// manifest edited by hand cannot point oddsmith outside it).
fn plain_name(name: &str) -> bool {
    !name.is_empty()
        && name != "."
        && name != ".."
        && name != MANIFEST
        && !name.contains(['/', '\\', '\0', '\n'])
}

/// The names the folder's manifest lists (none without one).
fn read_manifest(dir: &Path) -> BTreeSet<String> {
    std::fs::read_to_string(dir.join(MANIFEST))
        .map(|text| {
            text.lines()
                .filter(|name| plain_name(name))
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// The manifest's text for `names`.
fn manifest_text(names: &BTreeSet<String>) -> Vec<u8> {
    names
        .iter()
        .flat_map(|n| [n.as_str(), "\n"])
        .collect::<String>()
        .into_bytes()
}

/// Whether `path` is a regular file (not followed if a symlink).
fn is_regular_file(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|meta| meta.file_type().is_file())
}

/// Writes the report folder `dir`: its `files`, each replacing its old
/// version; the files an earlier run listed in [`MANIFEST`] that this run
/// does not write are deleted, except, without `prune_charts`
/// (`--no-charts`), the old charts. `held` is a lock the caller holds
/// already; otherwise the parent's lock is taken here, `cancel` stopping the
/// wait.
pub fn write_folder(
    dir: &Path,
    files: &[FolderFile<'_>],
    prune_charts: bool,
    held: Option<&ParentLock>,
    cancel: &AtomicBool,
) -> anyhow::Result<()> {
    // A symlinked report folder stays a symlink: its target is written.
    let dir = match std::fs::symlink_metadata(dir) {
        Ok(meta) if meta.file_type().is_symlink() => std::fs::canonicalize(dir)
            .with_context(|| format!("cannot follow the report folder {}", dir.display()))?,
        _ => dir.to_path_buf(),
    };
    if dir.file_name().is_none() {
        anyhow::bail!("{} cannot be a report folder", dir.display());
    }
    let parent = dir
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
        .to_path_buf();
    std::fs::create_dir_all(&parent)
        .with_context(|| format!("cannot create the report folder {}", dir.display()))?;
    let _lock = match held {
        Some(held) if held.holds(&parent) => None,
        _ => Some(ParentLock::take(&parent, &dir, cancel)?),
    };
    match std::fs::symlink_metadata(&dir) {
        Ok(meta) if meta.is_dir() => {}
        Ok(_) => anyhow::bail!("{} exists and is not a folder", dir.display()),
        Err(_) => std::fs::create_dir(&dir)
            .with_context(|| format!("cannot create the report folder {}", dir.display()))?,
    }
    for file in files {
        let path = dir.join(&file.name);
        if std::fs::symlink_metadata(&path).is_ok_and(|meta| !meta.file_type().is_file()) {
            // Never replaced: it is not ours.
            anyhow::bail!(
                "the report folder {} holds {}, which is not a file, where the report writes a file: move it out of the way",
                dir.display(),
                file.name
            );
        }
    }

    // What an earlier run wrote and this one does not: deleted after the
    // new files are in place (the old charts kept with `--no-charts`).
    let written: BTreeSet<String> = files.iter().map(|f| f.name.clone()).collect();
    let mut stale = Vec::new();
    let mut listed = written.clone();
    for name in read_manifest(&dir) {
        if written.contains(&name) || !is_regular_file(&dir.join(&name)) {
            continue;
        }
        if !prune_charts && super::chart::is_chart_file(&name) {
            listed.insert(name);
        } else {
            stale.push(name);
        }
    }

    // Every file written whole before any replaces its old version; on a
    // failure the temporary files are removed as they are dropped.
    let mut temps = Vec::with_capacity(files.len());
    for file in files {
        let temp = write_temp(&dir, &file.name, |out| file.write_to(out))
            .with_context(|| format!("cannot write {}", dir.join(&file.name).display()))?;
        temps.push((temp, file.name.as_str()));
    }
    let manifest = |names: &BTreeSet<String>| {
        write_temp(&dir, MANIFEST, |out| {
            Ok(out.write_all(&manifest_text(names))?)
        })
        .with_context(|| format!("cannot write {}", dir.join(MANIFEST).display()))
    };
    // Until the stale files are gone, the manifest lists them too, so a run
    // cut short here leaves none unlisted.
    let mut all = listed.clone();
    all.extend(stale.iter().cloned());
    let first = manifest(&all)?;
    let last = (all != listed).then(|| manifest(&listed)).transpose()?;

    let place = |temp: tempfile::TempPath, name: &str| {
        temp.persist(dir.join(name))
            .map_err(|e| e.error)
            .with_context(|| format!("cannot write {}", dir.join(name).display()))
    };
    place(first, MANIFEST)?;
    for (temp, name) in temps {
        place(temp, name)?;
    }
    for name in &stale {
        if let Err(e) = std::fs::remove_file(dir.join(name)) {
            crate::messages::say(format_args!(
                "note: cannot delete {} from an earlier run: {e}",
                dir.join(name).display()
            ));
        }
    }
    if let Some(last) = last {
        place(last, MANIFEST)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_manifest_names_only_plain_files_of_the_folder() {
        assert!(plain_name("cortex-odds.png"));
        for bad in ["", ".", "..", "../x", "/etc/passwd", "a\\b", MANIFEST] {
            assert!(!plain_name(bad), "{bad:?}");
        }
        let names: BTreeSet<String> = ["b.csv", "a.png"].map(String::from).into();
        assert_eq!(manifest_text(&names), b"a.png\nb.csv\n");
    }
}
