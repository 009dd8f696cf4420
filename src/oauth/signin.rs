//! The sign-in page (`/signin`, also rendered by `/authorize` for a browser not signed in) and
//! sign-out. A successful sign-in starts a session and goes on to `next`, a path of this
//! server only: `next` never leads off-site.

use poem::http::StatusCode;
use poem::web::Data;
use poem::{Body, Request, Response, handler};
use time::OffsetDateTime;

use super::csrf::csrf_for;
use super::form::Params;
use super::grants::limit_anonymous;
use super::pages::{self, bilingual, esc};
use super::session::{end_session, see_other, start_session};
use super::{Host, OAuthHost, throttle};
use crate::auth::{verify_nobody, verify_password};

/// Where a browser goes after signing in when it came from nowhere in particular.
pub const HOME: &str = "/connections";

/// Password checks running at once, at most (argon2 takes ~19 MiB each).
const VERIFY_SLOTS: usize = 2;
static VERIFYING: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(VERIFY_SLOTS);
/// How long a sign-in waits for a free slot before it is told the server is busy.
const VERIFY_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

/// `next` if it is a path of this server (`/…`, not `//…` nor `/\…`, ASCII without control
/// characters: it becomes a `Location` header, which takes nothing else); the home page
/// otherwise. The server's own paths are percent-encoded already, so nothing it sends is lost.
pub fn local_next(next: Option<&str>) -> &str {
    match next {
        Some(path)
            if path.starts_with('/')
                && !path.starts_with("//")
                && !path.starts_with("/\\")
                && path.len() <= 8192
                && path.is_ascii()
                && !path.chars().any(|c| c.is_ascii_control()) =>
        {
            path
        }
        _ => HOME,
    }
}

/// The sign-in page, coming back to `next` afterwards; `notice` is an error to show first.
pub(super) async fn sign_in_page(
    host: &dyn OAuthHost,
    req: &Request,
    next: &str,
    notice: Option<(&str, &str)>,
    status: StatusCode,
    email: &str,
) -> Response {
    let csrf = match csrf_for(host, req).await {
        Ok(csrf) => csrf,
        Err(err) => return pages::server_error(err),
    };
    let mut body = String::new();
    if let Some((pt, en)) = notice {
        body.push_str(&format!("<p class=\"error\" role=\"alert\">{}</p>", bilingual(&esc(pt), &esc(en))));
    }
    body.push_str(&format!(
        "<p>{}</p>",
        bilingual("Entre com a sua conta para continuar.", "Sign in with your account to continue.")
    ));
    let inner = format!(
        "<label for=\"email\">E-mail</label>\
         <input type=\"email\" id=\"email\" name=\"email\" autocomplete=\"username\" required value=\"{}\">\
         <label for=\"password\">Senha <span class=\"en\" lang=\"en\">Password</span></label>\
         <input type=\"password\" id=\"password\" name=\"password\" autocomplete=\"current-password\" required>\
         <button type=\"submit\">Entrar · Sign in</button>",
        esc(email)
    );
    body.push_str(&pages::form("/signin", &csrf, &[("next", local_next(Some(next)))], &inner));
    pages::html_response(status, pages::page("Entrar", "Sign in", &body), Some(&csrf))
}

/// `GET /signin?next=/…`.
#[handler]
pub async fn show(req: &Request, Data(host): Data<&Host>) -> Response {
    let params = Params::of_query(req).unwrap_or_default();
    sign_in_page(host.as_ref(), req, local_next(params.get("next")), None, StatusCode::OK, "").await
}

