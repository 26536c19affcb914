//! Writing a report folder as a whole (docs/reports.md: "a file is written whole or
//! not at all", here for the folder too). The new files go into a fresh
//! sibling folder, which then takes the old folder's place by two renames,
//! so a failure at any point (a full disk, a signal the watchdog cannot
//! wait out) leaves the old folder as it was, never new tables beside old
//! charts. A lock on the parent folder makes a second run into the same
//! folder wait until the first has finished, so the folder never mixes two
//! runs.
//!
//! What the user keeps in a report folder survives: anything this run does
//! not write is carried into the new folder, except the charts an earlier
//! run of oddsmith drew that this run did not (`prune`: only in a folder
//! oddsmith wrote before, one with `run.json`, and only regular files named
//! like oddsmith's charts, [`super::chart::is_chart_file`]).

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context;

use super::FolderFile;

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
    /// note while another run holds it.
    pub fn take(parent: &Path, dir: &Path) -> anyhow::Result<ParentLock> {
        let file = File::open(parent)
            .with_context(|| format!("cannot open {} to lock it", parent.display()))?;
        match file.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                crate::messages::say(format_args!(
                    "waiting: another oddsmith is writing into {}",
                    parent.display()
                ));
                file.lock()
                    .with_context(|| format!("cannot lock {}", parent.display()))?;
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

/// Writes one file of the report into the new folder, created afresh
/// (the folder is new and ours, so nothing can be in the way).
fn write_file(path: &Path, file: &FolderFile<'_>) -> anyhow::Result<()> {
    let mut out = std::io::BufWriter::new(File::create_new(path)?);
    file.write_to(&mut out)?;
    out.flush()?;
    Ok(())
}

/// A fresh, empty, uniquely named folder beside the report folder; removed
/// again if dropped before [`tempfile::TempDir::keep`].
fn sibling(parent: &Path, name: &str, role: &str) -> anyhow::Result<tempfile::TempDir> {
    let prefix = format!(".{name}.{role}-");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix);
    // A report folder is for publishing: 0777 less the umask, as
    // `create_dir` makes it, not tempfile's private 0700.
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o777));
    builder
        .tempdir_in(parent)
        .with_context(|| format!("cannot create a folder in {}", parent.display()))
}

/// Brings an entry of the old folder into the new one: a regular file as a
/// hard link (a copy where links are not possible), a symlink as the same
/// link. Folders are moved later, at the swap ([`move_folders`]).
fn carry(from: &Path, to: &Path, file_type: std::fs::FileType) -> std::io::Result<()> {
    if file_type.is_symlink() {
        #[cfg(unix)]
        return std::os::unix::fs::symlink(std::fs::read_link(from)?, to);
        #[cfg(not(unix))]
        return std::fs::copy(from, to).map(|_| ());
    }
    std::fs::hard_link(from, to).or_else(|_| std::fs::copy(from, to).map(|_| ()))
}

/// Moves `names` (folders) from one folder to another, stopping at the
/// first failure; returns the names moved.
fn move_folders(names: &[String], from: &Path, to: &Path) -> (Vec<String>, std::io::Result<()>) {
    let mut moved = Vec::new();
    for name in names {
        if let Err(e) = std::fs::rename(from.join(name), to.join(name)) {
            return (moved, Err(e));
        }
        moved.push(name.clone());
    }
    (moved, Ok(()))
}

