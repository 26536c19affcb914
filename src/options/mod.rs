//! Options, the one shape both scenario files and command-line flags are
//! turned into before a system reads them, in three concerns:
//! - [`raw`]: values as written, with where they were written;
//! - [`read`]: the [`Options`] of one case, read key by key by the system
//!   that owns them through typed accessors that check ranges and say what
//!   is allowed, so a rule is validated once whichever way it was given;
//! - [`messages`]: the words of every option error (a key as the user wrote
//!   it, "allowed: ...", "did you mean ...");
//!
//! and [`key`], the descriptor each system declares per key, from which
//! the accessors take their ranges and choices.
//!
//! This module knows no system: the caller names the owner of the options
//! and may say which systems own a stray key (`systems::System::options`
//! does), so options sit below the systems that read them.

pub(crate) mod key;
pub(crate) mod messages;
pub(crate) mod raw;
pub(crate) mod read;

pub use key::{choice_names, Choice, Fallback, KeyDef, Kind, Phrase, Shown};
pub use messages::{allowed, closest, did_you_mean, key_name, KeyStyle};
pub use raw::{combination, combination_count, key_value_pairs, Entries, Pos, RawItem, RawValue};
pub use read::{Key, KeyOwners, OptionError, Options};
