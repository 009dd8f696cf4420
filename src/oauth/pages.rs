//! The server-rendered pages of the authorization server (and of other pages that reuse the
//! sign-in): plain HTML that works without JavaScript, small inline CSS that fits a 360 px
//! phone, pt-BR first with English beside it. Everything that comes from a user, a client or a
//! request goes through [`esc`].

use poem::http::StatusCode;
use poem::{IntoResponse, Response};

use super::OAuthHost;
use super::csrf::{Csrf, check_csrf};
use super::error::OAuthError;
use super::form::Params;

/// HTML-escapes text for an element or a quoted attribute.
pub fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if c.is_control() && c != '\n' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// A line in pt-BR with its English beside it (both already HTML).
pub fn bilingual(pt: &str, en: &str) -> String {
    format!("{pt} <span class=\"en\" lang=\"en\">{en}</span>")
}

const STYLE: &str = "\
*{box-sizing:border-box}\
body{margin:0;font:16px/1.5 system-ui,-apple-system,\"Segoe UI\",Roboto,sans-serif;background:#f4f5f7;color:#1c2230}\
main{max-width:30rem;margin:0 auto;padding:1rem}\
.card{background:#fff;border:1px solid #dde1e7;border-radius:10px;padding:1.25rem;margin:1rem 0}\
h1{font-size:1.3rem;margin:0 0 .75rem}\
p,li,td{overflow-wrap:anywhere}\
.en{display:block;color:#5b6474;font-size:.88em}\
label{display:block;margin:.75rem 0 .25rem;font-weight:600}\
input[type=email],input[type=password]{width:100%;padding:.6rem;border:1px solid #b8bfcb;border-radius:6px;font:inherit}\
button{font:inherit;padding:.6rem 1rem;border-radius:6px;border:1px solid #1d4ed8;background:#1d4ed8;color:#fff;cursor:pointer;margin:.75rem .5rem 0 0}\
button.secondary{background:#fff;color:#1d4ed8}\
button.danger{background:#fff;color:#b42318;border-color:#b42318}\
ul{padding-left:1.2rem}\
.error{background:#fdecea;border:1px solid #f5c2c0;color:#8a1c14;padding:.75rem;border-radius:6px}\
.muted{color:#5b6474;font-size:.9em}\
code{overflow-wrap:anywhere}";

/// A whole page: `title_pt` / `title_en` in the head and the heading, `body` already HTML.
pub fn page(title_pt: &str, title_en: &str, body: &str) -> String {
    format!(
        "<!doctype html>\n<html lang=\"pt-BR\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{tp} · {te} — Kobana Dunning</title><style>{STYLE}</style></head>\
         <body><main><p class=\"muted\">Kobana Dunning</p><div class=\"card\"><h1>{heading}</h1>{body}</div></main></body></html>\n",
        tp = esc(title_pt),
        te = esc(title_en),
        heading = bilingual(&esc(title_pt), &esc(title_en)),
    )
}

/// A form posting to `action` (a path of this server) with the CSRF token and `hidden`
/// fields, then `inner` (inputs and buttons, already HTML).
pub fn form(action: &str, csrf: &Csrf, hidden: &[(&str, &str)], inner: &str) -> String {
    let mut html = format!(
        "<form method=\"post\" action=\"{}\"><input type=\"hidden\" name=\"csrf\" value=\"{}\">",
        esc(action),
        esc(&csrf.token)
    );
    for (name, value) in hidden {
        html.push_str(&format!("<input type=\"hidden\" name=\"{}\" value=\"{}\">", esc(name), esc(value)));
    }
    html.push_str(inner);
    html.push_str("</form>");
    html
}

/// The answer carrying a page: `text/html`, never framed, no referrer, and the CSRF cookie
/// when the page started the browser's CSRF binding.
pub fn html_response(status: StatusCode, html: String, csrf: Option<&Csrf>) -> Response {
    let mut response = poem::Response::builder()
        .status(status)
        .content_type("text/html; charset=utf-8")
        .header("x-frame-options", "DENY")
        .header(
            "content-security-policy",
            "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
        )
        .header("referrer-policy", "no-referrer")
        .header("x-content-type-options", "nosniff")
        .body(html)
        .into_response();
    if let Some(csrf) = csrf {
        csrf.apply(&mut response);
    }
    response
}

