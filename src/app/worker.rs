//! Work too long for one frame runs on a worker thread: the page polls for the result, shows the
//! progress, and can cancel. Dropping a job cancels it, so a newer request simply replaces an older one.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;

use crate::time::{Duration, Instant};
use crate::trace::Progress;

/// A running piece of work producing a `T`.
pub struct Job<T> {
    result: mpsc::Receiver<T>,
    progress: Arc<Progress>,
    /// Set when the job is dropped: its result is no longer wanted.
    discarded: Arc<AtomicBool>,
    started: Instant,
    /// What the job does, for the progress line ("Recording A*...").
    pub label: String,
}

impl<T: Send + 'static> Job<T> {
    /// Starts `work` on a new thread. It should return early once the progress says stopped (through
    /// a [`crate::trace::Watched`] tracer); a dropped job's result is thrown away. `repaint` wakes
    /// the UI when the result is in.
    pub fn spawn(
        label: impl Into<String>,
        repaint: Option<egui::Context>,
        work: impl FnOnce(&Progress) -> T + Send + 'static,
    ) -> Self {
        let (sender, result) = mpsc::channel();
        let progress = Arc::new(Progress::default());
        let discarded = Arc::new(AtomicBool::new(false));
        let (shared, dropped) = (Arc::clone(&progress), Arc::clone(&discarded));
        let run = move || {
            let output = work(&shared);
            if !dropped.load(Ordering::Relaxed) && sender.send(output).is_ok() {
                if let Some(ctx) = repaint {
                    ctx.request_repaint();
                }
            }
        };
        #[cfg(not(target_arch = "wasm32"))]
        std::thread::Builder::new()
            .name("searchlab-worker".into())
            .spawn(run)
            .expect("the OS refused to start a worker thread");
        // The browser gives a page no threads: the work runs now, within this frame.
        #[cfg(target_arch = "wasm32")]
        run();
        Self { result, progress, discarded, started: Instant::now(), label: label.into() }
    }
}

impl<T> Job<T> {
    /// The result, once the worker has sent it.
    pub fn poll(&self) -> Option<T> {
        self.result.try_recv().ok()
    }

    pub fn progress(&self) -> &Progress {
        &self.progress
    }

    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }
}

impl<T> Drop for Job<T> {
    fn drop(&mut self) {
        self.discarded.store(true, Ordering::Relaxed);
        self.progress.stop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wait<T>(job: &Job<T>) -> T {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if let Some(value) = job.poll() {
                return value;
            }
            assert!(Instant::now() < deadline, "the worker never answered");
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    #[test]
    fn the_result_and_progress_arrive() {
        let job = Job::spawn("sum", None, |progress| {
            progress.set_total(10);
            (0..10).inspect(|_| progress.add(1)).sum::<u32>()
        });
        assert_eq!(wait(&job), 45);
        assert_eq!(job.progress().fraction(), Some(1.0));
    }

    #[test]
    fn dropping_a_job_tells_the_worker_to_stop() {
        let (seen_tx, seen_rx) = mpsc::channel();
        let (go_tx, go_rx) = mpsc::channel::<()>();
        let job = Job::spawn("wait", None, move |progress| {
            go_rx.recv().unwrap();
            seen_tx.send(progress.is_stopped()).unwrap();
        });
        drop(job);
        go_tx.send(()).unwrap();
        assert!(seen_rx.recv_timeout(Duration::from_secs(10)).unwrap(), "the worker saw the stop flag");
    }
}
