//! The jobs as values: one [`Request`] per kind of work, carrying its inputs, answered by one
//! [`Response`]. A Web Worker shares no memory with its page, so both cross as bytes (postcard:
//! a Dijkstra recording on a 512x512 map is ~850k events), and the worker's side ([`serve`]) and
//! the page's ([`Reply`]) speak [`FromWorker`] messages.

use std::sync::Arc;
use std::sync::mpsc;

use serde::{Deserialize, Serialize};

use crate::app::agents_lab::{AgentsJob, Planned};
use crate::app::barca_lab::ai::{AiAnswer, MoveJob};
use crate::app::grid_lab::{self, GridJob};
use crate::app::navmesh_lab::{self, MeshJob};
use crate::app::play_lab::ai::{PlayAnswer, PlayJob};
use crate::app::tree_lab::recording::{self, Position, Recording, SearchSpec};
use crate::time::{Duration, Instant};
use crate::tournament::{TuneConfig, TuneLog, tune};
use crate::trace::{Progress, ProgressReport};

/// Work for a worker.
#[derive(Serialize, Deserialize)]
// Moved once per job, to the worker and back: boxing the large jobs and answers buys nothing.
#[allow(clippy::large_enum_variant)]
pub enum Request {
    /// Record the grid lab's searches.
    Grid(GridJob),
    /// Tune the Barca weights.
    Tune(TuneConfig),
    /// Choose the computer's Barca move.
    BarcaMove(MoveJob),
    /// Record a game-tree search of a position.
    Tree(Position, SearchSpec),
    /// Record a navmesh search, its funnel and its walk.
    Mesh(MeshJob),
    /// Plan agents together, recorded.
    Agents(AgentsJob),
    /// Choose the computer's move in any registered game.
    PlayMove(PlayJob),
}

/// What a [`Request`] answers, variant for variant. Recordings are `None` when stopped.
#[derive(Serialize, Deserialize)]
#[allow(clippy::large_enum_variant)]
pub enum Response {
    Grid(Option<grid_lab::GridRecorded>),
    Tune(Result<TuneLog, String>),
    BarcaMove(AiAnswer),
    Tree(Option<Recording>),
    Mesh(navmesh_lab::Recorded),
    Agents(Option<Planned>),
    PlayMove(PlayAnswer),
}

/// What a job ended early answers with, from its progress.
pub type EndedAnswer = Box<dyn FnOnce(&Progress) -> Response>;

impl Request {
    /// The one way every job runs: on a thread, in a Web Worker, or in the page's frame.
    pub fn run(self, progress: &Progress) -> Response {
        match self {
            Request::Grid(job) => Response::Grid(job.run(progress)),
            Request::Mesh(job) => Response::Mesh(job.run()),
            Request::Agents(job) => Response::Agents(job.run(progress)),
            Request::Tree(position, spec) => Response::Tree(recording::record(position, spec, progress)),
            Request::BarcaMove(job) => Response::BarcaMove(job.run(progress)),
            Request::PlayMove(job) => Response::PlayMove(job.run(progress)),
            Request::Tune(config) => {
                progress.set_total(config.total_games() as usize);
                Response::Tune(tune(&config, progress))
            }
        }
    }

    /// What a request stopped early answers with when its worker is ended instead of asked
    /// (the browser's): the Barca move best so far; recordings answer nothing.
    pub fn answer_when_ended(&self) -> Option<EndedAnswer> {
        match self {
            Request::BarcaMove(job) => {
                let position = job.position().clone();
                Some(Box::new(move |progress| Response::BarcaMove(AiAnswer::best_so_far(&position, progress))))
            }
            Request::PlayMove(_) => Some(Box::new(|progress| Response::PlayMove(PlayJob::best_so_far(progress)))),
            _ => None,
        }
    }
}

/// A job's response, or why it failed (one line, to show).
pub type Answer = Result<Response, String>;

/// Where a job ran, as the code running it knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Place {
    /// A thread of the desktop app.
    Thread,
    /// A Web Worker: its code checked it runs in a `WorkerGlobalScope`.
    Worker,
    /// The page itself, within a frame (no Web Worker could start).
    Page,
}

