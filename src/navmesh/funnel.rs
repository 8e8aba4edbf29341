//! The funnel algorithm ("simple stupid funnel", after Lee & Preparata): the shortest path from
//! `start` to `goal` through a channel of triangles, given as the portals (edges) it crosses.
//!
//! For a round agent of radius `r` every obstacle corner becomes a circle of radius `r`; the
//! funnel's sides are then tangents between circles instead of lines between points, and the
//! path wraps around each corner it turns at. Arcs are drawn as polylines outside the circle
//! (each piece touches it), so the waypoints never come closer than `r` to a corner; the length
//! counts the arcs themselves, as a student working it out by hand does. With `r = 0` it is the
//! classic point funnel.

use super::triangulation::Navmesh;
use super::{Point, distance};
use crate::trace::Tracer;

/// A portal endpoint: `offset` is `+r` for a corner on the left of the path (the path passes to
/// its right), `-r` for one on the right, 0 for points the path may touch.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Corner {
    pub point: Point,
    pub offset: f64,
}

/// Events of one funnel run, for the lesson's step-by-step view.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum FunnelEvent {
    /// After portal `portal` (counted from 1; the goal is the last): the funnel.
    Step(FunnelStep),
    /// A side crossed the other: this corner becomes the new apex and a waypoint.
    Apex { corner: Point },
}

/// The funnel after one portal: the apex and its left and right chains, the taut paths from the
/// apex (their first point) to the portal's two ends (their last points).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct FunnelStep {
    pub portal: usize,
    pub apex: Point,
    pub left: Vec<Point>,
    pub right: Vec<Point>,
}

/// The portals (left, right) crossed by a channel of consecutive triangles, as vertex ids.
pub fn channel_portals(mesh: &Navmesh, channel: &[u32]) -> Vec<[u32; 2]> {
    channel
        .windows(2)
        .map(|pair| {
            let tri = &mesh.triangles[pair[0] as usize];
            let i =
                (0..3).find(|&i| tri.neighbours[i] == pair[1]).expect("consecutive channel triangles are neighbours");
            // Looking out through edge i, its end vertex is on the left.
            [tri.vertices[(i + 1) % 3], tri.vertices[i]]
        })
        .collect()
}

/// A taut path: waypoints to draw, and its exact length (a polyline's, unless it wraps round a
/// corner of an agent with a radius: then its arcs count as arcs, not as the waypoints around them).
#[derive(Debug, Clone, PartialEq)]
pub struct Route {
    pub waypoints: Vec<Point>,
    pub length: f64,
}

/// The shortest path through `channel` for an agent of `radius` (0 for a point).
pub fn channel_path<T: Tracer<FunnelEvent>>(
    mesh: &Navmesh,
    start: Point,
    goal: Point,
    channel: &[u32],
    radius: f64,
    tracer: &mut T,
) -> Route {
    let corner = |v: u32, side: f64| Corner {
        point: mesh.vertices[v as usize],
        offset: if mesh.on_obstacle[v as usize] { side * radius } else { 0.0 },
    };
    let portals: Vec<[Corner; 2]> =
        channel_portals(mesh, channel).into_iter().map(|[l, r]| [corner(l, 1.0), corner(r, -1.0)]).collect();
    funnel(start, goal, &portals, tracer)
}

/// The funnel over `portals` (left, right), from `start` to `goal`.
pub fn funnel<T: Tracer<FunnelEvent>>(start: Point, goal: Point, portals: &[[Corner; 2]], tracer: &mut T) -> Route {
    let end = |point| Corner { point, offset: 0.0 };
    let mut all = Vec::with_capacity(portals.len() + 1);
    all.extend_from_slice(portals);
    all.push([end(goal), end(goal)]);
    let mut apexes = tighten(end(start), &all, tracer);
    apexes.push(end(goal));
    wrap(&apexes)
}

/// The funnel's left (0) and right (1) sides: the corner each ends at and the portal it came
/// from (counted from 1; the apex's own portal when the side is empty).
type Sides = [(Corner, usize); 2];

