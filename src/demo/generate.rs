//! `demo generate --charges N`: load data for measuring lists and the engine at scale. Adds N
//! charges (and a debtor per ten of them, reachable on every channel) to the demo organization,
//! built by the same aggregates the API uses and bulk-inserted in batched transactions. About half of them are open (pending or overdue),
//! due dates spread over a year either side of today. No events: it is load, not history.

use time::{Duration, OffsetDateTime};

use super::{demo_error, ensure};
use crate::admin::AdminError;
use crate::domain::charge::{Charge, NewCharge, Payment};
use crate::domain::debtor::{Debtor, DebtorEdit};
use crate::domain::document::parse_document;
use crate::domain::money::Hundredths;
use crate::store::Store;

/// Charges per transaction: big enough to amortise the commit (each writes every index page
/// the batch touched, and random keys touch most of them), small enough to show progress.
const BATCH: u64 = 100_000;
/// Charges per generated debtor.
const CHARGES_PER_DEBTOR: u64 = 10;

const FIRST_NAMES: &[&str] = &[
    "Ana",
    "Ângela",
    "Antônio",
    "Beatriz",
    "Bruno",
    "Camila",
    "Carlos",
    "Cecília",
    "Daniel",
    "Débora",
    "Eduardo",
    "Fábio",
    "Fernanda",
    "Gabriel",
    "Helena",
    "Igor",
    "Isabela",
    "João",
    "Júlia",
    "Leonardo",
    "Luana",
    "Marcelo",
    "Maria",
    "Natália",
    "Otávio",
    "Patrícia",
    "Rafael",
    "Renata",
    "Sérgio",
    "Tânia",
    "Vinícius",
    "Yasmin",
];
const SURNAMES: &[&str] = &[
    "Almeida",
    "Araújo",
    "Barbosa",
    "Cardoso",
    "Carvalho",
    "Conceição",
    "Costa",
    "Dias",
    "Fernandes",
    "Gomes",
    "Gonçalves",
    "Lima",
    "Martins",
    "Melo",
    "Oliveira",
    "Pereira",
    "Ribeiro",
    "Rocha",
    "Santos",
    "Silva",
    "Souza",
];

/// What was made.
#[derive(Debug, Clone)]
pub struct Generated {
    /// The demo organization.
    pub organization_id: String,
    /// Debtors added.
    pub debtors: u64,
    /// Charges added.
    pub charges: u64,
}

/// A small deterministic generator (xorshift64*): the data need not be unpredictable, only
/// varied, and the same run makes the same shapes.
struct Dice(u64);

impl Dice {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u64) as usize]
    }
}

/// A valid CPF made from a serial number (unique per serial below 10^9).
fn cpf(serial: u64) -> String {
    let mut digits: Vec<u32> =
        format!("{:09}", serial % 1_000_000_000).bytes().map(|b| u32::from(b - b'0')).collect();
    for _ in 0..2 {
        let n = digits.len() as u32 + 1;
        let sum: u32 = digits.iter().enumerate().map(|(i, d)| d * (n - i as u32)).sum();
        digits.push(sum * 10 % 11 % 10);
    }
    digits.iter().map(|d| char::from(b'0' + *d as u8)).collect()
}

/// Adds `charges` charges to the demo organization (creating it first if needed); `progress`
/// hears the running total after each batch.
pub async fn generate(
    store: &Store,
    charges: u64,
    mut progress: impl FnMut(u64),
) -> Result<Generated, AdminError> {
    let org_id = ensure(store).await?;
    store.begin_bulk_load().await?;
    let loaded = load(store, &org_id, charges, &mut progress).await;
    store.end_bulk_load().await?;
    let (made_debtors, made) = loaded?;
    // Policies not yet scheduled (a new demo organization's) get their charges' next actions
    // now, not on the engine's next pass.
    crate::engine::reschedule_organization(store, &org_id, OffsetDateTime::now_utc()).await?;
    store.analyze().await?;
    Ok(Generated { organization_id: org_id, debtors: made_debtors, charges: made })
}

