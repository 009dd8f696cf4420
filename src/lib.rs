//! Kobana Dunning: the Régua de Cobrança (dunning) REST API, generated from
//! `openapi/v1.yaml`, on an embedded database.
//!
//! Flow of a request: HTTP (`server`) -> auth -> REST handler (`api`) -> `domain` -> `store`; an
//! MCP request goes HTTP -> `mcp` (transport, era, method) -> in-process call of the same REST
//! handler. How the code is built and why is in `docs/ARCHITECTURE.md`; how to run it and what
//! each option does, in `README.md` and `docs/CONFIGURATION.md`.

// Unsafe code only where a module says why (the allocator, the descriptor limit).
#![deny(unsafe_code)]

pub mod admin;
pub mod allocator;
pub mod api;
pub mod app;
pub mod approvals;
pub mod auth;
pub mod changes;
pub mod demo;
pub mod documents;
pub mod domain;
pub mod engine;
pub mod error;
pub mod housekeeping;
pub mod http;
pub mod limits;
pub mod logs;
pub mod mcp;
pub mod metrics;
pub mod oauth;
pub mod operations;
pub mod outbound;
pub mod payments_import;
pub mod priority;
pub mod providers;
pub mod receiver;
pub mod request;
pub mod server;
pub mod spec;
pub mod store;
pub mod toolsets;
pub mod types;
pub mod views;
