//! The approval page: where a signed-in user of the organization sees the pt-BR question of a
//! destructive call that an MCP client could not confirm in-band, and approves or declines it. The
//! MCP side (`mcp::approval`) hands out the link and uses the decision; this module only shows and
//! records decisions.
//!
//! It reuses the authorization server's sign-in (`oauth::session`), CSRF (`oauth::csrf`) and
//! page chrome (`oauth::pages`), and reaches approvals through `auth`, like the MCP side.

mod page;

use poem::Route;

use crate::oauth::{Host, Methods, with_host};

/// Adds `GET`/`POST /approvals/:id` to `route`, with the state in the request data as
/// `oauth::Host`, as for the authorization server's pages (other methods: a 405 page).
pub fn add_routes(route: Route, host: &Host) -> Route {
    route.at("/approvals/:id", with_host(Methods::page().get(page::show).post(page::decide), host))
}
