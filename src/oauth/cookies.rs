//! The cookies of the pages: read from the request, and set HttpOnly, SameSite=Lax, path `/`,
//! and Secure whenever the public URL is https.

use poem::Request;

use super::{OAuthHost, secure_cookies};

/// The cookie of a signed-in browser.
pub const SESSION_COOKIE: &str = "kd_session";

/// A cookie of the request.
pub fn cookie(req: &Request, name: &str) -> Option<String> {
    req.headers().get_all("cookie").iter().filter_map(|v| v.to_str().ok()).find_map(|header| {
        header.split(';').find_map(|pair| {
            let (n, v) = pair.trim().split_once('=')?;
            (n == name).then(|| v.trim().to_string())
        })
    })
}

/// A `Set-Cookie` value: HttpOnly, SameSite=Lax, path `/`, Secure when the public URL is
/// https; `max_age` in seconds (0 deletes).
pub fn set_cookie(host: &dyn OAuthHost, name: &str, value: &str, max_age: Option<i64>) -> String {
    cookie_header(name, value, max_age, secure_cookies(host))
}

fn cookie_header(name: &str, value: &str, max_age: Option<i64>, secure: bool) -> String {
    let mut cookie = format!("{name}={value}; Path=/; HttpOnly; SameSite=Lax");
    if let Some(age) = max_age {
        cookie.push_str(&format!("; Max-Age={age}"));
    }
    if secure {
        cookie.push_str("; Secure");
    }
    cookie
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cookies_are_http_only_lax_and_secure_over_https() {
        let plain = cookie_header(SESSION_COOKIE, "v", Some(60), false);
        assert_eq!(plain, "kd_session=v; Path=/; HttpOnly; SameSite=Lax; Max-Age=60");
        let secure = cookie_header(SESSION_COOKIE, "v", None, true);
        assert_eq!(secure, "kd_session=v; Path=/; HttpOnly; SameSite=Lax; Secure");
    }
}
