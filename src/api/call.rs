//! What a handler receives besides its typed input (`Call`) and what it answers (`Reply`,
//! `NoContent`, a `File`, each rendered once into a `Rendered`), independent of poem's
//! extractors so that every operation runs the same way and the MCP dispatch reaches the same
//! code.

use std::sync::Arc;

use serde::Serialize;
use time::{Date, OffsetDateTime};

use super::error::{ApiError, ApiResult};
use super::layout::Layout;
use crate::app::App;
use crate::auth::Principal;
use crate::changes::Acting;
use crate::domain::dates::{Day, Zone, format_timestamp};
use crate::domain::money::Hundredths;
use crate::operations::Operation;
use crate::store::{ListWindow, Store};
use crate::types::{AmountListMeta, PageMeta, SortOrder};

/// One authorised request to an operation.
pub struct Call {
    /// Shared server state.
    pub app: Arc<App>,
    /// The database as this call sees it: a write's unit of work (every statement of the
    /// handler joins its transaction), or the plain store for a read. Handlers use this one,
    /// never `app.store`.
    pub store: Store,
    /// Who calls (the organization comes from here, never from the input).
    pub principal: Principal,
    /// The operation called.
    pub op: &'static Operation,
    /// The request id (X-Request-Id).
    pub request_id: String,
    /// The If-Match header, if any.
    pub if_match: Option<String>,
    /// The time of the request, shared by everything it writes.
    pub now: OffsetDateTime,
}

impl Call {
    /// The organization of the caller.
    pub fn org_id(&self) -> &str {
        &self.principal.organization_id
    }

    /// The organization's time zone.
    pub fn zone(&self) -> &Zone {
        &self.principal.zone
    }

    /// The organization's Pix account, if it set one: charges without a code of their own show
    /// one made for it.
    pub fn pix_account(&self) -> Option<&crate::domain::pix_account::PixAccount> {
        self.principal.pix_account.as_ref()
    }

    /// Refuses the call unless the token also has the operation's `x-mcp.conditional_scope`:
    /// some calls need more than the operation's own scopes (changing what an active policy
    /// sends needs `dunning.notify`). The handler says when; the spec says which scope, so the
    /// two cannot drift. An operation without one needs nothing more.
    pub fn require_conditional_scope(&self) -> ApiResult<()> {
        let Some(scope) = self.op.conditional_scope else { return Ok(()) };
        if self.principal.has_scope(scope) {
            return Ok(());
        }
        let mut all: Vec<&str> = self.op.required_scopes().collect();
        all.push(scope);
        Err(ApiError::InsufficientScope {
            challenge: self.app.step_up_challenge("/v1", &all.join(" ")),
            required: scope.into(),
            granted: self.principal.scopes.clone(),
        })
    }

    /// Today in the organization's time zone.
    pub fn today(&self) -> Date {
        self.zone().today(self.now)
    }

    /// What a change this call makes needs of it: its unit of work, its caller, its request id
    /// and its time.
    pub(crate) fn acting(&self) -> Acting<'_> {
        Acting { store: &self.store, principal: &self.principal, request_id: &self.request_id, now: self.now }
    }

    /// Refuses the call when If-Match names none of the object's current version.
    pub fn check_if_match(&self, version: i64) -> ApiResult<()> {
        let current = etag(version);
        match &self.if_match {
            Some(field) if !if_match_admits(field, &current) => Err(ApiError::PreconditionFailed { current }),
            _ => Ok(()),
        }
    }
}

