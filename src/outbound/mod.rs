//! Work that leaves the server, run by the engine and by a person's request alike: sending
//! notifications, sending webhook deliveries, building export files. None of it answers a
//! request, so it sits below the API and reads the views the API answers with.

pub mod delivery;
pub mod export_file;
pub mod webhook_delivery;
