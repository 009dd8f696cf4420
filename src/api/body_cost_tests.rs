//! No body under the 2 MiB cap makes the request path work long: whatever its shape (many keys,
//! deep nesting, long strings, many small arrays, long key names), reading and checking it
//! against an operation's schema takes at most [`BUDGET`].

use std::time::{Duration, Instant};

use proptest::prelude::*;

use super::endpoint::read_body;
use crate::operations::OPERATIONS;
use crate::request::MAX_BODY_BYTES;

/// The most a body may cost: 50 ms in an optimised build; an unoptimised one (plain `cargo
/// test`) runs the same code about ten times slower, still far below what a cost that grows
/// with the square of the members takes on such a body (seconds to a minute).
const BUDGET: Duration =
    if cfg!(debug_assertions) { Duration::from_millis(600) } else { Duration::from_millis(50) };

/// A body of about `MAX_BODY_BYTES` of one shape.
fn body(shape: u8, unit: usize) -> String {
    let fill = MAX_BODY_BYTES - 64;
    let mut out = String::with_capacity(MAX_BODY_BYTES);
    match shape {
        // Many distinct keys in one object.
        0 => {
            out.push('{');
            let mut i = 0;
            while out.len() < fill - 32 {
                out.push_str(&format!("\"k{i}\":{},", i % 10));
                i += 1;
            }
            out.push_str("\"name\":\"x\"}");
        }
        // Nesting as deep as the reader takes, over and over.
        1 => {
            let depth = 1 + unit % 120;
            let one = format!("{}1{}", "[".repeat(depth), "]".repeat(depth));
            out.push_str("{\"tags\":[");
            while out.len() + one.len() + 4 < fill {
                out.push_str(&one);
                out.push(',');
            }
            out.push_str("1]}");
        }
        // One long string, in a known field or as an unknown key.
        2 => {
            let text = "a".repeat(fill - 40);
            if unit.is_multiple_of(2) {
                out.push_str(&format!("{{\"name\":\"{text}\"}}"));
            } else {
                out.push_str(&format!("{{\"{text}\":1}}"));
            }
        }
        // Many small arrays.
        3 => {
            out.push_str("{\"tags\":[");
            while out.len() < fill - 16 {
                out.push_str("[\"a\"],");
            }
            out.push_str("[]]}");
        }
        // Long key names, many of them.
        4 => {
            let len = 64 + unit % 60_000;
            out.push('{');
            let mut i = 0;
            while out.len() + len + 16 < fill {
                out.push_str(&format!("\"{i}{}\":1,", "k".repeat(len)));
                i += 1;
            }
            out.push_str("\"x\":1}");
        }
        // Many objects each just under the members cap.
        _ => {
            out.push_str("{\"items\":[");
            let members = 1 + unit % 999;
            'fill: loop {
                out.push('{');
                for i in 0..members {
                    if out.len() > fill - 32 {
                        out.push_str("\"z\":1}");
                        break 'fill;
                    }
                    out.push_str(&format!("\"m{i}\":0,"));
                }
                out.push_str("\"z\":1},");
            }
            out.push_str("]}");
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn no_body_under_the_cap_costs_more_than_the_budget(
        shape in 0u8..6,
        unit in 0usize..100_000,
        op in 0usize..OPERATIONS.len(),
    ) {
        let Some(op) = OPERATIONS.iter().cycle().skip(op).find(|o| o.body.is_some()) else {
            return Ok(());
        };
        let bytes = body(shape, unit);
        prop_assert!(bytes.len() <= MAX_BODY_BYTES);
        let started = Instant::now();
        let answer = read_body(op, Some("application/json"), bytes.as_bytes());
        let took = started.elapsed();
        drop(answer);
        prop_assert!(took <= BUDGET, "{} shape {shape} took {took:?}", op.operation_id);
    }
}
