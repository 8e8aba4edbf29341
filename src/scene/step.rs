//! Where a scene's replay opens: an event index, the end, or a named moment of the recording.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::adversarial::mcts_trace::MctsEvent;
use crate::adversarial::tree::TreeEvent;
use crate::navmesh::polyanya_search::PolyanyaEvent;
use crate::pathfinding::mapf::MapfEvent;
use crate::pathfinding::plan_trace::PlanEvent;
use crate::pathfinding::search_trace::SearchEvent;
use crate::text::quote;
use crate::trace::Trace;

/// Why a step is not in a recording of `len` events that stopped before its search did.
fn stops_early(len: usize) -> String {
    format!("the recording stops at event {len} of a longer search")
}

/// Named moments of a replay a scene can open on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Moment {
    Start,
    FirstExpansion,
    PathFound,
    Cutoff,
}

impl Moment {
    pub const ALL: [Moment; 4] = [Moment::Start, Moment::FirstExpansion, Moment::PathFound, Moment::Cutoff];

    pub fn name(self) -> &'static str {
        match self {
            Moment::Start => "start",
            Moment::FirstExpansion => "first-expansion",
            Moment::PathFound => "path-found",
            Moment::Cutoff => "cutoff",
        }
    }
}

/// The step of the replay to open on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Step {
    /// After this many events.
    Index(usize),
    /// After the last event.
    #[default]
    End,
    /// The first time this happens.
    Moment(Moment),
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Step::Index(index) => write!(f, "{index}"),
            Step::End => write!(f, "end"),
            Step::Moment(moment) => write!(f, "{}", moment.name()),
        }
    }
}

impl FromStr for Step {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        if text == "end" {
            return Ok(Step::End);
        }
        if let Some(moment) = Moment::ALL.into_iter().find(|m| m.name() == text) {
            return Ok(Step::Moment(moment));
        }
        text.parse().map(Step::Index).map_err(|_| {
            let names: Vec<&str> = Moment::ALL.iter().map(|m| m.name()).collect();
            format!("step '{}' is not an event index, end, or one of {}", quote(text), names.join(", "))
        })
    }
}

impl Step {
    /// The number of events to replay to reach this step in a recording, `usize::MAX` for the end;
    /// `moment` finds the event a named moment is (an error names one the recording does not have, or
    /// an index past the end, and says when the recording stopped before the search did).
    pub fn resolve<E>(self, trace: &Trace<E>, moment: impl Fn(Moment, &E) -> bool) -> Result<usize, String> {
        let events = &trace.events;
        match self {
            Step::Index(index) if index > events.len() => Err(match trace.truncated {
                true => format!("step {index} is past the end of the recording ({})", stops_early(events.len())),
                false => format!("step {index} is past the end (the search has {} events)", events.len()),
            }),
            Step::Index(index) => Ok(index),
            Step::End => Ok(usize::MAX),
            Step::Moment(Moment::Start) => Ok(0),
            Step::Moment(named) => {
                events.iter().position(|event| moment(named, event)).map(|i| i + 1).ok_or_else(|| {
                    let why = if trace.truncated { format!(" ({})", stops_early(events.len())) } else { String::new() };
                    format!("this replay has no '{}' moment{why}", named.name())
                })
            }
        }
    }

    /// What to tell the author about opening a recording on this step though it is fine to open:
    /// the end of a recording that stopped before the search did shows no result.
    pub fn warning<E>(self, trace: &Trace<E>) -> Option<String> {
        (self == Step::End && trace.truncated).then(|| {
            format!(
                "step end opens where the recording stops, before the search's result: {}",
                stops_early(trace.events.len())
            )
        })
    }

    /// [`Step::resolve`] for a best-first search's recording.
    pub fn in_search(self, trace: &Trace<SearchEvent>) -> Result<usize, String> {
        self.resolve(trace, |moment, event| match moment {
            Moment::FirstExpansion => matches!(event, SearchEvent::Expand { .. }),
            Moment::PathFound => matches!(event, SearchEvent::Found { .. }),
            Moment::Start | Moment::Cutoff => false,
        })
    }

