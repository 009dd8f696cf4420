//! The generated /v1 route table (see `templates/routes.rs.hbs`).

include!(concat!(env!("OUT_DIR"), "/routes.rs"));