/// A page that says what went wrong (an error the browser's user sees, never redirected).
pub fn error_page(status: StatusCode, pt: &str, en: &str) -> Response {
    let body = format!(
        "<p class=\"error\">{}</p><p class=\"muted\">{}</p>",
        bilingual(&esc(pt), &esc(en)),
        bilingual("Volte ao aplicativo e tente de novo.", "Go back to the application and try again.")
    );
    html_response(status, page("Não foi possível continuar", "Cannot continue", &body), None)
}

/// The 500 page: what failed goes to the log, never to the page.
pub fn server_error(err: OAuthError) -> Response {
    err.log();
    server_error_page()
}

/// The 500 page, for a failure already logged.
pub fn server_error_page() -> Response {
    error_page(
        StatusCode::INTERNAL_SERVER_ERROR,
        "O servidor não conseguiu concluir o pedido.",
        "The server could not complete the request.",
    )
}

/// A page's posted form, read and checked against the browser's CSRF token before anything
/// else: the form, or the page to answer instead (400 unreadable; 403 without the right token,
/// and nothing done).
pub async fn checked_form(
    host: &dyn OAuthHost,
    req: &poem::Request,
    body: poem::Body,
) -> Result<Params, Response> {
    let Ok(params) = Params::of_body(req, body).await else {
        return Err(error_page(
            StatusCode::BAD_REQUEST,
            "O formulário não pôde ser lido.",
            "The form could not be read.",
        ));
    };
    if check_csrf(host, req, params.get("csrf")).await.is_err() {
        return Err(csrf_refused());
    }
    Ok(params)
}

/// The 403 page of a form without the right CSRF token.
pub fn csrf_refused() -> Response {
    error_page(
        StatusCode::FORBIDDEN,
        "O formulário expirou ou não veio desta página. Nada foi feito; recarregue a página e tente de novo.",
        "The form expired or did not come from this page. Nothing was done; reload the page and try again.",
    )
}

/// What a scope lets a client do, in pt-BR and English.
pub fn scope_description(scope: &str) -> (&'static str, &'static str) {
    match scope {
        "dunning.read" => (
            "Ver devedores, cobranças, réguas de cobrança, notificações e eventos",
            "View debtors, charges, collection policies, notifications and events",
        ),
        "dunning.write" => (
            "Criar e alterar devedores, cobranças e réguas de cobrança",
            "Create and change debtors, charges and collection policies",
        ),
        "dunning.notify" => {
            ("Enviar notificações de cobrança aos devedores", "Send dunning notifications to debtors")
        }
        "dunning.escalate" => {
            ("Negativar devedores e protestar dívidas", "Report debtors to credit bureaus and protest debts")
        }
        "dunning.webhooks" => ("Gerenciar webhooks", "Manage webhooks"),
        "dunning.exports" => ("Exportar dados", "Export data"),
        _ => ("Permissão desconhecida", "Unknown permission"),
    }
}

/// A list of scopes in plain words.
pub fn scope_list(scopes: &[&str]) -> String {
    let mut html = String::from("<ul>");
    for scope in scopes {
        let (pt, en) = scope_description(scope);
        html.push_str(&format!("<li>{} <code class=\"muted\">{}</code></li>", bilingual(pt, en), esc(scope)));
    }
    html.push_str("</ul>");
    html
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_text_is_escaped() {
        assert_eq!(
            esc("<script>alert('x')</script> & \"y\""),
            "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;y&quot;"
        );
        let html = page("<b>", "<i>", "");
        assert!(!html.contains("<b>") && html.contains("&lt;b&gt;"));
        assert!(html.contains("width=device-width, initial-scale=1"));
        for scope in crate::auth::ALL_SCOPES {
            assert_ne!(scope_description(scope).1, "Unknown permission", "{scope}");
        }
    }
}
