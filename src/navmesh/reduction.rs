//! The reduction of a triangulation for TRA* (Demyen & Buro 2006). The walkable triangles are
//! sorted by how many walkable neighbours they keep once dead ends are peeled away:
//! - dead ends (degree 1 after peeling, and trees of them): never on a path unless the start or
//!   the goal is in them;
//! - corridors (degree 2): a path entering one has one way out, so a corridor is crossed in one
//!   search step from decision point to decision point;
//! - decision points (degree 3): the nodes of the reduced graph where the search branches.

use super::triangulation::Navmesh;
use crate::trace::NO_NODE;

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Role {
    Blocked,
    DeadEnd,
    Corridor,
    Decision,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Reduction {
    pub roles: Vec<Role>,
    /// For a dead-end triangle, its neighbour on the way to the rest of the mesh (`NO_NODE` for the
    /// last triangle of a component that is all dead ends).
    pub towards_core: Vec<u32>,
}

impl Reduction {
    pub fn new(mesh: &Navmesh) -> Reduction {
        let n = mesh.triangles.len();
        let mut degree: Vec<u8> = (0..n as u32)
            .map(|t| {
                (0..3).filter(|&i| mesh.triangles[t as usize].walkable && mesh.passable(t, i).is_some()).count() as u8
            })
            .collect();
        let mut roles: Vec<Role> =
            mesh.triangles.iter().map(|t| if t.walkable { Role::Corridor } else { Role::Blocked }).collect();
        let mut towards_core = vec![NO_NODE; n];
        let mut peel: Vec<u32> =
            (0..n as u32).filter(|&t| roles[t as usize] != Role::Blocked && degree[t as usize] <= 1).collect();
        while let Some(t) = peel.pop() {
            roles[t as usize] = Role::DeadEnd;
            for i in 0..3 {
                let Some(next) = mesh.passable(t, i) else { continue };
                if roles[next as usize] == Role::DeadEnd {
                    continue;
                }
                towards_core[t as usize] = next;
                degree[next as usize] -= 1;
                if degree[next as usize] == 1 {
                    peel.push(next);
                }
            }
        }
        for (role, &d) in roles.iter_mut().zip(&degree) {
            if *role == Role::Corridor && d == 3 {
                *role = Role::Decision;
            }
        }
        Reduction { roles, towards_core }
    }

    pub fn is_dead_end(&self, t: u32) -> bool {
        self.roles[t as usize] == Role::DeadEnd
    }

    pub fn is_decision(&self, t: u32) -> bool {
        self.roles[t as usize] == Role::Decision
    }

    pub fn count(&self, role: Role) -> usize {
        self.roles.iter().filter(|&&r| r == role).count()
    }

    /// The dead-end triangles from each of `triangles` out to the core: the only dead ends a path
    /// between them may use.
    pub fn branches_to_core(&self, triangles: impl Iterator<Item = u32>) -> Vec<u32> {
        let mut branch = Vec::new();
        for mut t in triangles {
            while t != NO_NODE && self.is_dead_end(t) && !branch.contains(&t) {
                branch.push(t);
                t = self.towards_core[t as usize];
            }
        }
        branch
    }
}
