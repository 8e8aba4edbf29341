//! Work too long for one frame runs on a worker thread: the page polls for the result, shows the
//! progress, and can cancel. Dropping a job cancels it, so a newer request simply replaces an older one.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Shared between the worker and the page: how far the work got, and whether to stop.
#[derive(Debug, Default)]
pub struct Progress {
    done: AtomicUsize,
    total: AtomicUsize,
    cancelled: AtomicBool,
}

impl Progress {
    pub fn add(&self, amount: usize) {
        self.done.fetch_add(amount, Ordering::Relaxed);
    }

    /// The amount of work expected (an upper bound is fine: the bar then ends early).
    pub fn set_total(&self, total: usize) {
        self.total.store(total, Ordering::Relaxed);
    }

    pub fn done(&self) -> usize {
        self.done.load(Ordering::Relaxed)
    }

    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Relaxed)
    }

    /// Fraction done, if a total is known.
    pub fn fraction(&self) -> Option<f32> {
        let total = self.total.load(Ordering::Relaxed);
        (total > 0).then(|| (self.done() as f32 / total as f32).min(1.0))
    }
}

/// A running piece of work producing a `T`.
pub struct Job<T> {
    result: mpsc::Receiver<T>,
    progress: Arc<Progress>,
    started: Instant,
    /// What the job does, for the progress line ("Recording A*...").
    pub label: String,
}

impl<T: Send + 'static> Job<T> {
    /// Starts `work` on a new thread. It should return early (with anything) once the progress says
    /// cancelled; a cancelled job's result is thrown away. `repaint` wakes the UI when the result is in.
    pub fn spawn(
        label: impl Into<String>,
        repaint: Option<egui::Context>,
        work: impl FnOnce(&Progress) -> T + Send + 'static,
    ) -> Self {
        let (sender, result) = mpsc::channel();
        let progress = Arc::new(Progress::default());
        let shared = Arc::clone(&progress);
        std::thread::Builder::new()
            .name("searchlab-worker".into())
            .spawn(move || {
                let output = work(&shared);
                if !shared.is_cancelled() && sender.send(output).is_ok() {
                    if let Some(ctx) = repaint {
                        ctx.request_repaint();
                    }
                }
            })
            .expect("the OS refused to start a worker thread");
        Self { result, progress, started: Instant::now(), label: label.into() }
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
        self.progress.cancelled.store(true, Ordering::Relaxed);
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
            seen_tx.send(progress.is_cancelled()).unwrap();
        });
        drop(job);
        go_tx.send(()).unwrap();
        assert!(seen_rx.recv_timeout(Duration::from_secs(10)).unwrap(), "the worker saw the cancel flag");
    }
}