/// Whether an If-Match field value admits the current entity tag (RFC 9110 section 13.1.1):
/// `*`, or a comma-separated list of entity tags one of which is strongly equal to it. A weak
/// tag (`W/"v3"`) never matches strongly, and a list that cannot be read matches nothing.
pub(crate) fn if_match_admits(field: &str, current: &str) -> bool {
    if field.trim() == "*" {
        return true;
    }
    let mut strong = Vec::new();
    let mut rest = field;
    loop {
        rest = rest.trim_start_matches([',', ' ', '\t']);
        if rest.is_empty() {
            return strong.contains(&current);
        }
        let (weak, tag) = match rest.strip_prefix("W/") {
            Some(tag) => (true, tag),
            None => (false, rest),
        };
        // An entity tag is a quoted string without quotes inside (RFC 9110 section 8.8.3).
        let Some(end) = tag.strip_prefix('"').and_then(|t| t.find('"')) else {
            return false;
        };
        if !weak {
            strong.push(&tag[..end + 2]);
        }
        rest = tag[end + 2..].trim_start_matches([' ', '\t']);
        if !(rest.is_empty() || rest.starts_with(',')) {
            return false;
        }
    }
}

/// The arguments every list operation shares (`components/parameters` of the spec).
pub struct ListArgs {
    /// `page`, 1-based.
    pub page: Option<i64>,
    /// `per_page`, 1 to 100.
    pub per_page: Option<i64>,
    /// `q`, a prefix.
    pub q: Option<String>,
    /// `created_from`, inclusive.
    pub created_from: Option<Day>,
    /// `created_to`, inclusive.
    pub created_to: Option<Day>,
    /// `sort_by`, as the spec writes it.
    pub sort_by: &'static str,
    /// `sort_order`, descending by default.
    pub sort_order: Option<SortOrder>,
}

/// Which page of a list is answered, for its `meta`.
pub struct Pager {
    page: i64,
    per_page: i64,
}

impl ListArgs {
    /// The arguments of a list in creation order with neither search nor creation range.
    pub fn plain(page: Option<i64>, per_page: Option<i64>, sort_order: Option<SortOrder>) -> Self {
        Self {
            page,
            per_page,
            q: None,
            created_from: None,
            created_to: None,
            sort_by: "created_at",
            sort_order,
        }
    }

    /// The window of the list, with created_from/created_to as the organization's day bounds.
    pub fn page(self, zone: &Zone) -> (ListWindow, Pager) {
        let (created_from, created_before) = day_range(zone, self.created_from, self.created_to);
        let page = self.page.unwrap_or(1).max(1);
        let per_page = self.per_page.unwrap_or(25).clamp(1, 100);
        let window = ListWindow {
            q: self.q,
            created_from,
            created_before,
            sort_by: self.sort_by.to_string(),
            descending: self.sort_order != Some(SortOrder::Asc),
            limit: per_page,
            offset: (page - 1).saturating_mul(per_page),
        };
        (window, Pager { page, per_page })
    }
}

impl Pager {
    /// The `meta` of the answer, for `total` matching objects.
    pub fn meta(&self, total: i64) -> PageMeta {
        let total_pages = if total == 0 { 0 } else { (total + self.per_page - 1) / self.per_page };
        PageMeta { total, page: self.page, per_page: self.per_page, total_pages }
    }

    /// [`Self::meta`] and the sum of the listed amounts (centavos) over every page.
    pub fn amount_meta(&self, total: i64, amount_cents: i64) -> AmountListMeta {
        let page = self.meta(total);
        AmountListMeta {
            total: page.total,
            page: page.page,
            per_page: page.per_page,
            total_pages: page.total_pages,
            amount_sum: Hundredths(amount_cents),
        }
    }
}

/// A range of the organization's days, both ends included, as instants: from the first instant
/// of `from` to (strictly before) the first instant after `to`.
pub fn day_range(zone: &Zone, from: Option<Day>, to: Option<Day>) -> (Option<String>, Option<String>) {
    let day_start = |d: Date| format_timestamp(zone.day_start(d));
    (from.map(|d| day_start(d.0)), to.and_then(|d| d.0.next_day()).map(day_start))
}

/// The ETag of an object version.
pub fn etag(version: i64) -> String {
    let mut buffer = itoa::Buffer::new();
    let digits = buffer.format(version);
    let mut tag = String::with_capacity(digits.len() + 3);
    tag.push_str("\"v");
    tag.push_str(digits);
    tag.push('"');
    tag
}

