//! The durable-commit floor of `bench/writes.sh`: how many transactions of one small row the
//! database commits durably a second on this disk, with the server's own settings. SQLite: one
//! connection (SQLite has one writer), WAL, `synchronous` at its default FULL, foreign keys on,
//! `BEGIN IMMEDIATE` … `COMMIT` as the server's units of work. PostgreSQL: CONNECTIONS
//! connections committing side by side, the server's defaults (`synchronous_commit` on).
//!
//! `cargo run --release --example commit_floor -- sqlite:///tmp/floor.db 1 6`
//! `cargo run --release --example commit_floor -- postgres://… 32 6`
//!
//! Prints one line: `commits <n> seconds <s> per_second <r> bytes_written <b>`, the bytes
//! being what this process wrote to disk (`/proc/self/io`; PostgreSQL's own writes are its
//! server's, read by the script from its processes).

use std::time::{Duration, Instant};

/// The row each transaction inserts: about the size of an idempotency claim.
const ROW: &str = "floor-row-0123456789abcdef0123456789abcdef0123456789abcdef";

fn written_bytes() -> u64 {
    std::fs::read_to_string("/proc/self/io")
        .ok()
        .and_then(|io| {
            io.lines().find_map(|line| line.strip_prefix("write_bytes: ").and_then(|n| n.trim().parse().ok()))
        })
        .unwrap_or(0)
}

fn sqlite(path: &str, seconds: Duration) -> Result<(u64, f64), rusqlite::Error> {
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{path}{suffix}"));
    }
    let conn = rusqlite::Connection::open(path)?;
    conn.execute_batch(
        "PRAGMA foreign_keys = ON; PRAGMA journal_mode = WAL;
         CREATE TABLE floor (id INTEGER PRIMARY KEY, body TEXT NOT NULL);",
    )?;
    let started = Instant::now();
    let mut commits = 0;
    while started.elapsed() < seconds {
        conn.execute_batch("BEGIN IMMEDIATE")?;
        conn.prepare_cached("INSERT INTO floor (body) VALUES (?1)")?.execute([ROW])?;
        conn.execute_batch("COMMIT")?;
        commits += 1;
    }
    Ok((commits, started.elapsed().as_secs_f64()))
}

async fn postgres(url: &str, connections: u32, seconds: Duration) -> Result<(u64, f64), sqlx::Error> {
    let pool = sqlx::postgres::PgPoolOptions::new().max_connections(connections).connect(url).await?;
    sqlx::query("DROP TABLE IF EXISTS commit_floor").execute(&pool).await?;
    sqlx::query("CREATE TABLE commit_floor (id BIGSERIAL PRIMARY KEY, body TEXT NOT NULL)")
        .execute(&pool)
        .await?;
    let started = Instant::now();
    let workers = (0..connections).map(|_| {
        let pool = pool.clone();
        tokio::spawn(async move {
            let mut commits = 0u64;
            while started.elapsed() < seconds {
                let mut tx = pool.begin().await?;
                sqlx::query("INSERT INTO commit_floor (body) VALUES ($1)")
                    .bind(ROW)
                    .execute(&mut *tx)
                    .await?;
                tx.commit().await?;
                commits += 1;
            }
            Ok::<u64, sqlx::Error>(commits)
        })
    });
    let mut commits = 0;
    for worker in workers.collect::<Vec<_>>() {
        commits += worker.await.expect("a floor worker panicked")?;
    }
    let elapsed = started.elapsed().as_secs_f64();
    sqlx::query("DROP TABLE commit_floor").execute(&pool).await?;
    Ok((commits, elapsed))
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, url, connections, seconds] = args.as_slice() else {
        eprintln!("usage: commit_floor <sqlite://path | postgres://…> <connections> <seconds>");
        std::process::exit(2);
    };
    let connections: u32 = connections.parse().expect("connections: a number");
    let seconds = Duration::from_secs_f64(seconds.parse().expect("seconds: a number"));
    let before = written_bytes();
    let (commits, elapsed) = if let Some(path) = url.strip_prefix("sqlite://") {
        sqlite(path, seconds).expect("SQLite floor")
    } else {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .expect("runtime");
        runtime.block_on(postgres(url, connections, seconds)).expect("PostgreSQL floor")
    };
    println!(
        "commits {commits} seconds {elapsed:.2} per_second {:.1} bytes_written {}",
        commits as f64 / elapsed,
        written_bytes() - before
    );
}