/// The funnel from `apex` over `portals`: the corners the path turns at, from `apex` on. The last
/// is the funnel's apex after the last portal, where the shortest paths to both ends of that
/// portal part.
fn tighten<T: Tracer<FunnelEvent>>(apex: Corner, portals: &[[Corner; 2]], tracer: &mut T) -> Vec<Corner> {
    let mut apexes = vec![apex];
    let mut apex = (apex, 0);
    let mut sides = [apex; 2];
    // The chains, kept only for the trace (and not allocated without one): each side's end is
    // its chain's second corner.
    let fresh = |corner: Corner| if T::ENABLED { vec![corner] } else { Vec::new() };
    let mut chains: [Vec<Corner>; 2] = [fresh(apex.0), fresh(apex.0)];
    let mut i = 1;
    while i <= portals.len() {
        if T::ENABLED {
            extend_chain(&mut chains[0], -1.0, portals[i - 1][0]);
            extend_chain(&mut chains[1], 1.0, portals[i - 1][1]);
        }
        match narrow(apex, sides, portals[i - 1], i) {
            Ok(narrowed) => sides = narrowed,
            Err(crossed) => {
                apex = crossed;
                tracer.record(|| FunnelEvent::Apex { corner: apex.0.point });
                apexes.push(apex.0);
                sides = [apex; 2];
                chains = [fresh(apex.0), fresh(apex.0)];
                i = apex.1 + 1;
                continue;
            }
        }
        let points = |chain: &[Corner]| chain.iter().map(|c| c.point).collect();
        tracer.record(|| {
            FunnelEvent::Step(FunnelStep {
                portal: i,
                apex: apex.0.point,
                left: points(&chains[0]),
                right: points(&chains[1]),
            })
        });
        i += 1;
    }
    apexes
}

/// One step of the funnel from `apex` (with the portal it belongs to): each side moves to the
/// end of `portal` (number `index`) if that narrows the funnel. When a side would cross the
/// other, the other side's corner is returned instead: the next apex, from which the portals
/// after its own are taken again.
fn narrow(
    apex: (Corner, usize),
    mut sides: Sides,
    portal: [Corner; 2],
    index: usize,
) -> Result<Sides, (Corner, usize)> {
    for side in [1, 0] {
        // Mirror the turns for the left side.
        let sign = if side == 1 { 1.0 } else { -1.0 };
        let new = portal[side];
        let (this, other) = (sides[side], sides[1 - side]);
        if sign * turn(apex.0, this.0, new) < 0.0 {
            continue; // it would widen the funnel
        }
        // A side is empty when it is still at the apex.
        let empty = this.1 == apex.1 || this.0.point == apex.0.point;
        if empty || sign * turn(apex.0, other.0, new) < 0.0 {
            sides[side] = (new, index);
        } else {
            return Err(other);
        }
    }
    Ok(sides)
}

/// Adds `new` to the end of a chain (the right one for `sign` 1, the left for -1), dropping the
/// corners it makes redundant, so the chain stays the taut path from the apex to `new`.
fn extend_chain(chain: &mut Vec<Corner>, sign: f64, new: Corner) {
    while let [.., before, last] = chain[..]
        && sign * turn(before, last, new) >= 0.0
    {
        chain.pop();
    }
    chain.push(new);
}

/// Whether `to` is left (> 0) or right (< 0) of the funnel side from `apex` towards `side` (only
/// the sign means anything). Sides are tangent directions between the corners' circles.
#[inline]
fn turn(apex: Corner, side: Corner, to: Corner) -> f64 {
    if apex.offset == 0.0 && side.offset == 0.0 && to.offset == 0.0 {
        return point_turn(apex.point, side.point, to.point);
    }
    round_turn(apex, side, to)
}

