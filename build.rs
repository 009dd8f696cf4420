//! Build script: `openapi/v1.yaml` -> `templates/*.rs.hbs` -> prettyplease -> `OUT_DIR`.
//!
//! The spec is the single source of truth for the /v1 routes, the MCP tool catalogue, the
//! annotation and confirmation tables, the strict argument schemas and the resource templates;
//! `ui/` holds the MCP App views the operations name (codegen/views.rs).
//! Anything the generator does not understand fails the build with a message naming the
//! operation, so a spec change can never half-apply.
//!
//! It also hands the linker the order of the functions a request runs (`link/hot-functions.txt`).

#[path = "codegen/confirm.rs"]
mod confirm;
#[path = "codegen/model.rs"]
mod model;
#[path = "codegen/render.rs"]
mod render;
#[path = "codegen/schema.rs"]
mod schema;
#[path = "codegen/types.rs"]
mod types;
#[path = "codegen/views.rs"]
mod views;

use std::process::{Command, ExitCode, Stdio};
use std::{env, fs, path::Path, path::PathBuf};

fn main() -> ExitCode {
    println!("cargo::rerun-if-changed=openapi");
    println!("cargo::rerun-if-changed=templates");
    println!("cargo::rerun-if-changed=codegen");
    println!("cargo::rerun-if-changed=ui");
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
    let ui = views::ViewFiles::read(Path::new("ui"))?;
    let out_dir = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    for (file, contents) in render::render_all(&api, &ui)? {
        fs::write(out_dir.join(&file), contents)
            .map_err(|e| model::SpecError::new(format!("cannot write {file}: {e}")))?;
    }
    Ok(())
}

/// Optimised builds place the functions a request runs side by side, in the order of
/// `link/hot-functions.txt` (written by `bench/hot-functions.sh` from a profile). Left where the
/// compiler put them, they were scattered over 14 MiB of code, so a request touched some 370
/// pages of it and missed the cache and TLB further out than it needed to (docs/PERFORMANCE.md).
/// The list names symbols: a name a build does not have is skipped.
fn order_hot_functions() {
    const LIST: &str = "link/hot-functions.txt";
    if env::var("PROFILE").is_ok_and(|p| p != "release") {
        return;
    }
    println!("cargo::rerun-if-changed={LIST}");
    let list =
        PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR")).join(LIST);
    // -Xlinker passes each argument whole (-Wl, would split a path at its commas).
    let args = [
        "-Xlinker".to_string(),
        "--no-warn-symbol-ordering".to_string(),
        "-Xlinker".to_string(),
        format!("--symbol-ordering-file={}", list.display()),
    ];
    if list.is_file() && linker_takes(&args) {
        for arg in &args {
            println!("cargo::rustc-link-arg-bins={arg}");
        }
    } else {
        println!(
            "cargo::warning=the linker takes no symbol ordering file: functions keep the compiler's order"
        );
    }
}

/// Whether the linker this build uses takes these arguments: rust-lld, which rustup's toolchains
/// use for this target, does; GNU ld, which a distribution's rustc or a configured linker may
/// use, does not. Found by linking an empty program the way the crate's binaries are linked.
fn linker_takes(args: &[String]) -> bool {
    let out = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    let source = out.join("link_probe.rs");
    if fs::write(&source, "fn main() {}\n").is_err() {
        return false;
    }
    let rustc = env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let mut probe = Command::new(rustc);
    probe.arg(&source).arg("-o").arg(out.join("link_probe")).arg("--crate-type=bin");
    if let Ok(target) = env::var("TARGET") {
        probe.arg("--target").arg(target);
    }
    if let Ok(linker) = env::var("RUSTC_LINKER") {
        probe.arg("-C").arg(format!("linker={linker}"));
    }
    let flags = env::var("CARGO_ENCODED_RUSTFLAGS").unwrap_or_default();
    probe.args(flags.split('\x1f').filter(|flag| !flag.is_empty()));
    for arg in args {
        probe.arg("-C").arg(format!("link-arg={arg}"));
    }
    probe.stdout(Stdio::null()).stderr(Stdio::null());
    probe.status().is_ok_and(|status| status.success())
}
