//! `/authorize`: the authorization code flow with PKCE S256, through the sign-in and consent
//! pages.
//!
//! Until the client and its redirect URI are known good, errors are shown on a page and
//! nobody is redirected anywhere (no open redirect). Anyone can register a redirect URI (or
//! publish a metadata document naming one), so a known redirect URI is not yet a reason to
//! send a browser there: errors of the `GET` (a bad response_type, PKCE, scope or resource)
//! are shown on a page too (RFC 9700 section 4.11.2). Only after the user acted on the consent
//! page (signed in, CSRF checked) do errors go back to the client as RFC 6749 section 4.1.2.1
//! says, with `state` and the RFC 9207 `iss`. Scopes this server does not know are ignored
//! (`scopes`), and the request is refused only when it asked for none it knows. The consent form
//! carries the request's parameters and is checked again in full when it comes back: nothing
//! of the request is kept on the server until the user allows it.

use poem::http::StatusCode;
use poem::web::Data;
use poem::{Body, Request, Response, handler};
use time::OffsetDateTime;

use super::client::Client;
use super::clients;
use super::csrf::{check_csrf, csrf_for};
use super::error::{ErrorCode, OAuthError};
use super::form::Params;
use super::grants::limit_anonymous;
use super::pages::{self, bilingual, esc};
use super::resource::audience_of;
use super::scopes::Asked;
use super::session::{SignedInUser, signed_in};
use super::signin::sign_in_page;
use super::{CODE_LIFETIME, CODE_PREFIX, Host, OAuthHost, issuer, pkce};
use crate::auth::mint_secret;
use crate::domain::dates::format_timestamp;
use crate::store::{CodeRow, NewCode};

/// The parameters an authorization request carries through the pages.
const CARRIED: [&str; 8] = [
    "response_type",
    "client_id",
    "redirect_uri",
    "scope",
    "state",
    "code_challenge",
    "code_challenge_method",
    "resource",
];

/// A request whose every part was checked.
struct Checked {
    client: Client,
    redirect_uri: String,
    /// Whether the request named its redirect URI (then the token request must repeat it).
    redirect_uri_given: bool,
    state: Option<String>,
    code_challenge: String,
    /// The known scopes asked for (empty: none asked, so whatever the role allows).
    requested: Vec<String>,
    /// Scopes asked for that this server does not know: ignored.
    ignored: Vec<String>,
    audience: &'static str,
}

/// Why a request is refused, and where that is said.
enum Refusal {
    /// On a page: the redirect URI is not (yet) trusted.
    Page(OAuthError),
    /// Back to the client.
    Redirect { redirect_uri: String, state: Option<String>, error: OAuthError },
}

impl Refusal {
    /// The same refusal, said on a page: before the user acted, nobody is redirected.
    fn on_page(self) -> Self {
        match self {
            Refusal::Redirect { error, .. } => Refusal::Page(error),
            page => page,
        }
    }
}

async fn check(host: &dyn OAuthHost, params: &Params) -> Result<Checked, Refusal> {
    let client_id = params.require("client_id").map_err(Refusal::Page)?;
    let client = clients::resolve(host, client_id).await.map_err(Refusal::Page)?;
    let redirect_uri = client.redirect_uri(params.get("redirect_uri")).ok_or_else(|| {
        Refusal::Page(OAuthError::protocol(
            ErrorCode::InvalidRequest,
            "the redirect_uri is missing or is not one this client registered",
        ))
    })?;
    let state = params.get("state").map(str::to_string);
    let refuse = |code, description: &str| Refusal::Redirect {
        redirect_uri: redirect_uri.clone(),
        state: state.clone(),
        error: OAuthError::protocol(code, description),
    };
    if params.get("response_type") != Some("code") {
        return Err(refuse(ErrorCode::UnsupportedResponseType, "only response_type=code is supported"));
    }
    if params.get("code_challenge_method") != Some("S256") {
        return Err(refuse(
            ErrorCode::InvalidRequest,
            "PKCE is required with code_challenge_method=S256 (plain is refused)",
        ));
    }
    let code_challenge = match params.get("code_challenge") {
        Some(c) if pkce::valid_challenge(c) => c.to_string(),
        _ => {
            return Err(refuse(
                ErrorCode::InvalidRequest,
                "code_challenge must be an S256 challenge (43 base64url characters)",
            ));
        }
    };
    // Unknown scopes are ignored (RFC 6749 section 3.3); the consent page names them.
    let asked = Asked::parse(params.get("scope"));
    let ignored = asked.ignored.clone();
    let requested = match asked.known_or_refuse() {
        Ok(known) => known,
        Err(OAuthError::Protocol { code, description }) => return Err(refuse(code, &description)),
        Err(other) => return Err(Refusal::Page(other)),
    };
    let audience = match audience_of(host.public_url(), params.get("resource")) {
        Ok(audience) => audience,
        Err(OAuthError::Protocol { code, description }) => return Err(refuse(code, &description)),
        Err(other) => return Err(Refusal::Page(other)),
    };
    let redirect_uri_given = params.get("redirect_uri").is_some();
    Ok(Checked {
        client,
        redirect_uri,
        redirect_uri_given,
        state,
        code_challenge,
        requested,
        ignored,
        audience,
    })
}

