//! The page itself: one HTML file, its style sheet and its script, plain
//! text embedded in the binary (`include_str!`, no build step), served with
//! a Content-Security-Policy that allows nothing from any other host and
//! no inline script, so the page works offline and a string that slipped
//! through unescaped could still not run. The script builds each system's
//! form from `GET /api/systems` and fetches answers from `/api/evaluate`
//! (docs/serve.md, "The page").

use axum::http::{header, HeaderName, HeaderValue};
use axum::response::{IntoResponse, Response};

const INDEX: &str = include_str!("assets/index.html");
const STYLE: &str = include_str!("assets/app.css");
const SCRIPT: &str = include_str!("assets/app.js");

/// Only this server's own files; the charts are inline SVG (their styles
/// are attributes, which `style-src` does not govern); downloads are links
/// to the API.
pub const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/// The headers every response of the server carries.
pub fn security_headers() -> [(HeaderName, HeaderValue); 4] {
    [
        (
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(CSP),
        ),
        (
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ),
        (
            header::REFERRER_POLICY,
            HeaderValue::from_static("no-referrer"),
        ),
        (header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY")),
    ]
}

fn asset(content_type: &'static str, text: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        text,
    )
        .into_response()
}

/// `GET /`: the page (its state is in the query string, read by the script).
pub async fn index() -> Response {
    asset("text/html; charset=utf-8", INDEX)
}

/// `GET /app.css`.
pub async fn style() -> Response {
    asset("text/css; charset=utf-8", STYLE)
}

/// `GET /app.js`.
pub async fn script() -> Response {
    asset("text/javascript; charset=utf-8", SCRIPT)
}