/// The batches of [`generate`]: (debtors, charges) made.
async fn load(
    store: &Store,
    org_id: &str,
    charges: u64,
    progress: &mut impl FnMut(u64),
) -> Result<(u64, u64), AdminError> {
    let zone = store
        .organization(org_id)
        .await?
        .ok_or_else(|| AdminError::UnknownOrganization(org_id.to_string()))?
        .timezone;
    let org_id = org_id.to_string();
    let now = OffsetDateTime::now_utc();
    let today = zone.today(now);
    // The charges are left as a running engine would leave them: late ones overdue, each one's
    // next action computed from the policy it follows.
    let policy = store.followed_policy(&org_id, None).await?;
    let address = super::generated_address()?;
    // Serials continue past what earlier runs made, so documents stay unique.
    let mut dice = Dice(0x9e37_79b9_7f4a_7c15 ^ now.unix_timestamp_nanos() as u64);
    let mut serial = 100_000_000 + dice.below(400_000_000);
    let (mut made_debtors, mut made) = (0u64, 0u64);
    while made < charges {
        let batch = BATCH.min(charges - made);
        let mut debtors = Vec::new();
        let mut open = Vec::with_capacity(batch as usize);
        for i in 0..batch {
            if (made + i) % CHARGES_PER_DEBTOR == 0 {
                let name =
                    format!("{} {} {}", dice.pick(FIRST_NAMES), dice.pick(SURNAMES), dice.pick(SURNAMES));
                // Every channel reaches a generated debtor, so a pass sends on each of them.
                let edit = DebtorEdit {
                    name: Some(name),
                    email: Some(Some(format!("cliente{serial}@example.com.br"))),
                    mobile: Some(Some(format!("+55119{:08}", serial % 100_000_000))),
                    address: Some(Some(address.clone())),
                    ..DebtorEdit::default()
                };
                let mut document = cpf(serial);
                while parse_document(&document).is_err() {
                    serial += 1;
                    document = cpf(serial);
                }
                serial += 1;
                let mut debtor = Debtor::register(&org_id, &document, edit, now, &zone)
                    .map_err(|e| demo_error("debtor", e))?;
                debtor.created_at = now - Duration::seconds(dice.below(365 * 86_400) as i64);
                debtor.updated_at = debtor.created_at;
                debtors.push(debtor);
                made_debtors += 1;
            }
            let debtor = debtors.last().ok_or_else(|| demo_error("charge", "no debtor"))?;
            let due = today + Duration::days(dice.below(730) as i64 - 365);
            let new = NewCharge {
                issue_date: Some(due.min(today) - Duration::days(30)),
                description: Some(format!("Mensalidade {}", made + i + 1)),
                external_id: Some(format!("LOAD-{:08}", made + i + 1)),
                ..NewCharge::due(Hundredths(1_000 + dice.below(500_000) as i64), due)
            };
            let mut charge = Charge::open(debtor, new, now, &zone).map_err(|e| demo_error("charge", e))?;
            charge.created_at = now - Duration::microseconds(dice.below(365 * 86_400 * 1_000_000) as i64);
            charge.updated_at = charge.created_at;
            match dice.below(10) {
                0..=3 => {
                    charge
                        .settle(Payment { amount: None, paid_at: None, method: None }, now)
                        .map_err(|e| demo_error("charge", e))?;
                }
                4 => {
                    charge.cancel(None, now).map_err(|e| demo_error("charge", e))?;
                }
                _ => {}
            }
            charge.turn_overdue(today, charge.created_at);
            charge.next_action_at = policy.as_ref().and_then(|p| p.next_action_for(&charge, &zone, now));
            open.push(charge);
        }
        store.insert_many(&debtors, &open).await?;
        made += batch;
        progress(made);
    }
    Ok((made_debtors, made))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serial_cpfs_are_valid_and_distinct() {
        let a = cpf(123_456_789);
        assert!(parse_document(&a).is_ok(), "{a}");
        assert_ne!(a, cpf(123_456_790));
        assert!(parse_document(&cpf(100_000_001)).is_ok());
    }
}
