//! The methods each route of the authorization server and of its pages takes, and the answer
//! to any other method: 405 with `Allow` (RFC 9110 section 15.5.6), as /v1 answers, in the
//! route's own kind of answer: RFC 6749 JSON (`invalid_request`) at the endpoints clients call,
//! a page where browsers go. A CORS preflight is not a request for the resource and no route
//! here answers one (as on /v1): it falls through to the server's 404.
//!
//! ```ignore
//! route.at("/token", with_host(Methods::json().post(token::token), host))
//! ```

use poem::error::MethodNotAllowedError;
use poem::http::{HeaderValue, Method, StatusCode};
use poem::{Endpoint, IntoEndpoint, Request, Response, RouteMethod};

use super::error::OAuthError;
use super::pages;
use crate::http::is_cors_preflight;

/// How a route says that it does not take a method.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Answers {
    /// RFC 6749 section 5.2 JSON.
    Json,
    /// An HTML page.
    Page,
}

/// A route's endpoints by method, which knows the methods it takes.
pub struct Methods {
    route: RouteMethod,
    /// In the order RFC 9110 lists them; `HEAD` with `GET`.
    allowed: Vec<&'static str>,
    answers: Answers,
}

impl Methods {
    /// An endpoint clients call (`/token`, `/register`, …): other methods get RFC 6749 JSON.
    pub fn json() -> Self {
        Self { route: RouteMethod::new(), allowed: Vec::new(), answers: Answers::Json }
    }

    /// A page browsers open: other methods get an error page.
    pub fn page() -> Self {
        Self { route: RouteMethod::new(), allowed: Vec::new(), answers: Answers::Page }
    }

    /// Takes `GET` (and so `HEAD`, which poem answers with the GET's head).
    #[must_use]
    pub fn get<E>(mut self, ep: E) -> Self
    where
        E: IntoEndpoint,
        E::Endpoint: 'static,
    {
        self.route = self.route.get(ep);
        self.allowed.extend(["GET", "HEAD"]);
        self
    }

    /// Takes `POST`.
    #[must_use]
    pub fn post<E>(mut self, ep: E) -> Self
    where
        E: IntoEndpoint,
        E::Endpoint: 'static,
    {
        self.route = self.route.post(ep);
        self.allowed.push("POST");
        self
    }

    /// The `Allow` header's value.
    fn allow(&self) -> String {
        self.allowed.join(", ")
    }

    /// The answer to a method this route does not take.
    fn refuse(&self, method: &Method) -> Response {
        let allow = self.allow();
        let mut response = match self.answers {
            Answers::Json => {
                OAuthError::MethodNotAllowed { method: method.to_string(), allow: allow.clone() }
                    .json_response()
            }
            Answers::Page => pages::error_page(
                StatusCode::METHOD_NOT_ALLOWED,
                &format!("Este endereço não aceita o método {method}; use {allow}."),
                &format!("This address does not take the method {method}; use {allow}."),
            ),
        };
        if let Ok(value) = HeaderValue::from_str(&allow) {
            response.headers_mut().insert("allow", value);
        }
        response
    }
}

impl Endpoint for Methods {
    type Output = Response;

    async fn call(&self, req: Request) -> poem::Result<Response> {
        let method = req.method().clone();
        let preflight = is_cors_preflight(&req);
        match self.route.call(req).await {
            Err(err) if err.is::<MethodNotAllowedError>() && !preflight => Ok(self.refuse(&method)),
            other => other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allow_lists_what_was_given_with_head_beside_get() {
        let both =
            Methods::page().get(poem::endpoint::make_sync(|_| "")).post(poem::endpoint::make_sync(|_| ""));
        assert_eq!(both.allow(), "GET, HEAD, POST");
        assert_eq!(Methods::json().post(poem::endpoint::make_sync(|_| "")).allow(), "POST");
    }
}
