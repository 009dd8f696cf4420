//! Integration tests: the real server on 127.0.0.1, spoken to over HTTP. One binary with a
//! module per area, so the tests link once.

mod common;

mod api_agreements;
mod api_charges;
mod api_conventions;
mod api_debtors;
mod api_decisions;
mod api_dunning;
mod api_escalations;
mod api_events;
mod api_policies;
mod approvals;
mod assistant;
mod auth;
mod cli;
mod contract;
mod delivery;
mod demo_timeline;
mod documents;
mod drift;
mod engine;
mod engine_crash;
mod engine_scale;
mod escalation_gateway;
mod exact_input;
pub mod exactly_once;
mod exports;
mod isolation;
mod layers;
mod limits;
mod mcp_content;
mod mcp_edges;
mod mcp_tools;
mod mcp_wire;
mod network;
mod oauth;
mod observability;
mod outage;
mod payment_codes;
mod payments_in;
mod receiver;
mod regua;
mod replicas;
mod robustness;
mod time_zones;
mod webhooks;