/// A successful JSON answer: the spec's response type, with the object's ETag when it is one
/// object. Its status is the operation's success status in the spec.
#[derive(Debug)]
pub struct Reply<T> {
    /// The document.
    pub body: T,
    /// The version of the object, its ETag.
    pub version: Option<i64>,
    /// The secret `body` shows, and the token it is shown to: a replay to any other shows it
    /// without.
    pub secret_shown_to: Option<ShownSecret>,
}

/// A secret an answer shows once: the member of its `data` that holds it, and the token it is
/// shown to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShownSecret {
    /// The member of `data` (`secret`, a receiver's `url`).
    pub member: &'static str,
    /// The token.
    pub token_id: String,
}

impl<T> Reply<T> {
    /// A document that is not one versioned object (a list, `me`).
    pub fn new(body: T) -> Self {
        Self { body, version: None, secret_shown_to: None }
    }

    /// One object at `version`.
    pub fn versioned(body: T, version: i64) -> Self {
        Self { body, version: Some(version), secret_shown_to: None }
    }

    /// The document shows a secret (`data.<member>`) once, to the token `token_id` only.
    pub fn secret_for(mut self, member: &'static str, token_id: &str) -> Self {
        self.secret_shown_to = Some(ShownSecret { member, token_id: token_id.to_string() });
        self
    }
}

/// A successful answer without a body (204).
#[derive(Debug)]
pub struct NoContent;

/// A handler's answer, rendered once: for HTTP and the idempotency store in the compact
/// layout, or in the layout the invocation asked for.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Rendered {
    /// HTTP status.
    pub status: u16,
    /// ETag of the object (compact layout only: the others have no header to carry it in).
    pub etag: Option<String>,
    /// The JSON text, if any.
    pub body: Option<String>,
    /// The layout of `body`; only ever [`Layout::Compact`] once stored.
    #[serde(skip)]
    pub layout: Layout,
    /// A file answered instead of JSON (only reads answer one, so it is never stored).
    #[serde(skip)]
    pub file: Option<File>,
    /// The secret `body` shows, if it shows one, and to which token.
    #[serde(skip)]
    pub secret_shown_to: Option<ShownSecret>,
}

/// A file a read answers (a PDF), never JSON: its media type, the name it is saved under and
/// its bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct File {
    /// Its media type (`application/pdf`).
    pub content_type: &'static str,
    /// The name a browser saves it under: ASCII letters, digits, `.`, `_` and `-` only.
    pub file_name: String,
    /// Its bytes.
    pub bytes: Vec<u8>,
}

impl File {
    /// A file named `<stem>.<extension>`; any character of `stem` outside `[A-Za-z0-9._-]`
    /// becomes `_`, so the name needs no quoting and cannot end the header it is written in.
    pub fn named(content_type: &'static str, stem: &str, extension: &str, bytes: Vec<u8>) -> Self {
        let safe = |c: char| if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') { c } else { '_' };
        let mut file_name: String = stem.chars().map(safe).collect();
        file_name.push('.');
        file_name.extend(extension.chars().map(safe));
        Self { content_type, file_name, bytes }
    }

    /// The `Content-Disposition` that makes a browser save it rather than show it in the API's
    /// origin (a PDF or CSV opened inline runs in the page that fetched it).
    pub fn disposition(&self) -> String {
        format!("attachment; filename=\"{}\"", self.file_name)
    }
}

impl Render for File {
    fn render(self, success_status: u16, layout: Layout) -> ApiResult<Rendered> {
        Ok(Rendered {
            status: success_status,
            etag: None,
            body: None,
            layout,
            file: Some(self),
            secret_shown_to: None,
        })
    }
}

impl Rendered {
    /// The HTTP response: status, ETag, and the JSON body when there is one.
    pub fn into_response(self) -> poem::Response {
        let status = poem::http::StatusCode::from_u16(self.status).unwrap_or(poem::http::StatusCode::OK);
        let mut builder = poem::Response::builder().status(status);
        if let Some(etag) = self.etag {
            builder = builder.header("ETag", etag);
        }
        match (self.body, self.file) {
            (Some(body), _) => {
                builder.header(poem::http::header::CONTENT_TYPE, crate::request::APPLICATION_JSON).body(body)
            }
            (None, Some(file)) => builder
                .header(poem::http::header::CONTENT_TYPE, file.content_type)
                .header(poem::http::header::CONTENT_DISPOSITION, file.disposition())
                .body(file.bytes),
            (None, None) => builder.finish(),
        }
    }
}