/// `redirect_uri` with the answer's parameters added to its query, and `iss` (RFC 9207).
fn redirect_to(
    host: &dyn OAuthHost,
    redirect_uri: &str,
    pairs: &[(&str, &str)],
    state: Option<&str>,
) -> Response {
    let Ok(mut url) = url::Url::parse(redirect_uri) else {
        return pages::error_page(
            StatusCode::BAD_REQUEST,
            "O endereço de retorno é inválido.",
            "The redirect URI is invalid.",
        );
    };
    {
        let mut query = url.query_pairs_mut();
        for (name, value) in pairs {
            query.append_pair(name, value);
        }
        if let Some(state) = state {
            query.append_pair("state", state);
        }
        query.append_pair("iss", issuer(host));
    }
    Response::builder().status(StatusCode::SEE_OTHER).header("location", url.as_str()).finish()
}

fn refused(host: &dyn OAuthHost, refusal: Refusal) -> Response {
    match refusal {
        Refusal::Page(err) => {
            err.log();
            let (code, description) = err.public();
            let status = match code {
                ErrorCode::ServerError => StatusCode::INTERNAL_SERVER_ERROR,
                ErrorCode::TemporarilyUnavailable => StatusCode::TOO_MANY_REQUESTS,
                _ => StatusCode::BAD_REQUEST,
            };
            pages::error_page(
                status,
                &format!("O pedido de autorização não é válido ({}): {description}", code.as_str()),
                &format!("The authorization request is not valid ({}): {description}", code.as_str()),
            )
        }
        Refusal::Redirect { redirect_uri, state, error } => {
            error.log();
            let (code, description) = error.public();
            redirect_to(
                host,
                &redirect_uri,
                &[("error", code.as_str()), ("error_description", &description)],
                state.as_deref(),
            )
        }
    }
}

/// The path and query that show this authorization request again (after signing in).
fn authorize_path(params: &Params) -> String {
    let mut query = form_urlencoded::Serializer::new(String::new());
    for name in CARRIED {
        if let Some(value) = params.get(name) {
            query.append_pair(name, value);
        }
    }
    format!("/authorize?{}", query.finish())
}

/// `GET /authorize`: the sign-in page, or the consent page for a signed-in browser.
#[handler]
pub async fn show(req: &Request, Data(host): Data<&Host>) -> Response {
    let host = host.as_ref();
    // A client_id URL makes the server fetch a document: requests without a token are limited.
    if let Err(err) = limit_anonymous(host, req) {
        return refused(host, Refusal::Page(err));
    }
    let params = match Params::of_query(req) {
        Ok(params) => params,
        Err(err) => return refused(host, Refusal::Page(err)),
    };
    let checked = match check(host, &params).await {
        Ok(checked) => checked,
        Err(refusal) => return refused(host, refusal.on_page()),
    };
    match signed_in(host, req).await {
        Ok(Some(user)) => consent_page(host, req, &params, &checked, &user).await,
        Ok(None) => sign_in_page(host, req, &authorize_path(&params), None, StatusCode::OK, "").await,
        Err(err) => pages::server_error(err),
    }
}

