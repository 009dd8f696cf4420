//! The signed-in user's connected clients (their live grants), each with a button that
//! disconnects it: the grant and every token issued through it are revoked.

use poem::http::StatusCode;
use poem::web::Data;
use poem::{Body, Request, Response, handler};

use super::csrf::csrf_for;
use super::pages::{self, bilingual, esc};
use super::session::{require_user, see_other};
use super::{Host, grants};

/// `GET /connections`.
#[handler]
pub async fn show(req: &Request, Data(host): Data<&Host>) -> Response {
    let host = host.as_ref();
    let user = match require_user(host, req).await {
        Ok(user) => user,
        Err(answer) => return answer,
    };
    let csrf = match csrf_for(host, req).await {
        Ok(csrf) => csrf,
        Err(err) => return pages::server_error(err),
    };
    let grants = match host.store().live_grants_of_user(&user.id).await {
        Ok(grants) => grants,
        Err(err) => return pages::server_error(err.into()),
    };
    let mut body = format!(
        "<p class=\"muted\">{}</p>",
        bilingual(
            &format!("Conectado como <strong>{}</strong>", esc(&user.email)),
            &format!("Signed in as {}", esc(&user.email))
        )
    );
    if grants.is_empty() {
        body.push_str(&format!(
            "<p>{}</p>",
            bilingual("Nenhum aplicativo conectado.", "No connected applications.")
        ));
    }
    for grant in &grants {
        let scopes: Vec<&str> = grant.scopes.split(' ').filter(|s| !s.is_empty()).collect();
        let day = grant.created_at.get(..10).unwrap_or(&grant.created_at);
        let used = grant.last_used_at.get(..10).unwrap_or(&grant.last_used_at);
        let button = "<button type=\"submit\" class=\"danger\">Desconectar · Disconnect</button>";
        let (target_pt, target_en) =
            if grant.audience == "api" { ("API REST", "REST API") } else { ("servidor MCP", "MCP server") };
        body.push_str(&format!(
            "<div class=\"card\"><p><strong>{}</strong></p><p class=\"muted\">{}</p>{}{}</div>",
            esc(&grant.client_name),
            bilingual(
                &format!("Conectado em {} ao {target_pt} · último uso {}", esc(day), esc(used)),
                &format!("Connected on {} to the {target_en} · last used {}", esc(day), esc(used)),
            ),
            pages::scope_list(&scopes),
            pages::form("/connections/disconnect", &csrf, &[("grant_id", &grant.id)], button),
        ));
    }
    body.push_str(&pages::form(
        "/signout",
        &csrf,
        &[],
        "<button type=\"submit\" class=\"secondary\">Sair · Sign out</button>",
    ));
    pages::html_response(
        StatusCode::OK,
        pages::page("Aplicativos conectados", "Connected applications", &body),
        Some(&csrf),
    )
}

/// `POST /connections/disconnect` (csrf, grant_id): revokes one of the user's grants.
#[handler]
pub async fn disconnect(req: &Request, body: Body, Data(host): Data<&Host>) -> Response {
    let host = host.as_ref();
    let params = match pages::checked_form(host, req, body).await {
        Ok(params) => params,
        Err(page) => return page,
    };
    let user = match require_user(host, req).await {
        Ok(user) => user,
        Err(answer) => return answer,
    };
    let grant_id = params.get("grant_id").unwrap_or("");
    match host.store().grant(grant_id).await {
        Ok(Some(grant)) if grant.user_id == user.id => {
            if let Err(err) = grants::revoke(host, &grant.id).await {
                return pages::server_error(err);
            }
            see_other("/connections")
        }
        Ok(_) => pages::error_page(StatusCode::NOT_FOUND, "Conexão não encontrada.", "Connection not found."),
        Err(err) => pages::server_error(err.into()),
    }
}
