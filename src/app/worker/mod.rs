//! Work too long for one frame runs elsewhere: on the desktop a thread, in the browser a Web
//! Worker (installed by web/ with [`in_web_workers`]). The page polls for the result, shows the
//! progress, and can cancel. Dropping a job cancels it, so a newer request simply replaces an
//! older one. A job is a [`Request`] value, so it can cross into a worker's separate memory.
//! Jobs of one [`Session`] may leave state where they ran for the next one.

mod request;
pub mod shared;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;

pub use self::request::{Answer, FromWorker, Place, Reply, Request, Response, decode, encode, serve};
use crate::time::{Duration, Instant};
use crate::trace::Progress;

/// A running piece of work.
pub struct Job {
    result: mpsc::Receiver<(Answer, Place)>,
    progress: Arc<Progress>,
    /// Set when the job is dropped: its result is no longer wanted.
    discarded: Arc<AtomicBool>,
    started: Instant,
    /// Where the answer was made, once it is in.
    ran_in: std::cell::Cell<Option<Place>>,
    /// What the job does, for the progress line ("Recording A*...").
    pub label: String,
    #[cfg(target_arch = "wasm32")]
    remote: std::cell::RefCell<Option<Remote>>,
}

/// A job in a Web Worker: ending it ends the worker; once it has answered, a session's job
/// hands its worker back to the session instead.
#[cfg(target_arch = "wasm32")]
struct Remote {
    worker: Box<dyn Running>,
    sender: mpsc::Sender<(Answer, Place)>,
    answer_when_ended: Option<Box<dyn FnOnce(&Progress) -> Response>>,
    session: Option<std::rc::Weak<IdleWorker>>,
}

/// A Web Worker, as the page holds it.
#[cfg(target_arch = "wasm32")]
pub trait Running {
    /// Runs an encoded request, the worker's messages going to the [`Reply`].
    fn run(&self, request: Vec<u8>, reply: Reply) -> Result<(), String>;
    /// Ends the worker at once (a worker cannot be asked: it shares no memory with the page).
    fn end(&self);
}

/// Starts a Web Worker.
#[cfg(target_arch = "wasm32")]
pub type Starter = Box<dyn Fn() -> Result<Box<dyn Running>, String>>;

#[cfg(target_arch = "wasm32")]
type IdleWorker = std::cell::RefCell<Option<Box<dyn Running>>>;

/// Jobs one after another that leave state where they ran for the next (the Barca engine's
/// table and UCT tree, tens of MB after a few moves), so it never crosses to the page: in the
/// browser they run in one Web Worker, kept between jobs while the session lives. A stopped or
/// dropped job ends that worker and the state with it; the next job starts afresh in another.
/// On the desktop each job is a thread, and state goes with the job and back (moved, not copied).
#[derive(Default)]
pub struct Session {
    /// The session's worker between its jobs.
    #[cfg(target_arch = "wasm32")]
    idle: std::rc::Rc<IdleWorker>,
}

impl Session {
    /// Whether the jobs keep their state where they run (in the browser, with Web Workers).
    pub fn keeps_state(&self) -> bool {
        #[cfg(target_arch = "wasm32")]
        return STARTER.with_borrow(Option::is_some);
        #[cfg(not(target_arch = "wasm32"))]
        false
    }

    /// Whether the state the last job left is still there: its worker answered and lives.
    pub fn holds_state(&self) -> bool {
        #[cfg(target_arch = "wasm32")]
        return self.idle.borrow().is_some();
        #[cfg(not(target_arch = "wasm32"))]
        false
    }
}

#[cfg(target_arch = "wasm32")]
impl Drop for Session {
    fn drop(&mut self) {
        if let Some(worker) = self.idle.take() {
            worker.end();
        }
    }
}

#[cfg(target_arch = "wasm32")]
thread_local! {
    static STARTER: std::cell::RefCell<Option<Starter>> = const { std::cell::RefCell::new(None) };
}

/// From now on requests run in Web Workers started by `starter`; without one (or when it fails)
/// they run in the page's frame.
#[cfg(target_arch = "wasm32")]
pub fn in_web_workers(starter: Starter) {
    STARTER.set(Some(starter));
}

impl Job {
    /// Starts `request` away from the UI. It returns early once the progress says stopped; a
    /// dropped job's result is thrown away. `repaint` wakes the UI when the result is in.
    pub fn start(label: impl Into<String>, repaint: Option<egui::Context>, request: Request) -> Self {
        Self::launch(label.into(), repaint, request, None)
    }

    /// Starts `request` as the next job of `session`: where the last one ran, if that still lives.
    pub fn start_in(
        session: &Session,
        label: impl Into<String>,
        repaint: Option<egui::Context>,
        request: Request,
    ) -> Self {
        Self::launch(label.into(), repaint, request, Some(session))
    }

