//! Build script: `openapi/v1.yaml` -> `templates/*.rs.hbs` -> prettyplease -> `OUT_DIR`.
//!
//! The spec is the single source of truth for the /v1 routes, the MCP tool catalogue, the
//! annotation and confirmation tables, the strict argument schemas and the resource templates.
//! Anything the generator does not understand fails the build with a message naming the
//! operation, so a spec change can never half-apply.

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
