//! `GET /approvals/:id` shows an approval; `POST /approvals/:id` (csrf, decision) records the
//! signed-in user's decision and comes back to the page (post/redirect/get), which then shows
//! how it stands.
//!
//! Who may decide: a signed-in user of the approval's organization whose role allows every
//! scope the tool needs. Anyone else signed in gets a refusal page; an approval of another
//! organization is "not found" (its existence is nobody else's business). A browser not signed
//! in goes to the sign-in page, which comes back here: `next` is this path, and the sign-in
//! page only ever follows paths of this server.

use poem::http::StatusCode;
use poem::web::{Data, Path};
use poem::{Body, Request, Response, handler};
use time::OffsetDateTime;

use crate::auth::{Decided, decide_approval, find_approval};
use crate::domain::approval::{Approval, Asker, Decision, Standing};
use crate::domain::dates::{Zone, format_date_br};
use crate::error::ApiError;
use crate::oauth::csrf::{Csrf, csrf_for};
use crate::oauth::pages::{self, bilingual, esc};
use crate::oauth::session::{SignedInUser, require_user, see_other};
use crate::oauth::{Host, OAuthError, OAuthHost};
use crate::operations::{OPERATIONS, find_tool};
use crate::request::RequestId;

/// Why the page could not be served: logged, and shown as a plain server-error page.
#[derive(Debug, thiserror::Error)]
enum PageError {
    /// Reading or recording the approval failed.
    #[error(transparent)]
    Approvals(#[from] ApiError),
    /// The sign-in or CSRF machinery failed.
    #[error(transparent)]
    OAuth(#[from] OAuthError),
}

fn server_error(err: PageError) -> Response {
    tracing::error!(error = %err, "approval page failed");
    pages::server_error_page()
}

fn not_found() -> Response {
    pages::error_page(
        StatusCode::NOT_FOUND,
        "Este pedido de aprovação não existe, ou não é da sua organização.",
        "This approval request does not exist, or is not your organization's.",
    )
}

/// What the user may do with an approval, or the page that says why not.
async fn approval_for(host: &dyn OAuthHost, user: &SignedInUser, id: &str) -> Result<Approval, Response> {
    let approval = match find_approval(host, id).await {
        Ok(Some(a)) if a.binding.organization_id == user.organization_id => a,
        Ok(_) => return Err(not_found()),
        Err(err) => return Err(server_error(err.into())),
    };
    let needed: Vec<&'static str> = match find_tool(OPERATIONS, &approval.binding.tool) {
        Some(op) => op.required_scopes().collect(),
        // A tool no longer in the catalogue cannot run: nothing to approve.
        None => return Err(not_found()),
    };
    let missing: Vec<&str> = needed.iter().copied().filter(|s| !user.has_scope(s)).collect();
    if !missing.is_empty() {
        let list = esc(&missing.join(", "));
        return Err(pages::error_page(
            StatusCode::FORBIDDEN,
            &format!(
                "O seu perfil ({}) não permite aprovar esta operação: ela exige a permissão {list}. \
                 Peça a alguém da sua organização com essa permissão para abrir este link.",
                user.role.as_str()
            ),
            &format!(
                "Your role ({}) cannot approve this operation: it needs {list}. Ask someone in your \
                 organization who has it to open this link.",
                user.role.as_str()
            ),
        ));
    }
    Ok(approval)
}

/// `HH:MM` on the organization's clock, and the day when it is not today.
fn when(t: OffsetDateTime, now: OffsetDateTime, zone: &Zone) -> String {
    let local = zone.local(t);
    let time = format!("{:02}:{:02}", local.hour(), local.minute());
    if local.date() == zone.today(now) { time } else { format!("{} {time}", format_date_br(local.date())) }
}

/// Who decided, as the page says it, in pt-BR and English (already HTML).
async fn decider(host: &dyn OAuthHost, user: &SignedInUser, approval: &Approval) -> (String, String) {
    match approval.decided_by.as_deref() {
        Some(id) if id == user.id => ("você".to_string(), "you".to_string()),
        Some(id) => {
            let who = esc(&user_email(host, id).await.unwrap_or_else(|| id.to_string()));
            (who.clone(), who)
        }
        None => ("?".to_string(), "?".to_string()),
    }
}

/// A user's e-mail, if the user is still there.
/// The time zone of the organization asking (its default when it cannot be read).
async fn organization_zone(host: &dyn OAuthHost, id: &str) -> Zone {
    match host.store().organization(id).await {
        Ok(Some(org)) => org.timezone,
        _ => Zone::default_zone(),
    }
}

async fn user_email(host: &dyn OAuthHost, id: &str) -> Option<String> {
    host.store().user(id).await.ok().flatten().map(|u| u.email)
}

/// The name a client was allowed under (the consent page's), else its id.
async fn client_name(host: &dyn OAuthHost, client_id: &str, user_id: Option<&str>) -> String {
    match host.store().client_name(client_id, user_id).await {
        Ok(Some(name)) => name,
        Ok(None) => client_id.to_string(),
        Err(err) => {
            tracing::warn!(error = %err, "the approval page could not read a client's name");
            client_id.to_string()
        }
    }
}

/// Who asked and with which tool, as the page says it in pt-BR and English (already HTML): an
/// assistant by the name it was allowed under and the person it acts for, or the CLI's token.
async fn asked_by(host: &dyn OAuthHost, approval: &Approval) -> (String, String) {
    let tool = esc(&approval.binding.tool);
    let principal = &approval.binding.principal;
    let email = |id: String| async move { esc(&user_email(host, &id).await.unwrap_or(id)) };
    let (pt, en) = match Asker::parse(principal) {
        Some(Asker::UserViaClient { user_id, client_id }) => {
            let name = esc(&client_name(host, &client_id, Some(&user_id)).await);
            let person = email(user_id).await;
            (
                format!("Pedido pelo assistente <strong>{name}</strong>, em nome de {person}"),
                format!("Asked by the assistant <strong>{name}</strong>, on behalf of {person}"),
            )
        }
        Some(Asker::User(user_id)) => {
            let person = email(user_id).await;
            (
                format!("Pedido por um assistente conectado em nome de {person}"),
                format!("Asked by an assistant connected on behalf of {person}"),
            )
        }
        Some(Asker::Client(client_id)) => {
            let name = esc(&client_name(host, &client_id, None).await);
            (
                format!("Pedido pelo assistente <strong>{name}</strong>"),
                format!("Asked by the assistant <strong>{name}</strong>"),
            )
        }
        Some(Asker::Token(token_id)) => {
            let id = esc(&token_id);
            (
                format!("Pedido com um token de acesso da linha de comando (<code>{id}</code>)"),
                format!("Asked with a command-line access token (<code>{id}</code>)"),
            )
        }
        None => {
            let who = esc(principal);
            (format!("Pedido por {who}"), format!("Asked by {who}"))
        }
    };
    (
        format!("{pt}, com a ferramenta <code>{tool}</code>."),
        format!("{en}, with the tool <code>{tool}</code>."),
    )
}

async fn render(
    host: &dyn OAuthHost,
    user: &SignedInUser,
    approval: &Approval,
    csrf: &Csrf,
    now: OffsetDateTime,
) -> String {
    let zone = organization_zone(host, &approval.binding.organization_id).await;
    // The question may carry the message to be sent, its lines kept.
    let question =
        format!("<p style=\"white-space:pre-line\"><strong>{}</strong></p>", esc(&approval.question));
    let (asked_pt, asked_en) = asked_by(host, approval).await;
    let about = format!("<p class=\"muted\">{}</p>", bilingual(&asked_pt, &asked_en));
    let state = match approval.standing(now) {
        Standing::Open => {
            let until = when(approval.expires_at, now, &zone);
            let buttons = "<button type=\"submit\" name=\"decision\" value=\"approve\">Aprovar · Approve</button>\
                 <button type=\"submit\" name=\"decision\" value=\"decline\" class=\"danger\">Recusar · Decline</button>";
            format!(
                "<p>{}</p>{}",
                bilingual(
                    &format!(
                        "Se você aprovar, o assistente poderá executar exatamente esta operação uma vez, \
                         quando repetir o pedido, até as {until}. Se recusar, nada será feito."
                    ),
                    &format!(
                        "If you approve, the assistant may run exactly this operation once, when it asks \
                         again, until {until}. If you decline, nothing is done."
                    ),
                ),
                pages::form(&format!("/approvals/{}", approval.id), csrf, &[], buttons)
            )
        }
        Standing::Approved => {
            let ((who_pt, who_en), at) =
                (decider(host, user, approval).await, decided_at(approval, now, &zone));
            format!(
                "<p>{}</p>",
                bilingual(
                    &format!(
                        "Aprovado por {who_pt} às {at}. Volte ao assistente e peça para repetir o pedido."
                    ),
                    &format!(
                        "Approved by {who_en} at {at}. Go back to the assistant and ask it to try again."
                    ),
                )
            )
        }
        Standing::Used => {
            let ((who_pt, who_en), at) =
                (decider(host, user, approval).await, decided_at(approval, now, &zone));
            format!(
                "<p>{}</p>",
                bilingual(
                    &format!("Aprovado por {who_pt} às {at}, e executado."),
                    &format!("Approved by {who_en} at {at}, and done."),
                )
            )
        }
        Standing::Declined => {
            let ((who_pt, who_en), at) =
                (decider(host, user, approval).await, decided_at(approval, now, &zone));
            format!(
                "<p>{}</p>",
                bilingual(
                    &format!("Recusado por {who_pt} às {at}. Nada foi feito."),
                    &format!("Declined by {who_en} at {at}. Nothing was done."),
                )
            )
        }
        Standing::Expired => format!(
            "<p>{}</p>",
            bilingual(
                "Este pedido expirou sem ser usado: nada foi feito. Se ainda quiser a operação, peça ao \
                 assistente que tente de novo; ele receberá um novo link.",
                "This request expired unused: nothing was done. If you still want the operation, ask the \
                 assistant to try again; it will get a new link.",
            )
        ),
    };
    let signed_in = format!(
        "<p class=\"muted\">{}</p>",
        bilingual(
            &format!("Conectado como {}", esc(&user.email)),
            &format!("Signed in as {}", esc(&user.email))
        )
    );
    pages::page("Aprovar operação", "Approve operation", &format!("{question}{about}{state}{signed_in}"))
}

fn decided_at(approval: &Approval, now: OffsetDateTime, zone: &Zone) -> String {
    approval.decided_at.map(|t| when(t, now, zone)).unwrap_or_default()
}

/// `GET /approvals/:id`.
#[handler]
pub async fn show(req: &Request, Path(id): Path<String>, Data(host): Data<&Host>) -> Response {
    let host = host.as_ref();
    let user = match require_user(host, req).await {
        Ok(user) => user,
        Err(answer) => return answer,
    };
    let approval = match approval_for(host, &user, &id).await {
        Ok(approval) => approval,
        Err(answer) => return answer,
    };
    let csrf = match csrf_for(host, req).await {
        Ok(csrf) => csrf,
        Err(err) => return server_error(err.into()),
    };
    let html = render(host, &user, &approval, &csrf, OffsetDateTime::now_utc()).await;
    pages::html_response(StatusCode::OK, html, Some(&csrf))
}

/// `POST /approvals/:id` (csrf, decision = approve | decline).
#[handler]
pub async fn decide(req: &Request, Path(id): Path<String>, body: Body, Data(host): Data<&Host>) -> Response {
    let host = host.as_ref();
    // An urlencoded body, each field at most once (the authorization server's own parser).
    // Before anything else: a form another site made the browser send does nothing.
    let params = match pages::checked_form(host, req, body).await {
        Ok(params) => params,
        Err(page) => return page,
    };
    let user = match require_user(host, req).await {
        Ok(user) => user,
        Err(answer) => return answer,
    };
    let approval = match approval_for(host, &user, &id).await {
        Ok(approval) => approval,
        Err(answer) => return answer,
    };
    let Some(decision) = params.get("decision").and_then(Decision::parse) else {
        return pages::error_page(
            StatusCode::BAD_REQUEST,
            "Escolha Aprovar ou Recusar.",
            "Choose Approve or Decline.",
        );
    };
    let request_id = RequestId::of(req);
    let request_id = (!request_id.is_empty()).then_some(request_id.as_str());
    let now = OffsetDateTime::now_utc();
    match decide_approval(host, &approval, &user.id, decision, request_id, now).await {
        Ok(Decided::Recorded) => {
            tracing::info!(
                approval_id = approval.id.as_str(),
                user_id = user.id.as_str(),
                decision = decision.as_str(),
                "approval decided"
            );
            see_other(&format!("/approvals/{}", approval.id))
        }
        // Decided by someone else first, or expired: the page says how it stands now.
        Ok(Decided::TooLate) => see_other(&format!("/approvals/{}", approval.id)),
        Err(err) => server_error(err.into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_shown_on_the_organization_clock() {
        let now = time::macros::datetime!(2026-10-05 15:00 UTC);
        let sao_paulo = Zone::default_zone();
        assert_eq!(when(time::macros::datetime!(2026-10-05 15:10 UTC), now, &sao_paulo), "12:10");
        assert_eq!(when(time::macros::datetime!(2026-10-06 15:10 UTC), now, &sao_paulo), "06/10/2026 12:10");
        let manaus = Zone::named("America/Manaus").unwrap();
        assert_eq!(when(time::macros::datetime!(2026-10-05 15:10 UTC), now, &manaus), "11:10");
    }
}