/// [`turn`] between points (TA*'s funnels, every step): only the sign counts, and the cross
/// product of the plain differences has it without two square roots and divisions, exactly zero
/// when the points are collinear or two coincide.
#[inline]
pub(super) fn point_turn(apex: Point, side: Point, to: Point) -> f64 {
    let (u, v) = ([side[0] - apex[0], side[1] - apex[1]], [to[0] - apex[0], to[1] - apex[1]]);
    let coincide = |d: Point| d[0] * d[0] + d[1] * d[1] < 1e-24;
    if coincide(u) || coincide(v) { 0.0 } else { u[0] * v[1] - u[1] * v[0] }
}

/// [`turn`] between circles, kept out of line so the point case inlines small.
#[inline(never)]
fn round_turn(apex: Corner, side: Corner, to: Corner) -> f64 {
    let (Some(u), Some(v)) = (tangent(apex, side), tangent(apex, to)) else {
        return 0.0;
    };
    u[0] * v[1] - u[1] * v[0]
}

/// The right-hand normal of a direction.
fn right_normal(u: Point) -> Point {
    [u[1], -u[0]]
}

/// The unit direction of the tangent from `a`'s circle to `b`'s, on the sides their offsets
/// give; `None` when the two coincide.
fn tangent(a: Corner, b: Corner) -> Option<Point> {
    let d = [b.point[0] - a.point[0], b.point[1] - a.point[1]];
    let len2 = d[0] * d[0] + d[1] * d[1];
    if len2 < 1e-24 {
        return None;
    }
    // Write d = alpha*u + beta*n(u): the tangent points a + offset_a*n(u), b + offset_b*n(u)
    // differ by a multiple of u exactly when beta = -(offset_b - offset_a).
    let beta = a.offset - b.offset;
    let alpha = (len2 - beta * beta).max(0.0).sqrt();
    let rd = right_normal(d);
    Some([(alpha * d[0] - beta * rd[0]) / len2, (alpha * d[1] - beta * rd[1]) / len2])
}

/// The taut path around the apex corners: tangent points as waypoints, with each arc drawn as a
/// polyline outside its circle; the length adds the tangents and the arcs.
fn wrap(apexes: &[Corner]) -> Route {
    let at = |c: Corner, u: Point| {
        if c.offset == 0.0 {
            return c.point; // exactly, whatever rounding would do
        }
        let n = right_normal(u);
        [c.point[0] + c.offset * n[0], c.point[1] + c.offset * n[1]]
    };
    let mut points: Vec<Point> = Vec::new();
    let mut length = 0.0;
    let mut arrival: Option<Point> = None;
    for pair in apexes.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        let Some(u) = tangent(a, b) else { continue };
        let departure = at(a, u);
        if let Some(arrival) = arrival {
            length += arc(a, arrival, departure, &mut points);
        }
        push(departure, &mut points);
        let next = at(b, u);
        length += distance(departure, next);
        arrival = Some(next);
    }
    push(arrival.unwrap_or(apexes[0].point), &mut points);
    if points.len() == 1 && apexes.len() > 1 {
        points.push(apexes[apexes.len() - 1].point);
    }
    Route { waypoints: points, length }
}

/// Appends `p` unless it repeats the last point.
fn push(p: Point, points: &mut Vec<Point>) {
    if points.last() != Some(&p) {
        points.push(p);
    }
}

/// Adds the polyline around `corner` from `from` to `to` (both on its circle), made of pieces
/// that touch the circle, so none of it is closer than the radius; returns the arc's length.
fn arc(corner: Corner, from: Point, to: Point, points: &mut Vec<Point>) -> f64 {
    let radius = corner.offset.abs();
    if radius == 0.0 || distance(from, to) < 1e-12 {
        push(from, points);
        return 0.0;
    }
    let angle = |p: Point| (p[1] - corner.point[1]).atan2(p[0] - corner.point[0]);
    // Left corners are wrapped counter-clockwise, right corners clockwise.
    let direction = corner.offset.signum();
    let sweep = (direction * (angle(to) - angle(from))).rem_euclid(std::f64::consts::TAU);
    // Rounding can turn a zero sweep into a full turn.
    let sweep = if sweep > std::f64::consts::TAU - 1e-9 { 0.0 } else { sweep };
    let pieces = (sweep / (std::f64::consts::PI / 8.0)).ceil().max(1.0);
    let step = sweep / pieces;
    let reach = radius / (step / 2.0).cos();
    push(from, points);
    for k in 0..pieces as usize {
        let theta = angle(from) + direction * (step / 2.0 + k as f64 * step);
        points.push([corner.point[0] + reach * theta.cos(), corner.point[1] + reach * theta.sin()]);
    }
    radius * sweep
}

