//! Work too long for one frame runs elsewhere: on the desktop a thread, in the browser a Web
//! Worker (installed by web/ with [`in_web_workers`]). The page polls for the result, shows the
//! progress, and can cancel. Dropping a job cancels it, so a newer request simply replaces an
//! older one. A job is a [`Request`] value, so it can cross into a worker's separate memory.

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

/// A job in a Web Worker: ending it ends the worker.
#[cfg(target_arch = "wasm32")]
struct Remote {
    worker: Box<dyn Running>,
    sender: mpsc::Sender<(Answer, Place)>,
    answer_when_ended: Option<Box<dyn FnOnce(&Progress) -> Response>>,
}

/// A request running in a Web Worker, as the page that started it holds it.
#[cfg(target_arch = "wasm32")]
pub trait Running {
    /// Ends the worker at once (a worker cannot be asked: it shares no memory with the page).
    fn end(&self);
}

/// Starts an encoded request in a Web Worker whose messages go to the [`Reply`].
#[cfg(target_arch = "wasm32")]
pub type Starter = Box<dyn Fn(Vec<u8>, Reply) -> Result<Box<dyn Running>, String>>;

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
            label: label.into(),
            #[cfg(target_arch = "wasm32")]
            remote: Default::default(),
        };
        #[cfg(not(target_arch = "wasm32"))]
        std::thread::Builder::new()
            .name("searchlab-worker".into())
            .spawn(move || {
                let answer = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| request.run(&progress)))
                    .map_err(|panic| failure(panic.downcast_ref::<&str>().copied().or(panic.downcast_ref::<String>().map(String::as_str))));
                if !discarded.load(Ordering::Relaxed) && sender.send((answer, Place::Thread)).is_ok() {
                    if let Some(ctx) = repaint {
                        ctx.request_repaint();
                    }
                }
            })
            .expect("the OS refused to start a worker thread");
        #[cfg(target_arch = "wasm32")]
        {
            let _ = discarded;
            job.start_in_browser(request, sender, repaint);
        }
        job
    }

    /// In a Web Worker if the page installed workers, else now.
    #[cfg(target_arch = "wasm32")]
    fn start_in_browser(&mut self, request: Request, sender: mpsc::Sender<(Answer, Place)>, repaint: Option<egui::Context>) {
        let reply = Reply { progress: Arc::clone(&self.progress), sender: sender.clone(), repaint };
        let started = encode(&request).and_then(|bytes| {
            STARTER.with_borrow(|starter| starter.as_ref().map_or(Err("no Web Workers".to_string()), |start| start(bytes, reply)))
        });
        if let Ok(worker) = started {
            let answer_when_ended = request.answer_when_ended();
            *self.remote.borrow_mut() = Some(Remote { worker, sender, answer_when_ended });
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