    #[cfg_attr(not(target_arch = "wasm32"), allow(unused_variables))]
    fn launch(label: String, repaint: Option<egui::Context>, request: Request, session: Option<&Session>) -> Self {
        let (sender, result) = mpsc::channel();
        let progress = Arc::new(Progress::default());
        let discarded = Arc::new(AtomicBool::new(false));
        #[cfg_attr(not(target_arch = "wasm32"), allow(unused_mut))]
        let mut job = Self {
            result,
            progress: Arc::clone(&progress),
            discarded: Arc::clone(&discarded),
            started: Instant::now(),
            ran_in: Default::default(),
            label,
            #[cfg(target_arch = "wasm32")]
            remote: Default::default(),
        };
        #[cfg(not(target_arch = "wasm32"))]
        std::thread::Builder::new()
            .name("searchlab-worker".into())
            .spawn(move || {
                let answer = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| request.run(&progress))).map_err(
                    |panic| {
                        failure(
                            panic
                                .downcast_ref::<&str>()
                                .copied()
                                .or(panic.downcast_ref::<String>().map(String::as_str)),
                        )
                    },
                );
                if !discarded.load(Ordering::Relaxed)
                    && sender.send((answer, Place::Thread)).is_ok()
                    && let Some(ctx) = repaint
                {
                    ctx.request_repaint();
                }
            })
            .expect("the OS refused to start a worker thread");
        #[cfg(target_arch = "wasm32")]
        {
            let _ = discarded;
            job.start_in_browser(request, sender, repaint, session);
        }
        job
    }

    /// In a Web Worker if the page installed workers (the session's own, if it has one), else now.
    #[cfg(target_arch = "wasm32")]
    fn start_in_browser(
        &mut self,
        request: Request,
        sender: mpsc::Sender<(Answer, Place)>,
        repaint: Option<egui::Context>,
        session: Option<&Session>,
    ) {
        let reply = Reply { progress: Arc::clone(&self.progress), sender: sender.clone(), repaint };
        let kept = session.and_then(|session| session.idle.take());
        let started = encode(&request).and_then(|bytes| {
            let worker = match kept {
                Some(worker) => worker,
                None => STARTER.with_borrow(|starter| {
                    starter.as_ref().map_or(Err("no Web Workers".to_string()), |start| start())
                })?,
            };
            match worker.run(bytes, reply) {
                Ok(()) => Ok(worker),
                Err(error) => {
                    worker.end();
                    Err(error)
                }
            }
        });
        if let Ok(worker) = started {
            let answer_when_ended = request.answer_when_ended();
            let session = session.map(|session| std::rc::Rc::downgrade(&session.idle));
            *self.remote.borrow_mut() = Some(Remote { worker, sender, answer_when_ended, session });
            return;
        }
        // The starter said why on the console; the job still runs, in the frame.
        let _ = sender.send((Ok(request.run(&self.progress)), Place::Page));
    }

    /// The result, once it is in; `Err` (a one-line message to show) if the job failed.
    pub fn poll(&self) -> Option<Answer> {
        #[cfg(target_arch = "wasm32")]
        if self.progress.is_stopped() {
            self.end_worker();
        }
        let (answer, place) = self.result.try_recv().ok()?;
        self.ran_in.set(Some(place));
        #[cfg(target_arch = "wasm32")]
        self.release_worker(answer.is_ok());
        Some(answer)
    }

    /// Polls `job`, ending it once it answers; a failed job ends too, its message in `error`.
    pub fn finish(job: &mut Option<Job>, error: &mut Option<String>) -> Option<Response> {
        let answer = job.as_ref()?.poll()?;
        *job = None;
        answer.map_err(|message| *error = Some(message)).ok()
    }

    /// Where the result was made, once it is in.
    pub fn ran_in(&self) -> Option<Place> {
        self.ran_in.get()
    }

    pub fn progress(&self) -> &Progress {
        &self.progress
    }

    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// An answered job's worker goes back to its session, if it answered well and the session
    /// lives; otherwise it ends.
    #[cfg(target_arch = "wasm32")]
    fn release_worker(&self, answered: bool) {
        let Some(remote) = self.remote.borrow_mut().take() else { return };
        match remote.session.and_then(|session| session.upgrade()).filter(|_| answered) {
            Some(idle) => *idle.borrow_mut() = Some(remote.worker),
            None => remote.worker.end(),
        }
    }

    /// A stopped job in a Web Worker ends the worker and answers what it was last told.
    #[cfg(target_arch = "wasm32")]
    fn end_worker(&self) {
        let Some(remote) = self.remote.borrow_mut().take() else { return };
        remote.worker.end();
        if let Some(answer) = remote.answer_when_ended {
            let _ = remote.sender.send((Ok(answer(&self.progress)), Place::Worker));
        }
    }
}

/// The one line a failed job shows, from its panic's message.
pub fn failure(panic: Option<&str>) -> String {
    let why = panic.and_then(|message| message.lines().next()).unwrap_or("no message");
    format!("The job failed, please report it: {why}")
}

impl Drop for Job {
    fn drop(&mut self) {
        self.discarded.store(true, Ordering::Relaxed);
        self.progress.stop();
        #[cfg(target_arch = "wasm32")]
        self.end_worker();
    }
}

#[cfg(test)]
mod tests;
