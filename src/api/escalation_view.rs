//! The fields every escalation's public view shares, filled from the shared life: each kind's
//! view (`credit_bureau_reports.rs`, `protests.rs`) names only its own. The views are generated
//! structs with no trait in common, so a macro fills them; the JSON keeps the spec's field order
//! whatever the order here.

/// The view `$view` of the escalation `$e`: the shared fields, then the kind's `$field: $value`.
macro_rules! escalation_view {
    ($($view:ident)::+, $e:ident { $($field:ident: $value:expr),* $(,)? }) => {
        $($view)::+ {
            id: $e.id.clone(),
            charge_id: $e.charge_id.clone(),
            debtor_id: $e.debtor_id.clone(),
            debtor_name: $e.debtor_name.clone(),
            charge_description: $e.charge_description.clone(),
            status: $e.status,
            amount: $e.amount,
            requested_at: $crate::domain::dates::Timestamp($e.requested_at),
            failure_reason: $e.failure_reason.clone(),
            version: $e.version,
            created_at: $crate::domain::dates::Timestamp($e.created_at),
            updated_at: $crate::domain::dates::Timestamp($e.updated_at),
            $($field: $value),*
        }
    };
}
pub(crate) use escalation_view;
