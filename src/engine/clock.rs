//! The pass's clock: the instant it runs as, and the zone whose days and minutes count.

use time::{Date, OffsetDateTime};

use crate::domain::dates::Zone;

/// The instant a pass runs as, advancing with real time while it runs, and the zone the
/// organization (or policy) at hand counts its days in.
pub(super) struct PassClock {
    pub(super) now: OffsetDateTime,
    pub(super) started: std::time::Instant,
    pub(super) zone: Zone,
}

impl PassClock {
    /// The same instant, counted in another zone.
    pub(super) fn in_zone(&self, zone: Zone) -> PassClock {
        PassClock { now: self.now, started: self.started, zone }
    }

    /// The pass's day in the zone.
    pub(super) fn today(&self) -> Date {
        self.zone.today(self.now)
    }

    /// The pass's minute of the day in the zone.
    pub(super) fn minute(&self) -> u16 {
        minute_of(self.zone.local(self.now))
    }

    /// The minute of the day in the zone now that the pass has run for a while: when it passes
    /// a window's end, the messages left wait for the next window.
    pub(super) fn minute_as_it_runs(&self) -> u16 {
        minute_of(self.zone.local(self.stamp(self.now)))
    }

    /// The stamp of a change to something last changed at `last`.
    pub(super) fn stamp(&self, last: OffsetDateTime) -> OffsetDateTime {
        let elapsed = time::Duration::try_from(self.started.elapsed()).unwrap_or(time::Duration::ZERO);
        (self.now + elapsed).max(last)
    }
}

fn minute_of(local: OffsetDateTime) -> u16 {
    u16::from(local.hour()) * 60 + u16::from(local.minute())
}
