//! Kobana Dunning: the Régua de Cobrança (dunning) REST API, generated from
//! `openapi/v1.yaml`, on an embedded database.
//!
//! Flow of a request: HTTP -> auth -> REST handler (`api`) -> `domain` -> `store`.

pub mod admin;
pub mod api;
pub mod app;
pub mod auth;
pub mod demo;
pub mod domain;
pub mod limits;
pub mod mcp;
pub mod operations;
pub mod server;
pub mod store;
