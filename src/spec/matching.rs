//! Which operation of the new spec each operation of the old one became: the same tool name;
//! else the tool that keeps the old name in `x-mcp.aliases` (a rename that breaks nobody); else
//! the new tool at the same method and path (a rename that breaks tool clients); else none.

use super::contract::Endpoint;

/// What became of an old operation, or where a new one came from.
#[derive(Debug)]
pub enum Pairing<'a> {
    /// Both specs have the tool under this name.
    Same { old: &'a Endpoint, new: &'a Endpoint },
    /// The tool has a new name; `aliased` when the old name still answers.
    Renamed { old: &'a Endpoint, new: &'a Endpoint, aliased: bool },
    /// Gone.
    Removed(&'a Endpoint),
    /// New.
    Added(&'a Endpoint),
}

/// Pairs every old endpoint with a new one, or none; then lists the new endpoints left over.
pub fn pair<'a>(old: &'a [Endpoint], new: &'a [Endpoint]) -> Vec<Pairing<'a>> {
    let mut taken = vec![false; new.len()];
    let mut found: Vec<Option<(usize, Option<bool>)>> = vec![None; old.len()];
    // Names first, so that no rename can take a tool that kept its name.
    for (i, o) in old.iter().enumerate() {
        if let Some(j) = new.iter().position(|n| n.tool == o.tool) {
            taken[j] = true;
            found[i] = Some((j, None));
        }
    }
    for (i, o) in old.iter().enumerate() {
        if found[i].is_some() {
            continue;
        }
        let aliased = new.iter().enumerate().position(|(j, n)| !taken[j] && n.aliases.contains(&o.tool));
        let moved = || {
            new.iter().enumerate().position(|(j, n)| {
                !taken[j] && n.method == o.method && n.path == o.path && !old.iter().any(|x| x.tool == n.tool)
            })
        };
        let hit = match aliased {
            Some(j) => Some((j, Some(true))),
            None => moved().map(|j| (j, Some(false))),
        };
        if let Some((j, _)) = hit {
            taken[j] = true;
        }
        found[i] = hit;
    }
    let mut pairings: Vec<Pairing<'a>> = old
        .iter()
        .zip(found)
        .map(|(o, hit)| match hit {
            None => Pairing::Removed(o),
            Some((j, None)) => Pairing::Same { old: o, new: &new[j] },
            Some((j, Some(aliased))) => Pairing::Renamed { old: o, new: &new[j], aliased },
        })
        .collect();
    pairings.extend(new.iter().zip(taken).filter(|(_, t)| !t).map(|(n, _)| Pairing::Added(n)));
    pairings
}