impl Place {
    pub fn name(self) -> &'static str {
        match self {
            Place::Thread => "thread",
            Place::Worker => "worker",
            Place::Page => "page",
        }
    }
}

/// A message from a worker to its page.
#[derive(Serialize, Deserialize)]
#[allow(clippy::large_enum_variant)]
pub enum FromWorker {
    Progress(ProgressReport),
    Done(Response, Place),
    /// The job panicked: the message.
    Failed(String),
}

pub fn encode<T: Serialize>(value: &T) -> Result<Vec<u8>, String> {
    postcard::to_allocvec(value).map_err(|e| format!("a job could not be encoded: {e}"))
}

pub fn decode<'a, T: Deserialize<'a>>(bytes: &'a [u8]) -> Result<T, String> {
    postcard::from_bytes(bytes).map_err(|e| format!("a job's message could not be decoded: {e}"))
}

/// A worker posts progress at most this often.
const REPORT_EVERY: Duration = Duration::from_millis(50);

/// How a running job posts to its page, and when it last posted progress.
type Post = (Box<dyn Fn(Vec<u8>)>, Option<Instant>);

thread_local! {
    /// The running job's way to its page, and when it last posted progress (none yet: the first
    /// report goes at once, so even a short job shows its total).
    static POST: std::cell::RefCell<Option<Post>> = const { std::cell::RefCell::new(None) };
}

fn post_progress(progress: &Progress) {
    POST.with_borrow_mut(|post| {
        let Some((send, last)) = post else { return };
        if last.is_none_or(|at| at.elapsed() >= REPORT_EVERY) {
            *last = Some(Instant::now());
            if let Ok(bytes) = encode(&FromWorker::Progress(progress.report())) {
                send(bytes);
            }
        }
    });
}

/// The worker's side: runs one encoded request, posting throttled progress and then the response
/// (or why it could not run) through `post`. `place` says where this code runs.
pub fn serve(request: &[u8], place: Place, post: impl Fn(Vec<u8>) + 'static) {
    let request = match decode::<Request>(request) {
        Ok(request) => request,
        Err(error) => return post(encode(&FromWorker::Failed(error)).expect("a string encodes")),
    };
    let post: Box<dyn Fn(Vec<u8>)> = Box::new(post);
    POST.set(Some((post, None)));
    let response = request.run(&Progress::listened(post_progress));
    let (post, _) = POST.take().expect("set above");
    match encode(&FromWorker::Done(response, place)) {
        Ok(bytes) => post(bytes),
        Err(error) => post(encode(&FromWorker::Failed(error)).expect("a string encodes")),
    }
}

/// The page's side of a job in a worker: shows its progress and hands its answer to the [`Job`](super::Job).
#[derive(Clone)]
pub struct Reply {
    pub(super) progress: Arc<Progress>,
    pub(super) sender: mpsc::Sender<(Answer, Place)>,
    pub(super) repaint: Option<egui::Context>,
}

impl Reply {
    /// Takes in one message from the worker. A failure ends the job, and is returned for the console.
    pub fn receive(&self, message: &[u8]) -> Result<(), String> {
        let failed = match decode::<FromWorker>(message) {
            Ok(FromWorker::Progress(report)) => {
                self.progress.show(report);
                None
            }
            Ok(FromWorker::Done(response, place)) => {
                // The job may have been dropped meanwhile: then nobody listens.
                let _ = self.sender.send((Ok(response), place));
                None
            }
            Ok(FromWorker::Failed(error)) | Err(error) => Some(error),
        };
        match failed {
            Some(error) => Err(self.fail(&error)),
            None => {
                self.wake();
                Ok(())
            }
        }
    }

    /// Ends the job with `error` (a panic's message, or why the worker died) and returns the line shown.
    pub fn fail(&self, error: &str) -> String {
        let line = super::failure(Some(error));
        let _ = self.sender.send((Err(line.clone()), Place::Worker));
        self.wake();
        line
    }

    fn wake(&self) {
        if let Some(ctx) = &self.repaint {
            ctx.request_repaint();
        }
    }
}
