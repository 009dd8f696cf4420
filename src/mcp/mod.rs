//! The MCP endpoint (`POST /mcp`, and `POST /` as its alias): stateless Streamable HTTP, one
//! JSON-RPC object per POST, both protocol eras. Every tool, resource, prompt and completion
//! gets its data through the /v1 handlers in-process (`dispatch`), never from the store.

mod approval;
mod arguments;
mod completion;
mod confirm;
mod context;
mod dispatch;
mod era;
mod fence;
mod gate;
mod instructions;
mod lookups;
mod methods;
mod params;
mod prompts;
mod question;
mod resources;
mod tool_result;
mod tool_text;
mod tools;
mod transport;
mod views;
mod wire;

pub use dispatch::Dispatcher;
pub use era::{SUPPORTED, V2025_03, V2025_06, V2026};
pub use tool_text::{endpoint_text, json_text};
pub use transport::{McpEndpoint, payload_too_large, unavailable};

/// Compiles the confirmation templates and parses the descriptors now rather than on the first
/// request that needs them.
pub fn warm_up() {
    question::warm_up();
    tools::warm_up();
}
