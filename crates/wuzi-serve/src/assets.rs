//! The page's files, compiled into the binary: `web/index.html`, `web/app.js`,
//! `web/style.css` and `web/favicon.svg`. A request names one of these by its exact name or
//! gets a 404; nothing is ever read from the file system.

use axum::extract::Path;
use axum::http::header;
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;

/// Each file: its name, its media type and its text.
pub const FILES: [(&str, &str, &str); 4] = [
    (
        "index.html",
        "text/html; charset=utf-8",
        include_str!("../web/index.html"),
    ),
    (
        "app.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/app.js"),
    ),
    (
        "style.css",
        "text/css; charset=utf-8",
        include_str!("../web/style.css"),
    ),
    (
        "favicon.svg",
        "image/svg+xml",
        include_str!("../web/favicon.svg"),
    ),
];

fn serve(name: &str) -> Response {
    match FILES.iter().find(|(n, _, _)| *n == name) {
        Some((_, kind, text)) => (
            [
                (header::CONTENT_TYPE, *kind),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            *text,
        )
            .into_response(),
        None => ApiError::not_found("no such page").into_response(),
    }
}

pub async fn index() -> Response {
    serve("index.html")
}

pub async fn file(Path(name): Path<String>) -> Response {
    serve(&name)
}
