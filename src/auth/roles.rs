//! Roles of the users who sign in: a role caps the scopes its user can grant a
//! client, whatever the client asks for.

use super::ALL_SCOPES;

/// What a user may grant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Every scope.
    Admin,
    /// Day-to-day collection: read, write and notify debtors; no escalation (credit bureau,
    /// protest), webhooks or exports.
    Operator,
    /// Reads only.
    Viewer,
}

impl Role {
    /// Every role, most powerful first.
    pub const ALL: [Role; 3] = [Role::Admin, Role::Operator, Role::Viewer];

    /// The stored and typed name.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Admin => "admin",
            Role::Operator => "operator",
            Role::Viewer => "viewer",
        }
    }

    /// The role called `name` (as stored, or typed in the CLI).
    pub fn parse(name: &str) -> Option<Role> {
        Role::ALL.into_iter().find(|r| r.as_str() == name)
    }

    /// The scopes a user with this role may grant, in the vocabulary's order.
    pub fn scopes(self) -> Vec<&'static str> {
        let allowed: &[&str] = match self {
            Role::Admin => ALL_SCOPES,
            Role::Operator => &["dunning.read", "dunning.write", "dunning.notify"],
            Role::Viewer => &["dunning.read"],
        };
        ALL_SCOPES.iter().copied().filter(|s| allowed.contains(s)).collect()
    }

    /// What is granted of `requested`: the requested scopes the role allows, in the
    /// vocabulary's order; every scope the role allows when nothing was requested.
    pub fn grantable(self, requested: &[String]) -> Vec<&'static str> {
        let allowed = self.scopes();
        if requested.is_empty() {
            return allowed;
        }
        allowed.into_iter().filter(|s| requested.iter().any(|r| r == s)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_cap_what_is_granted() {
        assert_eq!(Role::Admin.scopes().len(), ALL_SCOPES.len());
        assert_eq!(Role::Operator.scopes(), ["dunning.read", "dunning.write", "dunning.notify"]);
        assert_eq!(Role::Viewer.scopes(), ["dunning.read"]);
        let asked: Vec<String> = ALL_SCOPES.iter().map(|s| s.to_string()).collect();
        assert_eq!(Role::Operator.grantable(&asked), Role::Operator.scopes());
        let asked = vec!["dunning.exports".to_string(), "dunning.read".to_string()];
        assert_eq!(Role::Operator.grantable(&asked), ["dunning.read"]);
        assert_eq!(Role::Viewer.grantable(&[]), ["dunning.read"]);
        for role in Role::ALL {
            assert_eq!(Role::parse(role.as_str()), Some(role));
            assert!(role.scopes().iter().all(|s| ALL_SCOPES.contains(s)));
        }
        assert_eq!(Role::parse("root"), None);
    }
}
