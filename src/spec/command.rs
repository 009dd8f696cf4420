//! `kobana-dunning spec diff`: which specs to read, and the exit code.
//!
//! - `spec diff OLD NEW`: two files.
//! - `spec diff --base REF [NEW]`: OLD is `openapi/v1.yaml` as committed at REF; NEW defaults to
//!   the working tree's. No such commit (the first commit has no `HEAD~1`) is said and passes.
//!
//! Exit codes: 0 nothing breaking, 1 something breaking, 2 a usage error or a spec that cannot
//! be read (or that the generator refuses).

use std::io::Write;
use std::path::{Path, PathBuf};

use super::git::{self, Base};
use super::report::{self, Format};

/// Nothing breaking (or nothing to compare).
pub const EXIT_COMPATIBLE: u8 = 0;
/// At least one breaking change.
pub const EXIT_BREAKING: u8 = 1;
/// A usage error, or a spec that cannot be read.
pub const EXIT_USAGE: u8 = 2;

/// The command's arguments, as parsed by the CLI.
#[derive(Debug, Clone)]
pub struct DiffArgs {
    /// OLD and NEW; with `base`, at most NEW.
    pub files: Vec<PathBuf>,
    /// A git ref whose committed spec is OLD.
    pub base: Option<String>,
    /// The output format.
    pub format: Format,
}

/// Runs the command: the report on `out`, problems on `err`; the exit code.
pub fn run(args: &DiffArgs, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    match specs(args) {
        Err(message) => {
            let _ = writeln!(err, "error: {message}");
            EXIT_USAGE
        }
        Ok(Specs::NoBase(why)) => {
            let note = format!("no base to compare with: {why}; nothing to check");
            match args.format {
                Format::Text => {
                    let _ = writeln!(out, "{note}");
                }
                Format::Json => {
                    let _ = writeln!(err, "{note}");
                    let _ = out.write_all(report::render(&[], Format::Json).as_bytes());
                }
            }
            EXIT_COMPATIBLE
        }
        Ok(Specs::Pair { old, new }) => match super::diff(&old.1, &new.1) {
            Err(super::DiffError::Old(e)) => {
                let _ = writeln!(err, "error: {} (OLD): {e}", old.0);
                EXIT_USAGE
            }
            Err(super::DiffError::New(e)) => {
                let _ = writeln!(err, "error: {} (NEW): {e}", new.0);
                EXIT_USAGE
            }
            Ok(changes) => {
                let _ = out.write_all(report::render(&changes, args.format).as_bytes());
                if changes.iter().any(|c| c.breaking) { EXIT_BREAKING } else { EXIT_COMPATIBLE }
            }
        },
    }
}

/// The two texts to compare, each with the name errors give it.
enum Specs {
    Pair { old: (String, String), new: (String, String) },
    NoBase(String),
}

fn read(path: &Path) -> Result<(String, String), String> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {name}: {e}"))?;
    Ok((name, text))
}

fn specs(args: &DiffArgs) -> Result<Specs, String> {
    match (&args.base, args.files.as_slice()) {
        (None, [old, new]) => Ok(Specs::Pair { old: read(old)?, new: read(new)? }),
        (None, _) => Err("spec diff takes two files, OLD NEW, or --base <git ref> [NEW]".into()),
        (Some(reference), files @ ([] | [_])) => {
            let new = match files {
                [new] => new.clone(),
                _ => git::working_tree_spec()?,
            };
            // NEW is read first: a missing base must not hide an unreadable NEW.
            let new = read(&new)?;
            match git::spec_at(reference)? {
                Base::Missing(why) => Ok(Specs::NoBase(why)),
                Base::Spec(text) => {
                    Ok(Specs::Pair { old: (format!("{} at {reference}", git::SPEC_PATH), text), new })
                }
            }
        }
        (Some(_), _) => Err("with --base, spec diff takes at most one file: NEW".into()),
    }
}