/// What a handler may answer, rendered once: [`Reply`], [`NoContent`] or a [`File`].
pub trait Render {
    /// The answer in `layout` (when it is JSON), with the operation's success status.
    fn render(self, success_status: u16, layout: Layout) -> ApiResult<Rendered>;

    /// The same, with a list's rows cut to `fields` when the call named some (`fields.rs`):
    /// only a JSON [`Reply`] has rows to cut.
    fn render_cut(self, success_status: u16, layout: Layout, fields: Option<&[&str]>) -> ApiResult<Rendered>
    where
        Self: Sized,
    {
        let _ = fields;
        self.render(success_status, layout)
    }
}

impl<T: Serialize> Render for Reply<T> {
    fn render(self, success_status: u16, layout: Layout) -> ApiResult<Rendered> {
        let body = layout.write(&self.body).map_err(|e| ApiError::Internal(Box::new(e)))?;
        // Only the compact layout is sent with headers to carry an ETag in.
        let etag = match layout {
            Layout::Compact => self.version.map(etag),
            Layout::IndentedString => None,
        };
        Ok(Rendered {
            status: success_status,
            etag,
            body: Some(body),
            layout,
            file: None,
            secret_shown_to: self.secret_shown_to,
        })
    }

    fn render_cut(self, success_status: u16, layout: Layout, fields: Option<&[&str]>) -> ApiResult<Rendered> {
        let Some(fields) = fields else { return self.render(success_status, layout) };
        let body = super::fields::cut(&self.body, fields).map_err(|e| ApiError::Internal(Box::new(e)))?;
        Reply { body, version: self.version, secret_shown_to: self.secret_shown_to }
            .render(success_status, layout)
    }
}

impl Render for NoContent {
    fn render(self, _: u16, _: Layout) -> ApiResult<Rendered> {
        Ok(Rendered {
            status: 204,
            etag: None,
            body: None,
            layout: Layout::Compact,
            file: None,
            secret_shown_to: None,
        })
    }
}

/// The values of a comma-separated filter (the spec's pattern already checked them).
pub fn csv(value: Option<crate::domain::text::Text>) -> Vec<String> {
    value
        .map(|s| s.as_str().split(',').map(str::trim).filter(|v| !v.is_empty()).map(str::to_string).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::{File, etag, if_match_admits};

    #[test]
    fn a_file_name_is_plain_ascii_whatever_the_id_holds() {
        let file = File::named("text/csv", "exp_01HX", "csv", Vec::new());
        assert_eq!(file.disposition(), "attachment; filename=\"exp_01HX.csv\"");
        let odd = File::named("application/pdf", "statement-a\"b\r\n;c/é", "pdf", Vec::new());
        assert_eq!(odd.file_name, "statement-a_b___c__.pdf");
    }

    #[test]
    fn an_etag_is_the_version_quoted_after_a_v() {
        for version in [0, 1, 3, 42, -7, i64::MAX, i64::MIN] {
            assert_eq!(etag(version), format!("\"v{version}\""));
        }
    }

    #[test]
    fn if_match_lists_match_when_any_tag_does() {
        for field in [
            "*",
            " * ",
            "\"v3\"",
            "\"v1\", \"v3\"",
            "\"v3\",\"v1\"",
            " \"v1\" ,\t\"v3\" ",
            "W/\"v1\", \"v3\"",
            ",\"v3\",",
        ] {
            assert!(if_match_admits(field, "\"v3\""), "{field}");
        }
        for field in
            ["", "v3", "\"v1\"", "W/\"v3\"", "\"v3\"x", "\"v3\" \"v1\"", "\"v3", "*, \"v3\"", "\"v33\""]
        {
            assert!(!if_match_admits(field, "\"v3\""), "{field}");
        }
    }
}
