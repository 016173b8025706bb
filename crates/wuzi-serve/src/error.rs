//! Errors: [`ApiError`], the answer to a request that cannot be done (an HTTP status and one
//! clear sentence, sent as `{"error": "..."}`), and [`ServeError`], why the server could not
//! start.

use axum::http::StatusCode;
use thiserror::Error;

/// A request refused: its status and the reason in words. The session it named is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{status}: {message}")]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
}

impl ApiError {
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }

    /// 400: the request is malformed or names something unknown (a rule, a size, a field).
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    /// 404: no such session or page.
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, message)
    }

    /// 409: the request does not fit the game's state (it is over, nothing to take back).
    pub fn conflict(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::CONFLICT, message)
    }

    /// 422: well formed, but not playable (off the board, occupied, forbidden).
    pub fn unprocessable(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, message)
    }

    /// 503: a bound on sessions or searches is reached; trying later can succeed.
    pub fn busy(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::SERVICE_UNAVAILABLE, message)
    }
}

/// Why the server did not start.
#[derive(Debug, Error)]
pub enum ServeError {
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        addr: std::net::SocketAddr,
        source: std::io::Error,
    },
    #[error("cannot start the server's runtime: {0}")]
    Runtime(std::io::Error),
    #[error("{0}")]
    Config(String),
}
