//! `wuzi serve`: the web board. Starts `wuzi_serve::Server` on the address asked for, prints
//! the page's address, and serves until the process is stopped (Ctrl-C).
//!
//! Exit status of [`run`]: 1 the server stopped by itself (an error, printed), 2 bad
//! arguments or the address cannot be bound.

use crate::args::parse_duration;
use clap::Args;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::time::Duration;

#[derive(Args, Debug, Clone)]
pub struct ServeArgs {
    /// The address to listen on: 127.0.0.1 (this machine only) unless told otherwise, e.g.
    /// 0.0.0.0 for every interface (then anyone who can reach this machine can use it).
    #[arg(long, value_name = "IP", default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    pub bind: IpAddr,
    /// The port (0: any free port).
    #[arg(long, default_value_t = wuzi_serve::DEFAULT_PORT)]
    pub port: u16,
    /// The most boards (browser pages) at once.
    #[arg(long, default_value_t = 32)]
    pub sessions: usize,
    /// The most searches running at once, over all boards.
    #[arg(long, default_value_t = 2)]
    pub searches: usize,
    /// Each search's transposition table, in MiB.
    #[arg(long, value_name = "MIB", default_value_t = 64)]
    pub hash: usize,
    /// The most threads one search may use (0: one per available core, the default).
    #[arg(long, default_value_t = 0)]
    pub threads: u64,
    /// Drop a board that no page shows and nobody used for this long: 30m, 90s.
    #[arg(long, value_name = "TIME", default_value = "30m", value_parser = parse_duration)]
    pub idle: Duration,
}

impl ServeArgs {
    /// The server's configuration.
    pub fn config(&self) -> wuzi_serve::Config {
        wuzi_serve::Config {
            addr: SocketAddr::new(self.bind, self.port),
            max_sessions: self.sessions,
            max_searches: self.searches,
            hash_bytes: self.hash.saturating_mul(1 << 20),
            max_threads: wuzi_search::resolve_threads(self.threads),
            idle: self.idle,
            ..wuzi_serve::Config::default()
        }
    }
}

/// Runs `wuzi serve`; returns the exit status.
pub fn run(args: &ServeArgs) -> u8 {
    if args.hash == 0 || args.hash > 1 << 20 {
        eprintln!("wuzi serve: --hash must be 1 to 1048576 MiB");
        return 2;
    }
    let server = match wuzi_serve::Server::start(args.config()) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("wuzi serve: {e}");
            return 2;
        }
    };
    println!(
        "wuzi serve: open {} in a browser (Ctrl-C stops the server)",
        server.url()
    );
    if !args.bind.is_loopback() {
        println!(
            "wuzi serve: listening on {} for every client that can reach it",
            server.addr()
        );
    }
    server.wait();
    eprintln!("wuzi serve: the server stopped");
    1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{parse_test_args, try_parse_test_args};

    #[test]
    fn defaults_are_safe_and_options_are_read() {
        let args: ServeArgs = parse_test_args("serve", &[]);
        let config = args.config();
        assert!(config.addr.ip().is_loopback());
        assert_eq!(config.addr.port(), wuzi_serve::DEFAULT_PORT);
        let args: ServeArgs = parse_test_args(
            "serve",
            &[
                "--bind",
                "0.0.0.0",
                "--port",
                "0",
                "--threads",
                "3",
                "--hash",
                "16",
                "--idle",
                "90s",
                "--searches",
                "4",
            ],
        );
        let config = args.config();
        assert_eq!(config.addr, "0.0.0.0:0".parse().expect("addr"));
        assert_eq!(config.max_threads, 3);
        assert_eq!(config.hash_bytes, 16 << 20);
        assert_eq!(config.idle, Duration::from_secs(90));
        assert_eq!(config.max_searches, 4);
        for bad in [
            &["--bind", "localhost:80"][..],
            &["--port", "70000"],
            &["--idle", "soon"],
        ] {
            assert!(
                try_parse_test_args::<ServeArgs>("serve", bad).is_err(),
                "{bad:?}"
            );
        }
    }
}