    /// [`Step::resolve`] for Polyanya's recording.
    pub fn in_polyanya(self, trace: &Trace<PolyanyaEvent>) -> Result<usize, String> {
        self.resolve(trace, |moment, event| match moment {
            Moment::FirstExpansion => matches!(event, PolyanyaEvent::Expand { .. }),
            Moment::PathFound => matches!(event, PolyanyaEvent::Found { .. }),
            Moment::Start | Moment::Cutoff => false,
        })
    }

    /// [`Step::resolve`] for a hierarchical planner's recording: its moments are those of the
    /// searches it runs (the first path found is the abstract one).
    pub fn in_plan(self, trace: &Trace<PlanEvent>) -> Result<usize, String> {
        self.resolve(trace, |moment, event| {
            matches!(
                (moment, event),
                (Moment::FirstExpansion, PlanEvent::Search(SearchEvent::Expand { .. }))
                    | (Moment::PathFound, PlanEvent::Search(SearchEvent::Found { .. }))
            )
        })
    }

    /// [`Step::resolve`] for a game-tree search's recording.
    pub fn in_tree(self, trace: &Trace<TreeEvent>) -> Result<usize, String> {
        self.resolve(trace, |moment, event| match moment {
            Moment::FirstExpansion => {
                matches!(event, TreeEvent::Enter { parent, .. } if *parent != crate::trace::NO_NODE)
            }
            Moment::Cutoff => matches!(event, TreeEvent::Cutoff { .. }),
            Moment::PathFound => matches!(event, TreeEvent::Pv { .. }),
            Moment::Start => false,
        })
    }

    /// [`Step::resolve`] for a multi-agent planner's recording: its first expansion, its first path.
    pub fn in_agents(self, trace: &Trace<MapfEvent>) -> Result<usize, String> {
        self.resolve(trace, |moment, event| match moment {
            Moment::FirstExpansion => matches!(event, MapfEvent::Expand { .. }),
            Moment::PathFound => matches!(event, MapfEvent::Found { .. }),
            Moment::Start | Moment::Cutoff => false,
        })
    }

    /// [`Step::resolve`] for UCT's recording, which has no named moments but its start.
    pub fn in_mcts(self, trace: &Trace<MctsEvent>) -> Result<usize, String> {
        self.resolve(trace, |_, _| false)
    }

    /// The step a replay at `step` of `len` events is at.
    pub fn at(step: usize, len: usize) -> Step {
        if step >= len { Step::End } else { Step::Index(step) }
    }
}

impl Serialize for Step {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Step::Index(index) => serializer.serialize_u64(*index as u64),
            other => serializer.collect_str(other),
        }
    }
}

impl<'de> Deserialize<'de> for Step {
    /// An event index as a number, or a word.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct StepVisitor;
        impl serde::de::Visitor<'_> for StepVisitor {
            type Value = Step;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "an event index, \"end\" or a moment such as \"path-found\"")
            }
            fn visit_u64<E: serde::de::Error>(self, index: u64) -> Result<Step, E> {
                usize::try_from(index).map(Step::Index).map_err(E::custom)
            }
            fn visit_i64<E: serde::de::Error>(self, index: i64) -> Result<Step, E> {
                self.visit_i128(index.into())
            }
            // TOML hands integers beyond 64 bits over as i128.
            fn visit_i128<E: serde::de::Error>(self, index: i128) -> Result<Step, E> {
                usize::try_from(index).map(Step::Index).map_err(|_| match index < 0 {
                    true => E::custom(format!("step {index} is negative")),
                    false => E::custom(format!("step {index} is too large (at most {})", usize::MAX)),
                })
            }
            fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<Step, E> {
                text.parse().map_err(E::custom)
            }
        }
        deserializer.deserialize_any(StepVisitor)
    }
}
