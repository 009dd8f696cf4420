//! The generated /v1 route table (see `templates/routes.rs.hbs`).

use crate::operations::OPERATIONS;

include!(concat!(env!("OUT_DIR"), "/routes.rs"));