/// Writes the report folder `dir` as a whole: its `files`, and what the old
/// folder held that this run does not write (less old charts, with
/// `prune_charts`).
pub fn write_folder(
    dir: &Path,
    files: &[FolderFile<'_>],
    prune_charts: bool,
    held: Option<&ParentLock>,
) -> anyhow::Result<()> {
    // A symlinked report folder stays a symlink: its target is replaced.
    let dir = match std::fs::symlink_metadata(dir) {
        Ok(meta) if meta.file_type().is_symlink() => std::fs::canonicalize(dir)
            .with_context(|| format!("cannot follow the report folder {}", dir.display()))?,
        _ => dir.to_path_buf(),
    };
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .with_context(|| format!("{} cannot be a report folder", dir.display()))?;
    let parent = dir
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
        .to_path_buf();
    std::fs::create_dir_all(&parent)
        .with_context(|| format!("cannot create the report folder {}", dir.display()))?;
    let _lock = match held {
        Some(held) if held.holds(&parent) => None,
        _ => Some(ParentLock::take(&parent, &dir)?),
    };

    let fresh = sibling(&parent, &name, "new")?;
    for file in files {
        write_file(&fresh.path().join(&file.name), file)
            .with_context(|| format!("cannot write {}", dir.join(&file.name).display()))?;
    }
    let old_exists = match std::fs::symlink_metadata(&dir) {
        Ok(meta) if meta.is_dir() => true,
        Ok(_) => anyhow::bail!("{} exists and is not a folder", dir.display()),
        Err(_) => false,
    };
    let mut folders = Vec::new();
    if old_exists {
        let ours = dir.join("run.json").is_file();
        let entries = std::fs::read_dir(&dir)
            .with_context(|| format!("cannot list the report folder {}", dir.display()))?;
        for entry in entries {
            let entry = entry
                .with_context(|| format!("cannot list the report folder {}", dir.display()))?;
            let file = entry.file_name().to_string_lossy().into_owned();
            let file_type = entry.file_type()?;
            let written = files.iter().any(|f| f.name == file);
            let pruned =
                prune_charts && ours && file_type.is_file() && super::chart::is_chart_file(&file);
            if written && !file_type.is_file() {
                // Never deleted with the old folder: it is not ours.
                anyhow::bail!(
                    "the report folder {} holds {file}, which is not a file, where the report writes a file: move it out of the way",
                    dir.display()
                );
            }
            if written || pruned {
                continue;
            }
            if file_type.is_dir() {
                folders.push(file);
            } else {
                carry(&entry.path(), &fresh.path().join(&file), file_type)
                    .with_context(|| format!("cannot keep {} in the new report", file))?;
            }
        }
    }

    // The swap. Until the new folder is in place, every step is undone on
    // failure; the old folder is only deleted once it has been replaced.
    let fresh = fresh.keep();
    let undo_fresh = |e: anyhow::Error| {
        let _ = std::fs::remove_dir_all(&fresh);
        e
    };
    if !old_exists {
        return std::fs::rename(&fresh, &dir)
            .with_context(|| format!("cannot create the report folder {}", dir.display()))
            .map_err(undo_fresh);
    }
    let (moved, result) = move_folders(&folders, &dir, &fresh);
    if let Err(e) = result {
        let _ = move_folders(&moved, &fresh, &dir);
        return Err(undo_fresh(anyhow::Error::new(e).context(format!(
            "cannot move the folders kept in {}",
            dir.display()
        ))));
    }
    let retired = sibling(&parent, &name, "old").map_err(undo_fresh)?.keep();
    // Renaming a folder onto an empty one replaces it.
    if let Err(e) = std::fs::rename(&dir, &retired) {
        let _ = move_folders(&moved, &fresh, &dir);
        let _ = std::fs::remove_dir(&retired);
        return Err(undo_fresh(anyhow::Error::new(e).context(format!(
            "cannot replace the report folder {}",
            dir.display()
        ))));
    }
    if let Err(e) = std::fs::rename(&fresh, &dir) {
        let _ = std::fs::rename(&retired, &dir);
        let _ = move_folders(&moved, &fresh, &dir);
        return Err(undo_fresh(anyhow::Error::new(e).context(format!(
            "cannot replace the report folder {}",
            dir.display()
        ))));
    }
    // The old folder is out of the way; failing to delete it loses nothing.
    if std::fs::remove_dir_all(&retired).is_err() {
        crate::messages::say(format_args!(
            "note: the previous report is left in {}",
            retired.display()
        ));
    }
    Ok(())
}
