//! Build script: `openapi/v1.yaml` -> `templates/*.rs.hbs` -> prettyplease -> `OUT_DIR`.
//!
//! The spec is the single source of truth for the /v1 routes, the MCP tool catalogue, the
//! annotation and confirmation tables, the strict argument schemas and the resource templates.
//! Anything the generator does not understand fails the build with a message naming the
//! operation, so a spec change can never half-apply.
//!
//! It also hands the linker the order of the functions a request runs (`link/hot-functions.txt`).

#[path = "codegen/model.rs"]
mod model;
#[path = "codegen/render.rs"]
mod render;
#[path = "codegen/schema.rs"]
mod schema;
#[path = "codegen/types.rs"]
mod types;

use std::{env, fs, path::PathBuf, process::ExitCode};

fn main() -> ExitCode {
    println!("cargo::rerun-if-changed=openapi");
    println!("cargo::rerun-if-changed=templates");
    println!("cargo::rerun-if-changed=codegen");
    order_hot_functions();
    let spec_path = env::var("KOBANA_DUNNING_SPEC").unwrap_or_else(|_| "openapi/v1.yaml".into());
    println!("cargo::rerun-if-env-changed=KOBANA_DUNNING_SPEC");
    match generate(&spec_path) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {spec_path}: {err}");
            ExitCode::FAILURE
        }
    }
}

fn generate(spec_path: &str) -> Result<(), model::SpecError> {
    let text = fs::read_to_string(spec_path)
        .map_err(|e| model::SpecError::new(format!("cannot read the spec: {e}")))?;
    let api = model::Api::from_yaml(&text)?;
    let out_dir = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    let api_dir =
        PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR")).join("src/api");
    let tags = render::render_tag_modules(&api, &api_dir.to_string_lossy())?;
    for (file, contents) in render::render_all(&api)?.into_iter().chain([("tags.rs", tags)]) {
        fs::write(out_dir.join(file), contents)
            .map_err(|e| model::SpecError::new(format!("cannot write {file}: {e}")))?;
    }
    Ok(())
}

/// Optimised builds place the functions a request runs side by side, in the order of
/// `link/hot-functions.txt` (written by `bench/hot-functions.sh` from a profile). Left where the
/// compiler put them, they were scattered over 14 MiB of code, so a request touched some 370
/// pages of it and missed the instruction cache and TLB more than it needed to (issue 8,
/// docs/PERFORMANCE.md). The list names symbols: a name a build does not have is skipped.
fn order_hot_functions() {
    const LIST: &str = "link/hot-functions.txt";
    println!("cargo::rerun-if-changed={LIST}");
    println!("cargo::rerun-if-env-changed=CARGO_ENCODED_RUSTFLAGS");
    let optimised = env::var("PROFILE").is_ok_and(|p| p == "release");
    // rust-lld links this target by default (Rust 1.90 on); GNU ld has no ordering file, so
    // a build that picks its own linker is left alone.
    let lld = env::var("TARGET").is_ok_and(|t| t == "x86_64-unknown-linux-gnu")
        && !env::var("CARGO_ENCODED_RUSTFLAGS").unwrap_or_default().contains("linker");
    let dir = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let list = dir.join(LIST);
    if optimised && lld && list.is_file() {
        // -Xlinker passes each argument whole (-Wl, would split a path at its commas).
        for arg in ["-Xlinker", "--no-warn-symbol-ordering", "-Xlinker"] {
            println!("cargo::rustc-link-arg-bins={arg}");
        }
        println!("cargo::rustc-link-arg-bins=--symbol-ordering-file={}", list.display());
    }
}