/// What the funnel looks like at one step of a recorded run: the waypoints fixed so far and the
/// current apex and chains.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FunnelView {
    pub corners: Vec<Point>,
    /// The funnel after the last portal processed.
    pub step: Option<FunnelStep>,
}

/// How to take one funnel event back.
#[derive(Debug, Clone, PartialEq)]
pub enum FunnelUndo {
    Step(Option<FunnelStep>),
    Apex,
}

impl crate::trace::Replay for FunnelView {
    type Event = FunnelEvent;
    type Undo = FunnelUndo;

    fn apply(&mut self, event: &FunnelEvent) -> FunnelUndo {
        match event {
            FunnelEvent::Step(step) => FunnelUndo::Step(self.step.replace(step.clone())),
            &FunnelEvent::Apex { corner } => {
                self.corners.push(corner);
                FunnelUndo::Apex
            }
        }
    }

    fn revert(&mut self, _done: &[FunnelEvent], undo: FunnelUndo) {
        match undo {
            FunnelUndo::Step(step) => self.step = step,
            FunnelUndo::Apex => {
                self.corners.pop();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::navmesh::orient;
    use crate::trace::{Player, Recorder};

    fn point(point: Point) -> Corner {
        Corner { point, offset: 0.0 }
    }

    #[test]
    fn the_replayed_chains_are_taut_and_end_in_the_path() {
        // Heading +x past a corner at (5, 0.5) that sticks up from below: the path bends there.
        let (start, goal) = ([0.0, 0.0], [10.0, 0.0]);
        let portals: Vec<[Corner; 2]> =
            [([2.0, 3.0], [2.0, -1.0]), ([5.0, 4.0], [5.0, 0.5]), ([8.0, 4.0], [8.0, -3.0])]
                .into_iter()
                .map(|(l, r)| [point(l), point(r)])
                .collect();
        let mut recorder = Recorder::default();
        let route = funnel(start, goal, &portals, &mut recorder);
        assert_eq!(route.waypoints, vec![start, [5.0, 0.5], goal]);
        assert_eq!(route.length, distance(start, [5.0, 0.5]) + distance([5.0, 0.5], goal));

        let trace = recorder.finish();
        let mut longest_right = 0;
        for event in &trace.events {
            let FunnelEvent::Step(step) = event else { continue };
            let ends = portals.get(step.portal - 1).map_or([goal; 2], |[l, r]| [l.point, r.point]);
            for (chain, end, bend) in [(&step.left, ends[0], 1.0), (&step.right, ends[1], -1.0)] {
                assert_eq!((chain[0], *chain.last().unwrap()), (step.apex, end), "from the apex to the portal");
                // Taut: the left chain only bends left (round corners on its left), the right one right.
                for w in chain.windows(3) {
                    assert!(bend * orient(w[0], w[1], w[2]) > 0.0, "{chain:?}");
                }
            }
            longest_right = longest_right.max(step.right.len());
        }
        assert_eq!(longest_right, 3, "the right chain once wraps the corner before the apex moves there");

        let mut player = Player::new(trace, FunnelView::default());
        player.seek(usize::MAX);
        let mut path = vec![start];
        path.extend(&player.view().corners);
        if path.last() != Some(&goal) {
            path.push(goal);
        }
        assert_eq!(path, route.waypoints, "the apexes, in order, are the path");
        player.seek(0);
        assert_eq!(player.view(), &FunnelView::default());
    }
}