async fn consent_page(
    host: &dyn OAuthHost,
    req: &Request,
    params: &Params,
    checked: &Checked,
    user: &SignedInUser,
) -> Response {
    let csrf = match csrf_for(host, req).await {
        Ok(csrf) => csrf,
        Err(err) => return pages::server_error(err),
    };
    let granted = user.role.grantable(&checked.requested);
    let refused_scopes: Vec<&str> =
        checked.requested.iter().map(String::as_str).filter(|s| !granted.contains(s)).collect();
    let return_to = url::Url::parse(&checked.redirect_uri)
        .ok()
        .and_then(|u| {
            u.host_str().map(|h| match u.port() {
                Some(p) => format!("{h}:{p}"),
                None => h.to_string(),
            })
        })
        .unwrap_or_default();
    let name = esc(&checked.client.name);
    let mut body = format!(
        "<p>{}</p>",
        bilingual(
            &format!("<strong>{name}</strong> quer acessar a sua conta Kobana Dunning."),
            &format!("<strong>{name}</strong> wants to access your Kobana Dunning account."),
        )
    );
    if clients::is_document_url(&checked.client.id) {
        body.push_str(&format!(
            "<p class=\"muted\">{}</p>",
            bilingual(
                &format!("Identificado por <code>{}</code>", esc(&checked.client.id)),
                &format!("Identified by its metadata document <code>{}</code>", esc(&checked.client.id))
            )
        ));
    }
    body.push_str(&format!(
        "<p class=\"muted\">{}</p><p class=\"muted\">{}</p>",
        bilingual(
            &format!("Conectado como <strong>{}</strong>", esc(&user.email)),
            &format!("Signed in as {}", esc(&user.email))
        ),
        bilingual(
            &format!("Depois você volta para <strong>{}</strong>", esc(&return_to)),
            &format!("You will then return to {}", esc(&return_to))
        ),
    ));
    let target = if checked.audience == "api" {
        ("a API REST (/v1)", "the REST API (/v1)")
    } else {
        ("o servidor MCP", "the MCP server")
    };
    if granted.is_empty() {
        body.push_str(&format!(
            "<p class=\"error\">{}</p>",
            bilingual(
                "O seu perfil não permite conceder nenhuma das permissões pedidas.",
                "Your role allows none of the permissions requested.",
            )
        ));
    } else {
        body.push_str(&format!(
            "<p>{}</p>{}",
            bilingual(
                &format!("Permitir que acesse {} para:", target.0),
                &format!("Allow it to use {} to:", target.1)
            ),
            pages::scope_list(&granted)
        ));
    }
    if !refused_scopes.is_empty() {
        body.push_str(&format!(
            "<p class=\"muted\">{}</p>{}",
            bilingual("Pedido, mas o seu perfil não permite:", "Requested, but your role does not allow:"),
            pages::scope_list(&refused_scopes)
        ));
    }
    if !checked.ignored.is_empty() {
        let ignored = esc(&checked.ignored.join(" "));
        body.push_str(&format!(
            "<p class=\"muted\">{}</p>",
            bilingual(
                &format!("Pedido, mas desconhecido aqui e ignorado: <code>{ignored}</code>"),
                &format!("Requested, but unknown here and ignored: <code>{ignored}</code>"),
            )
        ));
    }
    let hidden: Vec<(&str, &str)> = CARRIED.iter().filter_map(|n| params.get(n).map(|v| (*n, v))).collect();
    let allow = if granted.is_empty() {
        String::new()
    } else {
        "<button type=\"submit\" name=\"decision\" value=\"allow\">Permitir · Allow</button>".to_string()
    };
    let buttons = format!(
        "{allow}<button type=\"submit\" name=\"decision\" value=\"deny\" class=\"secondary\">Negar · Deny</button>"
    );
    body.push_str(&pages::form("/authorize", &csrf, &hidden, &buttons));
    pages::html_response(
        StatusCode::OK,
        pages::page("Autorizar acesso", "Authorize access", &body),
        Some(&csrf),
    )
}

/// `POST /authorize`: the consent form's answer.
#[handler]
pub async fn decide(req: &Request, body: Body, Data(host): Data<&Host>) -> Response {
    let host = host.as_ref();
    let params = match Params::of_body(req, body).await {
        Ok(params) => params,
        Err(err) => return refused(host, Refusal::Page(err)),
    };
    if check_csrf(host, req, params.get("csrf")).await.is_err() {
        return pages::csrf_refused();
    }
    let user = match signed_in(host, req).await {
        Ok(Some(user)) => user,
        Ok(None) => return sign_in_page(host, req, &authorize_path(&params), None, StatusCode::OK, "").await,
        Err(err) => return pages::server_error(err),
    };
    let checked = match check(host, &params).await {
        Ok(checked) => checked,
        Err(refusal) => return refused(host, refusal),
    };
    let deny = |description: &str| Refusal::Redirect {
        redirect_uri: checked.redirect_uri.clone(),
        state: checked.state.clone(),
        error: OAuthError::protocol(ErrorCode::AccessDenied, description),
    };
    if params.get("decision") != Some("allow") {
        return refused(host, deny("the user denied the request"));
    }
    let granted = user.role.grantable(&checked.requested);
    if granted.is_empty() {
        return refused(host, deny("the user's role allows none of the requested scopes"));
    }
    let code = match issue_code(host, &checked, &user, &granted).await {
        Ok(code) => code,
        Err(err) => return pages::server_error(err),
    };
    tracing::info!(
        user_id = user.id.as_str(),
        client_id = checked.client.id.as_str(),
        "authorization code issued"
    );
    redirect_to(host, &checked.redirect_uri, &[("code", &code)], checked.state.as_deref())
}

async fn issue_code(
    host: &dyn OAuthHost,
    checked: &Checked,
    user: &SignedInUser,
    granted: &[&str],
) -> Result<String, OAuthError> {
    let (code, code_hash) = mint_secret(CODE_PREFIX)?;
    let now = OffsetDateTime::now_utc();
    host.store()
        .insert_code(&NewCode {
            code_hash,
            row: CodeRow {
                client_id: checked.client.id.clone(),
                client_name: checked.client.name.clone(),
                // What the token request must repeat: the redirect URI as given, or nothing
                // (OAuth 2.1 section 4.1.3).
                redirect_uri: if checked.redirect_uri_given {
                    checked.redirect_uri.clone()
                } else {
                    String::new()
                },
                code_challenge: checked.code_challenge.clone(),
                user_id: user.id.clone(),
                organization_id: user.organization_id.clone(),
                scopes: granted.join(" "),
                audience: checked.audience.to_string(),
                expires_at: format_timestamp(now + CODE_LIFETIME),
                used_at: None,
                grant_id: None,
            },
            created_at: format_timestamp(now),
        })
        .await?;
    Ok(code)
}
