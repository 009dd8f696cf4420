//! `spec diff --base <ref>`: the spec as committed at a git ref, read with the `git` command of
//! the repository the command runs in.

use std::path::PathBuf;
use std::process::Command;

/// The spec's path inside the repository.
pub const SPEC_PATH: &str = "openapi/v1.yaml";

/// The spec at a ref, or why there is none to compare with.
#[derive(Debug)]
pub enum Base {
    /// The spec's text at that commit.
    Spec(String),
    /// No base: the ref names no commit (as `HEAD~1` on the first commit), or the commit has
    /// no spec. Nothing to compare, which is not a failure.
    Missing(String),
}

fn git(args: &[&str]) -> Result<std::process::Output, String> {
    Command::new("git").args(args).output().map_err(|e| format!("cannot run git: {e}"))
}

fn stdout_line(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stdout).trim().to_string()
}

/// The working tree's spec: `openapi/v1.yaml` at the top of the repository.
pub fn working_tree_spec() -> Result<PathBuf, String> {
    let output = git(&["rev-parse", "--show-toplevel"])?;
    if !output.status.success() {
        return Err(format!(
            "not inside a git repository, so there is no working tree spec: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    Ok(PathBuf::from(stdout_line(&output)).join(SPEC_PATH))
}

/// The spec at `reference`. A ref that names no commit is `Missing`, except in a shallow clone,
/// where it may only be out of reach: that is an error, so that CI with too little history fails
/// instead of passing without comparing.
pub fn spec_at(reference: &str) -> Result<Base, String> {
    let top = git(&["rev-parse", "--show-toplevel"])?;
    if !top.status.success() {
        return Err(format!(
            "--base needs a git repository: {}",
            String::from_utf8_lossy(&top.stderr).trim()
        ));
    }
    let commit_of = format!("{reference}^{{commit}}");
    let resolved = git(&["rev-parse", "--verify", "--quiet", "--end-of-options", &commit_of])?;
    if !resolved.status.success() {
        let shallow = git(&["rev-parse", "--is-shallow-repository"])?;
        if stdout_line(&shallow) == "true" {
            return Err(format!(
                "{reference} is not a commit of this shallow clone: fetch more history (at least 2 \
                 commits for --base HEAD~1) so that the base can be read"
            ));
        }
        return Ok(Base::Missing(format!(
            "{reference} names no commit of this repository (as HEAD~1 on the first commit)"
        )));
    }
    let commit = stdout_line(&resolved);
    let object = format!("{commit}:{SPEC_PATH}");
    let exists = git(&["cat-file", "-e", &object])?;
    if !exists.status.success() {
        return Ok(Base::Missing(format!("{reference} ({}) has no {SPEC_PATH}", short(&commit))));
    }
    let shown = git(&["show", &object])?;
    if !shown.status.success() {
        return Err(format!(
            "cannot read {SPEC_PATH} at {reference}: {}",
            String::from_utf8_lossy(&shown.stderr).trim()
        ));
    }
    String::from_utf8(shown.stdout)
        .map(Base::Spec)
        .map_err(|_| format!("{SPEC_PATH} at {reference} is not UTF-8"))
}

fn short(commit: &str) -> &str {
    commit.get(..12).unwrap_or(commit)
}