/// `POST /signin`: e-mail, password, csrf, next.
#[handler]
pub async fn submit(req: &Request, body: Body, Data(host): Data<&Host>) -> Response {
    let host = host.as_ref();
    if let Err(err) = limit_anonymous(host, req) {
        let (_, description) = err.public();
        return pages::error_page(
            StatusCode::TOO_MANY_REQUESTS,
            &format!("Muitos pedidos: {description}"),
            &format!("Too many requests: {description}"),
        );
    }
    let params = match pages::checked_form(host, req, body).await {
        Ok(params) => params,
        Err(page) => return page,
    };
    let next = local_next(params.get("next")).to_string();
    let typed = params.get("email").unwrap_or("").trim();
    let email = typed.to_lowercase();
    let password = params.get("password").unwrap_or("");
    let wrong = || {
        sign_in_page(
            host,
            req,
            &next,
            Some(("E-mail ou senha incorretos.", "Wrong e-mail or password.")),
            StatusCode::UNAUTHORIZED,
            typed,
        )
    };
    if email.is_empty() {
        // Nobody to sign in, and nothing to count the attempt against: no password is checked.
        return wrong().await;
    }
    // The attempt is recorded (and counted) before the password is checked.
    match throttle::admit(host.store(), &email, OffsetDateTime::now_utc()).await {
        Ok(true) => {}
        Ok(false) => {
            return sign_in_page(
                host,
                req,
                &next,
                Some((
                    "Muitas tentativas sem sucesso para este e-mail. Por segurança, aguarde 15 minutos e tente de novo.",
                    "Too many failed attempts for this e-mail. For your safety, wait 15 minutes and try again.",
                )),
                StatusCode::TOO_MANY_REQUESTS,
                typed,
            )
            .await;
        }
        Err(err) => return pages::server_error(err),
    }
    let user = match host.store().user_by_email(&email).await {
        Ok(user) => user,
        Err(err) => return pages::server_error(err.into()),
    };
    // argon2 takes ~19 MiB and tens of milliseconds of CPU: a few at a time, off the async
    // workers, so that sign-ins for many e-mails at once cannot exhaust memory.
    let Ok(Ok(slot)) = tokio::time::timeout(VERIFY_WAIT, VERIFYING.acquire()).await else {
        return pages::error_page(
            StatusCode::SERVICE_UNAVAILABLE,
            "O servidor está ocupado. Tente de novo em instantes.",
            "The server is busy. Try again in a moment.",
        );
    };
    let password = password.to_string();
    let stored = user.as_ref().map(|u| u.password_hash.clone());
    // The slot goes with the check: it is freed when the check ends, even if this request was
    // dropped meanwhile.
    let matches = tokio::task::spawn_blocking(move || {
        let _slot = slot;
        match stored {
            Some(hash) => verify_password(&password, &hash),
            None => {
                verify_nobody(&password);
                false
            }
        }
    })
    .await
    .unwrap_or(false);
    let Some(user) = user.filter(|_| matches) else {
        // The attempt stays recorded: it counts as a failure.
        return wrong().await;
    };
    if let Err(err) = throttle::clear(host.store(), &email).await {
        return pages::server_error(err);
    }
    // A browser signing in again leaves no older session of its own behind.
    if let Err(err) = end_session(host, req).await {
        return pages::server_error(err);
    }
    let cookie = match start_session(host, &user.id).await {
        Ok(cookie) => cookie,
        Err(err) => return pages::server_error(err),
    };
    tracing::info!(user_id = user.id.as_str(), "signed in");
    let mut response = see_other(&next);
    if let Ok(value) = cookie.parse() {
        response.headers_mut().append("set-cookie", value);
    }
    response
}

/// `POST /signout` (csrf): ends the session.
#[handler]
pub async fn sign_out(req: &Request, body: Body, Data(host): Data<&Host>) -> Response {
    let host = host.as_ref();
    if let Err(page) = pages::checked_form(host, req, body).await {
        return page;
    }
    let cookie = match end_session(host, req).await {
        Ok(cookie) => cookie,
        Err(err) => return pages::server_error(err),
    };
    let mut response = see_other("/signin");
    if let Ok(value) = cookie.parse() {
        response.headers_mut().append("set-cookie", value);
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn next_stays_on_this_server() {
        assert_eq!(local_next(Some("/authorize?client_id=x")), "/authorize?client_id=x");
        for off_site in [
            "https://evil.example/",
            "//evil.example/x",
            "/\\evil.example",
            "evil",
            "/a\nb",
            "/cobran\u{e7}as",
            "/a\u{85}b",
        ] {
            assert_eq!(local_next(Some(off_site)), HOME, "{off_site:?}");
        }
        assert_eq!(local_next(None), HOME);
        for next in ["/cobran\u{e7}as?q=s\u{e3}o", "/a b", "/\u{7f}", "/connections?x=%C3%A7"] {
            let response = see_other(local_next(Some(next)));
            assert!(response.headers().contains_key("location"), "{next:?} makes a Location");
        }
    }
}
